/**
 * Reads what the service reads from uploaded bytes: the format and the real width and height
 * (and a video's duration), so that the aspect-ratio and size rules of cards hold for what was
 * actually uploaded. PNG from its IHDR chunk, JPEG from its start-of-frame marker, GIF from its
 * logical screen descriptor, MP4 from the `tkhd` box of the video track (16.16 fixed point) and
 * the `mvhd` box for the duration. Bytes of any other format, or truncated headers, give undefined.
 */

/** The formats the upload service accepts, by MIME type. */
export type MediaMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'video/mp4';

/** What the bytes say about themselves. */
export interface MediaProbe {
  mime: MediaMime;
  width: number;
  height: number;
  /** Milliseconds; videos only. */
  durationMs?: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format and dimensions of `bytes`, or undefined when they are no PNG, JPEG, GIF or MP4 the probe can read. */
export function probeMedia(bytes: Buffer): MediaProbe | undefined {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return probePng(bytes);
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return probeJpeg(bytes);
  if (bytes.length >= 10 && /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) {
    return sized('image/gif', bytes.readUInt16LE(6), bytes.readUInt16LE(8));
  }
  if (bytes.length >= 8 && bytes.toString('latin1', 4, 8) === 'ftyp') return probeMp4(bytes);
  return undefined;
}

function sized(mime: MediaMime, width: number, height: number, durationMs?: number): MediaProbe | undefined {
  if (width <= 0 || height <= 0) return undefined;
  return durationMs === undefined ? { mime, width, height } : { mime, width, height, durationMs };
}

function probePng(bytes: Buffer): MediaProbe | undefined {
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return sized('image/png', bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

/** Start-of-frame markers: C0..CF except DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function probeJpeg(bytes: Buffer): MediaProbe | undefined {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined;
    const length = bytes.readUInt16BE(at + 2);
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) return undefined;
      return sized('image/jpeg', bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5));
    }
    at += 2 + length;
  }
  return undefined;
}

interface Box {
  type: string;
  /** Where the box's content starts and ends (after its header). */
  start: number;
  end: number;
}

/** The boxes directly inside `[start, end)`; stops at a malformed header. */
function boxes(bytes: Buffer, start: number, end: number): Box[] {
  const out: Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    let size = bytes.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) break;
      size = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) break;
    out.push({ type: bytes.toString('latin1', at + 4, at + 8), start: at + header, end: at + size });
    at += size;
  }
  return out;
}

const child = (bytes: Buffer, box: Box, type: string): Box | undefined => boxes(bytes, box.start, box.end).find((b) => b.type === type);

/** Width and height of a `tkhd` box (version 0 or 1), integer part of the 16.16 values. */
function trackSize(bytes: Buffer, tkhd: Box): [number, number] | undefined {
  const at = tkhd.start + (bytes[tkhd.start] === 1 ? 88 : 76);
  if (at + 8 > tkhd.end) return undefined;
  return [bytes.readUInt32BE(at) >>> 16, bytes.readUInt32BE(at + 4) >>> 16];
}

/** Duration of an `mvhd` box in milliseconds. */
function movieDuration(bytes: Buffer, mvhd: Box): number | undefined {
  const v1 = bytes[mvhd.start] === 1;
  const at = mvhd.start + (v1 ? 20 : 12);
  if (at + (v1 ? 12 : 8) > mvhd.end) return undefined;
  const timescale = bytes.readUInt32BE(at);
  const duration = v1 ? Number(bytes.readBigUInt64BE(at + 4)) : bytes.readUInt32BE(at + 4);
  return timescale === 0 ? undefined : Math.round((duration * 1000) / timescale);
}

/** The handler type of a track (`vide`, `soun`, ...) from `mdia/hdlr`. */
function handlerType(bytes: Buffer, trak: Box): string | undefined {
  const mdia = child(bytes, trak, 'mdia');
  const hdlr = mdia === undefined ? undefined : child(bytes, mdia, 'hdlr');
  return hdlr === undefined || hdlr.start + 12 > hdlr.end ? undefined : bytes.toString('latin1', hdlr.start + 8, hdlr.start + 12);
}

function probeMp4(bytes: Buffer): MediaProbe | undefined {
  const moov = boxes(bytes, 0, bytes.length).find((b) => b.type === 'moov');
  if (moov === undefined) return undefined;
  const inside = boxes(bytes, moov.start, moov.end);
  const mvhd = inside.find((b) => b.type === 'mvhd');
  const durationMs = (mvhd === undefined ? undefined : movieDuration(bytes, mvhd)) ?? 0;
  const tracks = inside.filter((b) => b.type === 'trak');
  // the video track by its handler; without handlers, the first track that has a picture size
  const ordered = [...tracks.filter((t) => handlerType(bytes, t) === 'vide'), ...tracks.filter((t) => handlerType(bytes, t) === undefined)];
  for (const trak of ordered) {
    const tkhd = child(bytes, trak, 'tkhd');
    const size = tkhd === undefined ? undefined : trackSize(bytes, tkhd);
    if (size !== undefined && size[0] > 0 && size[1] > 0) return sized('video/mp4', size[0], size[1], durationMs);
  }
  return undefined;
}
