import { modelsFromObjection } from '@colapi/objection';
import { Registry } from '@colapi/schema';
import { ROUTE_KINDS, type WireFormat } from '@colapi/wire-format';
import type { Knex } from 'knex';
import { MODELS } from './models.js';

/** The collections of SCHEMA.md, for a format; PUT is served where the format routes it (Format B). */
export async function conformanceRegistry(format: Pick<WireFormat, 'methodsFor'>, knex?: Knex): Promise<Registry> {
  const models = await modelsFromObjection(MODELS, {
    types: { task: { duration: 'interval' }, network: { address: 'inet' } },
    ...(knex ? { knex } : {}),
  });
  const m = (name: string) => models.get(name)!;
  // Writable collections register every method the format routes somewhere (PUT only where it has one).
  const routed = new Set(ROUTE_KINDS.flatMap((kind) => format.methodsFor(kind)));
  const writable = (['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const).filter((m) => routed.has(m));
  return new Registry([
    {
      model: m('Person'),
      options: { name: 'person', methods: writable, allow_functions: true, additional_attributes: ['is_minor'] },
    },
    { model: m('Article'), options: { name: 'article', methods: writable, allow_functions: true } },
    { model: m('Comment'), options: { name: 'comment', methods: ['GET'] } },
    { model: m('Tag'), options: { name: 'tag', methods: writable, allow_client_generated_ids: true } },
    { model: m('Network'), options: { name: 'network', methods: ['GET'] } },
    { model: m('Task'), options: { name: 'task', methods: writable, allow_functions: true } },
    { model: m('Person'), options: { name: 'person_names', methods: ['GET'], only: ['name'] } },
    {
      model: m('Person'),
      options: { name: 'person_private', methods: ['GET', 'POST', 'PATCH'], exclude: ['age', 'other', 'comments'] },
    },
  ]);
}
