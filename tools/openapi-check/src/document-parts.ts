/** The parts of an OpenAPI document the tests read: its paths and component schemas. */
export type DocumentPaths = { paths: Record<string, object>; components?: unknown };

/** An operation as the tests read it. */
export type OperationObject = {
  operationId: string;
  parameters: {
    name: string;
    in?: string;
    required?: boolean;
    description?: string;
    schema?: unknown;
    content?: unknown;
    $ref?: string;
  }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<
    string,
    { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: { $ref?: string } }> }
  >;
};

/** The methods the document describes on `path`, in its order; none when it has no such path. */
export const methodsOf = (doc: DocumentPaths, path: string): string[] => Object.keys(doc.paths[path] ?? {});

/** What a `#/components/…` reference names in the document, or the object itself when it is none. */
export function dereferenced<T>(doc: DocumentPaths, object: T): T {
  const ref = (object as { $ref?: string }).$ref;
  if (ref === undefined) return object;
  return ref
    .split('/')
    .slice(1)
    .reduce((o: any, k) => o?.[k], doc) as T;
}

/**
 * The operation of `method` (lower case) on `path`, its parameters and responses that are references
 * replaced by the components they name (the document itself keeps the references: read doc.paths for them).
 */
export function operationAt(doc: DocumentPaths, path: string, method: string): OperationObject {
  const op = (doc.paths[path] as Record<string, OperationObject>)[method]!;
  return {
    ...op,
    parameters: (op.parameters ?? []).map((p) => dereferenced(doc, p)),
    responses: Object.fromEntries(Object.entries(op.responses).map(([k, r]) => [k, dereferenced(doc, r)])),
  };
}

/** The component schema `name`. */
export const componentSchema = (doc: DocumentPaths, name: string): Record<string, any> =>
  (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas[name]!;
