/**
 * A write that failed before anything was sent, for a reason on this machine (a media file or a
 * member list changed or vanished since the plan). Apply reports it like a refused request, by
 * its message alone; nothing reached the service.
 */
import { ApiError } from '../api/errors.js';

export class LocalWriteError extends ApiError {
  constructor(message: string) {
    super({ status: 0, items: [{ code: 'LOCAL', message }], retryable: false, outcome: 'rejected', request: 'local', message });
  }

  override describe(): string {
    return this.message;
  }
}
