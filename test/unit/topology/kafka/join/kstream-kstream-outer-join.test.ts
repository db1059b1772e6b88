/**
 * Ported from Kafka Streams' `KStreamKStreamOuterJoinTest` (inputs and expected outputs
 * unchanged; each case names its Java method). `MockApiProcessorSupplier`
 * and `checkAndClearProcessResult` are the recording helpers of
 * test/helpers/ktable/stream-join-capture.ts.
 *
 * Skipped: testOuterJoinDuplicatesWithFixDisabledOldApi (deprecated
 * `JoinWindows.of`), testShouldJoinWithNonTimestampedStore (DslStoreSuppliers);
 * testShouldForwardCurrentHeaders is in kstream-kstream-join-topology.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { JoinWindows, Serdes, StreamJoined, StreamsBuilder, Stores } from '../../../../../src/index.js';
import type { TopologyTestDriver } from '../../../../../src/testing.js';
import { copartitionGroups, driverFor, kvt, MockApiProcessor, MockApiProcessorSupplier, stateStoreCount, TOSTRING_JOINER } from '../../../../helpers/ktable/stream-join-capture.js';

const I = Serdes.Integer();
const S = Serdes.String();
const topic1 = 'topic1';
const topic2 = 'topic2';
const consumed = { keySerde: I, valueSerde: S };
const consumed2 = { keySerde: I, valueSerde: Serdes.Long() };

let drivers: TopologyTestDriver[] = [];
afterEach(() => {
  for (const d of drivers) d.close();
  drivers = [];
});
function track<T extends { driver: TopologyTestDriver }>(made: T): T {
  drivers.push(made.driver);
  return made;
}

describe('KStreamKStreamOuterJoinTest', () => {

  /** KStreamKStreamOuterJoinTest.testOuterJoinDuplicates */
  it('testOuterJoinDuplicates', () => {
    const builder = new StreamsBuilder();
    const supplier = new MockApiProcessorSupplier();
    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed2);

    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceAndGrace(100, 10),
      StreamJoined.with(I, S, Serdes.Long())
    );
    joined.process(supplier);

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();

      // verifies non-joined duplicates are emitted when window has closed
      inputTopic1.pipeInput(0, "A0", 0);
      inputTopic1.pipeInput(0, "A0-0", 0);
      inputTopic2.pipeInput(1, 11, 0);
      inputTopic2.pipeInput(1, 12, 0);
      inputTopic2.pipeInput(1, 10, 111);
      // bump stream-time to trigger outer-join results
      inputTopic2.pipeInput(3, 100, 211);

      processor.checkAndClearProcessResult(
        kvt(1, "null+11", 0),
        kvt(1, "null+12", 0),
        kvt(0, "A0+null", 0),
        kvt(0, "A0-0+null", 0)
      );

      // verifies joined duplicates are emitted
      inputTopic1.pipeInput(2, "A2", 200);
      inputTopic1.pipeInput(2, "A2-0", 200);
      inputTopic2.pipeInput(2, 13, 201);
      inputTopic2.pipeInput(2, 14, 201);

      processor.checkAndClearProcessResult(
        kvt(2, "A2+13", 201),
        kvt(2, "A2-0+13", 201),
        kvt(2, "A2+14", 201),
        kvt(2, "A2-0+14", 201)
      );

      // this record should expired non-joined records; only null+10 will be emitted because
      // it did not have a join
      inputTopic2.pipeInput(3, 100, 1500);

      processor.checkAndClearProcessResult(
        kvt(1, "null+10", 111),
        kvt(3, "null+100", 211)
      );
    }
  });

  /** KStreamKStreamOuterJoinTest.testLeftExpiredNonJoinedRecordsAreEmittedByTheLeftProcessor */
  it('testLeftExpiredNonJoinedRecordsAreEmittedByTheLeftProcessor', () => {
    const builder = new StreamsBuilder();
    const supplier = new MockApiProcessorSupplier();

    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed2);
    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceWithNoGrace(100),
      StreamJoined.with(I, S, Serdes.Long())
    );
    joined.process(supplier);

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();

      const windowStart = 0;

      // No joins detected; No null-joins emitted
      inputTopic1.pipeInput(0, "A0", windowStart + 1);
      inputTopic1.pipeInput(1, "A1", windowStart + 2);
      inputTopic1.pipeInput(0, "A0-0", windowStart + 3);
      processor.checkAndClearProcessResult();

      // Join detected; No null-joins emitted
      inputTopic2.pipeInput(1, 11, windowStart + 3);
      processor.checkAndClearProcessResult(
        kvt(1, "A1+11", windowStart + 3)
      );

      // Dummy record in left topic will emit expired non-joined records from the left topic
      inputTopic1.pipeInput(2, "dummy", windowStart + 401);
      processor.checkAndClearProcessResult(
        kvt(0, "A0+null", windowStart + 1),
        kvt(0, "A0-0+null", windowStart + 3)
      );

      // Flush internal non-joined state store by joining the dummy record
      inputTopic2.pipeInput(2, 100, windowStart + 401);
      processor.checkAndClearProcessResult(
        kvt(2, "dummy+100", windowStart + 401)
      );
    }
  });

  /** KStreamKStreamOuterJoinTest.testLeftExpiredNonJoinedRecordsAreEmittedByTheRightProcessor */
  it('testLeftExpiredNonJoinedRecordsAreEmittedByTheRightProcessor', () => {
    const builder = new StreamsBuilder();
    const supplier = new MockApiProcessorSupplier();

    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed2);
    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceAndGrace(100, 0),
      StreamJoined.with(I, S, Serdes.Long())
    );
    joined.process(supplier);

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();

      const windowStart = 0;

      // No joins detected; No null-joins emitted
      inputTopic1.pipeInput(0, "A0", windowStart + 1);
      inputTopic1.pipeInput(1, "A1", windowStart + 2);
      inputTopic1.pipeInput(0, "A0-0", windowStart + 3);
      processor.checkAndClearProcessResult();

      // Join detected; No null-joins emitted
      inputTopic2.pipeInput(1, 11, windowStart + 3);
      processor.checkAndClearProcessResult(
        kvt(1, "A1+11", windowStart + 3)
      );

      // Dummy record in right topic will emit expired non-joined records from the left topic
      inputTopic2.pipeInput(2, 100, windowStart + 401);
      processor.checkAndClearProcessResult(
        kvt(0, "A0+null", windowStart + 1),
        kvt(0, "A0-0+null", windowStart + 3)
      );

      // Flush internal non-joined state store by joining the dummy record
      inputTopic1.pipeInput(2, "dummy", windowStart + 402);
      processor.checkAndClearProcessResult(
        kvt(2, "dummy+100", windowStart + 402)
      );
    }
  });

  /** KStreamKStreamOuterJoinTest.testRightExpiredNonJoinedRecordsAreEmittedByTheLeftProcessor */
  it('testRightExpiredNonJoinedRecordsAreEmittedByTheLeftProcessor', () => {
    const builder = new StreamsBuilder();
    const supplier = new MockApiProcessorSupplier();

    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed2);
    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceWithNoGrace(100),
      StreamJoined.with(I, S, Serdes.Long())
    );
    joined.process(supplier);

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();

      const windowStart = 0;

      // No joins detected; No null-joins emitted
      inputTopic2.pipeInput(0, 10, windowStart + 1);
      inputTopic2.pipeInput(1, 11, windowStart + 2);
      inputTopic2.pipeInput(0, 12, windowStart + 3);
      processor.checkAndClearProcessResult();

      // Join detected; No null-joins emitted
      inputTopic1.pipeInput(1, "A1", windowStart + 3);
      processor.checkAndClearProcessResult(
        kvt(1, "A1+11", windowStart + 3)
      );

      // Dummy record in left topic will emit expired non-joined records from the right topic
      inputTopic1.pipeInput(2, "dummy", windowStart + 401);
      processor.checkAndClearProcessResult(
        kvt(0, "null+10", windowStart + 1),
        kvt(0, "null+12", windowStart + 3)
      );

      // Process the dummy joined record
      inputTopic2.pipeInput(2, 100, windowStart + 402);
      processor.checkAndClearProcessResult(
        kvt(2, "dummy+100", windowStart + 402)
      );
    }
  });

  /** KStreamKStreamOuterJoinTest.testRightExpiredNonJoinedRecordsAreEmittedByTheRightProcessor */
  it('testRightExpiredNonJoinedRecordsAreEmittedByTheRightProcessor', () => {
    const builder = new StreamsBuilder();
    const supplier = new MockApiProcessorSupplier();

    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed2);
    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceAndGrace(100, 0),
      StreamJoined.with(I, S, Serdes.Long())
    );
    joined.process(supplier);

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();

      const windowStart = 0;

      // No joins detected; No null-joins emitted
      inputTopic2.pipeInput(0, 10, windowStart + 1);
      inputTopic2.pipeInput(1, 11, windowStart + 2);
      inputTopic2.pipeInput(0, 12, windowStart + 3);
      processor.checkAndClearProcessResult();

      // Join detected; No null-joins emitted
      inputTopic1.pipeInput(1, "A1", windowStart + 3);
      processor.checkAndClearProcessResult(
        kvt(1, "A1+11", windowStart + 3)
      );

      // Dummy record in right topic will emit expired non-joined records from the right topic
      inputTopic2.pipeInput(2, 100, windowStart + 401);
      processor.checkAndClearProcessResult(
        kvt(0, "null+10", windowStart + 1),
        kvt(0, "null+12", windowStart + 3)
      );

      // Process the dummy joined record
      inputTopic1.pipeInput(2, "dummy", windowStart + 402);
      processor.checkAndClearProcessResult(
        kvt(2, "dummy+100", windowStart + 402)
      );
    }
  });

  /** KStreamKStreamOuterJoinTest.testOrdering */
  it('testOrdering', () => {
    const builder = new StreamsBuilder();
    const supplier = new MockApiProcessorSupplier();
    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed2);

    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceWithNoGrace(100),
      StreamJoined.with(I, S, Serdes.Long())
    );
    joined.process(supplier);

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();

      // push two items to the primary stream; the other window is empty; this should not produce any item yet
      // w1 = {}
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 100) }
      // --> w2 = {}
      inputTopic1.pipeInput(0, "A0", 0);
      inputTopic1.pipeInput(1, "A1", 100);
      processor.checkAndClearProcessResult();

      // push one item to the other window that has a join;
      // this should produce the not-joined record first;
      // then the joined record
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 100) }
      // w2 = { }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 100) }
      // --> w2 = { 1:11 (ts: 110) }
      inputTopic2.pipeInput(1, 11, 110);
      processor.checkAndClearProcessResult(
        kvt(0, "A0+null", 0),
        kvt(1, "A1+11", 110)
      );
    }
  });

  /** KStreamKStreamOuterJoinTest.testGracePeriod */
  it('testGracePeriod', () => {
    const builder = new StreamsBuilder();
    const supplier = new MockApiProcessorSupplier();
    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed2);

    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceAndGrace(100, 10),
      StreamJoined.with(I, S, Serdes.Long())
    );
    joined.process(supplier);

    const groups = copartitionGroups(builder.build());

    expect(groups.length).toBe(1);
    expect(groups[0]).toEqual(new Set([topic1, topic2]));

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();

      // push one item to the primary stream; and one item in other stream; this should not produce items because there are no joins
      // and window has not ended
      // w1 = {}
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 0) }
      // --> w2 = { 1:11 (ts: 0) }
      inputTopic1.pipeInput(0, "A0", 0);
      inputTopic2.pipeInput(1, 11, 0);
      processor.checkAndClearProcessResult();

      // push one item on each stream with a window time after the previous window ended (not closed); this should not produce
      // joined records because the window has ended, but will not produce non-joined records because the window has not closed.
      // w1 = { 0:A0 (ts: 0) }
      // w2 = { 1:11 (ts: 0) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 101) }
      // --> w2 = { 1:11 (ts: 0), 0:10 (ts: 101) }
      inputTopic1.pipeInput(1, "A1", 101);
      inputTopic2.pipeInput(0, 10, 101);
      processor.checkAndClearProcessResult();

      // push a 100 item to the any stream after the window is closed; this should produced all expired non-joined records because
      // the window has closed
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0) }
      // w2 = { 0:10 (ts: 101), 1:11 (ts: 101) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0) }
      // --> w2 = { 0:10 (ts: 101), 1:11 (ts: 101), 0:100 (ts: 112) }
      inputTopic2.pipeInput(0, 100, 112);
      processor.checkAndClearProcessResult(
        kvt(1, "null+11", 0),
        kvt(0, "A0+null", 0)
      );
    }
  });

  /** KStreamKStreamOuterJoinTest.testEmitAllNonJoinedResultsForAsymmetricWindow */
  it('testEmitAllNonJoinedResultsForAsymmetricWindow', () => {
    const builder = new StreamsBuilder();
    const supplier = new MockApiProcessorSupplier();
    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed2);

    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceWithNoGrace(5).after(20),
      StreamJoined.with(I, S, Serdes.Long())
    );
    joined.process(supplier);

    const groups = copartitionGroups(builder.build());

    expect(groups.length).toBe(1);
    expect(groups[0]).toEqual(new Set([topic1, topic2]));

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();

      // push one item to the primary stream; this should not produce any items because there are no matching keys
      // and window has not ended
      // w1 = {}
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 29) }
      // --> w2 = {}
      inputTopic1.pipeInput(0, "A0", 29);
      processor.checkAndClearProcessResult();

      // push another item to the primary stream; this should not produce any items because there are no matching keys
      // and window has not ended
      // w1 = { 0:A0 (ts: 29) }
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 29), 1:A1 (ts: 30) }
      // --> w2 = {}
      inputTopic1.pipeInput(1, "A1", 30);
      processor.checkAndClearProcessResult();

      // push one item to the other stream; this should not produce any items because there are no matching keys
      // and window has not ended
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 30) }
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 29), 1:A1 (ts: 30) }
      // --> w2 = { 2:12 (ts: 31) }
      inputTopic2.pipeInput(2, 12, 31);
      processor.checkAndClearProcessResult();

      // push another item to the other stream; this should produce no inner joined-items because there are no matching keys 
      // and window has not ended
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 30) }
      // w2 = { 2:12 (ts: 31) }
      // --> w1 = { 0:A0 (ts: 29), 1:A1 (ts: 30) }
      // --> w2 = { 2:12 (ts: 31), 3:13 (ts: 36) }
      inputTopic2.pipeInput(3, 13, 36);
      processor.checkAndClearProcessResult();

      // push another item to the other stream; this should produce no inner joined-items because there are no matching keys 
      // and should produce a right-join-item because before window has ended
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 30) }
      // w2 = { 2:12 (ts: 31), 3:13 (ts: 36) }
      // --> w1 = { 0:A0 (ts: 29), 1:A1 (ts: 30) }
      // --> w2 = { 2:12 (ts: 31), 3:13 (ts: 36), 4:14 (ts: 37) }
      inputTopic2.pipeInput(4, 14, 37);
      processor.checkAndClearProcessResult(
          kvt(2, "null+12", 31)
      );

      // push another item to the other stream; this should produce no inner joined-items because there are no matching keys 
      // and should produce a left-join-item because after window has ended
      // and should produce two right-join-items because before window has ended
      // w1 = { 0:A0 (ts: 29), 1:A1 (ts: 30) }
      // w2 = { 2:10 (ts: 31), 3:13 (ts: 36), 4:14 (ts: 37) }
      // --> w1 = { 0:A0 (ts: 29), 1:A1 (ts: 30) }
      // --> w2 = { 2:12 (ts: 31), 3:13 (ts: 36), 4:14 (ts: 37), 5:15 (ts: 50) }
      inputTopic2.pipeInput(5, 15, 50);
      processor.checkAndClearProcessResult(
        kvt(0, "A0+null", 29),
        kvt(3, "null+13", 36),
        kvt(4, "null+14", 37)
      );
    }
  });

  /** KStreamKStreamOuterJoinTest.testOuterJoinWithInMemoryCustomSuppliers */
  it('testOuterJoinWithInMemoryCustomSuppliers', () => {
    const joinWindows = JoinWindows.ofTimeDifferenceWithNoGrace(100);

    const thisStoreSupplier = Stores.inMemoryWindowStore(
      "in-memory-join-store",
      (joinWindows.size() + joinWindows.gracePeriodMs()),
      joinWindows.size(),
      true
    );

    const otherStoreSupplier = Stores.inMemoryWindowStore(
      "in-memory-join-store-other",
      (joinWindows.size() + joinWindows.gracePeriodMs()),
      joinWindows.size(),
      true
    );

    const streamJoined = StreamJoined.with(I, S, Serdes.Long());

    runOuterJoin(streamJoined.withThisStoreSupplier(thisStoreSupplier).withOtherStoreSupplier(otherStoreSupplier), joinWindows);
  });

  /** KStreamKStreamOuterJoinTest.testOuterJoinWithDefaultSuppliers */
  it('testOuterJoinWithDefaultSuppliers', () => {
    const joinWindows = JoinWindows.ofTimeDifferenceWithNoGrace(100);
    const streamJoined = StreamJoined.with(I, S, Serdes.Long());

    runOuterJoin(streamJoined, joinWindows);
  });

  /** KStreamKStreamOuterJoinTest.testWindowing */
  it('testWindowing', () => {
    const builder = new StreamsBuilder();
    const expectedKeys = [0, 1, 2, 3];
    const supplier = new MockApiProcessorSupplier();
    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed2);

    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceWithNoGrace(100),
      StreamJoined.with(I, S, Serdes.Long())
    );
    joined.process(supplier);

    const groups = copartitionGroups(builder.build());

    expect(groups.length).toBe(1);
    expect(groups[0]).toEqual(new Set([topic1, topic2]));

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();
      const time = 0;

      // push two items to the primary stream; the other window is empty; this should not produce items because window has not closed
      // w1 = {}
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0) }
      // --> w2 = {}
      for (let i = 0; i < 2; i++) {
        inputTopic1.pipeInput(expectedKeys[i]!, "A" + expectedKeys[i]!, time);
      }
      processor.checkAndClearProcessResult();

      // push four items to the other stream; this should produce two full-join items
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0) }
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0) }
      // --> w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0) }
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, expectedKey + 10, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+10", 0),
        kvt(1, "A1+11", 0)
      );

      testUpperWindowBound(expectedKeys, driver, processor);
      testLowerWindowBound(expectedKeys, driver, processor);
    }
  });

  /** KStreamKStreamOuterJoinTest.testShouldNotEmitLeftJoinResultForAsymmetricBeforeWindow */
  it('testShouldNotEmitLeftJoinResultForAsymmetricBeforeWindow', () => {
    const builder = new StreamsBuilder();
    const expectedKeys = [0, 1, 2, 3];
    const supplier = new MockApiProcessorSupplier();
    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed2);

    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceWithNoGrace(100).before(0),
      StreamJoined.with(I, S, Serdes.Long())
    );
    joined.process(supplier);

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();
      let time = 0;

      // push two items to the primary stream; the other window is empty; this should not produce any items
      // w1 = {}
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // --> w2 = {}
      for (let i = 0; i < 2; i++) {
        inputTopic1.pipeInput(expectedKeys[i]!, "A" + expectedKeys[i]!, time + i);
      }
      processor.checkAndClearProcessResult();

      // push one item to the other stream; this should produce one full-join item
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // --> w2 = { 0:10 (ts: 100) }
      time += 100;
      inputTopic2.pipeInput(expectedKeys[0]!, expectedKeys[0]! + 10, time);

      processor.checkAndClearProcessResult(
        kvt(0, "A0+10", 100)
      );

      // push one item to the other stream; this should produce one left-join item
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // w2 = { 0:10 (ts: 100) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // --> w2 = { 0:10 (ts: 100), 1:11 (ts: 102) }
      time += 2;
      inputTopic2.pipeInput(expectedKeys[1]!, expectedKeys[1]! + 10, time);

      processor.checkAndClearProcessResult(
        kvt(1, "A1+null", 1)
      );

      // push one item to the other stream; this should produce one right-join item
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // w2 = { 0:10 (ts: 100), 1:11 (ts: 102) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // --> w2 = { 0:10 (ts: 100), 1:11 (ts: 102), 2:12 (ts: 103) }
      time += 1;
      inputTopic2.pipeInput(expectedKeys[2]!, expectedKeys[2]! + 10, time);

      processor.checkAndClearProcessResult(
        kvt(1, "null+11", 102)
      );

      // push one item to the first stream; this should not produce one full-join item
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // w2 = { 0:10 (ts: 100), 1:11 (ts: 102), 2:12 (ts: 103) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1), 2:A2 (ts: 103) }
      // --> w2 = { 0:10 (ts: 100), 1:11 (ts: 102), 2:12 (ts: 103)  }
      inputTopic1.pipeInput(expectedKeys[2]!, "A" + expectedKeys[2]!, time);

      processor.checkAndClearProcessResult(
        kvt(2, "A2+12", 103)
      );
    }
  });

  /** KStreamKStreamOuterJoinTest.testShouldNotEmitLeftJoinResultForAsymmetricAfterWindow */
  it('testShouldNotEmitLeftJoinResultForAsymmetricAfterWindow', () => {
    const builder = new StreamsBuilder();
    const expectedKeys = [0, 1, 2, 3];
    const supplier = new MockApiProcessorSupplier();
    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed2);

    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceWithNoGrace(100).after(0),
      StreamJoined.with(I, S, Serdes.Long())
    );
    joined.process(supplier);

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();
      let time = 0;

      // push two items to the primary stream; the other window is empty; 
      // this should produce one left-joined item
      // w1 = {}
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // --> w2 = {}
      for (let i = 0; i < 2; i++) {
        inputTopic1.pipeInput(expectedKeys[i]!, "A" + expectedKeys[i]!, time + i);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+null", 0)
      );

      // push one item to the other stream; this should produce one full-join item
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // --> w2 = { 1:11 (ts: 1) }
      time += 1;
      inputTopic2.pipeInput(expectedKeys[1]!, expectedKeys[1]! + 10, time);

      processor.checkAndClearProcessResult(
        kvt(1, "A1+11", 1)
      );

      // push one item to the other stream;
      // this should not produce any item
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // w2 = { 1:11 (ts: 1) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // --> w2 = { 1:11 (ts: 1), 2:12 (ts: 101) }
      time += 100;
      inputTopic2.pipeInput(expectedKeys[2]!, expectedKeys[2]! + 10, time);

      processor.checkAndClearProcessResult();

      // push one item to the other stream; this should not produce any item
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // w2 = { 1:11 (ts: 1), 2:12 (ts: 101) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // --> w2 = { 1:11 (ts: 1), 2:12 (ts: 101), 3:13 (ts: 101) }
      inputTopic2.pipeInput(expectedKeys[3]!, expectedKeys[3]! + 10, time);

      processor.checkAndClearProcessResult();

      // push one item to the first stream;
      // this should produce one inner-join item;
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1) }
      // w2 = { 1:11 (ts: 1), 2:12 (ts: 101), 3:13 (ts: 101) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 1), 2:A2 (ts: 201) }
      // --> w2 = { 1:11 (ts: 1), 2:12 (ts: 101), 3:13 (ts: 101) }
      time += 100;
      inputTopic1.pipeInput(expectedKeys[2]!, "A" + expectedKeys[2]!, time);

      processor.checkAndClearProcessResult(
        kvt(2, "A2+12", 201)
      );
    }
  });

});

