/**
 * PostgreSQL's `inet` input and output rules (network_in and network_out of its src/backend/utils/adt/network.c,
 * with inet_net_pton/inet_net_ntop of src/port), mirrored so that every dialect accepts exactly the values
 * PostgreSQL accepts, abbreviated IPv4 networks included (`192.168.1/24`), and stores them as PostgreSQL
 * writes them. `cidr` is not mirrored: no column type maps to it, and the network operators cast to inet.
 */

const DIGIT = /^[0-9]$/;
const HEX = /^[0-9a-fA-F]$/;

/** One parsed address: 4 or 16 bytes and a prefix length. */
interface InetValue {
  readonly bytes: readonly number[];
  readonly bits: number;
}

/** The text PostgreSQL answers for an inet value, or undefined where PostgreSQL refuses it as inet input. */
export function canonicalInet(text: string): string | undefined {
  // PostgreSQL reads the text as C does, up to a NUL; a NUL never reaches it from a client, so refuse it.
  if (text.includes('\u0000')) return undefined;
  const value = text.includes(':') ? ipv6(text) : ipv4(text);
  return value === undefined ? undefined : value.bytes.length === 4 ? formatIpv4(value) : formatIpv6(value);
}

/** inet_net_pton_ipv4: decimal octets, at least one; without a prefix all four; the prefix may not cover missing octets. */
function ipv4(src: string): InetValue | undefined {
  const bytes: number[] = [];
  let i = 0;
  let ch = src[i++] ?? '';
  while (DIGIT.test(ch)) {
    let octet = 0;
    do {
      octet = octet * 10 + Number(ch);
      if (octet > 255) return undefined;
      ch = src[i++] ?? '';
    } while (DIGIT.test(ch));
    if (bytes.length === 4) return undefined;
    bytes.push(octet);
    if (ch === '' || ch === '/') break;
    if (ch !== '.') return undefined;
    ch = src[i++] ?? '';
  }
  let bits = -1;
  if (ch === '/' && DIGIT.test(src[i] ?? '') && bytes.length > 0) {
    ch = src[i++]!;
    bits = 0;
    do {
      // A C int: wraps as PostgreSQL's does on absurdly long prefixes.
      bits = (bits * 10 + Number(ch)) | 0;
      ch = src[i++] ?? '';
    } while (DIGIT.test(ch));
    if (ch !== '') return undefined;
    if (bits > 32) return undefined;
  }
  if (ch !== '') return undefined;
  if (bits === -1) {
    if (bytes.length !== 4) return undefined;
    bits = 32;
  }
  if (bytes.length === 0) return undefined;
  if (Math.trunc(bits / 8) > bytes.length) return undefined;
  // network_in refuses a negative length.
  if (bits < 0) return undefined;
  while (bytes.length < 4) bytes.push(0);
  return { bytes, bits };
}

/** getbits: a prefix length of 0 to 128 without leading zeros. */
function prefixBits(src: string): number | undefined {
  if (!/^(?:0|[1-9][0-9]{0,2})$/.test(src)) return undefined;
  const bits = Number(src);
  return bits <= 128 ? bits : undefined;
}

/** getv4: decimal octets without leading zeros, at most four (fewer leave zeros), each ended by `.`, `/bits` or the end. */
function embeddedIpv4(src: string): { bytes: number[]; bits?: number } | undefined {
  const bytes: number[] = [];
  let value = 0;
  let digits = 0;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (DIGIT.test(ch)) {
      if (digits++ !== 0 && value === 0) return undefined;
      value = value * 10 + Number(ch);
      if (value > 255) return undefined;
      continue;
    }
    if (ch === '.' || ch === '/') {
      if (bytes.length > 3) return undefined;
      bytes.push(value);
      if (ch === '/') {
        const bits = prefixBits(src.slice(i + 1));
        return bits === undefined ? undefined : { bytes, bits };
      }
      value = 0;
      digits = 0;
      continue;
    }
    return undefined;
  }
  if (digits === 0 || bytes.length > 3) return undefined;
  bytes.push(value);
  return { bytes };
}

