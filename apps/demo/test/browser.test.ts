import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signDevelopmentToken, validateAuthConfig } from '@colapi/auth';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startOn, type RunningDemo } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const OUTPUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-output');
// Without the background-networking flags Chromium keeps dialling out, which this network refuses.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Waits until `check` holds, polling from Node. Not `page.waitForFunction`: once its predicate has to poll, it
 * runs through `eval` in the page, which the browsable API's Content-Security-Policy (no 'unsafe-eval') refuses.
 */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The browsable API at /, driven in headless Chromium like a person would use it. */
describe('demo browsable API (headless Chromium)', function () {
  this.timeout(90_000);
  let running: RunningDemo;
  let browser: Browser;
  let page: Page;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      // CI installs Chromium in .ci/run, so there a missing browser is a broken machine, not a choice.
      if (process.env.CI === 'true')
        throw new Error(`${CHROMIUM} is missing; .ci/run installs it with apt-get install -y chromium`);
      console.warn(`  ! ${CHROMIUM} is missing: skipping the browser test (apt-get install -y chromium to run it)`);
      this.skip();
    }
    running = await startOn('sqlite');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  after(async () => {
    await browser?.close();
    await running?.stop();
  });

  it('lists the collections and shows the first one', async () => {
    await page.goto(`${running.demo.origin}/`);
    await page.locator('#collections button').first().waitFor();
    const names = await page.locator('#collections button strong').allTextContents();
    expect(names).to.deep.equal(['books', 'authors', 'reviews', 'tags', 'publishers']);
    await page.locator('#status', { hasText: '200' }).waitFor();
    expect(await page.locator('#format').textContent()).to.contain('JSON:API');
  });

  it('builds a filter, sort and page, shows the request URL and the pretty-printed response', async () => {
    await page.locator('#collections button', { hasText: 'books' }).click();
    await page.locator('#add-filter').click();
    const row = page.locator('.filter-row').first();
    await row.locator('.filter-field').selectOption('pages');
    await row.locator('.filter-op').selectOption('>=');
    await row.locator('.filter-value').fill('400');
    await page.locator('#sort-field').selectOption('price');
    await page.locator('#sort-direction').selectOption('desc');
    await page.locator('#page-size').fill('3');
    await page.locator('#includes input[value="author"]').check();
    await page.locator('#send').click();
    await page.locator('#body .key', { hasText: '"included"' }).first().waitFor();

    const url = new URL(await page.locator('#request-url').inputValue());
    expect(url.pathname).to.equal('/api/books');
    expect(JSON.parse(url.searchParams.get('filter[objects]')!)).to.deep.equal([{ name: 'pages', op: '>=', val: 400 }]);
    expect(url.searchParams.get('sort')).to.equal('-price');
    expect(url.searchParams.get('page[size]')).to.equal('3');
    expect(url.searchParams.get('include')).to.equal('author');
    expect(await page.locator('#curl').textContent()).to.match(/^curl -g 'http:\/\/127\.0\.0\.1:\d+\/api\/books\?/);

    const body = JSON.parse((await page.locator('#body').textContent())!);
    expect(body.data).to.have.length(3);
    const prices = body.data.map((b: { attributes: { price: number } }) => b.attributes.price);
    expect(prices).to.deep.equal([...prices].sort((a: number, b: number) => b - a));
    for (const b of body.data) expect(b.attributes.pages).to.be.at.least(400);
    expect(await page.locator('#status').textContent()).to.match(/^200 OK/);
    expect(await page.locator('#headers').textContent()).to.contain('server-timing');

    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'browsable-api.png'), fullPage: false });
  });

  it('follows a link in the response, and back goes back', async () => {
    const before = await page.locator('#request-url').inputValue();
    const link = page.locator('#body a.link', { hasText: /\/api\/books\/\d+\/author$/ }).first();
    const target = (await link.textContent())!;
    await link.click();
    await until(
      `the URL bar shows ${target}`,
      async () => (await page.locator('#request-url').inputValue()) === target,
    );
    await page.locator('#body .string', { hasText: '"authors"' }).first().waitFor();
    const author = JSON.parse((await page.locator('#body').textContent())!);
    expect(author.data.type).to.equal('authors');
    expect(author.data.attributes.full_name).to.be.a('string');
    expect(new URL(page.url()).searchParams.get('url')).to.equal(target);

    await page.goBack();
    await until(
      `the URL bar shows ${before}`,
      async () => (await page.locator('#request-url').inputValue()) === before,
    );
    await page.locator('#body .key', { hasText: '"included"' }).first().waitFor();
  });

  it('speaks Format B when the server does: q, page and results_per_page', async () => {
    const legacy = await startOn('sqlite', { format: 'legacy' });
    try {
      await page.goto(`${legacy.demo.origin}/`);
      await page.locator('#status', { hasText: '200' }).waitFor();
      expect(await page.locator('#format').textContent()).to.contain('legacy');
      await page.locator('#collections button', { hasText: 'authors' }).click();
      await page.locator('#add-filter').click();
      const row = page.locator('.filter-row').first();
      await row.locator('.filter-field').selectOption('country');
      await row.locator('.filter-op').selectOption('in');
      await row.locator('.filter-value').fill('Japan,Norway');
      await page.locator('#sort-field').selectOption('last_name');
      await page.locator('#send').click();
      await until('the URL bar has q', async () => (await page.locator('#request-url').inputValue()).includes('q='));
      await page.locator('#body .key', { hasText: '"num_results"' }).waitFor();
      const url = new URL(await page.locator('#request-url').inputValue());
      expect(JSON.parse(url.searchParams.get('q')!)).to.deep.equal({
        filters: [{ name: 'country', op: 'in', val: ['Japan', 'Norway'] }],
        order_by: [{ field: 'last_name', direction: 'asc' }],
      });
      expect(url.searchParams.get('results_per_page')).to.equal('10');
      const body = JSON.parse((await page.locator('#body').textContent())!);
      expect(body.objects.length).to.be.greaterThan(0);
      for (const a of body.objects) expect(['Japan', 'Norway']).to.include(a.country);
      await page.screenshot({ path: join(OUTPUT, 'browsable-api-legacy.png') });
      // Format B pages through its Link header: its links navigate too.
      await page.locator('#collections button', { hasText: 'books' }).click();
      await page.locator('#headers a.link', { hasText: 'next' }).click();
      await page.locator('#body', { hasText: '"page": 2' }).waitFor();
      expect(await page.locator('#request-url').inputValue()).to.contain('page=2&results_per_page=10');
    } finally {
      await legacy.stop();
    }
  });

  it('follows a deep link: its request on the right, its collection chosen on the left', async () => {
    await page.goto(`${running.demo.origin}/?url=${encodeURIComponent(`${running.demo.origin}/api/authors/3`)}`);
    await page.locator('#status', { hasText: '200' }).waitFor();
    expect(await page.locator('#request-url').inputValue()).to.equal(`${running.demo.origin}/api/authors/3`);
    expect(await page.locator('#collections button.active strong').textContent()).to.equal('authors');
    expect(await page.locator('#collection-title').textContent()).to.equal('authors');
  });

  it('chooses the collection of any deep link: a list, a related path, an evaluation, a relative URL', async () => {
    const origin = running.demo.origin;
    for (const [linked, collection, status] of [
      ['/api/reviews?page[size]=2', 'reviews', 200],
      [`${origin}/api/authors/2/books`, 'authors', 200],
      [`${origin}/api/eval/reviews?functions=${encodeURIComponent('[{"name":"count","field":"id"}]')}`, 'reviews', 200],
      [`${origin}/api/publishers/999999`, 'publishers', 404],
      // No such collection: its answer beside the first one.
      [`${origin}/api/nothing`, 'books', 404],
    ] as const) {
      await page.goto(`${origin}/?url=${encodeURIComponent(linked)}`);
      await page.locator('#status', { hasText: String(status) }).waitFor();
      expect(await page.locator('#request-url').inputValue(), linked).to.equal(new URL(linked, origin).href);
      expect(await page.locator('#collections button.active strong').allTextContents(), linked).to.deep.equal([
        collection,
      ]);
      expect(await page.locator('#collection-title').textContent(), linked).to.equal(collection);
    }
  });

  it('keeps the left pane on the collection of the request shown: links, back and forward, the URL bar', async () => {
    const origin = running.demo.origin;
    const active = async () => (await page.locator('#collections button.active strong').allTextContents()).join();
    await page.goto(`${origin}/?url=${encodeURIComponent(`${origin}/api/books/1?include=author`)}`);
    await page.locator('#body .key', { hasText: '"included"' }).first().waitFor();
    expect(await active()).to.equal('books');
    // The included author's own link leads into another collection.
    await page
      .locator('#body a.link', { hasText: /\/api\/authors\/\d+$/ })
      .first()
      .click();
    await page.locator('#body .string', { hasText: '"authors"' }).first().waitFor();
    await until('authors is chosen', async () => (await active()) === 'authors');
    expect(await page.locator('#collection-title').textContent()).to.equal('authors');
    await page.goBack();
    await until('books is chosen again', async () => (await active()) === 'books');
    await page.locator('#body .key', { hasText: '"included"' }).first().waitFor();
    await page.goForward();
    await until('authors is chosen again', async () => (await active()) === 'authors');
    await page.locator('#request-url').fill(`${origin}/api/tags`);
    await page.locator('#url-form button').click();
    await until('tags is chosen', async () => (await active()) === 'tags');
    await page.locator('#status', { hasText: '200' }).waitFor();
    // The builder is the chosen collection's: its request goes to tags.
    await page.locator('#send').click();
    await until(
      'the builder asks for tags',
      async () => new URL(await page.locator('#request-url').inputValue()).pathname === '/api/tags',
    );
  });

  it('follows a deep link in Format B too', async () => {
    const legacy = await startOn('sqlite', { format: 'legacy' });
    try {
      const origin = legacy.demo.origin;
      await page.goto(`${origin}/?url=${encodeURIComponent('/api/authors/2/books')}`);
      await page.locator('#body .key', { hasText: '"num_results"' }).waitFor();
      expect(await page.locator('#format').textContent()).to.contain('legacy');
      expect(await page.locator('#request-url').inputValue()).to.equal(`${origin}/api/authors/2/books`);
      expect(await page.locator('#collections button.active strong').allTextContents()).to.deep.equal(['authors']);
      expect(await page.locator('#collection-title').textContent()).to.equal('authors');
    } finally {
      await legacy.stop();
    }
  });

  it('under access rules: shows what the anonymous role sees, then what a token’s role sees', async () => {
    const secret = 'a-demo-secret-of-at-least-thirty-two-characters';
    const auth = { jwt: [{ secret, algorithms: ['HS256'] }], anonymous: 'anon' };
    const guarded = await startOn('sqlite', {
      access: {
        auth,
        roles: {
          reader: { books: { read: { exclude: ['price'] } }, authors: { read: true } },
          anon: { tags: { read: true } },
        },
      },
    });
    try {
      await page.goto(`${guarded.demo.origin}/`);
      await page.locator('#status', { hasText: '200' }).waitFor();
      expect(await page.locator('#collections button strong').allTextContents()).to.deep.equal(['tags']);
      const token = await signDevelopmentToken(validateAuthConfig(auth, 'test'), { role: 'reader', expiresIn: '10m' });
      await page.locator('#token').fill(token);
      await page.locator('#token-form button').click();
      await until(
        'the reader’s collections are listed',
        async () => (await page.locator('#collections button strong').allTextContents()).join() === 'books,authors',
      );
      await page.locator('#collections button', { hasText: 'books' }).click();
      await page.locator('#status', { hasText: '200' }).waitFor();
      const body = JSON.parse((await page.locator('#body').textContent())!);
      expect(body.data.length).to.be.greaterThan(0);
      expect(body.data[0].attributes).not.to.have.property('price');
      const curl = (await page.locator('#curl').textContent())!;
      expect(curl).to.contain('-H "Authorization: Bearer $TOKEN"');
      expect(curl).not.to.contain(token);
      // Kept in the page's memory only.
      expect(
        await page.evaluate<string>('JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + document.cookie'),
      ).not.to.contain(token.slice(0, 20));
    } finally {
      await guarded.stop();
    }
  });

  it('shows an error response with its status', async () => {
    await page.goto(`${running.demo.origin}/`);
    await page.locator('#status', { hasText: '200' }).waitFor();
    await page.locator('#request-url').fill(`${running.demo.origin}/api/books/999999`);
    await page.locator('#url-form button').click();
    await page.locator('#status', { hasText: '404' }).waitFor();
    expect(await page.locator('#status').getAttribute('class')).to.contain('error');
    expect(await page.locator('#body').textContent()).to.contain('"errors"');
  });
});
