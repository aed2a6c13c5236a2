/** Hands out table aliases (t0, t1, …) so nested subqueries over the same table never collide. */
export class Aliases {
  #next = 0;
  /** `prefix` other than `t` gives a namespace of its own, e.g. the subqueries of one alias (t0l0, t0l1, …). */
  constructor(readonly prefix = 't') {}
  next(): string {
    return `${this.prefix}${this.#next++}`;
  }
}
