import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** Checks a value against a schema of an OpenAPI document; answers the first errors, or undefined when it fits. */
export type SchemaChecker = (schema: object, value: unknown) => string | undefined;

/**
 * A checker whose schemas may refer to the document's components (`#/components/schemas/…`). Compiled
 * schemas are kept per schema object, so checking many answers against one operation compiles it once.
 */
export function schemaChecker(document: object): SchemaChecker {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ components: (document as { components?: unknown }).components }, 'doc');
  const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();
  return (schema, value) => {
    let check = compiled.get(schema);
    if (!check) {
      // The references point into the document, which Ajv knows as "doc".
      check = ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object,
      );
      compiled.set(schema, check);
    }
    return check(value) ? undefined : JSON.stringify(check.errors?.slice(0, 3));
  };
}
