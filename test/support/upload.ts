/**
 * A test client for the emulator's media upload service (`upload_base_url` +
 * `/1.1/media/upload.json`): signed requests with parameters in the query string, a form body or
 * a multipart body (which the signature does not cover), and the whole chunked INIT / APPEND /
 * FINALIZE / STATUS sequence in one call.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { encodePairs, type Reply, type TestClient } from './client.js';
import { authorizationHeader, type Credentials } from './signer.js';

/** One part of a multipart body: a text field, or a file when `filename` is given. */
export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
}

/** Where an upload request's parameters go, and how it is signed. */
export interface UploadSend {
  query?: Record<string, string | number>;
  form?: Record<string, string | number>;
  multipart?: Part[];
  /** Sign with these credentials instead of the client's; null sends no signature. */
  creds?: Credentials | null;
}

const pairsOf = (params: Record<string, string | number> = {}): Array<[string, string]> => Object.entries(params).map(([k, v]) => [k, String(v)]);

/** A multipart/form-data body and its Content-Type. */
export function multipartBody(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----adsctl${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.filename === undefined ? '' : 'Content-Type: application/octet-stream\r\n';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Sends one signed request to the upload endpoint. */
export async function sendUpload(client: TestClient, method: 'GET' | 'POST', opts: UploadSend = {}): Promise<Reply> {
  const query = pairsOf(opts.query);
  let url = `${client.info.upload_base_url}/1.1/media/upload.json`;
  if (query.length > 0) url += `?${encodePairs(query)}`;
  const headers: Record<string, string> = {};
  let body: Buffer | string | undefined;
  const form = opts.form === undefined ? undefined : pairsOf(opts.form);
  if (form !== undefined) {
    body = encodePairs(form);
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (opts.multipart !== undefined) {
    const mp = multipartBody(opts.multipart);
    body = mp.body;
    headers['content-type'] = mp.contentType;
  }
  const creds = opts.creds === undefined ? client.creds : opts.creds;
  if (creds !== null) headers['authorization'] = authorizationHeader(creds, { method, url, ...(form === undefined ? {} : { form }) });
  const res = await request(url, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.statusCode, headers: res.headers as Record<string, string>, body: parsed, text };
}

/** The media_id digits exactly as the JSON text carries them (a JSON number of up to 19 digits). */
export const rawMediaId = (r: Reply): string | undefined => /"media_id":(\d+)/.exec(r.text)?.[1];

/** How `chunkedUpload` sends its media: category, owners, segment size and encoding. */
export interface ChunkedOptions {
  category?: string;
  additionalOwners?: string;
  segmentBytes?: number;
  /** Send segments as base64 `media_data` instead of multipart `media`. */
  base64?: boolean;
}

/** What a chunked upload ended with. */
export interface Uploaded {
  mediaId: string;
  mediaKey: string;
  finalize: Reply;
  /** STATUS replies, in order, for a video (until it succeeded). */
  statuses: Reply[];
}

const expectOk = (step: string, r: Reply, status = 200): void => {
  if (r.status !== status) throw new Error(`${step} failed (${r.status}): ${r.text}`);
};

/** INIT, APPEND in segments, FINALIZE, then STATUS until a video's processing succeeded. */
export async function chunkedUpload(client: TestClient, bytes: Buffer, mediaType: string, opts: ChunkedOptions = {}): Promise<Uploaded> {
  const form: Record<string, string | number> = { command: 'INIT', total_bytes: bytes.length, media_type: mediaType };
  if (opts.category !== undefined) form['media_category'] = opts.category;
  if (opts.additionalOwners !== undefined) form['additional_owners'] = opts.additionalOwners;
  const init = await sendUpload(client, 'POST', { form });
  expectOk('INIT', init);
  const mediaId = init.body.media_id_string as string;
  const size = opts.segmentBytes ?? 1024;
  for (let i = 0, at = 0; at < bytes.length; i++, at += size) {
    const segment = bytes.subarray(at, at + size);
    const media: Part = opts.base64 === true ? { name: 'media_data', value: segment.toString('base64') } : { name: 'media', value: segment, filename: 'blob' };
    const r = await sendUpload(client, 'POST', { multipart: [{ name: 'command', value: 'APPEND' }, { name: 'media_id', value: mediaId }, { name: 'segment_index', value: String(i) }, media] });
    expectOk(`APPEND ${i}`, r, 204);
  }
  const finalize = await sendUpload(client, 'POST', { form: { command: 'FINALIZE', media_id: mediaId } });
  expectOk('FINALIZE', finalize);
  const statuses: Reply[] = [];
  let state = finalize.body.processing_info?.state as string | undefined;
  while (state !== undefined && state !== 'succeeded' && statuses.length < 10) {
    const r = await sendUpload(client, 'GET', { query: { command: 'STATUS', media_id: mediaId } });
    expectOk('STATUS', r);
    statuses.push(r);
    state = r.body.processing_info?.state as string | undefined;
  }
  return { mediaId, mediaKey: init.body.media_key as string, finalize, statuses };
}
