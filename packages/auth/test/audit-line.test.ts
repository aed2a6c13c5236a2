import { auditLine, createAuthenticator, signDevelopmentToken, validateAuthConfig } from '@colapi/auth';
import { expect } from 'chai';
import { SECRET } from './helpers/tokens.js';

describe('auditLine', () => {
  it('writes exactly time, sub, role, method, collection, id and status, in that order', () => {
    const line = auditLine({
      time: new Date('2025-01-02T03:04:05.678Z'),
      sub: 'ada',
      role: 'editor',
      method: 'PATCH',
      collection: 'books',
      id: 7,
      status: 200,
    });
    expect(line).to.equal(
      '{"time":"2025-01-02T03:04:05.678Z","sub":"ada","role":"editor","method":"PATCH","collection":"books","id":7,"status":200}',
    );
    expect(line).not.to.include('\n');
  });

  it('writes null for what is unknown, and the current time by default', () => {
    const before = Date.now();
    const parsed = JSON.parse(auditLine({ role: 'anon', method: 'GET' }));
    expect(parsed).to.deep.include({
      sub: null,
      role: 'anon',
      method: 'GET',
      collection: null,
      id: null,
      status: null,
    });
    expect(Date.parse(parsed.time)).to.be.within(before, Date.now());
    expect(parsed.time).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('never contains the token, whatever it is handed', async () => {
    const config = validateAuthConfig({ jwt: [{ secret: SECRET, algorithms: ['HS256'] }] }, 't');
    const token = await signDevelopmentToken(config, { role: 'editor', sub: 'ada', expiresIn: '1h' });
    const identity = await createAuthenticator(config).authenticate(`Bearer ${token}`);
    const request = { method: 'GET', headers: { authorization: `Bearer ${token}` }, token };
    const fields = { ...identity, ...request, collection: 'books', id: token, status: 200 };
    const line = auditLine(fields as Parameters<typeof auditLine>[0]);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    for (const piece of [token, header, payload, signature, SECRET]) expect(line).not.to.include(piece);
    expect(Object.keys(JSON.parse(line))).to.deep.equal([
      'time',
      'sub',
      'role',
      'method',
      'collection',
      'id',
      'status',
    ]);
    expect(JSON.parse(line)).to.include({ sub: 'ada', role: 'editor', id: '[token]' });
  });
});
