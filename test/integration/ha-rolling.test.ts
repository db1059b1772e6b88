/**
 * Issue 19 "Rolling restart" at CI size (real Kafka, bench/ha/rolling.ts):
 * three worker processes, each in turn SIGTERMed and restarted on the same
 * state directory under a steady trickle, with `groupInstanceId` (static
 * membership; the dynamic control row is `npm run ha -- --scenario rolling`'s,
 * left out here to keep the suite short). Asserts no duplicate and no loss
 * and that the rebalances, pauses and restart times are reported (printed).
 */
import { afterEach, expect, it } from 'vitest';
import { runRolling } from '../../bench/ha/rolling.js';
import { rollingTable } from '../../bench/ha/report.js';
import { describeKafka } from '../helpers/index.js';
import { CI_OPTIONS, kafkaEnv } from './ha-support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describeKafka('HA rolling restart of three workers (real Kafka)', (brokers) => {
  it('no duplicate, no loss with static membership (groupInstanceId)', { timeout: 120_000 }, async () => {
    const { env, cleanup } = kafkaEnv(brokers);
    cleanups.push(cleanup);
    const row = await runRolling(env, { ...CI_OPTIONS, keys: 10_000 }, true);
    console.log(`rolling restart (real Kafka, 10000 keys)\n${rollingTable([row])}\nrestart steps: ${JSON.stringify(row.restartSteps)}`);
    expect(row.staticMembership).toBe(true);
    expect(row.exactness, JSON.stringify(row.exactness.sample)).toMatchObject({ lost: 0, breaks: 0 });
    expect(row.exactness.inputs).toBeGreaterThan(10_000); // the trickle ran through the restarts
    expect(row.pauseMsPerInstance.every((ms) => ms > 0)).toBe(true);
    expect(row.downtimeMsPerInstance).toHaveLength(3);
    expect(row.rebalances).toBe(row.generations.length);
  });
});
