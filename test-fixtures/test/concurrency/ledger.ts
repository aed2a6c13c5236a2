/**
 * What the clients of a concurrency run were told, to compare with the rows afterwards. A write whose answer
 * was an error is taken as not applied (the server rolls back on every error); only answers count.
 */
export interface Timed<T> {
  readonly value: T;
  readonly start: number;
  readonly end: number;
}

export class Ledger {
  /** Persons created (201): id → the values they were created with, then each successful update in order. */
  readonly persons = new Map<string, { name: string; ages: number[] }>();
  /** Successful writes to contended fields, e.g. `person 1 name` → every value with its time span. */
  readonly contended = new Map<string, Timed<unknown>[]>();
  /** `article/tag` → whether the tag's owner last added (true) or removed (false) it, successfully. */
  readonly links = new Map<string, boolean>();
  /** Articles created (201) with one tag: id → that tag. */
  readonly articles = new Map<string, string>();
  readonly statuses = new Map<number, number>();
  readonly problems: string[] = [];

  count(status: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }

  contend(key: string, write: Timed<unknown>): void {
    let list = this.contended.get(key);
    if (!list) this.contended.set(key, (list = []));
    list.push(write);
  }
}

/**
 * The final value of a contended field must be the value of a successful write that no successful write of
 * another value followed entirely (started after it had answered): else an acknowledged update was lost.
 */
export function lostUpdate(
  key: string,
  final: unknown,
  writes: readonly Timed<unknown>[],
  initial: unknown,
): string | undefined {
  if (writes.length === 0) return final === initial ? undefined : `${key}: ${String(final)} but nobody wrote it`;
  const candidates = writes.filter((w) => w.value === final);
  if (candidates.length === 0) return `${key}: ${String(final)} is the value of no successful write`;
  const standing = candidates.find((w) => !writes.some((o) => o.value !== final && o.start > w.end));
  if (standing) return undefined;
  const later = writes.find((o) => o.value !== final && o.start > candidates[0]!.end)!;
  return `${key}: ${String(final)} was overwritten by ${String(later.value)} (answered, then written from ${Math.round(later.start)} ms) and came back`;
}
