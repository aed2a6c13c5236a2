import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';

/**
 * Checks a document three ways: against the OpenAPI 3.1 schema, that every $ref resolves, and that every
 * component schema compiles as JSON Schema 2020-12 (the OpenAPI schema does not look inside schemas).
 */
export async function expectValidOpenApi(document: Record<string, unknown>): Promise<void> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(document));
  expect(result.errors, JSON.stringify(result.errors, null, 2)).to.equal(undefined);
  expect(result.valid).to.equal(true);
  expect(validator.version).to.equal('3.1');
  expect(() => validator.resolveRefs()).not.to.throw();
  const ajv = new Ajv2020.default({ strict: true, strictTypes: false, allowUnionTypes: true });
  addFormats.default(ajv);
  // The wrapper below is the document's own shape, so that its `#/components/schemas/…` references resolve.
  ajv.addKeyword('components');
  ajv.addSchema({ components: (document as { components: unknown }).components }, 'doc');
  const schemas = (document as { components: { schemas: Record<string, unknown> } }).components.schemas;
  for (const name of Object.keys(schemas)) {
    expect(() => ajv.getSchema(`doc#/components/schemas/${name}`), name).not.to.throw();
  }
}
