/**
 * One exception-handler contract case on one backend: its topics, its inputs
 * (with their partition and offset), the app, and the checks of issue #7 —
 * committed offsets, visible outputs parsed back to their input coordinates,
 * and the exactly-once invariant (DESIGN.md §6).
 */
import { KafkaStreams } from '../../../src/runtime/kafka-streams.js';
import type { KafkaStreamsConfig } from '../../../src/runtime/config.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import type { BackendContext, ReadIsolation } from '../backends.js';
import { handlerTopology, outputTopicOf, type HandlerTopics, type Kind, type OutputValue } from './handler-topology.js';

export const PARTITIONS = 3;

/** An input record as produced: its index, kind and where it landed. */
export interface InputRecord {
  i: number;
  kind: Kind;
  partition: number;
  offset: number;
}

/** A visible output record, parsed. */
export interface VisibleOutput {
  topic: string;
  key: string | null;
  value: OutputValue;
  /** Input partition and offset (from `value.src`). */
  inPartition: number;
  inOffset: number;
}

const coord = (p: number, o: number) => `${p}:${o}`;

/** See the module comment. Create one per test; `close()` closes its apps. */
export class HandlerCase {
  readonly topics: HandlerTopics;
  readonly applicationId: string;
  readonly inputs: InputRecord[] = [];
  readonly #next = Array.from({ length: PARTITIONS }, () => 0);
  readonly #apps: KafkaStreams[] = [];
  readonly #extraTopics: string[] = [];

  private constructor(
    readonly ctx: BackendContext,
    readonly name: string,
    topics: HandlerTopics,
  ) {
    this.topics = topics;
    this.applicationId = uniqueGroup(`eh-${name}`);
  }

  /**
   * Creates the input (3 partitions), `out` (max.message.bytes 2048) and `compact` (cleanup.policy compact)
   * topics; `configs` replaces the configs of `out` and `compact` (e.g. `{}` to set them later).
   */
  static async create(ctx: BackendContext, name: string, configs: { out?: Record<string, string>; compact?: Record<string, string> } = {}): Promise<HandlerCase> {
    const topics: HandlerTopics = { input: uniqueTopic(`eh-${name}-in`), out: uniqueTopic(`eh-${name}-out`), compact: uniqueTopic(`eh-${name}-compact`) };
    await ctx.admin.createTopic(topics.input, { partitions: PARTITIONS, config: {} });
    await ctx.admin.createTopic(topics.out, { partitions: PARTITIONS, config: configs.out ?? { 'max.message.bytes': '2048' } });
    await ctx.admin.createTopic(topics.compact, { partitions: PARTITIONS, config: configs.compact ?? { 'cleanup.policy': 'compact' } });
    return new HandlerCase(ctx, name, topics);
  }

  /** Creates one more (plain) topic, e.g. a dead-letter topic. */
  async extraTopic(suffix: string, partitions = PARTITIONS, config: Record<string, string> = {}): Promise<string> {
    const topic = uniqueTopic(`eh-${this.name}-${suffix}`);
    await this.ctx.admin.createTopic(topic, { partitions, config });
    this.#extraTopics.push(topic);
    return topic;
  }

