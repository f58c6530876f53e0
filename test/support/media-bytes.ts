/**
 * Tiny media files built byte by byte for the upload tests: a PNG, a JPEG (baseline or
 * progressive), a GIF and an MP4 of a chosen width and height, each padded to a few kilobytes.
 * Only the structures the service reads sizes from are real (PNG IHDR, JPEG start of frame, GIF
 * screen descriptor, MP4 moov/trak/tkhd with hdlr and mvhd); the rest is filler.
 */

const u16be = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32be = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const u64be = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
};
const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');
const filler = (length: number): Buffer => Buffer.from(Array.from({ length }, (_, i) => (i * 31 + 7) & 0xff));

/** A PNG of `width` x `height`: signature, IHDR, a filler chunk of `pad` bytes, IEND. */
export function png(width: number, height: number, pad = 2048): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => Buffer.concat([u32be(data.length), ascii(type), data, u32be(0)]);
  const ihdr = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 2, 0, 0, 0])]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', filler(pad)), chunk('IEND', Buffer.alloc(0))]);
}

/** A JPEG of `width` x `height`: SOI, an APP0 segment of `pad` bytes, SOF0 (or SOF2 when `progressive`), SOS, EOI. */
export function jpeg(width: number, height: number, opts: { progressive?: boolean; pad?: number } = {}): Buffer {
  const segment = (marker: number, data: Buffer): Buffer => Buffer.concat([Buffer.from([0xff, marker]), u16be(data.length + 2), data]);
  const app0 = Buffer.concat([ascii('JFIF\0'), filler(opts.pad ?? 2048)]);
  const sof = Buffer.concat([Buffer.from([8]), u16be(height), u16be(width), Buffer.from([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, app0),
    segment(opts.progressive === true ? 0xc2 : 0xc0, sof),
    segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
    filler(64),
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A GIF89a of `width` x `height`: header, logical screen descriptor, `pad` filler bytes, trailer. */
export function gif(width: number, height: number, pad = 2048): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt16LE(width, 0);
  size.writeUInt16LE(height, 2);
  return Buffer.concat([ascii('GIF89a'), size, Buffer.from([0, 0, 0]), filler(pad), Buffer.from([0x3b])]);
}

const box = (type: string, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([u32be(body.length + 8), ascii(type), body]);
};

const MATRIX = Buffer.concat([u32be(0x10000), u32be(0), u32be(0), u32be(0), u32be(0x10000), u32be(0), u32be(0), u32be(0), u32be(0x40000000)]);

function tkhd(version: 0 | 1, trackId: number, width: number, height: number): Buffer {
  const times = version === 1 ? Buffer.concat([u64be(0), u64be(0), u32be(trackId), u32be(0), u64be(0)]) : Buffer.concat([u32be(0), u32be(0), u32be(trackId), u32be(0), u32be(0)]);
  const rest = Buffer.concat([Buffer.alloc(8), u16be(0), u16be(0), u16be(0), u16be(0), MATRIX, u32be(width * 0x10000), u32be(height * 0x10000)]);
  return box('tkhd', Buffer.from([version, 0, 0, 3]), times, rest);
}

const hdlr = (handler: string): Buffer => box('hdlr', Buffer.alloc(4), Buffer.alloc(4), ascii(handler), Buffer.alloc(12), ascii('track\0'));

/**
 * An MP4 whose video track is `width` x `height` and lasts `durationMs`: ftyp, an mdat of `pad`
 * filler bytes, then moov with mvhd, a sound track (no picture size) and the video track.
 * `tkhdVersion` 1 writes the 64-bit form of the track header.
 */
export function mp4(width: number, height: number, opts: { durationMs?: number; tkhdVersion?: 0 | 1; pad?: number } = {}): Buffer {
  const mvhd = box('mvhd', Buffer.alloc(4), u32be(0), u32be(0), u32be(1000), u32be(opts.durationMs ?? 15_000), u32be(0x10000), u16be(0x100), Buffer.alloc(10), MATRIX, Buffer.alloc(24), u32be(3));
  const sound = box('trak', tkhd(0, 1, 0, 0), box('mdia', hdlr('soun')));
  const video = box('trak', tkhd(opts.tkhdVersion ?? 0, 2, width, height), box('mdia', hdlr('vide')));
  return Buffer.concat([box('ftyp', ascii('isom'), u32be(0x200), ascii('isomiso2mp41')), box('mdat', filler(opts.pad ?? 4096)), box('moov', mvhd, sound, video)]);
}
