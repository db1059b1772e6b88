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
  /** The broker's process id when it runs on this machine (scripts/kafka.mjs state): its CPU is sampled per run. */
  pid?: number;
}

interface StartBrokerApi {
  startBroker(options?: { port?: number }): Promise<{ bootstrap: string; version: string; reused: boolean }>;
}

/** The run state scripts/kafka.mjs wrote for the broker at `brokers` (under SLUICE_KAFKA_HOME, else the checkout's .kafka), if any. */
function brokerState(repoRoot: string, brokers: string[]): { version?: string; pid?: number } {
  const port = /:(\d+)$/.exec(brokers[0] ?? '')?.[1] ?? '9092';
  const home = process.env['SLUICE_KAFKA_HOME'] || join(repoRoot, '.kafka');
  try {
    return JSON.parse(readFileSync(join(home, 'run', port, 'state.json'), 'utf8')) as { version?: string; pid?: number };
  } catch {
    return {};
  }
}

/** True when `pid` is a live process on this machine (a state file may outlive its broker). */
function localPid(pid: number | undefined): pid is number {
  return pid !== undefined && existsSync(`/proc/${pid}/stat`);
}

/**
 * KAFKA_BROKERS (comma-separated) or 127.0.0.1:9092. When nothing answers there
 * and KAFKA_BROKERS is unset, starts a broker through scripts/kafka/broker.mjs
 * (`startBroker`); fails with a clear message otherwise.
 */
export async function ensureBroker(repoRoot: string, log: (line: string) => void): Promise<BrokerInfo> {
  const fromEnv = process.env['KAFKA_BROKERS'];
  const brokers = (fromEnv ?? '127.0.0.1:9092').split(',').map((b) => b.trim()).filter(Boolean);
  if (await clusterAnswers(brokers)) {
    const state = brokerState(repoRoot, brokers);
    const version = state.version ?? process.env['KAFKA_VERSION'];
    return { brokers, ...(version ? { version } : {}), started: false, ...(localPid(state.pid) ? { pid: state.pid } : {}) };
  }
  if (fromEnv) throw new Error(`no Kafka broker answers at KAFKA_BROKERS=${fromEnv}`);
  const api = join(repoRoot, 'scripts', 'kafka', 'broker.mjs');
  if (!existsSync(api)) {
    throw new Error('no Kafka broker answers at 127.0.0.1:9092 and scripts/kafka/broker.mjs is missing: start one (npm run kafka:start) or set KAFKA_BROKERS');
  }
  log('no broker at 127.0.0.1:9092: starting one with scripts/kafka/broker.mjs (left running afterwards)');
  const { startBroker } = (await import(pathToFileURL(api).href)) as StartBrokerApi;
  const b = await startBroker();
  const pid = brokerState(repoRoot, [b.bootstrap]).pid;
  return { brokers: [b.bootstrap], version: b.version, started: !b.reused, ...(localPid(pid) ? { pid } : {}) };
}
