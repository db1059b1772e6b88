/**
 * The multi-broker failover harness (test/integration/multi-broker-failover.test.ts and
 * `npm run soak:brokers`): a stateful exactly-once app on a real 3-node cluster, a steady
 * input load, a timeline of the app's states, and SIGKILLs of partition leaders.
 *
 * The app: input (key `r<seq>`, value `key-<seq % keys>`) → selectKey(value) → groupByKey →
 * count (store `counts`, caching off: every update is emitted) → output (key, count as Long).
 * It has a repartition topic and a changelog, both at the cluster's default RF 3 / min ISR 2.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killNode, restartNode, type RunningCluster } from '../../scripts/kafka/cluster.mjs';
import { partitionLeader, partitionStates, waitForFullIsr, waitForNewLeader } from '../../scripts/kafka/cluster-metadata.mjs';
import { pino } from 'pino';
import { KafkaStreams, Materialized, Serdes, StreamsBuilder } from '../../src/index.js';
import { quietKafka } from '../helpers/clients.js';

/** The store of the counts. */
export const STORE = 'counts';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Topics of one run; `repartition` and `changelog` are known once the app created them. */
export interface FailoverTopics {
  input: string;
  output: string;
  repartition?: string;
  changelog?: string;
}

/**
 * The app's last log lines (info and above), kept in memory and printed only when a run fails:
 * a stalled run must say why (LOG_LEVEL still sends every line to stdout).
 */
export class LogRing {
  readonly lines: string[] = [];
  constructor(private readonly size = 400) {}
  write(line: string): void {
    this.lines.push(line.trimEnd());
    if (this.lines.length > this.size) this.lines.splice(0, this.lines.length - this.size);
  }
}

