// The browsable API: reads the server's OpenAPI document (its x-colapi summary) to learn the collections,
// builds requests in the server's wire format, and shows the responses with their links made clickable.
// Plain script, no build step; every response is rendered with text nodes, never as HTML.

const OPERATORS = [
  ['==', 'equals'],
  ['!=', 'differs from'],
  ['<', 'less than'],
  ['<=', 'at most'],
  ['>', 'greater than'],
  ['>=', 'at least'],
  ['like', 'like (% any)'],
  ['ilike', 'like, any case'],
  ['in', 'in (a,b,…)'],
  ['not_in', 'not in (a,b,…)'],
  ['is_null', 'is empty'],
  ['is_not_null', 'is not empty'],
];
const NO_VALUE = new Set(['is_null', 'is_not_null']);
const LISTS = new Set(['in', 'not_in']);

const $ = (id) => document.getElementById(id);
// The token lives in this page's memory only: never in storage, a cookie or the URL.
const state = { api: null, collection: null, token: '' };

/** The headers of every request the page makes: the format's media type, and the token when one is set. */
function requestHeaders(accept) {
  return state.token ? { Accept: accept, Authorization: `Bearer ${state.token}` } : { Accept: accept };
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
}

/** Turns the text of a value input into the JSON the server expects for the field's type. */
function typed(field, text) {
  const t = text.trim();
  if (!field) return t;
  if (field.type === 'integer' || field.type === 'number' || field.type === 'interval')
    return t === '' || Number.isNaN(Number(t)) ? t : Number(t);
  if (field.type === 'boolean') return t === 'true' ? true : t === 'false' ? false : t;
  return text;
}

function filterRow() {
  const fields = state.collection.fields;
  const name = el(
    'select',
    { className: 'filter-field', ariaLabel: 'Filter field' },
    ...fields.map((f) => el('option', { value: f.name, textContent: f.name })),
  );
  if (fields.length > 1) name.value = fields[1].name;
  const op = el(
    'select',
    { className: 'filter-op', ariaLabel: 'Operator' },
    ...OPERATORS.map(([v, label]) => el('option', { value: v, textContent: `${v}  ${label}` })),
  );
  const value = el('input', { className: 'filter-value', ariaLabel: 'Value', placeholder: 'value' });
  op.addEventListener('change', () => {
    value.disabled = NO_VALUE.has(op.value);
  });
  const row = el(
    'div',
    { className: 'filter-row' },
    name,
    op,
    value,
    el('button', {
      type: 'button',
      className: 'icon',
      title: 'Remove this filter',
      textContent: '×',
      onclick: () => row.remove(),
    }),
  );
  return row;
}

function filters() {
  const byName = new Map(state.collection.fields.map((f) => [f.name, f]));
  return [...document.querySelectorAll('.filter-row')].map((row) => {
    const name = row.querySelector('.filter-field').value;
    const op = row.querySelector('.filter-op').value;
    if (NO_VALUE.has(op)) return { name, op };
    const text = row.querySelector('.filter-value').value;
    const field = byName.get(name);
    const val = LISTS.has(op)
      ? text
          .split(',')
          .filter((s) => s.trim() !== '')
          .map((s) => typed(field, s))
      : typed(field, text);
    return { name, op, val };
  });
}

/** The URL of the form's request, in the server's wire format. */
function buildUrl() {
  const { api, collection } = state;
  const params = new URLSearchParams();
  const list = filters();
  const sortField = $('sort-field').value;
  const descending = $('sort-direction').value === 'desc';
  const number = $('page-number').value || '1';
  const size = $('page-size').value || String(api.limits.defaultPageSize);
  if (api.format === 'legacy') {
    const q = {};
    if (list.length) q.filters = list;
    if (sortField) q.order_by = [{ field: sortField, direction: descending ? 'desc' : 'asc' }];
    if (Object.keys(q).length) params.set('q', JSON.stringify(q));
    params.set('page', number);
    params.set('results_per_page', size);
  } else {
    if (list.length) params.set('filter[objects]', JSON.stringify(list));
    if (sortField) params.set('sort', `${descending ? '-' : ''}${sortField}`);
    const includes = [...document.querySelectorAll('#includes input:checked')].map((i) => i.value);
    if (includes.length) params.set('include', includes.join(','));
    params.set('page[number]', number);
    params.set('page[size]', size);
  }
  // Brackets read better unencoded, and servers accept them in the query.
  const query = params.toString().replace(/%5B/g, '[').replace(/%5D/g, ']');
  return `${location.origin}${api.prefix}/${encodeURIComponent(collection.name)}?${query}`;
}

