/** The replica URLs of a comma-separated list such as `DATABASE_REPLICA_URLS`; blanks are ignored. */
export function replicaUrls(list: string | undefined): string[] {
  return (list ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
}
