const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The claim at `path`: a member of that exact name when there is one (so a namespaced claim such as
 * `https://id.example/role` works), else the dotted path followed through nested objects
 * (`app_metadata.role`). Undefined when absent.
 */
export function readClaim(claims: Readonly<Record<string, unknown>>, path: string): unknown {
  if (Object.hasOwn(claims, path)) return claims[path];
  let at: unknown = claims;
  for (const segment of path.split('.')) {
    if (!isObject(at) || !Object.hasOwn(at, segment)) return undefined;
    at = at[segment];
  }
  return at;
}

/** Defines an own member, so that even `__proto__` is a plain claim and no prototype is touched. */
export function setOwn(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/** Sets the claim at a dotted `path`, creating the nested objects on the way (`a.b` gives `{ a: { b } }`). */
export function writeClaim(claims: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.');
  const last = segments.pop()!;
  let at = claims;
  for (const segment of segments) {
    const next = Object.hasOwn(at, segment) ? at[segment] : undefined;
    const child = isObject(next) ? next : {};
    setOwn(at, segment, child);
    at = child;
  }
  setOwn(at, last, value);
}
