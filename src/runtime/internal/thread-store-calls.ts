/**
 * Interactive queries of the stores of a stream thread on a worker thread
 * (`numStreamThreads` with `streamThreadModule`). `app.store()` views are
 * synchronous (as Kafka's), so the instance asks the worker synchronously:
 * it posts the request on a MessagePort of its own and blocks on a shared
 * flag (`Atomics.wait`) until the worker, which runs its own event loop,
 * answers on the port and raises the flag; `receiveMessageOnPort` then takes
 * the answer. A worker answers between two records (its processing loop
 * lets the event loop run every few ms), so a read waits at most that long,
 * and never longer than `timeoutMs`. The worker never waits for the
 * instance: no deadlock.
 *
 * A worker's store is seen here as a proxy whose every method is such a call
 * (taskId, store, method, arguments); arguments and results cross as
 * structured clones (the stores' reads return values, plain records and
 * arrays; an iterator is turned into an array there).
 */
import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { storeKindOf, type StoreKind } from '../../processors/store-kind.js';
import { InvalidStateStoreError } from '../interactive-queries.js';

/** A store of a task, as the task manager lists it. */
export interface ThreadStoreEntry {
  taskId: string;
  state: string;
  store: object;
}

/** A worker thread's store as the instance sees it. */
export interface RemoteStoreEntry extends ThreadStoreEntry {
  kind: StoreKind;
}

type Request =
  | { id: number; op: 'stores'; name: string; stale: boolean }
  | { id: number; op: 'call'; name: string; stale: boolean; taskId: string; method: string; args: unknown[] };
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };


/** The instance's side: synchronous calls to one worker thread. */
export class ThreadStoreClient {
  #next = 0;
  readonly #flag: Int32Array;

  constructor(
    private readonly port: MessagePort,
    flag: SharedArrayBuffer,
    private readonly thread: number,
    private readonly timeoutMs: number,
  ) {
    this.#flag = new Int32Array(flag);
  }

  /** The worker's stores named `name`, each as a proxy reading it there. */
  stores(name: string, stale: boolean): RemoteStoreEntry[] {
    const listed = this.#call({ id: 0, op: 'stores', name, stale }) as Array<{ taskId: string; state: string; kind: StoreKind }>;
    return listed.map(({ taskId, state, kind }) => {
      const store = new Proxy(
        {},
        {
          get: (_target, method) =>
            typeof method === 'string' && method !== 'then' ? (...args: unknown[]) => this.#call({ id: 0, op: 'call', name, stale, taskId, method, args }) : undefined,
        },
      );
      return { taskId, state, kind, store };
    });
  }

  #call(request: Request): unknown {
    const id = ++this.#next;
    Atomics.store(this.#flag, 0, 0);
    this.port.postMessage({ ...request, id });
    // the answer, skipping any late one of an earlier call that timed out
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || Atomics.wait(this.#flag, 0, 0, left) === 'timed-out') {
        throw new InvalidStateStoreError(`Stream thread ${this.thread} did not answer a store query within ${this.timeoutMs} ms (it is busy or stopping); retry`);
      }
      Atomics.store(this.#flag, 0, 0);
      for (let message = receiveMessageOnPort(this.port); message !== undefined; message = receiveMessageOnPort(this.port)) {
        const reply = message.message as Reply;
        if (reply.id !== id) continue;
        if (reply.ok) return reply.value;
        throw new InvalidStateStoreError(reply.error);
      }
    }
  }
}

/** The worker's side: answers the instance's calls from `lookup` (the thread's task manager). */
export function serveThreadStores(port: MessagePort, flag: SharedArrayBuffer, lookup: (name: string, stale: boolean) => ThreadStoreEntry[]): void {
  const raised = new Int32Array(flag);
  port.on('message', (request: Request) => {
    let reply: Reply;
    try {
      reply = { id: request.id, ok: true, value: answer(request, lookup) };
      port.postMessage(reply);
    } catch (error) {
      port.postMessage({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies Reply);
    }
    Atomics.store(raised, 0, 1);
    Atomics.notify(raised, 0);
  });
}

function answer(request: Request, lookup: (name: string, stale: boolean) => ThreadStoreEntry[]): unknown {
  const entries = lookup(request.name, request.stale);
  if (request.op === 'stores') return entries.map(({ taskId, state, store }) => ({ taskId, state, kind: storeKindOf(store) }));
  const entry = entries.find((e) => e.taskId === request.taskId);
  if (entry === undefined) throw new InvalidStateStoreError(`Store '${request.name}' of task ${request.taskId} moved away while it was read (a rebalance is under way); retry`);
  const method = (entry.store as Record<string, unknown>)[request.method];
  if (typeof method !== 'function') throw new InvalidStateStoreError(`Store '${request.name}' has no method ${request.method}`);
  const value = (method as (...a: unknown[]) => unknown).apply(entry.store, request.args);
  return value !== null && typeof value === 'object' && typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function' && !Array.isArray(value)
    ? Array.from(value as Iterable<unknown>)
    : value;
}
