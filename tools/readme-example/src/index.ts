import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The first ```ts block after the "## Example" heading of a README. */
export function readmeExample(packageDir: string): string {
  const text = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const section = text.split(/^## Example\s*$/m)[1];
  const block = section && /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error(`${packageDir}/README.md has no \`\`\`ts block under "## Example"`);
  return block[1]!;
}

/**
 * Runs a README's example as a module of its package (so its imports resolve as a user's would), and
 * answers what the module exports. Examples assert with node:assert, so a wrong README fails the test.
 */
export async function runReadmeExample(packageDir: string): Promise<Record<string, unknown>> {
  const file = join(packageDir, `.readme-example-${process.pid}.ts`);
  writeFileSync(file, readmeExample(packageDir));
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } finally {
    rmSync(file, { force: true });
  }
}
