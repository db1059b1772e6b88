/**
 * The stateful cases of Kafka Streams' EosIntegrationTest
 * (streams/src/test/java/org/apache/kafka/streams/integration/EosIntegrationTest.java)
 * on real Kafka, with their data and expected committed / uncommitted outputs:
 * the app sums Long values per key in the store `store` (sum-topology.ts).
 *
 * Where Java kills one StreamThread with an uncaught exception, sluice has
 * `uncaughtExceptionPolicy: 'RESTART_TASK'`: the failing task's transaction is
 * aborted and the task is re-created from its last commit (its store restored
 * from the changelog). Java's checkpoint-file checks become what they
 * guarantee: a clean restart restores nothing and the state continues.
 * Store contents (Java's IQv2 `verifyStateStore`) are read with `app.store()`
 * and asserted last, after the outputs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import type { KafkaStreamsConfig } from '../../src/runtime/config.js';
import { createTopic, describeKafka, uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { computeExpectedResult, getMaxPerKey, perKey, prepareData, readCommitted, readUncommitted, writeInputData } from './fixtures/long-io.js';
import { queryKeyValueStore, recordRestores, stateConfig, type StoreQuery } from './fixtures/state-api.js';
import { StateWorkerProcess } from './fixtures/state-worker-process.js';
import { STORE_NAME, sumTopology, type SumInjection } from './fixtures/sum-topology.js';

const NUM_TOPIC_PARTITIONS = 2;
const MAX_WAIT_TIME_MS = 120_000;
const apps: KafkaStreams[] = [];
const workers: StateWorkerProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await Promise.all(apps.splice(0).map((a) => a.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

/** The store's content over the app's tasks, retried while the store is restoring (as IntegrationTestUtils.iqv2WaitForResult). */
async function storeContent(app: KafkaStreams): Promise<StoreQuery<number, number>> {
  let last: StoreQuery<number, number> = { ok: false, reason: 'not queried' };
  await waitFor(() => (last = queryKeyValueStore<number, number>(app, STORE_NAME)).ok, { timeoutMs: 10_000, intervalMs: 200 }).catch(() => undefined);
  return last;
}

