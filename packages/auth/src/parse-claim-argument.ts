/**
 * A `name=value` command-line claim, as `colapi token --claim tenant=1` takes it. The value is split at the
 * first `=` and typed as a reader would expect: `true` and `false` become booleans, a whole number written
 * plainly (`42`, `-7`, no leading zero, within the safe-integer range) becomes a number, anything else
 * stays a string (`007`, `1.5`, `1e3`, empty). Integers only, because claims compared with integer
 * columns (a tenant id) are the common case; a leading zero marks a code (`01234`), kept as written.
 */
export function parseClaimArgument(argument: string): [name: string, value: string | number | boolean] {
  const at = argument.indexOf('=');
  if (at <= 0) throw new Error(`${JSON.stringify(argument)} is not a claim: write name=value`);
  const name = argument.slice(0, at);
  const text = argument.slice(at + 1);
  if (text === 'true' || text === 'false') return [name, text === 'true'];
  if (/^-?(0|[1-9][0-9]*)$/.test(text) && Number.isSafeInteger(Number(text))) return [name, Number(text)];
  return [name, text];
}
