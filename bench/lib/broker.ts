/** Finds the Kafka broker to benchmark against, or starts one with scripts/kafka.mjs's API. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { clusterAnswers } from './kafka.js';

/** The broker the benchmark uses. */
export interface BrokerInfo {
  brokers: string[];
  /** Kafka version when known (state file of scripts/kafka.mjs, or KAFKA_VERSION). */
  version?: string;
  /** True when this run started it (it is left running). */
  started: boolean;
}

interface StartBrokerApi {
  startBroker(options?: { port?: number }): Promise<{ bootstrap: string; version: string; reused: boolean }>;
}

function versionFromState(repoRoot: string, brokers: string[]): string | undefined {
  const port = /:(\d+)$/.exec(brokers[0] ?? '')?.[1];
  const state = join(repoRoot, '.kafka', 'run', port ?? '9092', 'state.json');
  try {
    const parsed = JSON.parse(readFileSync(state, 'utf8')) as { version?: string };
    return parsed.version ?? process.env['KAFKA_VERSION'];
  } catch {
    return process.env['KAFKA_VERSION'];
  }
}

/**
 * KAFKA_BROKERS (comma-separated) or 127.0.0.1:9092. When nothing answers there
 * and KAFKA_BROKERS is unset, starts a broker through scripts/kafka/broker.mjs
 * (`startBroker`); fails with a clear message otherwise.
 */
export async function ensureBroker(repoRoot: string, log: (line: string) => void): Promise<BrokerInfo> {
  const fromEnv = process.env['KAFKA_BROKERS'];
  const brokers = (fromEnv ?? '127.0.0.1:9092').split(',').map((b) => b.trim()).filter(Boolean);
  if (await clusterAnswers(brokers)) return { brokers, version: versionFromState(repoRoot, brokers), started: false };
  if (fromEnv) throw new Error(`no Kafka broker answers at KAFKA_BROKERS=${fromEnv}`);
  const api = join(repoRoot, 'scripts', 'kafka', 'broker.mjs');
  if (!existsSync(api)) {
    throw new Error('no Kafka broker answers at 127.0.0.1:9092 and scripts/kafka/broker.mjs is missing: start one (npm run kafka:start) or set KAFKA_BROKERS');
  }
  log('no broker at 127.0.0.1:9092: starting one with scripts/kafka/broker.mjs (left running afterwards)');
  const { startBroker } = (await import(pathToFileURL(api).href)) as StartBrokerApi;
  const b = await startBroker();
  return { brokers: [b.bootstrap], version: b.version, started: !b.reused };
}
