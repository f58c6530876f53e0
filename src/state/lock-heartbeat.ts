/**
 * The heartbeat of the local locks a process holds: every `HEARTBEAT_MS` each lock file gets a new
 * random `heartbeat` id, of the same length, written in place through a descriptor whose file
 * names the lock, so a run in another pid namespace or on another boot can tell its holder is
 * alive (lock-holder.ts). Written in place, a beat can never put a lock back: a holder stopped
 * between reading its file and writing the beat writes, once resumed, into the file it opened —
 * replaced by then, if another run took the lock over.
 *
 * The beats come from a worker thread of their own, one per process, so a run whose main thread is
 * busy for a long time (a large plan) still beats. For a small run the thread starts a quarter of
 * the interval after the first lock is taken (`WORKER_START`), well before its first beat is due:
 * a run that ends sooner — most plans of an account of a few thousand objects — never pays the
 * 0.1 s of CPU a thread takes to start, nor waits for one at exit, and needs no beat (a holder is
 * judged gone only after `HEARTBEAT_STALE_MS`, several intervals). That start is a timer of the
 * main thread, which a small run leaves free within the quarter; a large run may keep it busy for
 * seconds on end (the diff of 100,000 resources, 11 s), so the engine has the thread start at
 * once for one (`beatNow`). From then on the beats no longer depend on the main thread. A beat and a release never overlap: both take a
 * mutex in shared memory, and a beat rewrites a file only while it still names the lock and the
 * lock is not released, so a released or taken-over lock is never written back. A beat that finds
 * the file gone or naming another lock (`adsctl force-unlock --force`, a run that judged this one
 * gone) tells the main thread, which stops the run's writes (lock.ts).
 */
import { Worker } from 'node:worker_threads';

/** The worker's code (CommonJS, run with `eval`, so the same text serves the sources and dist/). */
const WORKER = `
const { closeSync, openSync, readFileSync, writeSync } = require('node:fs');
const { randomUUID } = require('node:crypto');
const { parentPort, workerData } = require('node:worker_threads');
const mutex = new Int32Array(workerData.mutex);
const locks = new Map();
const released = (lock) => Atomics.load(new Int32Array(lock.released), 0) !== 0;
const lose = (lock, why) => {
  if (!released(lock)) parentPort.postMessage({ lost: lock.id, why });
  return false;
};
const beat = (lock) => {
  if (released(lock)) return false;
  let fd;
  try {
    fd = openSync(lock.path, 'r+');
  } catch (error) {
    if (error.code === 'ENOENT') return lose(lock, 'its file was removed');
    throw error;
  }
  try {
    const text = readFileSync(fd, 'utf8');
    const info = JSON.parse(text);
    if (info.id !== lock.id) return lose(lock, 'its file now names lock ' + info.id + ' of ' + info.holder);
    // the new id has the old one's length and replaces it in place, in the file this descriptor
    // holds: if another run has put its own lock in place since it was opened, that is no longer
    // the lock file, and the beat lands in a file nobody reads
    const next = typeof info.heartbeat === 'string' ? text.replace(info.heartbeat, randomUUID()) : text;
    if (next !== text && Buffer.byteLength(next) === Buffer.byteLength(text)) writeSync(fd, next, 0);
    return true;
  } finally {
    closeSync(fd);
  }
};
const tick = () => {
  const now = Date.now();
  for (const lock of locks.values()) {
    if (now < lock.due) continue;
    lock.due = now + lock.intervalMs;
    while (Atomics.compareExchange(mutex, 0, 0, 1) !== 0) Atomics.wait(mutex, 0, 1, 50);
    let keep = false;
    try {
      keep = beat(lock);
    } catch {
      keep = false;
    } finally {
      Atomics.store(mutex, 0, 0);
      Atomics.notify(mutex, 0);
    }
    if (!keep) locks.delete(lock.id);
  }
};
let every = Infinity;
let timer;
parentPort.on('message', (lock) => {
  locks.set(lock.id, lock);
  if (lock.intervalMs >= every) return;
  every = lock.intervalMs;
  clearInterval(timer);
  timer = setInterval(tick, every);
});
`;

