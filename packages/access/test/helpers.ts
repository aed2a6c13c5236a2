import { AccessRulesError, compileRules, type Identity } from '@colapi/access';
import { expect } from 'chai';
import { registry } from './registry.js';

export const who = (claims: Record<string, unknown>, role = 'member'): Identity => ({
  role,
  claims,
  anonymous: false,
  ...(typeof claims.sub === 'string' && { sub: claims.sub }),
});

export const compile = (rules: unknown) => compileRules(rules, registry, 'colapi.config.json');

/** One role's rules on one collection. */
export const on = (collection: string, rules: unknown, role = 'member') =>
  compile({ roles: { [role]: { [collection]: rules } } });

/** Expects the rules to be refused at `path`, with a detail matching `detail`. */
export function refused(rules: unknown, path: string, detail: RegExp): void {
  let error: unknown;
  try {
    compile(rules);
  } catch (e) {
    error = e;
  }
  expect(error, `expected an error at ${path}`).to.be.instanceOf(AccessRulesError);
  const e = error as AccessRulesError;
  expect(e.path).to.equal(path);
  expect(e.detail).to.match(detail);
  expect(e.message).to.equal(`colapi.config.json: ${path === '' ? '' : `${path}: `}${e.detail}`);
}

/** The example of issue 28, as colapi.config.json holds it. */
export const EXAMPLE = {
  roles: {
    member: {
      projects: {
        read: { where: [{ name: 'tenant_id', op: '==', val: { claim: 'tenant' } }], exclude: ['secret_note'] },
        create: { set: { tenant_id: { claim: 'tenant' }, owner_id: { claim: 'sub' } } },
        update: { where: [{ name: 'owner_id', op: '==', val: { claim: 'sub' } }], exclude: ['tenant_id'] },
        delete: { where: [{ name: 'owner_id', op: '==', val: { claim: 'sub' } }] },
        evaluate: true,
      },
      tags: { read: true },
    },
    anon: { posts: { read: { where: [{ name: 'published', op: '==', val: true }] } } },
  },
};
