import type { HookTable } from '@colapi/server-koa';

/** The detail or message of a unique violation on a field the collection hides. */
export const GENERIC_UNIQUE = 'a resource with the same unique value exists already';

/**
 * The server fills a unique column the collection hides (as it would an API token): with `tag` registered
 * with `exclude: ['name']`, these hooks set the name on its create and update, and a create of `person`
 * inserts a tag of its own, so that a unique violation happens in another table whose only collection hides
 * the column.
 */
export const hiddenNameHooks: HookTable = {
  tag: {
    create: { before: (op) => ({ ...op, write: { ...op.write, values: { ...op.write.values, name: 'news' } } }) },
    update: { before: (op) => ({ ...op, write: { ...op.write, values: { ...op.write.values, name: 'tech' } } }) },
  },
  person: {
    create: { before: async (_op, ctx) => void (await ctx.db!('tag').insert({ name: 'life' })) },
  },
};
