/** A response the server writes as is: status, content type, headers and body. */
export interface RawResponse {
  status: number;
  contentType: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): RawResponse {
  return { status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body), headers };
}
