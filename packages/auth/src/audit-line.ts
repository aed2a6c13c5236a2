/** What one audited request did; each member unknown (or absent) is written as null. */
export interface AuditFields {
  /** When; default now. */
  readonly time?: Date;
  readonly sub?: string | null;
  readonly role?: string | null;
  readonly method?: string | null;
  readonly collection?: string | null;
  readonly id?: string | number | null;
  readonly status?: number | null;
}

/** Three base64url segments starting as a JOSE header does (`{"` is `eyJ`): a token, wherever it appears. */
const TOKEN = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/;

/** Whether a string holds a JWT anywhere in it: what no log line may carry. */
export const holdsToken = (text: string): boolean => TOKEN.test(text);

const scrub = <T>(value: T | null | undefined): T | string | null =>
  value === undefined || value === null ? null : typeof value === 'string' && TOKEN.test(value) ? '[token]' : value;

/**
 * One JSON line (without its newline) recording a request: exactly `time` (ISO 8601), `sub`, `role`,
 * `method`, `collection`, `id` and `status`, in that order. Members other than these are not read, so
 * passing a whole request cannot leak its credentials; a string that holds a JWT is written `[token]`.
 */
export function auditLine(fields: AuditFields): string {
  return JSON.stringify({
    time: (fields.time ?? new Date()).toISOString(),
    sub: scrub(fields.sub),
    role: scrub(fields.role),
    method: scrub(fields.method),
    collection: scrub(fields.collection),
    id: scrub(fields.id),
    status: scrub(fields.status),
  });
}
