/**
 * Issue 19 "Failover time" at CI size (real Kafka, bench/ha/failover.ts): three
 * worker processes, 20,000 keys of state, one SIGKILLed under a steady
 * trickle, with `numStandbyReplicas` 0 and 1 (one case each). Asserts what holds
 * with or without standbys: the killed worker's tasks move, every key's
 * committed sums are exactly 1, 2, ..., n (no loss, no duplicate), the
 * group notices only after the session timeout, the new owners restore, and the rows are produced
 * (printed; `npm run ha -- --scenario failover` gives the full-size figures).
 */
import { afterEach, expect, it } from 'vitest';
import { runFailover, type FailoverRow } from '../../bench/ha/failover.js';
import { failoverTable } from '../../bench/ha/report.js';
import { describeKafka } from '../helpers/index.js';
import { CI_OPTIONS, kafkaEnv } from './ha-support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describeKafka('HA failover: SIGKILL one of three workers (real Kafka)', (brokers) => {
  const rows: FailoverRow[] = [];
  // one case per standby setting (each under a minute); the second prints both rows side by side
  for (const numStandbyReplicas of [0, 1]) {
    it(`numStandbyReplicas ${numStandbyReplicas}: the moved tasks resume with exact counts`, { timeout: 120_000 }, async () => {
      const { env, cleanup } = kafkaEnv(brokers);
      cleanups.push(cleanup);
      const row = await runFailover(env, CI_OPTIONS, numStandbyReplicas);
      rows.push(row);
      console.log(`failover (real Kafka, ${CI_OPTIONS.keys} keys)\n${failoverTable(rows)}`);
      expect(row.numStandbyReplicas).toBe(numStandbyReplicas);
      expect(row.exactness, JSON.stringify(row.exactness.sample)).toMatchObject({ lost: 0, breaks: 0 });
      expect(row.movedTasks.length).toBeGreaterThanOrEqual(2);
      expect(row.killToRebalanceMs.max).toBeGreaterThanOrEqual(CI_OPTIONS.sessionTimeoutMs! - 1000);
      expect(row.failoverMs.max).toBeGreaterThanOrEqual(row.killToRebalanceMs.max);
      expect(row.failoverMs.max).toBeLessThan(40_000);
      // without a standby the new owners restore the moved tasks' state from the changelog
      if (numStandbyReplicas === 0) expect(row.recordsRestored).toBeGreaterThanOrEqual(CI_OPTIONS.keys / 6);
    });
  }
});
