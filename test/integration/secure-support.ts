/**
 * Shared pieces of the secure acceptance tests (issue 27, "Join a real company's
 * Kafka"): apps built with the public API and connected with `ssl`/`sasl` to the
 * secure test broker, and how a failure is observed (start() rejects or the app
 * goes to ERROR) with its time and its whole message chain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaStreams, Serdes, StreamsBuilder, type KafkaStreamsConfig } from '../../src/index.js';
import { waitFor } from '../helpers/index.js';

const S = Serdes.String();

/** input → upper-cased values → output (stateless). */
export function upperTopology(input: string, output: string) {
  const b = new StreamsBuilder();
  b.stream<string, string>(input, { keySerde: S, valueSerde: S })
    .mapValues((v) => v.toUpperCase())
    .to(output, { keySerde: S, valueSerde: S });
  return b.build();
}

/**
 * input (value = a word) → selectKey(word) → groupByKey → count → output `word=n`:
 * one repartition topic and one changelog topic, both `<applicationId>-...`.
 */
export function wordCountTopology(input: string, output: string) {
  const b = new StreamsBuilder();
  b.stream<string, string>(input, { keySerde: S, valueSerde: S })
    .selectKey((_k, word) => word)
    .groupByKey({ keySerde: S, valueSerde: S })
    .count()
    .toStream()
    .mapValues((n) => String(n))
    .to(output, { keySerde: S, valueSerde: S });
  return b.build();
}

/** Apps and state directories made by {@link SecureApps.create}; `closeAll()` after each test. */
export class SecureApps {
  readonly #apps: KafkaStreams[] = [];
  readonly #dirs: string[] = [];

  create(topology: ReturnType<StreamsBuilder['build']>, config: KafkaStreamsConfig): KafkaStreams {
    const stateDir = mkdtempSync(join(tmpdir(), 'sluice-secure-'));
    this.#dirs.push(stateDir);
    const app = new KafkaStreams(topology, { stateDir, commitIntervalMs: 100, sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500, ...config });
    this.#apps.push(app);
    return app;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.#apps.splice(0).map((a) => a.close().catch(() => undefined)));
    for (const dir of this.#dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

/** The message of `error` and of every `cause` below it, joined with " <- ". */
export function messageChain(error: unknown): string {
  const parts: string[] = [];
  for (let e = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    parts.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  }
  return parts.join(' <- ');
}

/** How an app failed: the error (start()'s rejection, else `app.error`), the state, and how long it took. */
export interface Failure {
  error: unknown;
  message: string;
  state: string;
  ms: number;
}

/**
 * Starts `app` and waits until it fails: start() rejects, or the app reaches ERROR
 * (e.g. a denied write in its first transaction). Throws when neither happens
 * within `timeoutMs`.
 */
export async function startUntilFailure(app: KafkaStreams, timeoutMs: number): Promise<Failure> {
  const began = Date.now();
  let rejected: unknown;
  let settled = false;
  void app.start().then(
    () => undefined,
    (error: unknown) => {
      rejected = error;
      settled = true;
    },
  );
  await waitFor(() => settled || app.state === 'ERROR', { timeoutMs, intervalMs: 50, message: `the app neither failed to start nor reached ERROR within ${timeoutMs} ms (state ${app.state})` });
  const ms = Date.now() - began;
  const error = rejected ?? app.error;
  return { error, message: messageChain(error), state: app.state, ms };
}
