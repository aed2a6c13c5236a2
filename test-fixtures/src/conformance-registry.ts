import { modelsFromObjection } from '@colapi/objection';
import { Registry, type HttpMethod } from '@colapi/schema';
import type { Knex } from 'knex';
import { MODELS } from './models.js';

/** The collections of SCHEMA.md; PUT is served by the legacy format only. */
export async function conformanceRegistry(format: string, knex?: Knex): Promise<Registry> {
  const models = await modelsFromObjection(MODELS, { types: { task: { duration: 'interval' }, network: { address: 'inet' } }, ...(knex ? { knex } : {}) });
  const m = (name: string) => models.get(name)!;
  const writable: HttpMethod[] = format === 'legacy' ? ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] : ['GET', 'POST', 'PATCH', 'DELETE'];
  return new Registry([
    { model: m('Person'), options: { name: 'person', methods: writable, allow_functions: true, additional_attributes: ['is_minor'] } },
    { model: m('Article'), options: { name: 'article', methods: writable, allow_functions: true } },
    { model: m('Comment'), options: { name: 'comment', methods: ['GET'] } },
    { model: m('Tag'), options: { name: 'tag', methods: writable, allow_client_generated_ids: true } },
    { model: m('Network'), options: { name: 'network', methods: ['GET'] } },
    { model: m('Task'), options: { name: 'task', methods: writable, allow_functions: true } },
    { model: m('Person'), options: { name: 'person_names', methods: ['GET'], only: ['name'] } },
    { model: m('Person'), options: { name: 'person_private', methods: ['GET', 'POST', 'PATCH'], exclude: ['age', 'other', 'comments'] } },
  ]);
}
