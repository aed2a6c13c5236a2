import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Dialect } from './dialect.js';
import type { StatementError } from './statement-error.js';
import type { Statement } from './statement.js';

/** The package's tracer: a no-op until an application registers an OpenTelemetry SDK. */
const tracer = trace.getTracer('@colapi/sql-compiler');

/** The statement's first keyword, upper case: `SELECT`, `INSERT`, `WITH`… */
const FIRST_WORD = /^\s*\(?\s*([A-Za-z]+)/;

/**
 * Starts the client span of one statement, a child of the active span (a request's, a transaction's). Its
 * attributes are the database system, the operation and the text with its placeholders: never the bindings,
 * which carry the client's values (and maybe secrets). Without an SDK the span is a shared no-op and no
 * attribute is computed.
 */
export function startStatementSpan(dialect: Dialect, statement: Statement<unknown>): Span {
  const span = tracer.startSpan('statement', { kind: SpanKind.CLIENT });
  if (!span.isRecording()) return span;
  const operation = FIRST_WORD.exec(statement.sql)?.[1]?.toUpperCase() ?? statement.method.toUpperCase();
  span.updateName(`${operation} ${dialect.dbSystem}`);
  span.setAttributes({
    'db.system': dialect.dbSystem,
    'db.system.name': dialect.dbSystem,
    'db.operation.name': operation,
    'db.query.text': statement.sql,
  });
  return span;
}

/** Ends a statement's span with its failure: the kind the dialect gave, not the driver's message (it may quote values). */
export function failStatementSpan(span: Span, error: StatementError): void {
  if (span.isRecording()) {
    const kind = error.kind ?? 'other';
    span.setAttribute('error.type', kind);
    span.setStatus({ code: SpanStatusCode.ERROR, message: kind });
  }
  span.end();
}
