/**
 * A checked timestamp (`YYYY-MM-DDTHH:MM:SS[.f]`) or time (`HH:MM:SS[.f]`) rounded to `digits` fraction
 * digits of a second, half up, carrying into the seconds and beyond (`23:59:59.5` to whole seconds is the
 * next day's midnight; a time becomes `24:00:00`, as PostgreSQL writes it). Done before any database sees
 * the value, so that every one stores the same: MariaDB cuts the digits a column does not keep, PostgreSQL
 * rounds them. Answered in the wire's normal form (no trailing zeros).
 */
export function roundFraction(value: string, digits: number): string {
  const dot = value.indexOf('.');
  if (dot < 0 || value.length - dot - 1 <= digits) return value;
  const head = value.slice(0, dot);
  const fraction = value.slice(dot + 1);
  let kept = fraction.slice(0, digits);
  let carry = fraction.charCodeAt(digits) >= 53; /* '5' */
  if (carry && digits > 0) {
    const next = String(Number(kept) + 1).padStart(digits, '0');
    carry = next.length > digits;
    kept = carry ? '0'.repeat(digits) : next;
  }
  const trimmed = kept.replace(/0+$/, '');
  return `${carry ? nextSecond(head) : head}${trimmed ? `.${trimmed}` : ''}`;
}

/** `HH:MM:SS` or `YYYY-MM-DDTHH:MM:SS` one second later. */
function nextSecond(head: string): string {
  const time = head.length === 8;
  const [y, mo, d] = time ? [1970, 1, 1] : head.slice(0, 10).split('-').map(Number);
  const [h, mi, s] = head
    .slice(time ? 0 : 11)
    .split(':')
    .map(Number);
  if (time) {
    const total = h! * 3600 + mi! * 60 + s! + 1;
    return [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60].map(two).join(':');
  }
  // setUTCFullYear, not Date.UTC, which reads years 0–99 as 1900–1999.
  const at = new Date(0);
  at.setUTCFullYear(y!, mo! - 1, d!);
  at.setUTCHours(h!, mi!, s! + 1, 0);
  const date = `${String(at.getUTCFullYear()).padStart(4, '0')}-${two(at.getUTCMonth() + 1)}-${two(at.getUTCDate())}`;
  return `${date}T${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`;
}

const two = (n: number): string => String(n).padStart(2, '0');
