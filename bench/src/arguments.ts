/**
 * Walks a command line (pnpm's `--` dropped), giving each argument to `take` with a reader of the value
 * after it; a flag whose value is missing throws with the usage.
 */
export function eachArgument(
  argv: readonly string[],
  usage: string,
  take: (name: string, value: () => string) => void,
): void {
  const args = argv.filter((a) => a !== '--');
  for (let i = 0; i < args.length; i++) {
    const name = args[i]!;
    take(name, () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${name} needs a value\n${usage}`);
      return v;
    });
  }
}
