import { describeEachDatabase } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * CORS as a browser applies it: pages of another origin, in headless Chromium, call the API with fetch. The
 * pages are served by Playwright's interception, at origins nothing listens on; the API is the test server.
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // The pages below have no address (Playwright serves them), so Chromium counts them public and would ask
  // the user before they reach the loopback address the API listens on.
  '--disable-features=LocalNetworkAccessChecks',
];
/** The page allowed to call the API, and one that is not. */
const ALLOWED = 'http://localhost:5171';
const OTHER = 'http://localhost:5172';
const MEDIA = 'application/vnd.api+json';

let browser: Browser | undefined;

/** A blank page at `origin`, served by interception. */
async function pageAt(origin: string): Promise<Page> {
  const page = await browser!.newPage();
  await page.route(`${origin}/`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
  );
  await page.goto(`${origin}/`);
  // While it intercepts, Playwright answers the page's CORS preflights itself: the server must answer them.
  await page.unrouteAll();
  return page;
}

/** Runs fetch in the page; answers what the page could read, or the error fetch threw there. */
function fetchIn(page: Page, url: string, init: RequestInit = {}) {
  return page.evaluate(
    async ([url, init]) => {
      try {
        const res = await fetch(url, init);
        return {
          status: res.status,
          body: await res.text(),
          location: res.headers.get('Location'),
          timing: res.headers.get('Server-Timing'),
          resourceTag: res.headers.get('Resource-ETag'),
          error: undefined,
        };
      } catch (error) {
        return { error: String(error) };
      }
    },
    [url, init] as const,
  );
}

