import type { HttpResponse } from '@colapi/wire-format';

/**
 * The response marked as chosen by Accept (`Vary: Accept`): every Format A answer depends on it (its media
 * type, its extensions and profiles, a 406), so a cache must not serve it to a client that sends another.
 */
export function varyOnAccept(response: HttpResponse): HttpResponse {
  const { headers } = response;
  const vary = headers.vary;
  if (vary !== undefined && /(^|,)\s*accept\s*(,|$)/i.test(vary)) return response;
  return { ...response, headers: { ...headers, vary: vary ? `${vary}, Accept` : 'Accept' } };
}
