import { modelsFromObjection } from '@colapi/objection';
import { Registry, type HttpMethod } from '@colapi/schema';
import { MODELS } from './models.js';

// PUT is Format B's alias of PATCH; Format A's routes leave it out, so one list serves both formats.
const ALL: HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/**
 * The published collections. Each shows a registration option: authors a virtual attribute and functions,
 * reviews only reading and creating, tags client-chosen ids, publishers reading only.
 */
export async function demoRegistry(): Promise<Registry> {
  const models = await modelsFromObjection([...MODELS]);
  const m = (name: string) => models.get(name)!;
  return new Registry([
    { model: m('Book'), options: { name: 'books', methods: ALL, allow_functions: true } },
    {
      model: m('Author'),
      options: { name: 'authors', methods: ALL, allow_functions: true, additional_attributes: ['full_name'] },
    },
    { model: m('Review'), options: { name: 'reviews', methods: ['GET', 'POST'], allow_functions: true } },
    {
      model: m('Tag'),
      options: { name: 'tags', methods: ['GET', 'POST', 'DELETE'], allow_client_generated_ids: true },
    },
    { model: m('Publisher'), options: { name: 'publishers', methods: ['GET'] } },
  ]);
}