describeKafka('EOS with state (real Kafka): EosIntegrationTest stateful cases', (brokers) => {
  async function topics() {
    const input = await createTopic(brokers, uniqueTopic('eos-state-in'), { partitions: NUM_TOPIC_PARTITIONS });
    const output = await createTopic(brokers, uniqueTopic('eos-state-out'), { partitions: 1 });
    return { input, output };
  }

  /**
   * EosIntegrationTest.getKafkaStreams(..., withState = true, ...): commit
   * interval 20 s (commits come from the processor's context.commit()),
   * cache disabled, one stateDir per instance.
   */
  function streamsOf(opts: { applicationId: string; input: string; output: string; stateDir: string; inject: SumInjection; commitIntervalMs?: number }): KafkaStreams {
    const config: KafkaStreamsConfig = {
      applicationId: opts.applicationId,
      bootstrapServers: brokers,
      processingGuarantee: 'exactly_once_v2',
      commitIntervalMs: opts.commitIntervalMs ?? 20_000,
      // Java: transaction.timeout.ms = commit interval; sluice requires it to be larger
      transactionTimeoutMs: 30_000,
      sessionTimeoutMs: 10_000,
      heartbeatIntervalMs: 500,
      uncaughtExceptionPolicy: 'RESTART_TASK',
      taskRestartBackoffMs: 200,
      ...stateConfig({ stateDir: opts.stateDir, statestoreCacheMaxBytes: 0 }),
    };
    const app = new KafkaStreams(sumTopology({ input: opts.input, output: opts.output, inject: opts.inject }), config);
    apps.push(app);
    return app;
  }

  // EosIntegrationTest.shouldNotViolateEosIfOneTaskFailsWithState
  it('one task fails with state: the store holds only committed state, every sum is committed once and right', { timeout: 300_000 }, async () => {
    // this test updates a store with 10 + 5 + 5 records per partition (running with 2 partitions)
    // the app first commits after each 10 records per partition (total 20 records), and thus will have 2 * 5 uncommitted writes
    // and store updates; the uncommitted batch also has data for new keys (2, 3), which must not show up in the store after the abort
    // the failure gets injected after 20 committed and 40 uncommitted records got received; it only fails one task
    // after fail-over, we should read 50 committed records and the state stores should contain the correct sums per key
    const { input, output } = await topics();
    const inject: SumInjection = { error: false, commitRequested: 0 };
    const streams = streamsOf({ applicationId: uniqueGroup('eos-state'), input, output, stateDir: tempDir('sluice-eos-'), inject });
    await streams.start();

    const committedDataBeforeFailure = prepareData(0, 10, 0, 1);
    const uncommittedDataBeforeFailure = prepareData(10, 15, 0, 1, 2, 3);
    const dataBeforeFailure = [...committedDataBeforeFailure, ...uncommittedDataBeforeFailure];
    const dataAfterFailure = prepareData(15, 20, 0, 1);

    await writeInputData(brokers, input, NUM_TOPIC_PARTITIONS, committedDataBeforeFailure);
    await waitFor(() => inject.commitRequested === 2, { timeoutMs: MAX_WAIT_TIME_MS, message: 'StreamsTasks did not request commit.' });

    // p-0: ---> 10 rec + C
    // p-1: ---> 10 rec + C
    const committedRecords = await readCommitted(brokers, output, committedDataBeforeFailure.length);
    expect(perKey(committedRecords), 'The committed records before failure do not match what expected').toEqual(perKey(computeExpectedResult(committedDataBeforeFailure)));

    await writeInputData(brokers, input, NUM_TOPIC_PARTITIONS, uncommittedDataBeforeFailure);

    // p-0: ---> 10 rec + C  + 5 rec (pending)
    // p-1: ---> 10 rec + C  + 5 rec (pending)
    const uncommittedRecords = await readUncommitted(brokers, output, dataBeforeFailure.length);
    const expectedResultBeforeFailure = computeExpectedResult(dataBeforeFailure);
    expect(perKey(uncommittedRecords), 'The uncommitted records before failure do not match what expected').toEqual(perKey(expectedResultBeforeFailure));
    const storeBeforeFailure = await storeContent(streams);

    inject.error = true;
    await writeInputData(brokers, input, NUM_TOPIC_PARTITIONS, dataAfterFailure);
    await waitFor(() => streams.metrics().taskRestarts >= 1, { timeoutMs: MAX_WAIT_TIME_MS, message: 'Should receive uncaught exception from one task (a task restart).' });

    // p-0: ---> 10 rec + C  + 5 rec + C    + 5 rec + C
    // p-1: ---> 10 rec + C  + 5 rec + C    + 5 rec + C
    const total = committedDataBeforeFailure.length + uncommittedDataBeforeFailure.length + dataAfterFailure.length;
    const allCommittedRecords = await readCommitted(brokers, output, total);
    const expectedResult = computeExpectedResult([...committedDataBeforeFailure, ...uncommittedDataBeforeFailure, ...dataAfterFailure]);
    expect(perKey(allCommittedRecords), 'The all committed records after recovery do not match what expected').toEqual(perKey(expectedResult));
    // what a read_committed consumer group that already read the first 20 records reads next
    const committedRecordsAfterFailure = allCommittedRecords.slice(committedDataBeforeFailure.length);
    expect(perKey(committedRecordsAfterFailure), 'The committed records after recovery do not match what expected').toEqual(
      perKey(expectedResult.slice(committedDataBeforeFailure.length)),
    );
    expect(allCommittedRecords).toHaveLength(total);

    // "Should only get one uncaught exception from Streams."
    expect(streams.metrics().taskRestarts).toBe(1);
    expect(streams.state).toBe('RUNNING');
    expect(storeBeforeFailure, 'The state store content before failure do not match what expected').toEqual({ ok: true, entries: getMaxPerKey(expectedResultBeforeFailure) });
    expect(await storeContent(streams), 'The state store content after recovery do not match what expected').toEqual({ ok: true, entries: getMaxPerKey(expectedResult) });
  });

  // EosIntegrationTest.shouldNotViolateEosIfOneTaskGetsFencedUsingIsolatedAppInstances, with state (Java runs it stateless:
  // its outputs are the inputs; here they are the running sums). Java stalls one instance in its processor until it drops out
  // of the group; here one instance is a child worker frozen with SIGSTOP (as zombie.test.ts) and woken with SIGCONT.
  it('one instance fenced (isolated app instances, frozen and woken): its task moves with its state, every sum committed once and right', { timeout: 300_000 }, async () => {
    // 10 + 5 + 5 + 10 records per partition (2 partitions); commits after each 10 records per partition
    const { input, output } = await topics();
    const applicationId = uniqueGroup('eos-fenced');
    const streams1 = new StateWorkerProcess({
      brokers, applicationId, input, output, stateDir: tempDir('sluice-eos-1-'), requestCommits: true,
      commitIntervalMs: 20_000, transactionTimeoutMs: 30_000, sessionTimeoutMs: 6_000,
    });
    workers.push(streams1);
    await waitFor(() => streams1.running, { timeoutMs: 60_000, message: `streams1 running (stderr: ${streams1.stderr.join('')})` });
    const streams2 = new KafkaStreams(sumTopology({ input, output }), {
      applicationId,
      bootstrapServers: brokers,
      commitIntervalMs: 20_000,
      transactionTimeoutMs: 30_000,
      sessionTimeoutMs: 6_000,
      heartbeatIntervalMs: 500,
      ...stateConfig({ stateDir: tempDir('sluice-eos-2-'), statestoreCacheMaxBytes: 0 }),
    });
    apps.push(streams2);
    await streams2.start();
    const owned = (tasks: Record<string, { owned: boolean }> | undefined) => Object.values(tasks ?? {}).filter((t) => t.owned).length;
    await waitFor(() => owned(streams1.metrics?.tasks) === 1 && owned(streams2.metrics().tasks) === 1, { timeoutMs: MAX_WAIT_TIME_MS, message: 'one task per instance' });

    const committedDataBeforeStall = prepareData(0, 10, 0, 1);
    const uncommittedDataBeforeStall = prepareData(10, 15, 0, 1);
    const dataBeforeStall = [...committedDataBeforeStall, ...uncommittedDataBeforeStall];
    const dataToTriggerFirstRebalance = prepareData(15, 20, 0, 1);
    const dataAfterSecondRebalance = prepareData(20, 30, 0, 1);

    await writeInputData(brokers, input, NUM_TOPIC_PARTITIONS, committedDataBeforeStall);
    // p-0: ---> 10 rec + C
    // p-1: ---> 10 rec + C
    const committedRecords = await readCommitted(brokers, output, committedDataBeforeStall.length);
    expect(perKey(committedRecords), 'The committed records before stall do not match what expected').toEqual(perKey(computeExpectedResult(committedDataBeforeStall)));

    await writeInputData(brokers, input, NUM_TOPIC_PARTITIONS, uncommittedDataBeforeStall);
    // p-0: ---> 10 rec + C  + 5 rec (pending)
    // p-1: ---> 10 rec + C  + 5 rec (pending)
    const uncommittedRecords = await readUncommitted(brokers, output, dataBeforeStall.length);
    expect(perKey(uncommittedRecords), 'The uncommitted records before stall do not match what expected').toEqual(perKey(computeExpectedResult(dataBeforeStall)));

    // "Injecting Stall": streams1 freezes with its transaction open
    streams1.signal('SIGSTOP');
    await writeInputData(brokers, input, NUM_TOPIC_PARTITIONS, dataToTriggerFirstRebalance);
    await waitFor(() => owned(streams2.metrics().tasks) === 2, { timeoutMs: MAX_WAIT_TIME_MS, message: 'Should have rebalanced: streams2 owns both tasks' });

    // p-0: ---> 10 rec + C  + 5 rec + C    + 5 rec + C
    // p-1: ---> 10 rec + C  + 5 rec + C    + 5 rec + C
    const firstFour = [...committedDataBeforeStall, ...uncommittedDataBeforeStall, ...dataToTriggerFirstRebalance];
    const committedAfterRebalance = await readCommitted(brokers, output, firstFour.length);
    expect(perKey(committedAfterRebalance.slice(committedDataBeforeStall.length)), 'The all committed records after rebalance do not match what expected').toEqual(
      perKey(computeExpectedResult(firstFour).slice(committedDataBeforeStall.length)),
    );

    // "Releasing Stall": streams1 wakes up, is fenced, rejoins; both instances own a task again
    const frozenAt = streams1.history.length;
    streams1.signal('SIGCONT');
    await waitFor(() => streams1.history.length > frozenAt && owned(streams1.metrics?.tasks) === 1 && owned(streams2.metrics().tasks) === 1, {
      timeoutMs: MAX_WAIT_TIME_MS,
      message: 'Should have rebalanced: one task per instance again',
    });

    await writeInputData(brokers, input, NUM_TOPIC_PARTITIONS, dataAfterSecondRebalance);
    // p-0: ---> 10 rec + C  + 5 rec + C    + 5 rec + C   + 10 rec + C
    // p-1: ---> 10 rec + C  + 5 rec + C    + 5 rec + C   + 10 rec + C
    const all = [...firstFour, ...dataAfterSecondRebalance];
    const allCommittedRecords = await readCommitted(brokers, output, all.length);
    expect(perKey(allCommittedRecords), 'The all committed records after recovery do not match what expected').toEqual(perKey(computeExpectedResult(all)));
    expect(allCommittedRecords).toHaveLength(all.length);
  });

  // EosIntegrationTest.shouldWriteLatestOffsetsToCheckpointOnShutdown
  it('latest offsets checkpointed on clean shutdown: a restart with the same stateDir restores nothing and the sums continue', { timeout: 300_000 }, async () => {
    const { input, output } = await topics();
    const applicationId = uniqueGroup('eos-checkpoint');
    const stateDir = tempDir('sluice-eos-');
    const writtenData = prepareData(0, 10, 0, 1);
    const expectedResult = computeExpectedResult(writtenData);
    await writeInputData(brokers, input, NUM_TOPIC_PARTITIONS, writtenData);

    const inject: SumInjection = { error: false, commitRequested: 0 };
    const streams = streamsOf({ applicationId, input, output, stateDir, inject });
    await streams.start();
    await waitFor(() => inject.commitRequested === 2, { timeoutMs: MAX_WAIT_TIME_MS, message: 'StreamsTasks did not request commit.' });
    const committedRecords = await readCommitted(brokers, output, writtenData.length);
    expect(perKey(committedRecords), 'The committed records do not match what expected').toEqual(perKey(expectedResult));
    const storeBeforeClose = await storeContent(streams);
    await streams.close();
    expect(streams.state).toBe('NOT_RUNNING');

    // Java reads the .checkpoint files of tasks 0_0 and 0_1 and checks they equal the changelogs' last offsets;
    // what that guarantees: the same stateDir restarts without restoring, and the state is the committed one.
    // (the restart is sluice's addition: it commits every second, so the value below, which requests no commit, is
    // committed without waiting for the 20 s interval; what it checks, the restore at start, happens before any commit)
    const restarted = streamsOf({ applicationId, input, output, stateDir, inject: { error: false, commitRequested: 0 }, commitIntervalMs: 1_000 });
    const restores = recordRestores(restarted);
    await restarted.start();
    const more = prepareData(10, 11, 0, 1);
    await writeInputData(brokers, input, NUM_TOPIC_PARTITIONS, more);
    // value 10 does not request a commit: it is committed by the commit interval
    const all = await readCommitted(brokers, output, writtenData.length + more.length);
    expect(perKey(all), 'the sums continue after a clean restart').toEqual(perKey(computeExpectedResult([...writtenData, ...more])));

    expect(restores.attached, 'app.setGlobalStateRestoreListener exists').toBe(true);
    expect(restores.totalRestored(STORE_NAME), 'records restored after a clean shutdown').toBe(0);
    for (const e of restores.events) if (e.kind === 'start') expect(e.startOffset, `checkpoint of ${e.topic}-${e.partition} at the changelog end`).toBe(e.endOffset);
    expect(storeBeforeClose, 'The state store content do not match what expected').toEqual({ ok: true, entries: getMaxPerKey(expectedResult) });
  });
});