/** The Java helper `KStreamKStreamOuterJoinTest.runOuterJoin`. */
function runOuterJoin(streamJoined: StreamJoined<number, string, number>, joinWindows: JoinWindows): void {
    const builder = new StreamsBuilder();

    const expectedKeys = [0, 1, 2, 3];
    const supplier = new MockApiProcessorSupplier();
    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed2);

    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      joinWindows,
      streamJoined
    );
    joined.process(supplier);

    const groups = copartitionGroups(builder.build());

    expect(groups.length).toBe(1);
    expect(groups[0]).toEqual(new Set([topic1, topic2]));

    {
      const { driver, topology } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();

      // 2 window stores + 1 shared window store should be available
      expect(stateStoreCount(topology)).toBe(3);

      // push two items to the primary stream; the other window is empty; this should not
      // produce any items because window has not expired
      // w1 {}
      // w2 {}
      // --> w1 = { 0:A0, 1:A1 }
      // --> w2 = {}
      for (let i = 0; i < 2; i++) {
        inputTopic1.pipeInput(expectedKeys[i]!, "A" + expectedKeys[i]!);
      }
      processor.checkAndClearProcessResult();

      // push two items to the other stream; this should produce two full-joined items
      // w1 = { 0:A0, 1:A1 }
      // w2 {}
      // --> w1 = { 0:A0, 1:A1 }
      // --> w2 = { 0:10, 1:11 }
      for (let i = 0; i < 2; i++) {
        inputTopic2.pipeInput(expectedKeys[i]!, expectedKeys[i]! + 10);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+10", 0),
        kvt(1, "A1+11", 0)
      );

      // push three items to the primary stream; this should produce two full-joined items
      // w1 = { 0:A0, 1:A1 }
      // w2 = { 0:10, 1:11 }
      // --> w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2 }
      // --> w2 = { 0:10, 1:11 }
      for (let i = 0; i < 3; i++) {
        inputTopic1.pipeInput(expectedKeys[i]!, "B" + expectedKeys[i]!);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "B0+10", 0),
        kvt(1, "B1+11", 0)
      );

      // push all items to the other stream; this should produce five full-joined items
      // w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2 }
      // w2 = { 0:10, 1:11 }
      // --> w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2 }
      // --> w2 = { 0:10, 1:11, 0:20, 1:21, 2:22, 3:23 }
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, expectedKey + 20);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+20", 0),
        kvt(0, "B0+20", 0),
        kvt(1, "A1+21", 0),
        kvt(1, "B1+21", 0),
        kvt(2, "B2+22", 0)
      );

      // push all four items to the primary stream; this should produce six full-joined items
      // w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2 }
      // w2 = { 0:10, 1:11, 0:20, 1:21, 2:22, 3:23 }
      // --> w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 0:C0, 1:C1, 2:C2, 3:C3 }
      // --> w2 = { 0:10, 1:11, 0:20, 1:21, 2:22, 3:23 }
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "C" + expectedKey);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "C0+10", 0),
        kvt(0, "C0+20", 0),
        kvt(1, "C1+11", 0),
        kvt(1, "C1+21", 0),
        kvt(2, "C2+22", 0),
        kvt(3, "C3+23", 0)
      );

      // push a dummy record that should expire non-joined items; it should not produce any items because
      // all of them are joined
      inputTopic1.pipeInput(0, "dummy", 400);
      processor.checkAndClearProcessResult();
    }
}

