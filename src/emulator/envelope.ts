/** The response envelopes shared by every advertising endpoint (Part A, Shared conventions). */
import type { ParamReader } from './params.js';
import type { Rec } from './store/row.js';

/** `{ request: { params }, data }` for one record. */
export function single(params: ParamReader, data: unknown): { request: { params: Rec }; data: unknown } {
  return { request: { params: params.echo }, data };
}
