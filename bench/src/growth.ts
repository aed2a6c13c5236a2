import type { BenchOptions } from './options.js';
export async function runGrowth(_o: BenchOptions, _log: (line: string) => void): Promise<void> {
  throw new Error('not yet');
}
