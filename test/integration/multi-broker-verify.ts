/**
 * Exactly-once checks of the multi-broker failover runs (see multi-broker-support.ts):
 * every input counted once, in the read_committed output and in the store.
 */
import { QueryableStoreTypes, type KafkaStreams } from '../../src/index.js';
import { endOffsets } from '../helpers/topics.js';
import { waitFor } from '../helpers/wait-for.js';
import { STORE, type FailoverTopics } from './multi-broker-support.js';
import { quietKafka } from '../helpers/clients.js';
import { readCommittedByMarkers } from './support.js';

/** The result of {@link checkExactness}. */
export interface Exactness {
  ok: boolean;
  /** Input records (read back from the input topic: the truth). */
  inputs: number;
  keys: number;
  /** Committed output records (one per count update). */
  outputs: number;
  /** Keys whose output sequence is not 1, 2, ..., n (n = the key's inputs). */
  badSequences: number;
  /** Keys whose store count differs from n. */
  badStoreCounts: number;
  /** The first problems, in words. */
  problems: string[];
}

function storeOf(app: KafkaStreams) {
  return app.store({ storeName: STORE, queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() });
}

/** Input records per counted key (the value of each input record), read_committed. */
export async function inputTruth(brokers: string[], input: string): Promise<Map<string, number>> {
  const truth = new Map<string, number>();
  for (const r of await readCommittedByMarkers(brokers, input, 120_000)) {
    const key = r.value?.toString() ?? '';
    truth.set(key, (truth.get(key) ?? 0) + 1);
  }
  return truth;
}

/**
 * Waits (up to `timeoutMs`) until the app has counted every input (the store's counts add up to
 * the input) and no transaction is open on the output (LSO = high watermark).
 */
export async function waitForDrain(brokers: string[], app: KafkaStreams, topics: FailoverTopics, truth: Map<string, number>, timeoutMs: number, applicationId: string): Promise<void> {
  const total = [...truth.values()].reduce((a, b) => a + b, 0);
  const counted = () => {
    const store = storeOf(app);
    return [...truth.keys()].reduce((n, key) => n + (store.get(key) ?? 0), 0);
  };
  try {
    await waitFor(() => app.state === 'RUNNING' && counted() >= total, { timeoutMs, intervalMs: 250, message: `the store to count all ${total} inputs` });
  } catch (e) {
    // say where it stands: the app's state, the count so far, the group's lag per topic
    const seen = (() => { try { return String(counted()); } catch (err) { return `unreadable (${(err as Error).message})`; } })();
    const lag = await groupLag(brokers, applicationId, [topics.input, topics.repartition!]).catch((err: Error) => `unknown (${err.message})`);
    throw new Error(`${(e as Error).message}; app state ${app.state}, counted ${seen} of ${total}, group lag ${lag}`, { cause: e });
  }
  await waitFor(async () => {
    const [lso, hw] = [await endOffsets(brokers, topics.output, 'read_committed'), await endOffsets(brokers, topics.output, 'read_uncommitted')];
    return lso.every((p, i) => p.high === hw[i]!.high);
  }, { timeoutMs, intervalMs: 250, message: 'no open transaction on the output' });
}

/**
 * The checks: for every key, its read_committed output values are exactly 1, 2, ..., n (no
 * duplicate, no gap, n = its inputs) and the store holds n.
 */
export async function checkExactness(brokers: string[], app: KafkaStreams, topics: FailoverTopics, truth: Map<string, number>): Promise<Exactness> {
  const problems: string[] = [];
  const sequences = new Map<string, number[]>();
  const outputs = await readCommittedByMarkers(brokers, topics.output, 120_000);
  for (const r of outputs) {
    const key = r.key?.toString() ?? '';
    const count = r.value && r.value.length === 8 ? Number(r.value.readBigInt64BE()) : NaN;
    (sequences.get(key) ?? sequences.set(key, []).get(key)!).push(count);
  }
  let badSequences = 0;
  let badStoreCounts = 0;
  const store = storeOf(app);
  for (const key of new Set([...truth.keys(), ...sequences.keys()])) {
    const n = truth.get(key) ?? 0;
    const seq = sequences.get(key) ?? [];
    if (seq.length !== n || seq.some((v, i) => v !== i + 1)) {
      badSequences += 1;
      const firstBad = seq.findIndex((v, i) => v !== i + 1);
      problems.push(`${key}: ${n} inputs, ${seq.length} outputs${firstBad >= 0 ? `, output #${firstBad + 1} is ${seq[firstBad]}` : ''}`);
    }
    const stored = store.get(key) ?? 0;
    if (stored !== n) {
      badStoreCounts += 1;
      problems.push(`${key}: store holds ${stored}, inputs ${n}`);
    }
  }
  const inputs = [...truth.values()].reduce((a, b) => a + b, 0);
  return { ok: problems.length === 0, inputs, keys: truth.size, outputs: outputs.length, badSequences, badStoreCounts, problems: problems.slice(0, 10) };
}

/** The group's committed offsets against the end offsets, per partition of `topicNames`, in words. */
async function groupLag(brokers: string[], groupId: string, topicNames: string[]): Promise<string> {
  const admin = quietKafka(brokers).admin();
  await admin.connect();
  try {
    const parts: string[] = [];
    for (const topic of topicNames) {
      const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
      const ends = await admin.fetchTopicOffsets(topic);
      for (const end of ends) {
        const c = committed?.partitions.find((p) => p.partition === end.partition)?.offset ?? '-1';
        parts.push(`${topic.slice(-12)}-${end.partition}: committed ${c} / end ${end.high}`);
      }
    }
    return parts.join(', ');
  } finally {
    await admin.disconnect();
  }
}