  /**
   * Produces inputs `from .. from+kinds.length-1` (plain, non-transactional), input i to partition i % 3,
   * key `k<i>`, value `{"i":i,"kind":kind}` (raw `not json {i}` for `badjson`). Offsets are tracked
   * (only this case writes the input topic).
   */
  async produce(kinds: Kind[], from = this.inputs.length): Promise<InputRecord[]> {
    const producer = this.ctx.cluster.producer({});
    await producer.connect();
    const added: InputRecord[] = [];
    try {
      for (let p = 0; p < PARTITIONS; p++) {
        const batch = kinds.map((kind, n) => ({ i: from + n, kind })).filter(({ i }) => i % PARTITIONS === p);
        if (batch.length === 0) continue;
        await producer.produce({
          topic: this.topics.input,
          partition: p,
          records: batch.map(({ i, kind }) => ({
            key: Buffer.from(`k${i}`),
            value: Buffer.from(kind === 'badjson' ? `not json {${i}` : JSON.stringify({ i, kind })),
            headers: { 'test.input': String(i) },
            timestamp: Date.now(),
          })),
        });
        for (const { i, kind } of batch) added.push({ i, kind, partition: p, offset: this.#next[p]!++ });
      }
    } finally {
      await producer.close();
    }
    this.inputs.push(...added);
    return added;
  }

  /**
   * Starts an app on the case topology (commitIntervalMs 100 unless given), on the backend's app cluster
   * (kafka-secure: a principal allowed to read the input and write `out`, `compact` and the extra topics).
   */
  async start(config: Omit<KafkaStreamsConfig, 'cluster' | 'applicationId'> = {}): Promise<KafkaStreams> {
    const { input, out, compact } = this.topics;
    const cluster = await this.ctx.appCluster({ applicationId: this.applicationId, inputTopics: [input], outputTopics: [out, compact, ...this.#extraTopics] });
    const app = new KafkaStreams(handlerTopology(this.topics), {
      applicationId: this.applicationId,
      cluster,
      commitIntervalMs: 100,
      ...this.ctx.consumerTiming,
      ...config,
    });
    this.#apps.push(app);
    await app.start();
    return app;
  }

  eventually<T>(f: () => T | Promise<T>, message: string): Promise<NonNullable<Exclude<T, false | 0 | ''>>> {
    return waitFor(f, { timeoutMs: this.ctx.patienceMs, intervalMs: 100, message });
  }

  /** Committed offset per input partition (0 when none). */
  async committed(): Promise<number[]> {
    return (await this.ctx.admin.committedOffsets(this.applicationId, this.topics.input)).map((c) => Math.max(0, c));
  }

  /** Waits until committed offsets equal the end offsets on every input partition; returns them. */
  async waitAllCommitted(): Promise<number[]> {
    return this.eventually(async () => {
      const [committed, end] = [await this.ctx.admin.committedOffsets(this.applicationId, this.topics.input), await this.ctx.admin.endOffsets(this.topics.input)];
      return committed.length === PARTITIONS && committed.every((c, p) => c === end[p]) && committed;
    }, `committed offsets == end offsets on all ${PARTITIONS} input partitions`);
  }

  /** Visible outputs of `out` and `compact`, parsed. */
  async outputs(isolation: ReadIsolation = 'read_committed'): Promise<VisibleOutput[]> {
    const result: VisibleOutput[] = [];
    for (const topic of [this.topics.out, this.topics.compact]) {
      for (const r of await this.ctx.read(topic, isolation)) {
        const value = JSON.parse(r.value!.toString()) as OutputValue;
        const [p, o] = value.src.split(':').map(Number) as [number, number];
        result.push({ topic, key: r.key?.toString() ?? null, value, inPartition: p, inOffset: o });
      }
    }
    return result;
  }

  /** The inputs whose output is expected (good ones), optionally only those below `committed`. */
  goodInputs(committed?: number[]): InputRecord[] {
    return this.inputs.filter((r) => r.kind === 'good' && (committed === undefined || r.offset < committed[r.partition]!));
  }

  /**
   * Problems with the visible outputs against `committed` (empty when the invariant holds):
   * every visible output is the output of a good input below the committed offset, in the right topic
   * with the right key, exactly once; every good input below the committed offset has its output visible.
   */
  violations(outputs: VisibleOutput[], committed: number[]): string[] {
    const problems: string[] = [];
    const byCoord = new Map(this.inputs.map((r) => [coord(r.partition, r.offset), r]));
    const seen = new Map<string, number>();
    for (const o of outputs) {
      const c = coord(o.inPartition, o.inOffset);
      seen.set(c, (seen.get(c) ?? 0) + 1);
      const input = byCoord.get(c);
      if (!input) problems.push(`output of unknown input ${c}`);
      else if (input.kind !== 'good') problems.push(`output of poison input ${c} (${input.kind}) visible`);
      else if (input.i !== o.value.i || outputTopicOf(this.topics, input.i, input.kind) !== o.topic || o.key !== `k${input.i}`) {
        problems.push(`output of ${c} wrong: i=${o.value.i} topic=${o.topic} key=${o.key}`);
      }
      if (o.inOffset >= committed[o.inPartition]!) problems.push(`output of uncommitted input ${c} visible (committed ${committed[o.inPartition]})`);
    }
    for (const [c, n] of seen) if (n > 1) problems.push(`output of ${c} visible ${n} times`);
    for (const r of this.goodInputs(committed)) {
      if (!seen.has(coord(r.partition, r.offset))) problems.push(`output of committed input ${coord(r.partition, r.offset)} (i=${r.i}) missing`);
    }
    return problems;
  }

  /**
   * Waits (markers and transactional offsets land a little after a commit) until the invariant holds
   * for the committed offsets and visible outputs; returns both. Throws with the problems otherwise.
   */
  async checkInvariant(): Promise<{ committed: number[]; outputs: VisibleOutput[] }> {
    let last: string[] = [];
    try {
      return await this.eventually(async () => {
        const committed = await this.committed();
        const outputs = await this.outputs();
        last = this.violations(outputs, committed);
        return last.length === 0 && { committed, outputs };
      }, 'the exactly-once invariant');
    } catch (error) {
      throw new Error(`${(error as Error).message}; problems (first 10 of ${last.length}): ${last.slice(0, 10).join('; ')}`);
    }
  }

  /** Closes every app this case started (idempotent). */
  async close(): Promise<void> {
    await Promise.all(this.#apps.splice(0).map((a) => a.close()));
  }
}
