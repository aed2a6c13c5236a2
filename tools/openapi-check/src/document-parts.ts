/** The parts of an OpenAPI document the tests read: its paths and component schemas. */
export type DocumentPaths = { paths: Record<string, object>; components?: unknown };

/** An operation as the tests read it. */
export type OperationObject = {
  operationId: string;
  parameters: { name: string; schema?: unknown; content?: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
};

/** The methods the document describes on `path`, in its order; none when it has no such path. */
export const methodsOf = (doc: DocumentPaths, path: string): string[] => Object.keys(doc.paths[path] ?? {});

/** The operation of `method` (lower case) on `path`. */
export const operationAt = (doc: DocumentPaths, path: string, method: string): OperationObject =>
  (doc.paths[path] as Record<string, OperationObject>)[method]!;

/** The component schema `name`. */
export const componentSchema = (doc: DocumentPaths, name: string): Record<string, any> =>
  (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas[name]!;
