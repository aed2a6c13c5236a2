import type { Route } from './route.js';

/** An HTTP request as a wire format sees it: no framework types. */
export interface HttpRequest {
  readonly method: string;
  /** The absolute URL of the request, for links. */
  readonly url: URL;
  /** The absolute URL of the API prefix, e.g. `http://host/api`. */
  readonly base: string;
  readonly route: Route;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The parsed JSON body, when there is one. */
  readonly body?: unknown;
  readonly hasBody: boolean;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** A JSON value, or undefined for no body; when `jsonText` is true, the document's JSON text. */
  readonly body?: unknown;
  /**
   * True when the format wrote `body` as the document's JSON text (a string), sent as it is; read the
   * document with `documentOf`. Response hooks never see it: they are given the document parsed.
   */
  readonly jsonText?: boolean;
}
