/** A database URL fit for a log line or an error message: the password, if any, is masked. */
export function redactUrl(url: string): string {
  // A SQLite URL names a file and holds no password; kept exactly as given.
  if (/^(sqlite|file):/i.test(url)) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}
