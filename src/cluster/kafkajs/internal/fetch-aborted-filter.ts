/**
 * Correct read_committed filtering for kafkajs 2.2.4, installed at run time on
 * sluice's private copy of kafkajs (`patches.ts`).
 *
 * kafkajs' `consumer/filterAbortedMessages.js` has two bugs that let records of
 * aborted transactions through a read_committed consumer:
 * - it assumes the broker's `aborted_transactions` sorted by first offset, but
 *   the broker lists them in the order their abort markers were written, so
 *   interleaved transactions that abort in the opposite order leak;
 * - it activates at most one aborted transaction per record, so a fetch that
 *   starts inside several aborted transactions leaks all but one of them.
 *
 * `Batch` captures that function when kafkajs loads, so the fix sits one layer
 * down: every Fetch response version with aborted transactions (v4+) is wrapped
 * so that, after decoding, each partition's aborted records are found as
 * Kafka's Java consumer does (`CompletedFetch.nextFetchedRecord`) and marked
 * as control records, and kafkajs is handed an empty aborted list (its own
 * filter becomes a no-op). Marked, not removed: kafkajs drops control records
 * from what it delivers but keeps them for offset accounting, so a fetch made
 * only of aborted records is skipped ("empty due to filtering") instead of
 * looking empty and being fetched again forever.
 */
import type { KafkaJsInternals } from './kafkajs-internals.js';

const PATCHED = Symbol.for('sluice.fetchAbortedFilter');

/** A decoded record as kafkajs' RecordBatch decoder yields it. */
export interface FetchedMessage {
  offset: string;
  key: Buffer | null;
  isControlRecord?: boolean;
  batchContext: { producerId: string; inTransaction: boolean };
}

/** One aborted transaction of a Fetch response partition. */
export interface AbortedTransaction {
  producerId: string;
  firstOffset: string;
}

const ABORT_MARKER_KEY = Buffer.from([0, 0, 0, 0]); // control record key: version 0, type 0 (ABORT)

/**
 * Drops the records of aborted transactions, as Kafka's consumer does:
 * 1. sort the aborted transactions by first offset;
 * 2. walking the records in offset order, every aborted transaction whose first
 *    offset is at or below the record's offset makes its producer "aborted";
 * 3. an abort marker of that producer ends it (the marker itself is kept);
 * 4. a transactional record of an aborted producer is dropped.
 */
export function filterAbortedRecords<M extends FetchedMessage>(messages: M[], aborted: AbortedTransaction[]): M[] {
  if (aborted.length === 0) return messages;
  const pending = aborted
    .map((t) => ({ producerId: t.producerId, firstOffset: BigInt(t.firstOffset) }))
    .sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0));
  const abortedProducers = new Set<string>();
  let next = 0;
  return messages.filter((message) => {
    const offset = BigInt(message.offset);
    for (let t = pending[next]; t !== undefined && t.firstOffset <= offset; t = pending[++next]) abortedProducers.add(t.producerId);
    const { producerId, inTransaction } = message.batchContext;
    if (message.isControlRecord) {
      if (message.key && Buffer.from(message.key).equals(ABORT_MARKER_KEY)) abortedProducers.delete(producerId);
      return true;
    }
    return !(inTransaction && abortedProducers.has(producerId));
  });
}

interface DecodedFetch {
  responses: Array<{ partitions: Array<{ abortedTransactions?: AbortedTransaction[]; messages: FetchedMessage[] }> }>;
}
interface FetchResponseCodec {
  decode(raw: Buffer): Promise<DecodedFetch>;
  parse(data: DecodedFetch): Promise<unknown>;
}
interface FetchRequestDefinitions {
  protocol: (args: { version: number }) => (args: unknown) => { response: FetchResponseCodec } & Record<string, unknown>;
  [PATCHED]?: true;
}

const wrapped = new WeakMap<FetchResponseCodec, FetchResponseCodec>();

function wrapResponse(response: FetchResponseCodec): FetchResponseCodec {
  let codec = wrapped.get(response);
  if (!codec) {
    codec = {
      decode: async (raw) => {
        const data = await response.decode(raw);
        for (const topic of data.responses ?? []) {
          for (const partition of topic.partitions ?? []) {
            if (!partition.abortedTransactions?.length) continue;
            const kept = new Set(filterAbortedRecords(partition.messages, partition.abortedTransactions));
            for (const message of partition.messages) if (!kept.has(message)) message.isControlRecord = true;
            partition.abortedTransactions = [];
          }
        }
        return data;
      },
      parse: (data) => response.parse(data),
    };
    wrapped.set(response, codec);
  }
  return codec;
}

/** Installs the filter on the Fetch request module of `internals` (sluice's private kafkajs). Idempotent. */
export function installAbortedTransactionFilter(internals: KafkaJsInternals): void {
  const definitions = internals.load<FetchRequestDefinitions>('protocol/requests/fetch/index.js');
  if (definitions[PATCHED]) return;
  const original = definitions.protocol;
  definitions.protocol = ({ version }) => {
    const factory = original({ version });
    return (args: unknown) => {
      const built = factory(args);
      return { ...built, response: wrapResponse(built.response) };
    };
  };
  definitions[PATCHED] = true;
}