function chooseCollection(collection) {
  state.collection = collection;
  for (const item of document.querySelectorAll('#collections button'))
    item.classList.toggle('active', item.dataset.name === collection.name);
  $('collection-title').textContent = collection.name;
  $('filters').replaceChildren();
  const sortable = collection.fields.map((f) => el('option', { value: f.name, textContent: f.name }));
  $('sort-field').replaceChildren(el('option', { value: '', textContent: '(none)' }), ...sortable);
  const rels = state.api.format === 'legacy' ? [] : collection.relationships;
  $('include-set').hidden = rels.length === 0;
  $('includes').replaceChildren(
    ...rels.map((r) =>
      el(
        'label',
        { className: 'check' },
        el('input', { type: 'checkbox', value: r.name }),
        ` ${r.name} `,
        el('span', { className: 'muted', textContent: `→ ${r.target}` }),
      ),
    ),
  );
  $('page-number').value = '1';
  $('page-size').value = String(state.api.limits.defaultPageSize);
}

function curlCommand(url) {
  const accept = state.api ? state.api.mediaType : 'application/json';
  // The token itself is not written out: the command says where it goes.
  const token = state.token ? ` -H "Authorization: Bearer $TOKEN"` : '';
  return `curl -g '${url.replace(/'/g, "'\\''")}' -H 'Accept: ${accept}'${token}`;
}

/** Appends pretty-printed JSON to `target`, with same-origin URLs as links that navigate in this page. */
function renderJson(target, value) {
  const text = JSON.stringify(value, null, 2);
  const token =
    /("(?:\\u[a-fA-F0-9]{4}|\\[^u]|[^\\"])*")(\s*:)?|\b(true|false|null)\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  let last = 0;
  for (const m of text.matchAll(token)) {
    target.append(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] && m[2]) {
      target.append(el('span', { className: 'key', textContent: m[1] }), m[2]);
    } else if (m[1]) {
      const s = JSON.parse(m[1]);
      if (/^https?:\/\//.test(s) && s.startsWith(location.origin)) {
        target.append(
          '"',
          el('a', {
            href: `?url=${encodeURIComponent(s)}`,
            className: 'link',
            textContent: s,
            onclick: (e) => {
              e.preventDefault();
              navigate(s);
            },
          }),
          '"',
        );
      } else target.append(el('span', { className: 'string', textContent: m[1] }));
    } else target.append(el('span', { className: m[3] ? 'literal' : 'number', textContent: m[0] }));
  }
  target.append(text.slice(last));
}

/** A response header for the list; the pages of a Link header (Format B's paging) become links. */
function headerValue(name, value) {
  if (name !== 'link') return el('dd', { textContent: value });
  const pages = [...value.matchAll(/<([^>]*)>\s*;\s*rel="([^"]*)"/g)];
  return el(
    'dd',
    {},
    ...pages.flatMap(([, url, rel]) => [
      el('a', {
        href: `?url=${encodeURIComponent(url)}`,
        className: 'link',
        textContent: rel,
        onclick: (e) => {
          e.preventDefault();
          navigate(url);
        },
      }),
      ' ',
    ]),
  );
}

/** Fetches a URL of this server and shows the request and its response; `push` records it in history. */
async function navigate(url, push = true) {
  // The left pane follows the request shown (a link, back and forward, the URL bar), as a deep link does.
  const addressed = state.api && collectionOf(url);
  if (addressed && addressed !== state.collection) chooseCollection(addressed);
  $('request-url').value = url;
  $('curl').textContent = curlCommand(url);
  // The URL must stay percent-encoded to work; the decoded parameters are there to be read.
  const query = [...new URL(url).searchParams];
  $('params').replaceChildren(
    ...query.flatMap(([k, v]) => [el('dt', { textContent: k }), el('dd', { textContent: v })]),
  );
  if (push) history.pushState({ url }, '', `?url=${encodeURIComponent(url)}`);
  const body = $('body');
  body.textContent = 'Loading…';
  const started = performance.now();
  try {
    const response = await fetch(url, {
      headers: requestHeaders(state.api ? state.api.mediaType : 'application/json'),
    });
    const text = await response.text();
    const ms = Math.round(performance.now() - started);
    $('status').textContent = `${response.status} ${response.statusText} · ${ms} ms`;
    $('status').className = `status ${response.ok ? 'ok' : 'error'}`;
    const shown = ['content-type', 'server-timing', 'x-request-id', 'location', 'link'].filter((h) =>
      response.headers.has(h),
    );
    $('headers').replaceChildren(
      ...shown.flatMap((h) => [el('dt', { textContent: h }), headerValue(h, response.headers.get(h))]),
    );
    body.replaceChildren();
    try {
      renderJson(body, JSON.parse(text));
    } catch {
      body.textContent = text;
    }
  } catch (error) {
    $('status').textContent = 'network error';
    $('status').className = 'status error';
    body.textContent = String(error);
  }
}

