export { expectValidOpenApi } from './expect-valid-openapi.js';
export { schemaChecker, type SchemaChecker } from './schema-checker.js';
export { bookshop } from './bookshop.js';
export { describeBookshopDocument, type BookshopDocumentOptions } from './bookshop-document.js';
export {
  componentSchema,
  dereferenced,
  methodsOf,
  operationAt,
  type DocumentPaths,
  type OperationObject,
} from './document-parts.js';
