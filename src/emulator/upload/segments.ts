/**
 * The bytes of chunked uploads between APPEND and FINALIZE, by media id and segment index. They
 * live in memory only: a data file keeps finished uploads, not half-sent ones. A segment sent
 * again under the same index replaces the earlier one, as a retried APPEND does.
 */
export class UploadSegments {
  private readonly byMedia = new Map<string, Map<number, Buffer>>();

  /** Bytes received so far for `mediaId`, counting `replacing` as gone. */
  received(mediaId: string, replacing?: number): number {
    let total = 0;
    for (const [index, bytes] of this.byMedia.get(mediaId) ?? []) if (index !== replacing) total += bytes.length;
    return total;
  }

  /** Keeps segment `index` of `mediaId`. */
  put(mediaId: string, index: number, bytes: Buffer): void {
    let segments = this.byMedia.get(mediaId);
    if (segments === undefined) {
      segments = new Map();
      this.byMedia.set(mediaId, segments);
    }
    segments.set(index, bytes);
  }

  /** The segments of `mediaId` joined in index order. */
  joined(mediaId: string): Buffer {
    const segments = this.byMedia.get(mediaId) ?? new Map<number, Buffer>();
    return Buffer.concat([...segments.entries()].sort((a, b) => a[0] - b[0]).map(([, bytes]) => bytes));
  }

  /** Forgets the segments of `mediaId` (after FINALIZE). */
  drop(mediaId: string): void {
    this.byMedia.delete(mediaId);
  }
}
