import { headersOf, type Scenario } from './scenarios.js';

/**
 * Fills a conditional scenario's tags with the target's `ETag` of each of its paths, then checks that the
 * target answers each asked again with that tag 304, so that the runs measure 304s and nothing else. The
 * tags are the target's: its links name its own origin, so the baseline's would differ (and it ignores them).
 */
export async function learnTags(s: Scenario, origin: string): Promise<void> {
  if (!s.conditional) return;
  for (const path of s.conditional.paths) {
    const res = await fetch(`${origin}${path}`, { headers: headersOf(s) });
    await res.arrayBuffer();
    const etag = res.headers.get('etag');
    if (res.status !== 200 || !etag) throw new Error(`${origin}${path} answered ${res.status} with no ETag`);
    s.conditional.tags.set(path, etag);
    const again = await fetch(`${origin}${path}`, { headers: { ...headersOf(s), 'if-none-match': etag } });
    await again.arrayBuffer();
    if (again.status !== 304)
      throw new Error(`${origin}${path} with If-None-Match ${etag} answered ${again.status}, not 304`);
  }
}

/** The scenario as the baseline answers it: the status it must give (the floor has no 304). */
export function asBaseline(s: Scenario): Scenario {
  return s.baselineStatus === undefined ? s : { ...s, status: s.baselineStatus };
}
