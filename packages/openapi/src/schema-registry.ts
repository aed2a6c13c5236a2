import type { JsonSchema } from '@colapi/wire-format';
import { ref } from './json-schema.js';

/** Builds component schemas lazily, so only what some operation uses ends up in the document. */
export class SchemaRegistry {
  readonly schemas: Record<string, JsonSchema> = {};

  schema = (name: string, build: () => JsonSchema): JsonSchema => {
    if (!(name in this.schemas)) {
      // A placeholder first: recursive schemas (nested filters) refer to themselves while being built.
      this.schemas[name] = {};
      this.schemas[name] = build();
    }
    return ref(name);
  };

  /** The schemas sorted by name, for a stable document. */
  sorted(): Record<string, JsonSchema> {
    return Object.fromEntries(Object.entries(this.schemas).sort(([a], [b]) => a.localeCompare(b)));
  }
}
