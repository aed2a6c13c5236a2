/** Measures the stages of one request for the `Server-Timing` header. */
export class StageTimer {
  #last = performance.now();
  readonly #laps: [string, number][] = [];

  lap(stage: string): void {
    const now = performance.now();
    this.#laps.push([stage, now - this.#last]);
    this.#last = now;
  }

  header(): string {
    return this.#laps.map(([stage, ms]) => `${stage};dur=${ms.toFixed(2)}`).join(', ');
  }
}