/** The counting app (see the module comment) on `brokers`, with its own state directory. */
export function countingApp(brokers: string[], applicationId: string, topics: FailoverTopics, ring?: LogRing): { app: KafkaStreams; cleanup: () => void } {
  const builder = new StreamsBuilder();
  builder
    .stream(topics.input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
    .selectKey((_key, value) => value)
    .groupByKey()
    .count(Materialized.as(STORE))
    .toStream()
    .to(topics.output, { keySerde: Serdes.String(), valueSerde: Serdes.Long() });
  const stateDir = mkdtempSync(join(tmpdir(), 'sluice-brokers-'));
  const app = new KafkaStreams(builder.build(), {
    applicationId, bootstrapServers: brokers, stateDir, processingGuarantee: 'exactly_once', commitIntervalMs: 100, statestoreCacheMaxBytes: 0,
    // quiet unless LOG_LEVEL asks (kafkajs logs every refused connection to a killed broker at
    // error level); else the last lines go to `ring`, printed if the run fails
    ...(process.env.LOG_LEVEL || !ring ? { logLevel: (process.env.LOG_LEVEL as 'warn' | undefined) ?? 'silent' } : { logger: pino({ level: 'info' }, ring) }),
  });
  return { app, cleanup: () => rmSync(stateDir, { recursive: true, force: true }) };
}

/** The app's internal topics (`<applicationId>-...-repartition`, `-changelog`), once created. */
export async function internalTopics(brokers: string[], applicationId: string): Promise<{ repartition?: string; changelog?: string }> {
  const names = (await partitionStates(brokers)).map((p) => p.topic).filter((t) => t.startsWith(`${applicationId}-`));
  return { repartition: names.find((t) => t.endsWith('-repartition')), changelog: names.find((t) => t.endsWith('-changelog')) };
}

/**
 * A steady input load: every `tickMs`, `perTick` records (key `r<seq>`, value `key-<seq % keys>`,
 * partition seq % partitions), acks=all from an idempotent producer, one send per partition. A
 * failed send is retried with the same records (the broker de-duplicates them, kafkajs keeps their
 * sequence numbers); failures are counted, never fatal.
 */
export class SteadyLoad {
  produced = 0;
  failedSends = 0;
  #stopped = false;
  #loop: Promise<void> | undefined;
  readonly #producer;

  constructor(brokers: string[], private readonly topic: string, private readonly o: { partitions: number; keys: number; perTick: number; tickMs: number; limit?: number }) {
    this.#producer = quietKafka(brokers, { retry: { retries: 10, initialRetryTime: 100, maxRetryTime: 1000 } }).producer({ idempotent: true, maxInFlightRequests: 1 });
  }

  async start(): Promise<void> {
    await this.#producer.connect();
    this.#loop = (async () => {
      while (!this.#stopped && (this.o.limit === undefined || this.produced < this.o.limit)) {
        const count = Math.min(this.o.perTick, (this.o.limit ?? Infinity) - this.produced);
        const perPartition = new Map<number, Array<{ key: string; value: string; partition: number }>>();
        for (let seq = this.produced; seq < this.produced + count; seq++) {
          const partition = seq % this.o.partitions;
          (perPartition.get(partition) ?? perPartition.set(partition, []).get(partition)!).push({ key: `r${seq}`, value: `key-${seq % this.o.keys}`, partition });
        }
        await Promise.all([...perPartition.values()].map((messages) => this.#sendUntilDone(messages)));
        this.produced += count;
        await sleep(this.o.tickMs);
      }
    })();
  }

  /**
   * One partition per send: kafkajs 2.2.4 (producer/sendMessages.js) silently drops a partition's
   * records when a retry finds its new leader among the brokers that already answered the same
   * send (`responsePerBroker` is keyed by broker; kafkajs issue #1303). Seen here: 7 of 7,340 records
   * lost in one run. sluice's raw producer sends one partition per request and is not exposed.
   */
  async #sendUntilDone(messages: Array<{ key: string; value: string; partition: number }>): Promise<void> {
    for (;;) {
      try {
        await this.#producer.send({ topic: this.topic, acks: -1, messages });
        return;
      } catch {
        this.failedSends += 1;
        await sleep(200);
      }
    }
  }

  /** Stops producing (after the batch in flight) and disconnects. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#loop;
    await this.#producer.disconnect();
  }
}

/** One state change of an app, with its time. */
export interface Transition {
  at: number;
  state: string;
}

/** Records an app's state transitions; measures the stretches it spent outside RUNNING. */
export class StateTimeline {
  readonly transitions: Transition[] = [];

  constructor(app: KafkaStreams) {
    app.state$.subscribe((state) => this.transitions.push({ at: Date.now(), state }));
  }

  /** Stretches outside RUNNING after the first RUNNING (an open one ends `now`). */
  stretches(now = Date.now()): Array<{ from: number; to: number; states: string[] }> {
    const out: Array<{ from: number; to: number; states: string[] }> = [];
    let open: { from: number; states: string[] } | undefined;
    let seenRunning = false;
    for (const t of this.transitions) {
      if (t.state === 'RUNNING') {
        if (open) out.push({ ...open, to: t.at });
        open = undefined;
        seenRunning = true;
      } else if (seenRunning) {
        if (open) open.states.push(t.state);
        else open = { from: t.at, states: [t.state] };
      }
    }
    if (open) out.push({ ...open, to: now });
    return out;
  }

  /** The longest stretch outside RUNNING overlapping [from, to] (0 when none). */
  longestNotRunning(from = 0, to = Date.now()): number {
    return Math.max(0, ...this.stretches().filter((s) => s.to >= from && s.from <= to).map((s) => s.to - s.from));
  }
}

/**
 * Output progress: the sum of the output topic's high watermarks, polled every 200 ms; the
 * longest time it stood still in a window is how long the app produced nothing.
 */
export class ProgressMonitor {
  readonly samples: Array<{ at: number; total: number }> = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #admin;
  #busy = false;

  constructor(brokers: string[], private readonly topic: string) {
    this.#admin = quietKafka(brokers, { retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 200 }, requestTimeout: 2000 }).admin();
  }

  async start(): Promise<void> {
    await this.#admin.connect();
    this.#timer = setInterval(() => {
      if (this.#busy) return;
      this.#busy = true;
      this.#admin
        .fetchTopicOffsets(this.topic)
        .then((offsets) => this.samples.push({ at: Date.now(), total: offsets.reduce((n, p) => n + Number(p.high), 0) }))
        .catch(() => undefined)
        .finally(() => (this.#busy = false));
    }, 200);
  }

  /** Longest time within [from, to] without the output growing (while the input kept coming). */
  longestStall(from: number, to: number): number {
    const inWindow = this.samples.filter((s) => s.at >= from && s.at <= to);
    let longest = 0;
    let since = from;
    let last = this.samples.filter((s) => s.at < from).at(-1)?.total ?? -1;
    for (const s of inWindow) {
      if (s.total !== last) {
        longest = Math.max(longest, s.at - since);
        since = s.at;
        last = s.total;
      }
    }
    return Math.max(longest, (inWindow.at(-1)?.at ?? since) - since);
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#admin.disconnect().catch(() => undefined);
  }
}

/** A partition whose leader is killed. */
export interface KillTarget {
  label: string;
  topic: string;
  partition: number;
}

/** Figures of one leader kill. */
export interface KillFigure extends KillTarget {
  killedNode: number;
  newLeader: number;
  /** SIGKILL → the metadata names another leader. */
  electionMs: number;
  /** SIGKILL → the node is back and every replica in sync. */
  downMs: number;
  at: number;
}

/**
 * Kills the leader of `target`. Steps: 1. find its leader; 2. SIGKILL it; 3. wait for a new
 * leader (the election time); 4. keep it down `downMs` more; 5. restart it on its data;
 * 6. wait until every replica of every topic is in sync again (the next kill must not take
 * a partition's last in-sync replica).
 */
export async function killLeader(cluster: RunningCluster, target: KillTarget, o: { downMs: number }): Promise<KillFigure> {
  const leader = await partitionLeader(cluster.brokers, target.topic, target.partition); // 1.
  const at = Date.now();
  await killNode({ port: cluster.port, id: leader }); // 2.
  const elected = await waitForNewLeader(cluster.brokers, target.topic, target.partition, leader, { timeoutMs: 60_000 }); // 3.
  const electionMs = Date.now() - at;
  await sleep(o.downMs); // 4.
  await restartNode({ port: cluster.port, id: leader }); // 5.
  await waitForFullIsr(cluster.brokers, { timeoutMs: 120_000 }); // 6.
  return { ...target, killedNode: leader, newLeader: elected.leader, electionMs, downMs: Date.now() - at, at };
}
