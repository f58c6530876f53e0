/**
 * The upload service's side of a request: OAuth 1.0a verification exactly as on the other
 * endpoints (query and form-encoded parameters signed, a multipart body not), answered in the
 * version 1.1 dialect of integer codes; and the parameters, gathered from the query string, a
 * form-encoded body and the text fields and files of a multipart body.
 */
import type { NonceCache } from '../auth/nonces.js';
import { oauthFailure, parameterInvalid } from '../auth/token-errors.js';
import { verifyOAuth } from '../auth/verify.js';
import type { Clock } from '../clock.js';
import { WireError } from '../errors.js';
import type { ParsedRequest } from '../request.js';
import type { Store } from '../store/store.js';
import { multipartBoundary, parseMultipart } from './multipart.js';
import type { UploadSegments } from './segments.js';

/** What the upload service needs from the emulator. */
export interface UploadDeps {
  store: Store;
  clock: Clock;
  nonces: NonceCache;
  segments: UploadSegments;
  log: (line: string) => void;
}

/** A verified upload request: who sent it, its text parameters and its files. */
export interface UploadRequest {
  method: string;
  userId: string;
  fields: ReadonlyMap<string, string>;
  files: ReadonlyMap<string, Buffer>;
}

/** 400 code 324: bytes or sizes the service cannot take, with the reason. */
export const invalidMedia = (message: string): WireError => new WireError(400, [{ code: 324, message }]);

/** Verifies the signature and reads the parameters; throws the 1.1 dialect's errors. */
export function readUploadRequest(deps: UploadDeps, req: ParsedRequest): UploadRequest {
  const result = verifyOAuth(req, deps.store, deps.nonces, Math.floor(deps.clock.now().getTime() / 1000), 'access');
  if (!result.ok) {
    deps.log(`upload refused: ${result.failure} ${req.method} ${req.fullPath}`);
    throw oauthFailure(result.failure);
  }
  const fields = new Map<string, string>();
  const files = new Map<string, Buffer>();
  const add = (name: string, value: string): void => {
    if (fields.has(name) || files.has(name)) throw parameterInvalid(name);
    fields.set(name, value);
  };
  for (const [k, v] of [...req.query, ...req.form]) add(k, v);
  const boundary = multipartBoundary(req.headers['content-type']);
  if (boundary !== undefined) {
    const parts = parseMultipart(req.body, boundary);
    if (parts === undefined) throw invalidMedia('The multipart body is malformed.');
    for (const part of parts) {
      if (part.filename === undefined && part.name !== 'media') add(part.name, part.data.toString('utf8'));
      else if (fields.has(part.name) || files.has(part.name)) throw parameterInvalid(part.name);
      else files.set(part.name, part.data);
    }
  }
  return { method: req.method, userId: String(result.token!.ext['user_id']), fields, files };
}

/** A whole decimal number parameter within `[min, max]`, or the 1.1 dialect's invalid error. */
export function intField(up: UploadRequest, name: string, min: number, max: number): number | undefined {
  const raw = up.fields.get(name);
  if (raw === undefined) return undefined;
  const n = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw parameterInvalid(name);
  return n;
}

/** The media bytes of APPEND or a simple upload: the multipart `media` part, else base64 `media_data`. */
export function mediaBytes(up: UploadRequest): Buffer | undefined {
  const file = up.files.get('media');
  if (file !== undefined) return file;
  const data = up.fields.get('media_data');
  if (data === undefined) return undefined;
  const compact = data.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) throw parameterInvalid('media_data');
  return Buffer.from(compact, 'base64');
}
