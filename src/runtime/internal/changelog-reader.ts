/**
 * The changelog reader of one instance (Kafka Streams' `StoreChangelogReader`,
 * one per stream thread): every read of a changelog (or of a topic serving as
 * one) goes through it: the active tasks' restoration
 * (`state-manager.ts`), the standby tasks' updates (`standby-tasks.ts`) and
 * the global stores, restored and kept up to date (`global-state-manager.ts`).
 *
 * 1. **One partition reader.** `port()` creates the instance's read_committed
 *    {@link PartitionReaderPort} from the cluster on first use and keeps it
 *    until `close()`. The global stores follow their topics read_uncommitted
 *    under at_least_once (read_committed under exactly_once), as Kafka's global
 *    consumer takes the app's isolation level: only then is a second port
 *    opened, read_uncommitted, behind the same class and closed with it.
 * 2. **One fetch.** `read(tp, position, { end, keyed })` fetches once and keeps
 *    the records below `end` (a source changelog's bound: the group's committed
 *    offset); `keyed` drops records without key (not state: Kafka's
 *    `StoreChangelogReader` skips them; the stores' restorations ask for it,
 *    the global task, whose source drops them itself, does not). The next position is the fetch's `nextOffset`
 *    (markers and aborted data passed), capped at `end`. The batch is idle
 *    when nothing was read, the position did not move and the partition's end
 *    (the last stable offset under read_committed) is not beyond it.
 * 3. **One read loop.** `readTo(tp, from, end, sink)` repeats 2 in batches of
 *    `maxBytes` until the position reaches `end` (an end offset read before:
 *    under read_committed the last stable offset), the batch is idle, or
 *    `sink.stopped()` (the task or app closes: it stops at the next batch and
 *    the position stays after the last batch applied); each non-empty batch
 *    goes to `sink.apply`.
 * 4. **Close once** (the app's close, after the tasks, standbys and global
 *    stores stopped reading): every port opened is closed; a later `port()`
 *    answers undefined.
 *
 * Following loops (a standby catching up, a global store kept current) call
 * `read` once per round, with no wait (a long poll would hold the other
 * fetches on the shared port up), and sleep with an {@link IdleSleep} after a
 * round that read nothing; the bounded restorations (active tasks, the global
 * stores at start) call `readTo`.
 */
import type { Logger } from 'pino';
import type { ClientConnectionOptions, ClusterPort, ConsumedRecord, PartitionReaderPort, TopicPartition } from '../../cluster/port.js';
import { StreamsError } from '../../errors.js';
import type { ChangelogRecord } from '../../state/store-contract.js';

/** The isolation level of a read: read_committed unless a global store reads under at_least_once. */
export type ChangelogIsolation = 'read_committed' | 'read_uncommitted';

/** Options of one read (step 2). */
export interface ChangelogReadOptions {
  /** Records at or beyond it are not kept and the position stops there (default: none). */
  end?: number;
  /** Drop records without key (a store's restoration: such a record is not state). */
  keyed?: boolean;
  maxBytes: number;
  maxWaitMs: number;
  isolation?: ChangelogIsolation;
}

/** What one read (step 2) gives. */
export interface ChangelogBatch {
  /** Records below `end` in offset order (keyless ones dropped when `keyed`). */
  records: ConsumedRecord[];
  /** Where the next read starts (never below the position read from). */
  next: number;
  /** Nothing read, the position did not move and the partition ends at or before it. */
  idle: boolean;
}

/** Where a bounded read (step 3) hands its batches. */
export interface ChangelogSink {
  apply(batch: ChangelogBatch): void | Promise<void>;
  /** True once the reader should stop (the task or app closes). */
  stopped(): boolean;
}

/** How the reader opens a port (the cluster's `reader`, or a test's). */
export type PortOpener = (isolation: ChangelogIsolation) => PartitionReaderPort | undefined;

/** The port opener of a cluster: `<clientId>-changelog` (read_committed) and `<clientId>-changelog-uncommitted`. */
export function clusterPortOpener(cluster: ClusterPort, clientId: string, connection?: ClientConnectionOptions): PortOpener {
  return (isolation) =>
    cluster.reader?.({
      isolationLevel: isolation,
      clientId: isolation === 'read_committed' ? `${clientId}-changelog` : `${clientId}-changelog-uncommitted`,
      ...(connection ? { connection } : {}),
    });
}

