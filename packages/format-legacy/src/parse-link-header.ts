/** Parses a Link header into `{url, rel, …}` objects, one per link, parameter names in lower case. */
export function parseLinkHeader(header: string): Record<string, string>[] {
  const links: Record<string, string>[] = [];
  // A comma ends a link only where the next one starts with `<`: URLs and quoted values may hold commas.
  for (const part of header.split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!m) continue;
    const link: Record<string, string> = { url: m[1]! };
    for (const p of m[2]!.split(';')) {
      const kv = /^\s*([^=\s]+)\s*=\s*"?([^"]*)"?\s*$/.exec(p);
      if (kv) link[kv[1]!.toLowerCase()] = kv[2]!;
    }
    links.push(link);
  }
  return links;
}