/** The Java helper `KStreamKStreamOuterJoinTest.testUpperWindowBound`. */
function testUpperWindowBound(expectedKeys: number[], driver: TopologyTestDriver, processor: MockApiProcessor<unknown, unknown>): void {
    let time: number;

    const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
    const inputTopic2 = driver.createInputTopic(topic2, I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });

    // push four items with larger and increasing timestamp (out of window) to the other stream; this should produced 2 expired non-joined records
    // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0) }
    // w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0) }
    // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0) }
    // --> w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //            0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    time = 1000;
    for (let i = 0; i < expectedKeys.length; i++) {
      inputTopic2.pipeInput(expectedKeys[i]!, expectedKeys[i]! + 20, time + i);
    }
    processor.checkAndClearProcessResult(
      kvt(2, "null+12", 0),
      kvt(3, "null+13", 0)
    );

    // push four items with larger timestamp to the primary stream; this should produce four full-join items
    // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0) }
    // w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //        0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //            0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100) }
    // --> w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //            0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    time = 1000 + 100;
    for (const expectedKey of expectedKeys) {
      inputTopic1.pipeInput(expectedKey, "B" + expectedKey, time);
    }
    processor.checkAndClearProcessResult(
      kvt(0, "B0+20", 1100),
      kvt(1, "B1+21", 1100),
      kvt(2, "B2+22", 1100),
      kvt(3, "B3+23", 1100)
    );

    // push four items with increased timestamp to the primary stream; this should produce three full-join items (non-joined item is not produced yet)
    // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //        0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100) }
    // w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //        0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //            0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //            0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101) }
    // --> w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //            0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    time += 1;
    for (const expectedKey of expectedKeys) {
      inputTopic1.pipeInput(expectedKey, "C" + expectedKey, time);
    }
    processor.checkAndClearProcessResult(
      kvt(1, "C1+21", 1101),
      kvt(2, "C2+22", 1101),
      kvt(3, "C3+23", 1101)
    );

    // push four items with increased timestamp to the primary stream; this should produce two full-join items (non-joined items are not produced yet)
    // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //        0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //        0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101) }
    // w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //        0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //            0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //            0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //            0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102) }
    // --> w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //            0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    time += 1;
    for (const expectedKey of expectedKeys) {
      inputTopic1.pipeInput(expectedKey, "D" + expectedKey, time);
    }
    processor.checkAndClearProcessResult(
      kvt(2, "D2+22", 1102),
      kvt(3, "D3+23", 1102)
    );

    // push four items with increased timestamp to the primary stream; this should produce one full-join items (three non-joined left-join are not produced yet)
    // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //        0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //        0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //        0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102) }
    // w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //        0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //            0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //            0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //            0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //            0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103) }
    // --> w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //            0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    time += 1;
    for (const expectedKey of expectedKeys) {
      inputTopic1.pipeInput(expectedKey, "E" + expectedKey, time);
    }
    processor.checkAndClearProcessResult(
      kvt(3, "E3+23", 1103)
    );

    // push four items with increased timestamp to the primary stream; this should produce no full-join items (four non-joined left-join are not produced yet)
    // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //        0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //        0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //        0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //        0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103) }
    // w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //        0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //            0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //            0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //            0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //            0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103),
    //            0:F0 (ts: 1104), 1:F1 (ts: 1104), 2:F2 (ts: 1104), 3:F3 (ts: 1104) }
    // --> w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //            0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    time += 1;
    for (const expectedKey of expectedKeys) {
      inputTopic1.pipeInput(expectedKey, "F" + expectedKey, time);
    }
    processor.checkAndClearProcessResult();

    // push a dummy record to produce all left-join non-joined items
    time += 301;
    inputTopic1.pipeInput(0, "dummy", time);
    processor.checkAndClearProcessResult(
      kvt(0, "C0+null", 1101),
      kvt(0, "D0+null", 1102),
      kvt(1, "D1+null", 1102),
      kvt(0, "E0+null", 1103),
      kvt(1, "E1+null", 1103),
      kvt(2, "E2+null", 1103),
      kvt(0, "F0+null", 1104),
      kvt(1, "F1+null", 1104),
      kvt(2, "F2+null", 1104),
      kvt(3, "F3+null", 1104)
    );
}

