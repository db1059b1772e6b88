/**
 * Issue 19's measured acceptance: failover, rolling restart and scale-out of
 * the sum-per-key app in worker processes on real Kafka. See
 * docs/benchmarks.md "High availability: measured".
 *
 *   npm run ha -- [--scenario failover|rolling|scaleout|all] [--records N] [--session-timeout-ms MS]
 *
 * Against KAFKA_BROKERS, or 127.0.0.1:9092, or a broker it starts (as
 * `npm run bench` does). Prints one table per scenario and writes every row
 * as JSON to bench/results/ha-<time>.json. The HA features are picked up by
 * config alone: failover runs `numStandbyReplicas` 0 and 1, rolling runs with
 * `groupInstanceId` and without.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { ensureBroker } from '../lib/broker.js';
import { runFailoverPair, type FailoverRow } from './failover.js';
import { processFleet } from './fleet.js';
import { failoverTable, rollingTable, scaleOutTable } from './report.js';
import { runRollingPair, type RollingRow } from './rolling.js';
import { runScaleOut, type ScaleOutRow } from './scaleout.js';
import type { ScenarioEnv, ScenarioOptions } from './scenario-kit.js';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(benchDir, '..');
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const SCENARIOS = ['failover', 'rolling', 'scaleout'] as const;

function options() {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', default: 'all' },
      records: { type: 'string', default: '20000' },
      'session-timeout-ms': { type: 'string', default: '6000' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log('usage: npm run ha -- [--scenario failover|rolling|scaleout|all] [--records N (keys of state, default 20000)] [--session-timeout-ms MS]');
    process.exit(0);
  }
  const scenarios = values.scenario === 'all' ? [...SCENARIOS] : values.scenario.split(',');
  for (const s of scenarios) if (!(SCENARIOS as readonly string[]).includes(s)) throw new Error(`--scenario: one of ${SCENARIOS.join('|')}|all, got ${s}`);
  const records = Number(values.records);
  if (!Number.isInteger(records) || records < 60 || records > 10_000_000) throw new Error(`--records: 60..10000000, got ${values.records}`);
  const sessionTimeoutMs = Number(values['session-timeout-ms']);
  if (!Number.isInteger(sessionTimeoutMs) || sessionTimeoutMs < 1000) throw new Error(`--session-timeout-ms: >= 1000, got ${values['session-timeout-ms']}`);
  return { scenarios, records, sessionTimeoutMs };
}

async function main(): Promise<void> {
  const o = options();
  const broker = await ensureBroker(repoRoot, log);
  const stateRoot = mkdtempSync(join(tmpdir(), 'sluice-ha-'));
  const env: ScenarioEnv = { cluster: createKafkaCluster({ bootstrapServers: broker.brokers }), fleet: processFleet(broker.brokers), stateRoot };
  const scenarioOptions: ScenarioOptions = { keys: o.records, sessionTimeoutMs: o.sessionTimeoutMs, log };
  const started = Date.now();
  const out: { failover?: FailoverRow[]; rolling?: RollingRow[]; scaleout?: ScaleOutRow[] } = {};
  try {
    for (const scenario of o.scenarios) {
      log(`${scenario}: ${o.records} keys of state, 3 worker processes, session timeout ${o.sessionTimeoutMs} ms`);
      if (scenario === 'failover') {
        out.failover = await runFailoverPair(env, scenarioOptions);
        console.log(`\nFailover (SIGKILL one of 3 workers)\n${failoverTable(out.failover)}`);
      } else if (scenario === 'rolling') {
        out.rolling = await runRollingPair(env, scenarioOptions);
        console.log(`\nRolling restart (SIGTERM + restart each of 3 workers)\n${rollingTable(out.rolling)}`);
      } else {
        out.scaleout = [await runScaleOut(env, scenarioOptions)];
        console.log(`\nScale-out (1 → 3 workers)\n${scaleOutTable(out.scaleout)}`);
      }
    }
  } finally {
    rmSync(stateRoot, { recursive: true, force: true });
  }
  const dir = join(benchDir, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `ha-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const meta = { records: o.records, sessionTimeoutMs: o.sessionTimeoutMs, brokers: broker.brokers, kafkaVersion: broker.version, elapsedSeconds: (Date.now() - started) / 1000 };
  writeFileSync(file, `${JSON.stringify({ meta, ...out }, null, 2)}\n`);
  console.log(`\nresults: ${file} (${meta.elapsedSeconds.toFixed(0)} s)`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
