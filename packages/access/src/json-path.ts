const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `path.key`, or `path["key"]` when the key is not an identifier (`roles.member["*"]`). */
export function memberPath(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** `path[i]`. */
export const indexPath = (path: string, i: number): string => `${path}[${i}]`;
