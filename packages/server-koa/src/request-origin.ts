import { ApiError } from '@colapi/query-ast';
import type Koa from 'koa';

/** What a Host value may hold: a reg-name, IPv4 or bracketed IPv6 literal, and an optional port (RFC 3986 §3.2). */
const AUTHORITY = /^(?:\[[\dA-Fa-f:.]+\]|[\w.-]+)(?::\d{1,5})?$/;

/**
 * Hosts already checked, per scheme, with the origin `checkHost` made of them (undefined: refused): a server
 * sees few of them, and parsing a URL for each request cost a noticeable part of a small one. Bounded, since
 * a client chooses the header.
 */
const checked: Record<'http' | 'https', Map<string, string | undefined>> = { http: new Map(), https: new Map() };
const MAX_CHECKED = 256;

/** `scheme://host` as the URL parser reads the host, or undefined when it refuses it or would read it as something else. */
function validOrigin(host: string, protocol: 'http' | 'https'): string | undefined {
  const seen = checked[protocol];
  const known = seen.get(host);
  if (known !== undefined || seen.has(host)) return known;
  const parsed = checkHost(host, protocol);
  const origin = parsed === undefined ? undefined : `${protocol}://${parsed}`;
  if (seen.size >= MAX_CHECKED) seen.clear();
  seen.set(host, origin);
  return origin;
}

function checkHost(host: string, protocol: string): string | undefined {
  if (!AUTHORITY.test(host)) return undefined;
  try {
    const url = new URL(`${protocol}://${host}/`);
    // A port past 65535, or an IPv6 literal that is none, throws above; what is left must be the host itself.
    return url.host === '' ? undefined : url.host;
  } catch {
    return undefined;
  }
}

/**
 * The scheme and authority the links of a response are built on. A proxy's forwarded scheme or host
 * (read by Koa when `app.proxy` is set) that is not a valid one is ignored, since the client did not write
 * it; a Host header the client sent that is not a valid host is 400, as RFC 9112 §3.2 asks. No Host at all
 * (HTTP/1.0) builds links on localhost. Never throws anything but that 400.
 */
export function requestOrigin(ctx: Koa.Context): string {
  const claimed = ctx.protocol;
  const protocol =
    claimed === 'https' || claimed === 'http'
      ? claimed
      : (ctx.req.socket as { encrypted?: boolean }).encrypted
        ? 'https'
        : 'http';
  // The raw headers, not ctx.host: Koa reads `a@b` as host `b`, which the client never named.
  const forwarded = ctx.app.proxy ? ctx.get('x-forwarded-host').split(',')[0]!.trim() : '';
  const proxied = forwarded ? validOrigin(forwarded, protocol) : undefined;
  if (proxied) return proxied;
  const sent = ctx.get('host') || ctx.get(':authority');
  if (!sent) return `${protocol}://localhost`;
  const origin = validOrigin(sent, protocol);
  if (!origin) throw ApiError.badRequest('the Host header is not a valid host and port');
  return origin;
}

/** The request's URL on `origin`; 400 if the URL parser refuses the request target. */
export function requestUrl(target: string, origin: string): URL {
  try {
    // A path (`/…`, not `//` or `/\\`, which the parser would read as an authority) parsed on the origin's
    // text once, rather than the origin parsed as a base and the target resolved against it.
    const c = target.charCodeAt(1);
    return target.charCodeAt(0) === 0x2f && c !== 0x2f && c !== 0x5c
      ? new URL(origin + target)
      : new URL(target, origin);
  } catch {
    throw ApiError.badRequest('the request target is not a valid URL path');
  }
}