describeEachDatabase(
  'http: CORS, from pages of other origins in headless Chromium',
  (t) => {
    before(async function () {
      if (!existsSync(CHROMIUM)) {
        if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing; .ci/run installs it`);
        this.skip();
      }
      browser ??= await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    });
    after(async () => {
      await browser?.close();
      browser = undefined;
    });

    it('an allowed page reads a list and a resource, and reads the exposed headers', async () => {
      const page = await pageAt(ALLOWED);
      const list = await fetchIn(page, `${t().http.origin}/api/person?sort=id`, { headers: { accept: MEDIA } });
      expect(list.error).to.equal(undefined);
      expect(list.status).to.equal(200);
      expect(JSON.parse(list.body!).data.map((p: { id: string }) => p.id)).to.deep.equal(['1', '2', '3', '4', '5']);
      // Exposed: without Access-Control-Expose-Headers the page would read null.
      expect(list.timing).to.match(/query;dur=/);
      const one = await fetchIn(page, `${t().http.origin}/api/person/3`);
      expect(JSON.parse(one.body!).data.attributes.name).to.equal('Carol');
      await page.close();
    });

    it('an allowed page creates a resource after a preflight, and reads its Location', async () => {
      const page = await pageAt(ALLOWED);
      // Its Content-Type and Authorization are not simple: Chromium asks with a preflight first.
      const created = await fetchIn(page, `${t().http.origin}/api/person`, {
        method: 'POST',
        headers: { 'content-type': MEDIA, accept: MEDIA, 'x-client': 'cors-test' },
        body: JSON.stringify({ data: { type: 'person', attributes: { name: 'From a browser', age: 30 } } }),
      });
      expect(created.error).to.equal(undefined);
      expect(created.status, created.body).to.equal(201);
      const id = JSON.parse(created.body!).data.id as string;
      expect(created.location).to.equal(`${t().http.origin}/api/person/${id}`);
      const [row] = await t().target.database.knex('person').where('id', Number(id)).select('name');
      expect(row.name).to.equal('From a browser');
      await page.close();
    });

    it("an allowed page reads a resource's Resource-ETag and sends it back in If-Match (412 once stale)", async () => {
      const page = await pageAt(ALLOWED);
      const read = await fetchIn(page, `${t().http.origin}/api/person/2`, { headers: { accept: MEDIA } });
      expect(read.resourceTag, 'Resource-ETag must be exposed').to.be.a('string');
      const patch = (name: string) =>
        fetchIn(page, `${t().http.origin}/api/person/2`, {
          method: 'PATCH',
          headers: { 'content-type': MEDIA, accept: MEDIA, 'if-match': read.resourceTag! },
          body: JSON.stringify({ data: { type: 'person', id: '2', attributes: { name } } }),
        });
      const first = await patch('Renamed in a browser');
      expect(first.error).to.equal(undefined);
      expect(first.status, first.body).to.equal(200);
      expect(first.resourceTag).to.be.a('string').and.not.equal(read.resourceTag);
      const stale = await patch('Lost update');
      expect(stale.status, stale.body).to.equal(412);
      const [row] = await t().target.database.knex('person').where('id', 2).select('name');
      expect(row.name).to.equal('Renamed in a browser');
      await page.close();
      await t().seed();
    });

    it('a page of another origin cannot read the answer, nor get its write sent', async () => {
      const page = await pageAt(OTHER);
      const read = await fetchIn(page, `${t().http.origin}/api/person`);
      expect(read.error).to.match(/TypeError/);
      const write = await fetchIn(page, `${t().http.origin}/api/person`, {
        method: 'POST',
        headers: { 'content-type': MEDIA },
        body: JSON.stringify({ data: { type: 'person', attributes: { name: 'Refused' } } }),
      });
      expect(write.error).to.match(/TypeError/);
      // The preflight failed, so the POST itself never reached the server.
      expect(await t().target.database.knex('person').where('name', 'Refused').first()).to.equal(undefined);
      await page.close();
    });

    it('answers the preflight before negotiation, with Vary: Origin; other origins are served as before', async () => {
      const preflight = await fetch(`${t().http.origin}/api/person`, {
        method: 'OPTIONS',
        headers: {
          origin: ALLOWED,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, authorization',
          // A media type the API refuses (406 on any other request): the preflight does not negotiate.
          accept: 'image/png',
        },
      });
      expect(preflight.status).to.equal(204);
      expect(preflight.headers.get('access-control-allow-origin')).to.equal(ALLOWED);
      expect(preflight.headers.get('access-control-allow-methods')).to.include('POST');
      expect(preflight.headers.get('access-control-allow-headers')).to.equal('content-type, authorization');
      expect(preflight.headers.get('access-control-max-age')).to.equal('600');
      expect(preflight.headers.get('vary')).to.match(/Origin/);
      const refused = await fetch(`${t().http.origin}/api/person`, {
        method: 'OPTIONS',
        headers: { origin: OTHER, 'access-control-request-method': 'POST' },
      });
      // Served as any OPTIONS is: the methods of the path, and no CORS header.
      expect(refused.status).to.equal(204);
      expect(refused.headers.get('allow')).to.include('POST');
      expect([...refused.headers.keys()].filter((h) => h.startsWith('access-control-'))).to.deep.equal([]);
      const plain = await fetch(`${t().http.origin}/api/person/1`, { headers: { origin: OTHER } });
      expect(plain.status).to.equal(200);
      expect([...plain.headers.keys()].filter((h) => h.startsWith('access-control-'))).to.deep.equal([]);
      const allowed = await fetch(`${t().http.origin}/api/person/1`, { headers: { origin: ALLOWED } });
      expect(allowed.headers.get('access-control-allow-origin')).to.equal(ALLOWED);
      expect(allowed.headers.get('access-control-expose-headers')).to.equal(
        'Location, ETag, Resource-ETag, Link, X-Request-Id, Server-Timing',
      );
      expect(allowed.headers.get('vary')).to.match(/Origin/);
      // Outside the prefix, nothing of CORS.
      const outside = await fetch(`${t().http.origin}/elsewhere`, { headers: { origin: ALLOWED } });
      expect(outside.headers.get('access-control-allow-origin')).to.equal(null);
    });
  },
  { api: { cors: { origins: [ALLOWED] }, serverTiming: true } },
);
