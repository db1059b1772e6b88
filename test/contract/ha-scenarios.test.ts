/**
 * Issue 19's HA scenarios (bench/ha) on the embedded cluster, small sizes, with
 * in-process instances: a "kill" is `SpyCluster.crash()` (bench/ha/spy-cluster.ts):
 * the instance's producer requests all fail from then on, so its open
 * transactions never commit, and its group members crash without leaving
 * (`EmbeddedKafkaCluster.crashGroupMember`), so the group notices only after
 * the session timeout, as with a SIGKILL. A clean restart is `close()` and a
 * new instance on the same state directory. Each scenario checks exactness
 * (every key's committed sums are 1, 2, ..., n: no loss, no duplicate) and
 * that its row is produced; the figures are printed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedKafkaCluster } from '../../src/cluster/embedded/embedded-cluster.js';
import { runFailoverPair } from '../../bench/ha/failover.js';
import { inProcessFleet } from '../../bench/ha/fleet.js';
import { failoverTable, rollingTable, scaleOutTable } from '../../bench/ha/report.js';
import { runRollingPair } from '../../bench/ha/rolling.js';
import { runScaleOut } from '../../bench/ha/scaleout.js';
import type { ScenarioEnv, ScenarioOptions } from '../../bench/ha/scenario-kit.js';

const OPTIONS: ScenarioOptions = { keys: 3000, sessionTimeoutMs: 2000, heartbeatIntervalMs: 100, commitIntervalMs: 100, patienceMs: 30_000 };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function embeddedEnv(): ScenarioEnv {
  const cluster = new EmbeddedKafkaCluster();
  const stateRoot = mkdtempSync(join(tmpdir(), 'sluice-ha-embedded-'));
  const fleet = inProcessFleet(cluster);
  cleanups.push(async () => {
    await fleet.stopAll();
    await cluster.close();
    rmSync(stateRoot, { recursive: true, force: true });
  });
  return { cluster, fleet, stateRoot };
}

describe('HA scenarios on the embedded cluster (in-process instances)', () => {
  it('failover: a crashed instance\'s tasks move, counts stay exact, the row has both standby settings', { timeout: 60_000 }, async () => {
    const rows = await runFailoverPair(embeddedEnv(), OPTIONS);
    console.log(`embedded failover\n${failoverTable(rows)}`);
    expect(rows.map((r) => r.numStandbyReplicas)).toEqual([0, 1]);
    for (const row of rows) {
      expect(row.exactness, JSON.stringify(row.exactness.sample)).toMatchObject({ lost: 0, breaks: 0 });
      expect(row.movedTasks.length).toBeGreaterThan(0);
      // the group noticed the crash only after the session timeout (no LeaveGroup)
      expect(row.killToRebalanceMs.max).toBeGreaterThanOrEqual(OPTIONS.sessionTimeoutMs! - 200);
      expect(row.failoverMs.max).toBeGreaterThanOrEqual(row.killToRebalanceMs.max);
      expect(row.failoverMs.max).toBeLessThan(20_000);
    }
  });

  it('rolling restart: no duplicate, no loss, with and without groupInstanceId', { timeout: 60_000 }, async () => {
    const rows = await runRollingPair(embeddedEnv(), OPTIONS);
    console.log(`embedded rolling restart\n${rollingTable(rows)}`);
    expect(rows.map((r) => r.staticMembership)).toEqual([true, false]);
    for (const row of rows) {
      expect(row.exactness, JSON.stringify(row.exactness.sample)).toMatchObject({ lost: 0, breaks: 0 });
      expect(row.pauseMsPerInstance).toHaveLength(3);
      expect(row.downtimeMsPerInstance).toHaveLength(3);
    }
    // the dynamic control row: every clean leave and every join is a new generation
    expect(rows[1]!.rebalances).toBeGreaterThanOrEqual(3);
  });

  it('scale-out 1 → 3: the tasks that stay keep processing within the bound', { timeout: 60_000 }, async () => {
    const row = await runScaleOut(embeddedEnv(), OPTIONS);
    console.log(`embedded scale-out\n${scaleOutTable([row])}`);
    expect(row.exactness, JSON.stringify(row.exactness.sample)).toMatchObject({ lost: 0, breaks: 0 });
    expect(row.tasksMoved.length).toBeGreaterThan(0);
    expect(row.tasksKept.length).toBeGreaterThan(0);
    expect(row.pauseMaxMs).toBeGreaterThan(0);
    expect(row.pauseMaxMs).toBeLessThanOrEqual(2 * row.boundMs + 1000);
  });
});
