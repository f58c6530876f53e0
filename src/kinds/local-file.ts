/**
 * The files a manifest names (a media file, a member list), as the kinds see them: the largest
 * file a kind reads, and why a file is not read. Such a file is read only when it is a regular
 * file whose real path lies inside the project root and whose size is within its kind's limit
 * (src/manifest/project-file.ts checks it for the manifest stage, the plan and apply); a kind
 * says its limit and reports the problem at its field, so nothing else on the machine can reach
 * the service through a manifest (docs/manifest.md, "Files a manifest names").
 */

/** The largest file a kind reads, in bytes, and what the service calls such a file (`an image`, `a member list`). */
export interface FileLimit {
  bytes: number;
  what: string;
}

/**
 * Why a file a manifest names is not read: missing, unreadable, outside the project root, not a
 * regular file, over its kind's limit, or replaced again and again while it was opened. The
 * message names the file as the manifest writes it, says what it is and what to do.
 */
export interface FileProblem {
  code: 'file-not-found' | 'file-read' | 'file-outside-root' | 'not-a-regular-file' | 'file-too-large' | 'file-changed';
  message: string;
}

/** A file read: its bytes, or why they were not read. */
export type FileRead = { bytes: Buffer; problem?: undefined } | { bytes?: undefined; problem: FileProblem };
