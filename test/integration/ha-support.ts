/**
 * The environment of the HA scenario tests on real Kafka (ha-*.test.ts):
 * worker processes (test/integration/fixtures/ha-worker.ts, SIGKILL and
 * SIGTERM are real signals) at CI size, the figures printed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { processFleet } from '../../bench/ha/fleet.js';
import type { ScenarioEnv, ScenarioOptions } from '../../bench/ha/scenario-kit.js';

/** CI size: 20,000 keys of state over 6 partitions, session timeout 6 s, commit interval 100 ms. */
export const CI_OPTIONS: ScenarioOptions = { keys: 20_000, sessionTimeoutMs: 6000, heartbeatIntervalMs: 500, commitIntervalMs: 100, patienceMs: 45_000 };

/** A scenario environment on `brokers` and its cleanup. */
export function kafkaEnv(brokers: string[]): { env: ScenarioEnv; cleanup: () => Promise<void> } {
  const stateRoot = mkdtempSync(join(tmpdir(), 'sluice-ha-it-'));
  const fleet = processFleet(brokers);
  const env: ScenarioEnv = { cluster: createKafkaCluster({ bootstrapServers: brokers }), fleet, stateRoot };
  return {
    env,
    cleanup: async () => {
      await fleet.stopAll();
      rmSync(stateRoot, { recursive: true, force: true });
    },
  };
}