/** The share of the first lock's interval after which the beats' thread starts. */
const WORKER_START = 1 / 4;

/** A lock as the beats' thread takes it: `due` is when its first beat is (epoch milliseconds). */
interface BeatingLock {
  id: string;
  path: string;
  released: SharedArrayBuffer;
  intervalMs: number;
  due: number;
}

let worker: { thread: Worker; mutex: Int32Array } | undefined;

/** Locks taken before the thread started, and the timer that starts it. */
let waiting: { locks: Map<string, BeatingLock>; timer: NodeJS.Timeout } | undefined;

/** What to call when a beat finds a lock lost, by lock id. */
const onLost = new Map<string, (why: string) => void>();

function heartbeatWorker(): { thread: Worker; mutex: Int32Array } {
  if (worker !== undefined) return worker;
  const shared = new SharedArrayBuffer(4);
  const thread = new Worker(WORKER, { eval: true, workerData: { mutex: shared } });
  thread.on('error', () => {
    worker = undefined;
  });
  thread.on('message', (message: { lost: string; why: string }) => onLost.get(message.lost)?.(message.why));
  // the process ends when its work does: the beats keep nothing alive, and end with it (after the
  // listeners, which would otherwise hold the thread's port open)
  thread.unref();
  worker = { thread, mutex: new Int32Array(shared) };
  return worker;
}

/** Starts the thread and hands it the locks taken so far (those not yet released). */
function startWorker(): void {
  const pending = waiting;
  waiting = undefined;
  if (pending === undefined) return;
  const { thread } = heartbeatWorker();
  for (const lock of pending.locks.values()) thread.postMessage(lock);
}

/**
 * Starts the beats' thread now rather than at its timer, for a run that may keep the main thread
 * busy past the time its first beat is due: a large account's plan or apply.
 */
export function beatNow(): void {
  if (waiting === undefined) return;
  clearTimeout(waiting.timer);
  startWorker();
}

/** Runs `body` while no beat is being written. */
function exclusive(mutex: Int32Array, body: () => void): void {
  while (Atomics.compareExchange(mutex, 0, 0, 1) !== 0) Atomics.wait(mutex, 0, 1, 50);
  try {
    body();
  } finally {
    Atomics.store(mutex, 0, 0);
    Atomics.notify(mutex, 0);
  }
}

/** A lock's heartbeat; `stop` returns once no beat can write its file again. */
interface Heartbeat {
  /** Stops the beats, then runs `then` (the release) before any beat could have run. */
  stop(then: () => void): void;
}

/**
 * Starts rewriting the `heartbeat` of the lock file at `path` held under `id`; `lost` is called
 * (once) when a beat finds the file gone or naming another lock.
 */
export function startHeartbeat(path: string, id: string, intervalMs: number, lost: (why: string) => void): Heartbeat {
  const released = new SharedArrayBuffer(4);
  onLost.set(id, (why) => {
    onLost.delete(id);
    lost(why);
  });
  const lock: BeatingLock = { id, path, released, intervalMs, due: Date.now() + intervalMs };
  if (worker !== undefined) worker.thread.postMessage(lock);
  else if (waiting !== undefined) waiting.locks.set(id, lock);
  else {
    const timer = setTimeout(startWorker, intervalMs * WORKER_START);
    // a run does not wait for its beats to start
    timer.unref();
    waiting = { locks: new Map([[id, lock]]), timer };
  }
  return {
    stop: (then) => {
      const release = (): void => {
        Atomics.store(new Int32Array(released), 0, 1);
        onLost.delete(id);
        then();
      };
      // not handed to the thread yet: no beat of it can be under way
      if (waiting?.locks.delete(id) === true) {
        if (waiting.locks.size === 0) {
          clearTimeout(waiting.timer);
          waiting = undefined;
        }
        release();
        return;
      }
      const current = worker;
      if (current === undefined) release();
      else exclusive(current.mutex, release);
    },
  };
}
