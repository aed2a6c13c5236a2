/** What colapi's own parameters of a database URL say, and the URL without them, as the driver must get it. */
export interface DatabaseUrlOptions {
  readonly url: string;
  /** `prepared_statements=false` (or `0`): see ConnectOptions.preparedStatements. */
  readonly preparedStatements?: boolean;
}

/** Takes colapi's own parameters out of a database URL; a value it cannot read throws, naming the parameter. */
export function databaseUrlOptions(url: string): DatabaseUrlOptions {
  const match = /([?&])prepared_statements=([^&#]*)&?/.exec(url);
  if (!match) return { url };
  const value = match[2]!.toLowerCase();
  if (!['true', 'false', '1', '0'].includes(value)) {
    throw new Error(`the database URL parameter prepared_statements must be true or false, not "${match[2]}"`);
  }
  const rest =
    url.slice(0, match.index) + (match[0].endsWith('&') ? match[1] : '') + url.slice(match.index + match[0].length);
  return { url: rest.replace(/[?&]$/, ''), preparedStatements: value === 'true' || value === '1' };
}
