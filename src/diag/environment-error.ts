/**
 * A problem of the machine adsctl runs on, not of adsctl: a damaged file of the user's (the
 * credentials file), a path that is a directory. Thrown where a value cannot carry it back (deep in
 * reading a file every command needs), it ends the run with its message alone — which names the
 * file and the remedy and never quotes the file's content — and exit 1, not as a bug.
 */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
}
