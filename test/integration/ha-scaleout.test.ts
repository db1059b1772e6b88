/**
 * Issue 19 "Scale-out" at CI size (real Kafka, bench/ha/scaleout.ts): one
 * worker process owning all 6 tasks, then two more under a steady trickle.
 * Asserts exact counts and that the tasks that did not move keep producing
 * committed output, their longest pause within twice the bound (one commit
 * interval + the measured rebalance round trip) plus 2 s of CI margin; the
 * measured pause, the bound and whether it was met are printed.
 */
import { afterEach, expect, it } from 'vitest';
import { runScaleOut } from '../../bench/ha/scaleout.js';
import { scaleOutTable } from '../../bench/ha/report.js';
import { describeKafka } from '../helpers/index.js';
import { CI_OPTIONS, kafkaEnv } from './ha-support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describeKafka('HA scale-out from one to three workers (real Kafka)', (brokers) => {
  it('the tasks that stay keep processing; exact counts', { timeout: 120_000 }, async () => {
    const { env, cleanup } = kafkaEnv(brokers);
    cleanups.push(cleanup);
    const row = await runScaleOut(env, CI_OPTIONS);
    console.log(`scale-out (real Kafka, ${CI_OPTIONS.keys} keys)\n${scaleOutTable([row])}`);
    expect(row.exactness, JSON.stringify(row.exactness.sample)).toMatchObject({ lost: 0, breaks: 0 });
    expect(row.tasksMoved.length).toBeGreaterThan(0);
    expect(row.tasksKept.length).toBeGreaterThan(0);
    expect(row.roundTripMs).toBeGreaterThan(0);
    expect(row.pauseMaxMs).toBeGreaterThan(0);
    expect(row.pauseMaxMs).toBeLessThanOrEqual(2 * row.boundMs + 2000);
  });
});
