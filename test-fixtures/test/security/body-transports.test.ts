import { assertJsonApiDocument, describeEachDatabase, tableDigest } from '@colapi/test-fixtures/testing';
import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';

/*
 * A body sent with a Content-Length in one of the format's media types is read by the server directly; a
 * body sent chunked, compressed or in another charset goes through koa-body. Every body gets the same answer
 * whichever way it travels, and a refused one changes no row.
 */
type Transport = 'content-length' | 'chunked' | 'gzip';
const TRANSPORTS: readonly Transport[] = ['content-length', 'chunked', 'gzip'];
const BODY_LIMIT = 2000;

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly contentType: string | undefined;
}

function send(
  origin: string,
  path: string,
  type: string,
  accept: string,
  text: string,
  how: Transport,
): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  const raw = Buffer.from(text, 'utf8');
  const payload = how === 'gzip' ? gzipSync(raw) : raw;
  const headers: Record<string, string> = { accept, 'content-type': type };
  if (how === 'gzip') headers['content-encoding'] = 'gzip';
  if (how === 'chunked') headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          contentType: res.headers['content-type'],
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (how === 'chunked') {
      // Two chunks, split inside the text, so that the reader has to join them.
      const half = payload.length >> 1;
      req.write(payload.subarray(0, half));
      req.end(payload.subarray(half));
    } else req.end(payload);
  });
}

/**
 * Sends the head of a POST with the whole body's Content-Length and half of the body, then closes the
 * connection: the client went away mid-body. Resolves once the socket is closed.
 */
async function cutShort(origin: string, path: string, type: string, text: string): Promise<void> {
  const { hostname, port } = new URL(origin);
  const body = Buffer.from(text, 'utf8');
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: ${type}\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  socket.write(body.subarray(0, body.length >> 1));
  // Time for the server to read the head and start on the body before the client leaves.
  await sleep(50);
  await new Promise<void>((resolve) => socket.once('close', () => resolve()).destroy());
}

interface Case {
  readonly name: string;
  readonly text: string;
  readonly status: number;
  /** Part of the error's text every transport must give. */
  readonly says?: string;
  /** The name a created person answers with. */
  readonly created?: string;
}

const person = (name: string) => `{"data":{"type":"person","attributes":{"name":"${name}"}}}`;
const CASES_A: readonly Case[] = [
  { name: 'a document', text: person('Ann Body'), status: 201, created: 'Ann Body' },
  { name: 'a document after a byte order mark', text: `\ufeff${person('Bob Body')}`, status: 201, created: 'Bob Body' },
  { name: 'a document with non-ASCII text', text: person('Zoë Čapek 東京'), status: 201, created: 'Zoë Čapek 東京' },
  { name: 'JSON that does not end', text: '{"data":', status: 400, says: 'not valid JSON' },
  {
    name: 'a member named __proto__',
    text: '{"data":{"type":"person","attributes":{"__proto__":{"name":"x"}}}}',
    status: 400,
    says: '(at /data/attributes/__proto__)',
  },
  { name: 'a JSON string', text: '"data"', status: 400, says: 'JSON:API document' },
  { name: `a body over ${BODY_LIMIT} bytes`, text: person('x'.repeat(BODY_LIMIT)), status: 413, says: 'too large' },
];
const CASES_B: readonly Case[] = [
  { name: 'an object of fields', text: '{"name":"Ann Body"}', status: 201, created: 'Ann Body' },
  { name: 'an object after a byte order mark', text: '\ufeff{"name":"Bob Body"}', status: 201, created: 'Bob Body' },
  { name: 'an object with non-ASCII text', text: '{"name":"Zoë Čapek 東京"}', status: 201, created: 'Zoë Čapek 東京' },
  { name: 'JSON that does not end', text: '{"name":', status: 400, says: 'not valid JSON' },
  { name: 'a member named __proto__', text: '{"__proto__":{"name":"x"}}', status: 400, says: '(at /__proto__)' },
  { name: `a body over ${BODY_LIMIT} bytes`, text: `{"name":"${'x'.repeat(BODY_LIMIT)}"}`, status: 413 },
];

for (const format of ['jsonapi', 'legacy'] as const) {
  const cases = format === 'jsonapi' ? CASES_A : CASES_B;
  const mediaType = format === 'jsonapi' ? 'application/vnd.api+json' : 'application/json';
  // Format A takes its media type without parameters; Format B's may name the charset.
  const types = format === 'jsonapi' ? [mediaType] : [mediaType, `${mediaType}; charset=utf-8`];
  describeEachDatabase(
    `request bodies by every transport (${format})`,
    (t) => {
      for (const c of cases) {
        it(`${c.name}: ${c.status} whichever way it is sent`, async () => {
          for (const type of types) {
            for (const how of TRANSPORTS) {
              const before = c.status < 300 ? undefined : await tableDigest(t().target.database.knex);
              const res = await send(t().target.origin, '/api/person', type, mediaType, c.text, how);
              const where = `${how}, ${type}: ${res.text}`;
              expect(res.status, where).to.equal(c.status);
              if (format === 'jsonapi')
                assertJsonApiDocument({
                  method: 'POST',
                  path: '/api/person',
                  status: res.status,
                  contentType: res.contentType ?? null,
                  text: res.text,
                });
              if (c.says) expect(res.text, where).to.include(c.says);
              if (c.created) {
                const created = JSON.parse(res.text);
                expect(format === 'jsonapi' ? created.data.attributes.name : created.name, where).to.equal(c.created);
              }
              if (before !== undefined) expect(await tableDigest(t().target.database.knex), where).to.equal(before);
            }
          }
        });
      }

      it('a body the client stops sending halfway changes nothing, and the next request is answered', async () => {
        const knex = t().target.database.knex;
        const before = await tableDigest(knex);
        await cutShort(t().target.origin, '/api/person', mediaType, cases[0]!.text);
        // The server hears of the close after the client does.
        await sleep(200);
        expect(await tableDigest(knex)).to.equal(before);
        const res = await send(
          t().target.origin,
          '/api/person',
          mediaType,
          mediaType,
          cases[0]!.text,
          'content-length',
        );
        expect(res.status, res.text).to.equal(201);
      });
    },
    { format, api: { bodyLimit: BODY_LIMIT } },
  );
}