/** Turns consumed records into the records a store restores (a keyless one, kept only for global tasks, gets an empty key). */
export function toChangelogRecords(records: readonly ConsumedRecord[], source?: TopicPartition): ChangelogRecord[] {
  // one object literal per record (a spread of `{ source }` would allocate and copy a second one)
  const out = new Array<ChangelogRecord>(records.length);
  for (let i = 0; i < records.length; i++) {
    const r = records[i] as ConsumedRecord;
    const key = r.key ?? Buffer.alloc(0);
    out[i] = source ? { key, value: r.value, timestamp: r.timestamp, headers: r.headers, offset: r.offset, source } : { key, value: r.value, timestamp: r.timestamp, headers: r.headers, offset: r.offset };
  }
  return out;
}

/** See the module comment. */
export class ChangelogReader {
  readonly #ports = new Map<ChangelogIsolation, PartitionReaderPort>();
  #closed = false;

  constructor(
    private readonly open: PortOpener,
    private readonly logger: Logger,
  ) {}

  /** Step 1: the port of `isolation`, opened on first use; undefined on a cluster without readers or after close. */
  port(isolation: ChangelogIsolation = 'read_committed'): PartitionReaderPort | undefined {
    if (this.#closed) return undefined;
    let port = this.#ports.get(isolation);
    if (port === undefined) {
      port = this.open(isolation);
      if (port !== undefined) this.#ports.set(isolation, port);
    }
    return port;
  }

  /** The ports opened so far (tests: one per instance). */
  get openPorts(): number {
    return this.#ports.size;
  }

  /** End offset per partition of `topic` (read_committed: the last stable offsets). */
  endOffsets(topic: string, isolation: ChangelogIsolation = 'read_committed'): Promise<number[]> {
    return this.#require(isolation).endOffsets(topic);
  }

  /** Step 2. Rejects as the port does (OFFSET_OUT_OF_RANGE: the position is outside the log). */
  async read(tp: TopicPartition, position: number, options: ChangelogReadOptions): Promise<ChangelogBatch> {
    const end = options.end ?? Number.POSITIVE_INFINITY;
    const fetched = await this.#require(options.isolation ?? 'read_committed').fetch(tp, position, { maxBytes: options.maxBytes, maxWaitMs: options.maxWaitMs });
    const records: ConsumedRecord[] = [];
    for (const r of fetched.records) {
      if (r.offset >= end) break;
      if (options.keyed === true && r.key === null) continue;
      records.push(r);
    }
    const next = Math.max(position, Math.min(fetched.nextOffset, end));
    const idle = fetched.records.length === 0 && fetched.nextOffset <= position && fetched.endOffset <= position;
    return { records, next, idle };
  }

  /** Step 3: reads `tp` from `from` up to `end`; returns the position reached and the records applied. */
  async readTo(tp: TopicPartition, from: number, end: number, sink: ChangelogSink, options: Omit<ChangelogReadOptions, 'end'>): Promise<{ position: number; count: number }> {
    let position = from;
    let count = 0;
    while (position < end && !sink.stopped()) {
      const batch = await this.read(tp, position, { ...options, end });
      if (sink.stopped()) break;
      if (batch.records.length > 0) {
        await sink.apply(batch);
        count += batch.records.length;
        if (sink.stopped()) break;
      }
      position = batch.next;
      if (batch.idle) break;
    }
    return { position, count };
  }

  /** Step 4. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const ports = [...this.#ports.values()];
    this.#ports.clear();
    await Promise.all(ports.map((port) => port.close().catch((error: unknown) => this.logger.debug({ err: error }, 'closing the changelog reader failed'))));
  }

  #require(isolation: ChangelogIsolation): PartitionReaderPort {
    const port = this.port(isolation);
    if (port !== undefined) return port;
    // Callers check `port()` first and name the store that needs it; this is the fallback (e.g. a read after close).
    throw new StreamsError(this.#closed ? 'The changelog reader is closed (the app is closing)' : 'The cluster offers no partition reader to read changelogs; use the kafkajs or embedded cluster', { code: 'STATE_RESTORE_FAILED' });
  }
}

/** The sleep of a following loop after a round that read nothing: `sleep(ms)` resolves after `ms`, or at once on `wake()` (an update, a close). */
export class IdleSleep {
  #wake: (() => void) | undefined;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = () => {
        this.#wake = undefined;
        done();
      };
    });
  }

  wake(): void {
    this.#wake?.();
  }
}