/** inet_cidr_pton_ipv6: groups of up to four hex digits, one `::`, an optional embedded IPv4, an optional `/bits`. */
function ipv6(src: string): InetValue | undefined {
  const out: number[] = [];
  let colonAt = -1;
  let i = 0;
  if (src[0] === ':') {
    if (src[1] !== ':') return undefined;
    i = 1;
  }
  let tokenStart = i;
  let sawHex = false;
  let value = 0;
  let digits = 0;
  let bits = -1;
  while (i < src.length) {
    const ch = src[i++]!;
    if (HEX.test(ch)) {
      value = (value << 4) | parseInt(ch, 16);
      if (++digits > 4) return undefined;
      sawHex = true;
      continue;
    }
    if (ch === ':') {
      tokenStart = i;
      if (!sawHex) {
        if (colonAt >= 0) return undefined;
        colonAt = out.length;
        continue;
      } else if (i >= src.length) return undefined;
      if (out.length + 2 > 16) return undefined;
      out.push((value >> 8) & 0xff, value & 0xff);
      sawHex = false;
      digits = 0;
      value = 0;
      continue;
    }
    if (ch === '.' && out.length + 4 <= 16) {
      const v4 = embeddedIpv4(src.slice(tokenStart));
      if (v4 !== undefined) {
        // getv4 writes the octets it read into the next four bytes, zeros after them.
        for (let k = 0; k < 4; k++) out.push(v4.bytes[k] ?? 0);
        if (v4.bits !== undefined) bits = v4.bits;
        sawHex = false;
        break;
      }
    }
    if (ch === '/') {
      const b = prefixBits(src.slice(i));
      if (b !== undefined) {
        bits = b;
        break;
      }
    }
    return undefined;
  }
  if (sawHex) {
    if (out.length + 2 > 16) return undefined;
    out.push((value >> 8) & 0xff, value & 0xff);
  }
  if (bits === -1) bits = 128;
  if (colonAt >= 0) {
    if (out.length === 16) return undefined;
    const tail = out.splice(colonAt);
    while (out.length + tail.length < 16) out.push(0);
    out.push(...tail);
  }
  if (out.length !== 16) return undefined;
  return { bytes: out, bits };
}

function formatIpv4({ bytes, bits }: InetValue): string {
  return bytes.join('.') + (bits === 32 ? '' : `/${bits}`);
}

/** inet_net_ntop_ipv6: the longest run of two or more zero groups as `::`, an embedded IPv4 where PostgreSQL writes one. */
function formatIpv6({ bytes, bits }: InetValue): string {
  const words = Array.from({ length: 8 }, (_, k) => (bytes[2 * k]! << 8) | bytes[2 * k + 1]!);
  let best = { base: -1, len: 0 };
  let cur = { base: -1, len: 0 };
  for (let k = 0; k < 8; k++) {
    if (words[k] === 0) cur = cur.base === -1 ? { base: k, len: 1 } : { base: cur.base, len: cur.len + 1 };
    else if (cur.base !== -1) {
      if (best.base === -1 || cur.len > best.len) best = cur;
      cur = { base: -1, len: 0 };
    }
  }
  if (cur.base !== -1 && (best.base === -1 || cur.len > best.len)) best = cur;
  if (best.base !== -1 && best.len < 2) best = { base: -1, len: 0 };
  let out = '';
  for (let k = 0; k < 8; k++) {
    if (best.base !== -1 && k >= best.base && k < best.base + best.len) {
      if (k === best.base) out += ':';
      continue;
    }
    if (k !== 0) out += ':';
    const embedded =
      best.base === 0 &&
      (best.len === 6 || (best.len === 7 && words[7] !== 0x0001) || (best.len === 5 && words[5] === 0xffff));
    if (k === 6 && embedded) {
      out += bytes.slice(12).join('.');
      break;
    }
    out += words[k]!.toString(16);
  }
  if (best.base !== -1 && best.base + best.len === 8) out += ':';
  return out + (bits === 128 ? '' : `/${bits}`);
}
