import { ApiError } from '@colapi/query-ast';

/** The 403 of access control: what the caller's role may not do, and the member of the body at fault if any. */
export function forbidden(detail: string, pointer?: string): ApiError {
  return new ApiError(403, 'Forbidden', detail, pointer ? { pointer } : undefined);
}
