/** Hands out table aliases (t0, t1, …) so nested subqueries over the same table never collide. */
export class Aliases {
  #next = 0;
  next(): string {
    return `t${this.#next++}`;
  }
}