/** The collection a URL of this API addresses (its first path segment after the prefix), if it is one. */
function collectionOf(url) {
  const { origin, pathname: path } = new URL(url, location.origin);
  if (origin !== location.origin || !path.startsWith(`${state.api.prefix}/`)) return undefined;
  const [first, second] = path.slice(state.api.prefix.length + 1).split('/');
  let name;
  try {
    // buildUrl() percent-encodes the name.
    name = decodeURIComponent((first === 'eval' ? second : first) ?? '');
  } catch {
    return undefined;
  }
  return state.api.collections.find((c) => c.name === name);
}

/** Reads what the caller (the token, if any) may see; without it the page lists nothing but says why. */
async function loadApi() {
  const response = await fetch('/api/openapi.json', { headers: requestHeaders('application/json') });
  if (!response.ok) {
    const why = response.status === 401 ? 'the server wants a valid token' : `the server answered ${response.status}`;
    throw new Error(`${why} (${response.headers.get('www-authenticate') ?? 'no WWW-Authenticate'})`);
  }
  const doc = await response.json();
  state.api = doc['x-colapi'];
  $('format').textContent = state.api.format === 'legacy' ? 'Format B · legacy JSON' : 'Format A · JSON:API 1.0';
  $('collections').replaceChildren(
    ...state.api.collections.map((c) =>
      el(
        'li',
        {},
        el(
          'button',
          {
            type: 'button',
            dataset: { name: c.name },
            onclick: () => {
              chooseCollection(c);
              navigate(buildUrl());
            },
          },
          el('strong', { textContent: c.name }),
          el('span', { className: 'methods', textContent: `${c.methods.join(' ')}${c.functions ? ' · ƒ' : ''}` }),
        ),
      ),
    ),
  );
}

/**
 * The first view: the deep link's request (`?url=`, a URL of this origin, absolute or not) with its collection
 * chosen on the left, else the first collection's list. A deep link to no listed collection (or to none the
 * token's role may see) shows its answer beside the first collection.
 */
function showStart() {
  const linked = new URLSearchParams(location.search).get('url');
  const deep = linked && new URL(linked, location.origin).origin === location.origin;
  const first = state.api.collections[0];
  if (deep) {
    // navigate() chooses the deep link's own collection; the first stands in where it names none.
    const href = new URL(linked, location.origin).href;
    if (!collectionOf(href) && first) chooseCollection(first);
    navigate(href, false);
  } else if (first) {
    chooseCollection(first);
    navigate(buildUrl(), false);
  }
}

async function start() {
  $('token-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const started = state.api !== null;
    state.token = $('token').value.trim();
    // What the page shows is what this token's role sees: read it again, then the current request.
    loadApi().then(
      () => (started && $('request-url').value ? navigate($('request-url').value, false) : showStart()),
      (error) => showFailure(error),
    );
  });
  $('add-filter').addEventListener('click', () => state.collection && $('filters').append(filterRow()));
  $('query-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if (state.collection) navigate(buildUrl());
  });
  $('url-form').addEventListener('submit', (e) => {
    e.preventDefault();
    navigate(new URL($('request-url').value, location.origin).href);
  });
  // The page's own URL says what to show: `?url=` (pushed by navigate, or the deep link the page was opened
  // at, whose history entry has no state), else the first collection.
  window.addEventListener('popstate', () => {
    if (state.api) showStart();
  });
  await loadApi();
  showStart();
}

function showFailure(error) {
  state.api = null;
  $('collections').replaceChildren();
  $('body').textContent = `Could not read /api/openapi.json: ${error.message ?? error}`;
}

start().catch(showFailure);
