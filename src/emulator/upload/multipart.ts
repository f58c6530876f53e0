/**
 * `multipart/form-data` bodies (RFC 7578), as the upload service receives them: each part's
 * field name, optional file name and raw bytes. Only what the upload service needs is read; a
 * body that does not follow the format gives undefined rather than a partial result.
 */

/** One part of a multipart body. */
interface FormPart {
  name: string;
  filename: string | undefined;
  data: Buffer;
}

/** The `boundary` parameter of a `multipart/form-data` Content-Type header, or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (contentType === undefined || !/^multipart\/form-data\s*;/i.test(contentType)) return undefined;
  const m = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  return m === null ? undefined : (m[1] ?? m[2]);
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The parts of `body`, in order; undefined when the body is not well-formed. */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return undefined;
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString('latin1') === '--') return parts;
    if (!body.subarray(at, at + 2).equals(CRLF)) return undefined;
    const headerEnd = body.indexOf(HEADER_END, at);
    if (headerEnd < 0) return undefined;
    const next = body.indexOf(Buffer.concat([CRLF, delimiter]), headerEnd + 4);
    if (next < 0) return undefined;
    const part = readPart(body.toString('utf8', at + 2, headerEnd), body.subarray(headerEnd + 4, next));
    if (part === undefined) return undefined;
    parts.push(part);
    at = next + 2;
  }
}

function readPart(headers: string, data: Buffer): FormPart | undefined {
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'content-disposition') continue;
    const value = line.slice(colon + 1);
    const name = /;\s*name="([^"]*)"/i.exec(value)?.[1];
    if (name === undefined) return undefined;
    return { name, filename: /;\s*filename="([^"]*)"/i.exec(value)?.[1], data };
  }
  return undefined;
}
