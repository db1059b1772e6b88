/**
 * Issue 19 "Failover time" at CI size (real Kafka, bench/ha/failover.ts): three
 * worker processes, 20,000 keys of state, one SIGKILLed under a steady
 * trickle, with `numStandbyReplicas` 0 and 1 in one run. Asserts what holds
 * with or without standbys: the killed worker's tasks move, every key's
 * committed sums are exactly 1, 2, ..., n (no loss, no duplicate), the
 * group notices only after the session timeout, and both rows are produced
 * (printed; `npm run ha -- --scenario failover` gives the full-size figures).
 */
import { afterEach, expect, it } from 'vitest';
import { runFailoverPair } from '../../bench/ha/failover.js';
import { failoverTable } from '../../bench/ha/report.js';
import { describeKafka } from '../helpers/index.js';
import { CI_OPTIONS, kafkaEnv } from './ha-support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describeKafka('HA failover: SIGKILL one of three workers (real Kafka)', (brokers) => {
  it('the moved tasks resume with exact counts; rows for numStandbyReplicas 0 and 1', { timeout: 150_000 }, async () => {
    const { env, cleanup } = kafkaEnv(brokers);
    cleanups.push(cleanup);
    const rows = await runFailoverPair(env, CI_OPTIONS);
    console.log(`failover (real Kafka, ${CI_OPTIONS.keys} keys)\n${failoverTable(rows)}`);
    expect(rows.map((r) => r.numStandbyReplicas)).toEqual([0, 1]);
    for (const row of rows) {
      expect(row.exactness, JSON.stringify(row.exactness.sample)).toMatchObject({ lost: 0, breaks: 0 });
      expect(row.movedTasks.length).toBeGreaterThanOrEqual(2);
      expect(row.killToRebalanceMs.max).toBeGreaterThanOrEqual(CI_OPTIONS.sessionTimeoutMs! - 1000);
      expect(row.failoverMs.max).toBeGreaterThanOrEqual(row.killToRebalanceMs.max);
      expect(row.failoverMs.max).toBeLessThan(40_000);
    }
  });
});
