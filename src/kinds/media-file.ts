/**
 * Media files on this machine: their content hash (the identity of an upload), their MIME type
 * from the extension, and reading one at apply time, refused when it no longer matches the plan.
 */
import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import type { WriteContext } from './descriptor.js';
import { LocalWriteError } from './write-error.js';

/** The identity of a file's content: `sha256:<hex>`. */
export function contentHashOf(data: Uint8Array): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

const MIME: Readonly<Record<string, string>> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
};

/** The media file types adsctl uploads, by extension. */
export const MEDIA_TYPES = {
  extensions: Object.keys(MIME),
  /** The MIME type of `path` by its extension, or undefined for an extension the service does not take. */
  mimeOf(path: string): string {
    return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
  },
  known(path: string): boolean {
    return Object.hasOwn(MIME, extname(path).toLowerCase());
  },
};

/** The bytes of the media file `path`, refused unless they still hash to `expected` (what the plan saw). */
export async function readMediaFile(ctx: WriteContext, path: string, expected: string, address: string): Promise<Buffer> {
  let data: Buffer;
  try {
    data = await ctx.readFile(path);
  } catch (error) {
    throw new LocalWriteError(`${address}: cannot read ${ctx.filePath(path)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (contentHashOf(data) !== expected) throw new LocalWriteError(`${address}: ${ctx.filePath(path)} changed since the plan was made; plan again`);
  return data;
}
