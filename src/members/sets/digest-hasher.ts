/**
 * The SHA-256 digests of many values, per hashed type, computed on a second thread once there are
 * many. Hashing is about a third of the work of reading a member file; on a machine with two or
 * more cores a worker thread hashes batches of values while the main thread goes on parsing and
 * normalising. The first 65,536 values are hashed in place (a small file never starts a thread),
 * and so is everything when the machine has one core or the worker fails (its unanswered batches
 * are hashed again in place). Digests are collected in arrival order, unsorted.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { DigestList } from './digest-list.js';
import { DIGEST_BYTES, type HashedIdentifierType } from './identifier.js';

const INLINE_VALUES = 65_536;
const BATCH_CHARS = 1 << 20;
const BATCH_VALUES = 32_768;
const MAX_IN_FLIGHT = 8;

/** The worker: hashes each value of a batch (the values joined with LF) into one buffer of digests. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { hash } = require('node:crypto');
parentPort.on('message', (m) => {
  const values = m.text.split('\\n');
  const out = Buffer.from(new ArrayBuffer(values.length * ${DIGEST_BYTES}));
  for (let i = 0; i < values.length; i++) out.write(hash('sha256', values[i], 'binary'), i * ${DIGEST_BYTES}, ${DIGEST_BYTES}, 'binary');
  parentPort.postMessage({ id: m.id, digests: out.buffer }, [out.buffer]);
});
`;

/** Values of one type waiting to be sent. */
interface Batch {
  type: HashedIdentifierType;
  values: string[];
  chars: number;
}
/** Hashes values into one digest list per type, in place or on a worker thread. */
export class DigestHasher {
  /** The digests so far, by type (complete once `finish` resolves). */
  readonly lists: Readonly<Record<HashedIdentifierType, DigestList>> = {
    email: new DigestList(),
    phone_number: new DigestList(),
    handle: new DigestList(),
    device_id: new DigestList(),
    service_id: new DigestList(),
  };
  private added = 0;
  private worker: Worker | undefined;
  private failed = availableParallelism() < 2;
  private readonly batches = new Map<HashedIdentifierType, Batch>();
  private readonly inFlight = new Map<number, Batch>();
  private nextId = 0;
  private waiters: Array<() => void> = [];
  private hashedOnWorker = 0;

  /** `parallel: false` keeps every value on the calling thread. */
  constructor(parallel = true) {
    if (!parallel) this.failed = true;
  }

  /** Hashes `value` (its UTF-8 bytes) as a member of `type`. */
  add(type: HashedIdentifierType, value: string): void {
    // a value holding LF (a device id from a quoted CSV field can) would be cut in two by the batch's join
    if (this.added++ < INLINE_VALUES || this.failed || value.indexOf('\n') >= 0) return this.lists[type].pushHashOf(value);
    let batch = this.batches.get(type);
    if (batch === undefined) this.batches.set(type, (batch = { type, values: [], chars: 0 }));
    batch.values.push(value);
    batch.chars += value.length;
    if (batch.values.length === BATCH_VALUES || batch.chars > BATCH_CHARS) {
      this.send(batch);
      this.batches.delete(type);
    }
  }

  /** Values the worker thread hashed (0 when everything was hashed in place). */
  get workerValues(): number {
    return this.hashedOnWorker;
  }

  /** A promise to wait for when too many batches are being hashed (undefined: go on). */
  backlog(): Promise<void> | undefined {
    if (this.inFlight.size < MAX_IN_FLIGHT) return undefined;
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Sends what is waiting, waits for every digest, and stops the worker. */
  async finish(): Promise<void> {
    for (const batch of this.batches.values()) this.send(batch);
    this.batches.clear();
    while (this.inFlight.size > 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.close();
  }

  /** Stops the worker without waiting; what it had not answered is dropped (the reading failed, or all is answered). */
  close(): void {
    this.inFlight.clear();
    this.batches.clear();
    void this.worker?.terminate();
    this.worker = undefined;
    this.wake();
  }

  private send(batch: Batch): void {
    const worker = this.failed ? undefined : this.start();
    if (worker === undefined) return this.hashInPlace(batch);
    const id = this.nextId++;
    this.inFlight.set(id, batch);
    worker.postMessage({ id, text: batch.values.join('\n') });
  }

  private start(): Worker | undefined {
    if (this.worker !== undefined) return this.worker;
    try {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      worker.on('message', (m: { id: number; digests: ArrayBuffer }) => {
        const batch = this.inFlight.get(m.id);
        if (batch === undefined) return;
        this.inFlight.delete(m.id);
        this.hashedOnWorker += batch.values.length;
        this.lists[batch.type].pushAll(Buffer.from(m.digests));
        this.wake();
      });
      worker.on('error', () => this.fail());
      worker.on('exit', () => {
        if (this.inFlight.size > 0) this.fail();
      });
      this.worker = worker;
      return worker;
    } catch {
      this.failed = true;
      return undefined;
    }
  }

  /** The worker is gone: hash its unanswered batches here, and everything after. */
  private fail(): void {
    this.failed = true;
    this.worker = undefined;
    const pending = [...this.inFlight.values()];
    this.inFlight.clear();
    for (const batch of pending) this.hashInPlace(batch);
    this.wake();
  }

  private hashInPlace(batch: Batch): void {
    const list = this.lists[batch.type];
    for (const value of batch.values) list.pushHashOf(value);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