/** The Java helper `KStreamKStreamOuterJoinTest.testLowerWindowBound`. */
function testLowerWindowBound(expectedKeys: number[], driver: TopologyTestDriver, processor: MockApiProcessor<unknown, unknown>): void {
    let time: number;
    const inputTopic1 = driver.createInputTopic(topic1, I, S);

    // push four items with smaller timestamp (before the window) to the primary stream; this should produce four left-join and no full-join items
    // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //        0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //        0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //        0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //        0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103),
    //        0:F0 (ts: 1104), 1:F1 (ts: 1104), 2:F2 (ts: 1104), 3:F3 (ts: 1104) }
    // w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //        0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //            0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //            0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //            0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //            0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103),
    //            0:F0 (ts: 1104), 1:F1 (ts: 1104), 2:F2 (ts: 1104), 3:F3 (ts: 1104),
    //            0:G0 (ts: 899), 1:G1 (ts: 899), 2:G2 (ts: 899), 3:G3 (ts: 899) }
    // --> w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //            0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    time = 1000 - 100 - 1;
    for (const expectedKey of expectedKeys) {
      inputTopic1.pipeInput(expectedKey, "G" + expectedKey, time);
    }
    processor.checkAndClearProcessResult(
      kvt(0, "G0+null", 899),
      kvt(1, "G1+null", 899),
      kvt(2, "G2+null", 899),
      kvt(3, "G3+null", 899)
    );

    // push four items with increase timestamp to the primary stream; this should produce three left-join and one full-join items
    // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //        0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //        0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //        0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //        0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103),
    //        0:F0 (ts: 1104), 1:F1 (ts: 1104), 2:F2 (ts: 1104), 3:F3 (ts: 1104),
    //        0:G0 (ts: 899), 1:G1 (ts: 899), 2:G2 (ts: 899), 3:G3 (ts: 899) }
    // w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //        0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //            0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //            0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //            0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //            0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103),
    //            0:F0 (ts: 1104), 1:F1 (ts: 1104), 2:F2 (ts: 1104), 3:F3 (ts: 1104),
    //            0:G0 (ts: 899), 1:G1 (ts: 899), 2:G2 (ts: 899), 3:G3 (ts: 899),
    //            0:H0 (ts: 900), 1:H1 (ts: 900), 2:H2 (ts: 900), 3:H3 (ts: 900) }
    // --> w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //            0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    time += 1;
    for (const expectedKey of expectedKeys) {
      inputTopic1.pipeInput(expectedKey, "H" + expectedKey, time);
    }
    processor.checkAndClearProcessResult(
      kvt(0, "H0+20", 1000),
      kvt(1, "H1+null", 900),
      kvt(2, "H2+null", 900),
      kvt(3, "H3+null", 900)
    );

    // push four items with increase timestamp to the primary stream; this should produce two left-join and two full-join items
    // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //        0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //        0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //        0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //        0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103),
    //        0:F0 (ts: 1104), 1:F1 (ts: 1104), 2:F2 (ts: 1104), 3:F3 (ts: 1104),
    //        0:G0 (ts: 899), 1:G1 (ts: 899), 2:G2 (ts: 899), 3:G3 (ts: 899),
    //        0:H0 (ts: 900), 1:H1 (ts: 900), 2:H2 (ts: 900), 3:H3 (ts: 900) }
    // w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //        0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //            0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //            0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //            0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //            0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103),
    //            0:F0 (ts: 1104), 1:F1 (ts: 1104), 2:F2 (ts: 1104), 3:F3 (ts: 1104),
    //            0:G0 (ts: 899), 1:G1 (ts: 899), 2:G2 (ts: 899), 3:G3 (ts: 899),
    //            0:H0 (ts: 900), 1:H1 (ts: 900), 2:H2 (ts: 900), 3:H3 (ts: 900),
    //            0:I0 (ts: 901), 1:I1 (ts: 901), 2:I2 (ts: 901), 3:I3 (ts: 901) }
    // --> w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //            0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    time += 1;
    for (const expectedKey of expectedKeys) {
      inputTopic1.pipeInput(expectedKey, "I" + expectedKey, time);
    }
    processor.checkAndClearProcessResult(
      kvt(0, "I0+20", 1000),
      kvt(1, "I1+21", 1001),
      kvt(2, "I2+null", 901),
      kvt(3, "I3+null", 901)
    );

    // push four items with increase timestamp to the primary stream; this should produce one left-join and three full-join items
    // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //        0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //        0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //        0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //        0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103),
    //        0:F0 (ts: 1104), 1:F1 (ts: 1104), 2:F2 (ts: 1104), 3:F3 (ts: 1104),
    //        0:G0 (ts: 899), 1:G1 (ts: 899), 2:G2 (ts: 899), 3:G3 (ts: 899),
    //        0:H0 (ts: 900), 1:H1 (ts: 900), 2:H2 (ts: 900), 3:H3 (ts: 900),
    //        0:I0 (ts: 901), 1:I1 (ts: 901), 2:I2 (ts: 901), 3:I3 (ts: 901) }
    // w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //        0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //            0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //            0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //            0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //            0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103),
    //            0:F0 (ts: 1104), 1:F1 (ts: 1104), 2:F2 (ts: 1104), 3:F3 (ts: 1104),
    //            0:G0 (ts: 899), 1:G1 (ts: 899), 2:G2 (ts: 899), 3:G3 (ts: 899),
    //            0:H0 (ts: 900), 1:H1 (ts: 900), 2:H2 (ts: 900), 3:H3 (ts: 900),
    //            0:I0 (ts: 901), 1:I1 (ts: 901), 2:I2 (ts: 901), 3:I3 (ts: 901),
    //            0:J0 (ts: 902), 1:J1 (ts: 902), 2:J2 (ts: 902), 3:J3 (ts: 902) }
    // --> w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //            0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    time += 1;
    for (const expectedKey of expectedKeys) {
      inputTopic1.pipeInput(expectedKey, "J" + expectedKey, time);
    }
    processor.checkAndClearProcessResult(
      kvt(0, "J0+20", 1000),
      kvt(1, "J1+21", 1001),
      kvt(2, "J2+22", 1002),
      kvt(3, "J3+null", 902)
    );

    // push four items with increase timestamp to the primary stream; this should produce one left-join and three full-join items
    // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //        0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //        0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //        0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //        0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103),
    //        0:F0 (ts: 1104), 1:F1 (ts: 1104), 2:F2 (ts: 1104), 3:F3 (ts: 1104),
    //        0:G0 (ts: 899), 1:G1 (ts: 899), 2:G2 (ts: 899), 3:G3 (ts: 899),
    //        0:H0 (ts: 900), 1:H1 (ts: 900), 2:H2 (ts: 900), 3:H3 (ts: 900),
    //        0:I0 (ts: 901), 1:I1 (ts: 901), 2:I2 (ts: 901), 3:I3 (ts: 901),
    //        0:J0 (ts: 902), 1:J1 (ts: 902), 2:J2 (ts: 902), 3:J3 (ts: 902) }
    // w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //        0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
    //            0:B0 (ts: 1100), 1:B1 (ts: 1100), 2:B2 (ts: 1100), 3:B3 (ts: 1100),
    //            0:C0 (ts: 1101), 1:C1 (ts: 1101), 2:C2 (ts: 1101), 3:C3 (ts: 1101),
    //            0:D0 (ts: 1102), 1:D1 (ts: 1102), 2:D2 (ts: 1102), 3:D3 (ts: 1102),
    //            0:E0 (ts: 1103), 1:E1 (ts: 1103), 2:E2 (ts: 1103), 3:E3 (ts: 1103),
    //            0:F0 (ts: 1104), 1:F1 (ts: 1104), 2:F2 (ts: 1104), 3:F3 (ts: 1104),
    //            0:G0 (ts: 899), 1:G1 (ts: 899), 2:G2 (ts: 899), 3:G3 (ts: 899),
    //            0:H0 (ts: 900), 1:H1 (ts: 900), 2:H2 (ts: 900), 3:H3 (ts: 900),
    //            0:I0 (ts: 901), 1:I1 (ts: 901), 2:I2 (ts: 901), 3:I3 (ts: 901),
    //            0:J0 (ts: 902), 1:J1 (ts: 902), 2:J2 (ts: 902), 3:J3 (ts: 902),
    //            0:K0 (ts: 903), 1:K1 (ts: 903), 2:K2 (ts: 903), 3:K3 (ts: 903) }
    // --> w2 = { 0:10 (ts: 0), 1:11 (ts: 0), 2:12 (ts: 0), 3:13 (ts: 0),
    //            0:20 (ts: 1000), 1:21 (ts: 1001), 2:22 (ts: 1002), 3:23 (ts: 1003) }
    time += 1;
    for (const expectedKey of expectedKeys) {
      inputTopic1.pipeInput(expectedKey, "K" + expectedKey, time);
    }
    processor.checkAndClearProcessResult(
      kvt(0, "K0+20", 1000),
      kvt(1, "K1+21", 1001),
      kvt(2, "K2+22", 1002),
      kvt(3, "K3+23", 1003)
    );

    // push a dummy record to verify there are no expired records to produce
    // dummy window is behind the max. stream time seen (1205 used in testUpperWindowBound)
    inputTopic1.pipeInput(0, "dummy", time + 200);
    processor.checkAndClearProcessResult(
      kvt(0, "dummy+null", 1103)
    );
}
