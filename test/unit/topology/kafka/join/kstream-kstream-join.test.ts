/**
 * Ported from Kafka Streams' `KStreamKStreamJoinTest` (inputs and expected outputs
 * unchanged; each case names its Java method). `MockApiProcessorSupplier`
 * and `checkAndClearProcessResult` are the recording helpers of
 * test/helpers/ktable/stream-join-capture.ts.
 *
 * Not ported here: shouldReuseRepartitionTopicWithGeneratedName,
 * shouldCreateRepartitionTopicsWithUserProvidedName, shouldDisableLoggingOnStreamJoined,
 * shouldEnableLoggingWithCustomConfigOnStreamJoined and
 * shouldLogAndMeterOnSkippedRecordsWithNullValueWithBuiltInMetricsVersionLatest
 * (ported in kstream-kstream-join-topology.test.ts); skipped:
 * shouldJoinWithDslStoreSuppliersIfNoStoreSupplied,
 * shouldJoinWithDslStoreSuppliersFromStreamsConfig, shouldJoinWithNonTimestampedStore
 * (sluice has no DslStoreSuppliers) and
 * shouldThrottleEmitNonJoinedOuterRecordsEvenWhenClockDrift (drives the
 * processor through Kafka's internal MockInternalNewProcessorContext and a
 * Mockito spy).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { JoinWindows, Serdes, StreamJoined, StreamsBuilder, Stores, type WindowBytesStoreSupplier } from '../../../../../src/index.js';
import type { TopologyTestDriver } from '../../../../../src/testing.js';
import { copartitionGroups, driverFor, kvt, MockApiProcessorSupplier, TOSTRING_JOINER } from '../../../../helpers/ktable/stream-join-capture.js';

const I = Serdes.Integer();
const S = Serdes.String();
const topic1 = 'topic1';
const topic2 = 'topic2';
const consumed = { keySerde: I, valueSerde: S };
const joinWindows = JoinWindows.ofTimeDifferenceAndGrace(50, 50);
const streamJoined = StreamJoined.with(S, I, I);
const errorMessagePrefix = 'Window settings mismatch. WindowBytesStoreSupplier settings';

/** The Java helper `KStreamKStreamJoinTest.buildWindowBytesStoreSupplier`. */
function buildWindowBytesStoreSupplier(name: string, retentionPeriod: number, windowSize: number, retainDuplicates: boolean): WindowBytesStoreSupplier {
  return Stores.inMemoryWindowStore(name, retentionPeriod, windowSize, retainDuplicates);
}
/** Java's `Integer::sum`. */
const SUM = (a: number, b: number): number => a + b;
/** Java's `assertThrows(StreamsException.class, ...)`: the thrown error. */
function captureThrow(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

let drivers: TopologyTestDriver[] = [];
afterEach(() => {
  for (const d of drivers) d.close();
  drivers = [];
});
function track<T extends { driver: TopologyTestDriver }>(made: T): T {
  drivers.push(made.driver);
  return made;
}

describe('KStreamKStreamJoinTest', () => {

  /** KStreamKStreamJoinTest.shouldThrowExceptionThisStoreSupplierRetentionDoNotMatchWindowsSizeAndGrace */
  it('shouldThrowExceptionThisStoreSupplierRetentionDoNotMatchWindowsSizeAndGrace', () => {
    // Case where retention of thisJoinStore doesn't match JoinWindows
    const thisStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store", 500, 100, true);
    const otherStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store-other", 150, 100, true);

    buildStreamsJoinThatShouldThrow(
      streamJoined.withThisStoreSupplier(thisStoreSupplier).withOtherStoreSupplier(otherStoreSupplier),
      joinWindows,
      errorMessagePrefix
    );
  });

  /** KStreamKStreamJoinTest.shouldThrowExceptionThisStoreSupplierWindowSizeDoesNotMatchJoinWindowsWindowSize */
  it('shouldThrowExceptionThisStoreSupplierWindowSizeDoesNotMatchJoinWindowsWindowSize', () => {
    //Case where window size of thisJoinStore doesn't match JoinWindows
    const thisStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store", 150, 150, true);
    const otherStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store-other", 150, 100, true);

    buildStreamsJoinThatShouldThrow(
      streamJoined.withThisStoreSupplier(thisStoreSupplier).withOtherStoreSupplier(otherStoreSupplier),
      joinWindows,
      errorMessagePrefix
    );
  });

  /** KStreamKStreamJoinTest.shouldThrowExceptionWhenThisJoinStoreSetsRetainDuplicatesFalse */
  it('shouldThrowExceptionWhenThisJoinStoreSetsRetainDuplicatesFalse', () => {
    //Case where thisJoinStore retain duplicates false
    const thisStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store", 150, 100, false);
    const otherStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store-other", 150, 100, true);

    buildStreamsJoinThatShouldThrow(
      streamJoined.withThisStoreSupplier(thisStoreSupplier).withOtherStoreSupplier(otherStoreSupplier),
      joinWindows,
      "The StoreSupplier must set retainDuplicates=true, found retainDuplicates=false"
    );
  });

  /** KStreamKStreamJoinTest.shouldThrowExceptionOtherStoreSupplierRetentionDoNotMatchWindowsSizeAndGrace */
  it('shouldThrowExceptionOtherStoreSupplierRetentionDoNotMatchWindowsSizeAndGrace', () => {
    //Case where retention size of otherJoinStore doesn't match JoinWindows
    const thisStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store", 150, 100, true);
    const otherStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store-other", 500, 100, true);

    buildStreamsJoinThatShouldThrow(
      streamJoined.withThisStoreSupplier(thisStoreSupplier).withOtherStoreSupplier(otherStoreSupplier),
      joinWindows,
      errorMessagePrefix
    );
  });

  /** KStreamKStreamJoinTest.shouldThrowExceptionOtherStoreSupplierWindowSizeDoesNotMatchJoinWindowsWindowSize */
  it('shouldThrowExceptionOtherStoreSupplierWindowSizeDoesNotMatchJoinWindowsWindowSize', () => {
    //Case where window size of otherJoinStore doesn't match JoinWindows
    const thisStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store", 150, 100, true);
    const otherStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store-other", 150, 150, true);

    buildStreamsJoinThatShouldThrow(
      streamJoined.withThisStoreSupplier(thisStoreSupplier).withOtherStoreSupplier(otherStoreSupplier),
      joinWindows,
      errorMessagePrefix
    );
  });

  /** KStreamKStreamJoinTest.shouldThrowExceptionWhenOtherJoinStoreSetsRetainDuplicatesFalse */
  it('shouldThrowExceptionWhenOtherJoinStoreSetsRetainDuplicatesFalse', () => {
    //Case where otherJoinStore retain duplicates false
    const thisStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store", 150, 100, true);
    const otherStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store-other", 150, 100, false);

    buildStreamsJoinThatShouldThrow(
      streamJoined.withThisStoreSupplier(thisStoreSupplier).withOtherStoreSupplier(otherStoreSupplier),
      joinWindows,
      "The StoreSupplier must set retainDuplicates=true, found retainDuplicates=false"
    );
  });

  /** KStreamKStreamJoinTest.shouldBuildJoinWithCustomStoresAndCorrectWindowSettings */
  it('shouldBuildJoinWithCustomStoresAndCorrectWindowSettings', () => {
    //Case where everything matches up
    const builder = new StreamsBuilder();
    const left = builder.stream("left", { keySerde: S, valueSerde: I });
    const right = builder.stream("right", { keySerde: S, valueSerde: I });

    left.join(right,
      SUM,
      joinWindows,
      streamJoined
    );

    builder.build();
  });

  /** KStreamKStreamJoinTest.shouldExceptionWhenJoinStoresDoNotHaveUniqueNames */
  it('shouldExceptionWhenJoinStoresDoNotHaveUniqueNames', () => {
    const joinWindows = JoinWindows.ofTimeDifferenceAndGrace(100, 50);
    const streamJoined = StreamJoined.with(S, I, I);
    const thisStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store", 150, 100, true);
    const otherStoreSupplier = buildWindowBytesStoreSupplier("in-memory-join-store", 150, 100, true);

    buildStreamsJoinThatShouldThrow(
      streamJoined.withThisStoreSupplier(thisStoreSupplier).withOtherStoreSupplier(otherStoreSupplier),
      joinWindows,
      "Both StoreSuppliers have the same name.  StoreSuppliers must provide unique names"
    );
  });

  /** KStreamKStreamJoinTest.shouldJoinWithCustomStoreSuppliers */
  it('shouldJoinWithCustomStoreSuppliers', () => {
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

    const streamJoined = StreamJoined.with(S, I, I);

    //Case with 2 custom store suppliers
    runJoin(streamJoined.withThisStoreSupplier(thisStoreSupplier).withOtherStoreSupplier(otherStoreSupplier), joinWindows);

    //Case with this stream store supplier
    runJoin(streamJoined.withThisStoreSupplier(thisStoreSupplier), joinWindows);

    //Case with other stream store supplier
    runJoin(streamJoined.withOtherStoreSupplier(otherStoreSupplier), joinWindows);
  });

  /** KStreamKStreamJoinTest.testJoin */
  it('testJoin', () => {
    const builder = new StreamsBuilder();

    const expectedKeys = [0, 1, 2, 3];
    const supplier = new MockApiProcessorSupplier();
    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed);
    const joined = stream1.join(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceWithNoGrace(100),
      StreamJoined.with(I, S, S)
    );
    joined.process(supplier);

    const groups = copartitionGroups(builder.build());

    expect(groups.length).toBe(1);
    expect(groups[0]).toEqual(new Set([topic1, topic2]));

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();

      // push two items to the primary stream; the other window is empty
      // w1 = {}
      // w2 = {}
      // --> w1 = { 0:A0, 1:A1 }
      //     w2 = {}
      for (let i = 0; i < 2; i++) {
        inputTopic1.pipeInput(expectedKeys[i]!, "A" + expectedKeys[i]!);
      }
      processor.checkAndClearProcessResult();

      // push two items to the other stream; this should produce two items
      // w1 = { 0:A0, 1:A1 }
      // w2 = {}
      // --> w1 = { 0:A0, 1:A1 }
      //     w2 = { 0:a0, 1:a1 }
      for (let i = 0; i < 2; i++) {
        inputTopic2.pipeInput(expectedKeys[i]!, "a" + expectedKeys[i]!);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+a0", 0),
        kvt(1, "A1+a1", 0)
      );

      // push all four items to the primary stream; this should produce two items
      // w1 = { 0:A0, 1:A1 }
      // w2 = { 0:a0, 1:a1 }
      // --> w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3 }
      //     w2 = { 0:a0, 1:a1 }
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "B" + expectedKey);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "B0+a0", 0),
        kvt(1, "B1+a1", 0)
      );

      // push all items to the other stream; this should produce six items
      // w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3 }
      // w2 = { 0:a0, 1:a1 }
      // --> w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3 }
      //     w2 = { 0:a0, 1:a1, 0:b0, 1:b1, 2:b2, 3:b3 }
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "b" + expectedKey);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+b0", 0),
        kvt(0, "B0+b0", 0),
        kvt(1, "A1+b1", 0),
        kvt(1, "B1+b1", 0),
        kvt(2, "B2+b2", 0),
        kvt(3, "B3+b3", 0)
      );

      // push all four items to the primary stream; this should produce six items
      // w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3 }
      // w2 = { 0:a0, 1:a1, 0:b0, 1:b1, 2:b2, 3:b3 }
      // --> w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3, 0:C0, 1:C1, 2:C2, 3:C3 }
      //     w2 = { 0:a0, 1:a1, 0:b0, 1:b1, 2:b2, 3:b3 }
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "C" + expectedKey);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "C0+a0", 0),
        kvt(0, "C0+b0", 0),
        kvt(1, "C1+a1", 0),
        kvt(1, "C1+b1", 0),
        kvt(2, "C2+b2", 0),
        kvt(3, "C3+b3", 0)
      );

      // push two items to the other stream; this should produce six items
      // w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3, 0:C0, 1:C1, 2:C2, 3:C3 }
      // w2 = { 0:a0, 1:a1, 0:b0, 1:b1, 2:b2, 3:b3 }
      // --> w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3, 0:C0, 1:C1, 2:C2, 3:C3 }
      //     w2 = { 0:a0, 1:a1, 0:b0, 1:b1, 2:b2, 3:b3, 0:c0, 1:c1 }
      for (let i = 0; i < 2; i++) {
        inputTopic2.pipeInput(expectedKeys[i]!, "c" + expectedKeys[i]!);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+c0", 0),
        kvt(0, "B0+c0", 0),
        kvt(0, "C0+c0", 0),
        kvt(1, "A1+c1", 0),
        kvt(1, "B1+c1", 0),
        kvt(1, "C1+c1", 0)
      );
    }
  });

  /** KStreamKStreamJoinTest.testOuterJoin */
  it('testOuterJoin', () => {
    const builder = new StreamsBuilder();

    const expectedKeys = [0, 1, 2, 3];
    const supplier = new MockApiProcessorSupplier();

    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed);
    const joined = stream1.outerJoin(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceAndGrace(100, 86400000),
      StreamJoined.with(I, S, S)
    );
    joined.process(supplier);
    const groups = copartitionGroups(builder.build());

    expect(groups.length).toBe(1);
    expect(groups[0]).toEqual(new Set([topic1, topic2]));

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();

      // push two items to the primary stream; the other window is empty; this should not produce items yet
      // w1 = {}
      // w2 = {}
      // --> w1 = { 0:A0, 1:A1 }
      //     w2 = {}
      for (let i = 0; i < 2; i++) {
        inputTopic1.pipeInput(expectedKeys[i]!, "A" + expectedKeys[i]!);
      }
      processor.checkAndClearProcessResult();

      // push two items to the other stream; this should produce two items
      // w1 = { 0:A0, 1:A1 }
      // w2 = {}
      // --> w1 = { 0:A0, 1:A1 }
      //     w2 = { 0:a0, 1:a1 }
      for (let i = 0; i < 2; i++) {
        inputTopic2.pipeInput(expectedKeys[i]!, "a" + expectedKeys[i]!);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+a0", 0),
        kvt(1, "A1+a1", 0)
      );

      // push all four items to the primary stream; this should produce two items
      // w1 = { 0:A0, 1:A1 }
      // w2 = { 0:a0, 1:a1 }
      // --> w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3 }
      //     w2 = { 0:a0, 1:a1 }
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "B" + expectedKey);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "B0+a0", 0),
        kvt(1, "B1+a1", 0)
      );

      // push all items to the other stream; this should produce six items
      // w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3 }
      // w2 = { 0:a0, 1:a1 }
      // --> w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3 }
      //     w2 = { 0:a0, 1:a1, 0:b0, 0:b0, 1:b1, 2:b2, 3:b3 }
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "b" + expectedKey);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+b0", 0),
        kvt(0, "B0+b0", 0),
        kvt(1, "A1+b1", 0),
        kvt(1, "B1+b1", 0),
        kvt(2, "B2+b2", 0),
        kvt(3, "B3+b3", 0)
      );

      // push all four items to the primary stream; this should produce six items
      // w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3 }
      // w2 = { 0:a0, 1:a1, 0:b0, 0:b0, 1:b1, 2:b2, 3:b3 }
      // --> w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3, 0:C0, 1:C1, 2:C2, 3:C3 }
      //     w2 = { 0:a0, 1:a1, 0:b0, 0:b0, 1:b1, 2:b2, 3:b3 }
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "C" + expectedKey);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "C0+a0", 0),
        kvt(0, "C0+b0", 0),
        kvt(1, "C1+a1", 0),
        kvt(1, "C1+b1", 0),
        kvt(2, "C2+b2", 0),
        kvt(3, "C3+b3", 0)
      );

      // push two items to the other stream; this should produce six items
      // w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3, 0:C0, 1:C1, 2:C2, 3:C3 }
      // w2 = { 0:a0, 1:a1, 0:b0, 0:b0, 1:b1, 2:b2, 3:b3 }
      // --> w1 = { 0:A0, 1:A1, 0:B0, 1:B1, 2:B2, 3:B3, 0:C0, 1:C1, 2:C2, 3:C3 }
      //     w2 = { 0:a0, 1:a1, 0:b0, 0:b0, 1:b1, 2:b2, 3:b3, 0:c0, 1:c1 }
      for (let i = 0; i < 2; i++) {
        inputTopic2.pipeInput(expectedKeys[i]!, "c" + expectedKeys[i]!);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+c0", 0),
        kvt(0, "B0+c0", 0),
        kvt(0, "C0+c0", 0),
        kvt(1, "A1+c1", 0),
        kvt(1, "B1+c1", 0),
        kvt(1, "C1+c1", 0)
      );
    }
  });

  /** KStreamKStreamJoinTest.testWindowing */
  it('testWindowing', () => {
    const builder = new StreamsBuilder();

    const expectedKeys = [0, 1, 2, 3];
    const supplier = new MockApiProcessorSupplier();
    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed);

    const joined = stream1.join(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceWithNoGrace(100),
      StreamJoined.with(I, S, S)
    );
    joined.process(supplier);

    const groups = copartitionGroups(builder.build());

    expect(groups.length).toBe(1);
    expect(groups[0]).toEqual(new Set([topic1, topic2]));

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();
      let time = 0;

      // push two items to the primary stream; the other window is empty; this should produce no items
      // w1 = {}
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0) }
      //     w2 = {}
      for (let i = 0; i < 2; i++) {
        inputTopic1.pipeInput(expectedKeys[i]!, "A" + expectedKeys[i]!, time);
      }
      processor.checkAndClearProcessResult();

      // push two items to the other stream; this should produce two items
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0) }
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0) }
      //     w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0) }
      for (let i = 0; i < 2; i++) {
        inputTopic2.pipeInput(expectedKeys[i]!, "a" + expectedKeys[i]!, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+a0", 0),
        kvt(1, "A1+a1", 0)
      );

      // push four items to the primary stream with larger and increasing timestamp; this should produce no items
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0) }
      // w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //            0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0) }
      time = 1000;
      for (let i = 0; i < expectedKeys.length; i++) {
        inputTopic1.pipeInput(expectedKeys[i]!, "B" + expectedKeys[i]!, time + i);
      }
      processor.checkAndClearProcessResult();

      // push four items to the other stream with fixed larger timestamp; this should produce four items
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //        0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003)  }
      // w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //            0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //            0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100) }
      time += 100;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "b" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "B0+b0", 1100),
        kvt(1, "B1+b1", 1100),
        kvt(2, "B2+b2", 1100),
        kvt(3, "B3+b3", 1100)
      );

      // push four items to the other stream with incremented timestamp; this should produce three items
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //        0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003)  }
      // w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //        0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //            0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //            0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //            0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "c" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(1, "B1+c1", 1101),
        kvt(2, "B2+c2", 1101),
        kvt(3, "B3+c3", 1101)
      );

      // push four items to the other stream with incremented timestamp; this should produce two items
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //        0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003)  }
      // w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //        0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //        0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //            0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //            0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //            0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //            0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "d" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(2, "B2+d2", 1102),
        kvt(3, "B3+d3", 1102)
      );

      // push four items to the other stream with incremented timestamp; this should produce one item
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //        0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003)  }
      // w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //        0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //        0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //        0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //            0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //            0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //            0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //            0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //            0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "e" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(3, "B3+e3", 1103)
      );

      // push four items to the other stream with incremented timestamp; this should produce no items
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //        0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003)  }
      // w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //        0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //        0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //        0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //        0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //            0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //            0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //            0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //            0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //            0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103),
      //            0:f0 (ts: 1104), 1:f1 (ts: 1104), 2:f2 (ts: 1104), 3:f3 (ts: 1104) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "f" + expectedKey, time);
      }
      processor.checkAndClearProcessResult();

      // push four items to the other stream with timestamp before the window bound; this should produce no items
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //        0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003)  }
      // w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //        0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //        0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //        0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //        0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103),
      //        0:f0 (ts: 1104), 1:f1 (ts: 1104), 2:f2 (ts: 1104), 3:f3 (ts: 1104) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //            0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //            0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //            0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //            0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //            0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103),
      //            0:f0 (ts: 1104), 1:f1 (ts: 1104), 2:f2 (ts: 1104), 3:f3 (ts: 1104),
      //            0:g0 (ts: 899), 1:g1 (ts: 899), 2:g2 (ts: 899), 3:g3 (ts: 899) }
      time = 1000 - 100 - 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "g" + expectedKey, time);
      }
      processor.checkAndClearProcessResult();

      // push four items to the other stream with with incremented timestamp; this should produce one item
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //        0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003)  }
      // w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //        0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //        0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //        0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //        0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103),
      //        0:f0 (ts: 1104), 1:f1 (ts: 1104), 2:f2 (ts: 1104), 3:f3 (ts: 1104),
      //        0:g0 (ts: 899), 1:g1 (ts: 899), 2:g2 (ts: 899), 3:g3 (ts: 899) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //            0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //            0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //            0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //            0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //            0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103),
      //            0:f0 (ts: 1104), 1:f1 (ts: 1104), 2:f2 (ts: 1104), 3:f3 (ts: 1104),
      //            0:g0 (ts: 899), 1:g1 (ts: 899), 2:g2 (ts: 899), 3:g3 (ts: 899),
      //            0:h0 (ts: 900), 1:h1 (ts: 900), 2:h2 (ts: 900), 3:h3 (ts: 900) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "h" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "B0+h0", 1000)
      );

      // push four items to the other stream with with incremented timestamp; this should produce two items
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //        0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003)  }
      // w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //        0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //        0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //        0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //        0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103),
      //        0:f0 (ts: 1104), 1:f1 (ts: 1104), 2:f2 (ts: 1104), 3:f3 (ts: 1104),
      //        0:g0 (ts: 899), 1:g1 (ts: 899), 2:g2 (ts: 899), 3:g3 (ts: 899),
      //        0:h0 (ts: 900), 1:h1 (ts: 900), 2:h2 (ts: 900), 3:h3 (ts: 900) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //            0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //            0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //            0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //            0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //            0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103),
      //            0:f0 (ts: 1104), 1:f1 (ts: 1104), 2:f2 (ts: 1104), 3:f3 (ts: 1104),
      //            0:g0 (ts: 899), 1:g1 (ts: 899), 2:g2 (ts: 899), 3:g3 (ts: 899),
      //            0:h0 (ts: 900), 1:h1 (ts: 900), 2:h2 (ts: 900), 3:h3 (ts: 900),
      //            0:i0 (ts: 901), 1:i1 (ts: 901), 2:i2 (ts: 901), 3:i3 (ts: 901) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "i" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "B0+i0", 1000),
        kvt(1, "B1+i1", 1001)
      );

      // push four items to the other stream with with incremented timestamp; this should produce three items
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //        0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003)  }
      // w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //        0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //        0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //        0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //        0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103),
      //        0:f0 (ts: 1104), 1:f1 (ts: 1104), 2:f2 (ts: 1104), 3:f3 (ts: 1104),
      //        0:g0 (ts: 899), 1:g1 (ts: 899), 2:g2 (ts: 899), 3:g3 (ts: 899),
      //        0:h0 (ts: 900), 1:h1 (ts: 900), 2:h2 (ts: 900), 3:h3 (ts: 900),
      //        0:i0 (ts: 901), 1:i1 (ts: 901), 2:i2 (ts: 901), 3:i3 (ts: 901) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //            0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //            0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //            0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //            0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //            0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103),
      //            0:f0 (ts: 1104), 1:f1 (ts: 1104), 2:f2 (ts: 1104), 3:f3 (ts: 1104),
      //            0:g0 (ts: 899), 1:g1 (ts: 899), 2:g2 (ts: 899), 3:g3 (ts: 899),
      //            0:h0 (ts: 900), 1:h1 (ts: 900), 2:h2 (ts: 900), 3:h3 (ts: 900),
      //            0:i0 (ts: 901), 1:i1 (ts: 901), 2:i2 (ts: 901), 3:i3 (ts: 901),
      //            0:j0 (ts: 902), 1:j1 (ts: 902), 2:j2 (ts: 902), 3:j3 (ts: 902) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "j" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "B0+j0", 1000),
        kvt(1, "B1+j1", 1001),
        kvt(2, "B2+j2", 1002)
      );

      // push four items to the other stream with with incremented timestamp; this should produce four items
      // w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //        0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003)  }
      // w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //        0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //        0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //        0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //        0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103),
      //        0:f0 (ts: 1104), 1:f1 (ts: 1104), 2:f2 (ts: 1104), 3:f3 (ts: 1104),
      //        0:g0 (ts: 899), 1:g1 (ts: 899), 2:g2 (ts: 899), 3:g3 (ts: 899),
      //        0:h0 (ts: 900), 1:h1 (ts: 900), 2:h2 (ts: 900), 3:h3 (ts: 900),
      //        0:i0 (ts: 901), 1:i1 (ts: 901), 2:i2 (ts: 901), 3:i3 (ts: 901),
      //        0:j0 (ts: 902), 1:j1 (ts: 902), 2:j2 (ts: 902), 3:j3 (ts: 902) }
      // --> w1 = { 0:A0 (ts: 0), 1:A1 (ts: 0),
      //            0:B0 (ts: 1000), 1:B1 (ts: 1001), 2:B2 (ts: 1002), 3:B3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 0), 1:a1 (ts: 0),
      //            0:b0 (ts: 1100), 1:b1 (ts: 1100), 2:b2 (ts: 1100), 3:b3 (ts: 1100),
      //            0:c0 (ts: 1101), 1:c1 (ts: 1101), 2:c2 (ts: 1101), 3:c3 (ts: 1101),
      //            0:d0 (ts: 1102), 1:d1 (ts: 1102), 2:d2 (ts: 1102), 3:d3 (ts: 1102),
      //            0:e0 (ts: 1103), 1:e1 (ts: 1103), 2:e2 (ts: 1103), 3:e3 (ts: 1103),
      //            0:f0 (ts: 1104), 1:f1 (ts: 1104), 2:f2 (ts: 1104), 3:f3 (ts: 1104),
      //            0:g0 (ts: 899), 1:g1 (ts: 899), 2:g2 (ts: 899), 3:g3 (ts: 899),
      //            0:h0 (ts: 900), 1:h1 (ts: 900), 2:h2 (ts: 900), 3:h3 (ts: 900),
      //            0:i0 (ts: 901), 1:i1 (ts: 901), 2:i2 (ts: 901), 3:i3 (ts: 901),
      //            0:j0 (ts: 902), 1:j1 (ts: 902), 2:j2 (ts: 902), 3:j3 (ts: 902) }
      //            0:k0 (ts: 903), 1:k1 (ts: 903), 2:k2 (ts: 903), 3:k3 (ts: 903) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "k" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "B0+k0", 1000),
        kvt(1, "B1+k1", 1001),
        kvt(2, "B2+k2", 1002),
        kvt(3, "B3+k3", 1003)
      );

      // advance time to not join with existing data
      // we omit above exiting data, even if it's still in the window
      //
      // push four items with increasing timestamps to the other stream. the primary window is empty; this should produce no items
      // w1 = {}
      // w2 = {}
      // --> w1 = {}
      //     w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      time = 2000;
      for (let i = 0; i < expectedKeys.length; i++) {
        inputTopic2.pipeInput(expectedKeys[i]!, "l" + expectedKeys[i]!, time + i);
      }
      processor.checkAndClearProcessResult();

      // push four items with larger timestamps to the primary stream; this should produce four items
      // w1 = {}
      // w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      // --> w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100) }
      //     w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      time = 2000 + 100;
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "C" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "C0+l0", 2100),
        kvt(1, "C1+l1", 2100),
        kvt(2, "C2+l2", 2100),
        kvt(3, "C3+l3", 2100)
      );

      // push four items with increase timestamps to the primary stream; this should produce three items
      // w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100) }
      // w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      // --> w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //            0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101) }
      //     w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "D" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(1, "D1+l1", 2101),
        kvt(2, "D2+l2", 2101),
        kvt(3, "D3+l3", 2101)
      );

      // push four items with increase timestamps to the primary stream; this should produce two items
      // w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //        0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101) }
      // w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      // --> w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //            0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //            0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102) }
      //     w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "E" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(2, "E2+l2", 2102),
        kvt(3, "E3+l3", 2102)
      );

      // push four items with increase timestamps to the primary stream; this should produce one item
      // w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //        0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //        0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102) }
      // w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      // --> w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //            0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //            0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //            0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103) }
      //     w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "F" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(3, "F3+l3", 2103)
      );

      // push four items with increase timestamps (now out of window) to the primary stream; this should produce no items
      // w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //        0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //        0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //        0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103) }
      // w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      // --> w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //            0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //            0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //            0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103),
      //            0:G0 (ts: 2104), 1:G1 (ts: 2104), 2:G2 (ts: 2104), 3:G3 (ts: 2104) }
      //     w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "G" + expectedKey, time);
      }
      processor.checkAndClearProcessResult();

      // push four items with smaller timestamps (before window) to the primary stream; this should produce no items
      // w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //        0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //        0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //        0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103),
      //        0:G0 (ts: 2104), 1:G1 (ts: 2104), 2:G2 (ts: 2104), 3:G3 (ts: 2104) }
      // w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      // --> w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //            0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //            0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //            0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103),
      //            0:G0 (ts: 2104), 1:G1 (ts: 2104), 2:G2 (ts: 2104), 3:G3 (ts: 2104),
      //            0:H0 (ts: 1899), 1:H1 (ts: 1899), 2:H2 (ts: 1899), 3:H3 (ts: 1899) }
      //     w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      time = 2000 - 100 - 1;
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "H" + expectedKey, time);
      }
      processor.checkAndClearProcessResult();

      // push four items with increased timestamps to the primary stream; this should produce one item
      // w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //        0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //        0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //        0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103),
      //        0:G0 (ts: 2104), 1:G1 (ts: 2104), 2:G2 (ts: 2104), 3:G3 (ts: 2104),
      //        0:H0 (ts: 1899), 1:H1 (ts: 1899), 2:H2 (ts: 1899), 3:H3 (ts: 1899) }
      // w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      // --> w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //            0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //            0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //            0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103),
      //            0:G0 (ts: 2104), 1:G1 (ts: 2104), 2:G2 (ts: 2104), 3:G3 (ts: 2104),
      //            0:H0 (ts: 1899), 1:H1 (ts: 1899), 2:H2 (ts: 1899), 3:H3 (ts: 1899),
      //            0:I0 (ts: 1900), 1:I1 (ts: 1900), 2:I2 (ts: 1900), 3:I3 (ts: 1900) }
      //     w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "I" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "I0+l0", 2000)
      );

      // push four items with increased timestamps to the primary stream; this should produce two items
      // w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //        0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //        0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //        0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103),
      //        0:G0 (ts: 2104), 1:G1 (ts: 2104), 2:G2 (ts: 2104), 3:G3 (ts: 2104),
      //        0:H0 (ts: 1899), 1:H1 (ts: 1899), 2:H2 (ts: 1899), 3:H3 (ts: 1899),
      //        0:I0 (ts: 1900), 1:I1 (ts: 1900), 2:I2 (ts: 1900), 3:I3 (ts: 1900) }
      // w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      // --> w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //            0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //            0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //            0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103),
      //            0:G0 (ts: 2104), 1:G1 (ts: 2104), 2:G2 (ts: 2104), 3:G3 (ts: 2104),
      //            0:H0 (ts: 1899), 1:H1 (ts: 1899), 2:H2 (ts: 1899), 3:H3 (ts: 1899),
      //            0:I0 (ts: 1900), 1:I1 (ts: 1900), 2:I2 (ts: 1900), 3:I3 (ts: 1900),
      //            0:J0 (ts: 1901), 1:J1 (ts: 1901), 2:J2 (ts: 1901), 3:J3 (ts: 1901) }
      //     w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "J" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "J0+l0", 2000),
        kvt(1, "J1+l1", 2001)
      );

      // push four items with increased timestamps to the primary stream; this should produce three items
      // w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //        0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //        0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //        0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103),
      //        0:G0 (ts: 2104), 1:G1 (ts: 2104), 2:G2 (ts: 2104), 3:G3 (ts: 2104),
      //        0:H0 (ts: 1899), 1:H1 (ts: 1899), 2:H2 (ts: 1899), 3:H3 (ts: 1899),
      //        0:I0 (ts: 1900), 1:I1 (ts: 1900), 2:I2 (ts: 1900), 3:I3 (ts: 1900),
      //        0:J0 (ts: 1901), 1:J1 (ts: 1901), 2:J2 (ts: 1901), 3:J3 (ts: 1901) }
      // w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      // --> w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //            0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //            0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //            0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103),
      //            0:G0 (ts: 2104), 1:G1 (ts: 2104), 2:G2 (ts: 2104), 3:G3 (ts: 2104),
      //            0:H0 (ts: 1899), 1:H1 (ts: 1899), 2:H2 (ts: 1899), 3:H3 (ts: 1899),
      //            0:I0 (ts: 1900), 1:I1 (ts: 1900), 2:I2 (ts: 1900), 3:I3 (ts: 1900),
      //            0:J0 (ts: 1901), 1:J1 (ts: 1901), 2:J2 (ts: 1901), 3:J3 (ts: 1901),
      //            0:K0 (ts: 1902), 1:K1 (ts: 1902), 2:K2 (ts: 1902), 3:K3 (ts: 1902) }
      //     w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "K" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "K0+l0", 2000),
        kvt(1, "K1+l1", 2001),
        kvt(2, "K2+l2", 2002)
      );

      // push four items with increased timestamps to the primary stream; this should produce four items
      // w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //        0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //        0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //        0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103),
      //        0:G0 (ts: 2104), 1:G1 (ts: 2104), 2:G2 (ts: 2104), 3:G3 (ts: 2104),
      //        0:H0 (ts: 1899), 1:H1 (ts: 1899), 2:H2 (ts: 1899), 3:H3 (ts: 1899),
      //        0:I0 (ts: 1900), 1:I1 (ts: 1900), 2:I2 (ts: 1900), 3:I3 (ts: 1900),
      //        0:J0 (ts: 1901), 1:J1 (ts: 1901), 2:J2 (ts: 1901), 3:J3 (ts: 1901) }
      //        0:K0 (ts: 1902), 1:K1 (ts: 1902), 2:K2 (ts: 1902), 3:K3 (ts: 1902) }
      // w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      // --> w1 = { 0:C0 (ts: 2100), 1:C1 (ts: 2100), 2:C2 (ts: 2100), 3:C3 (ts: 2100),
      //            0:D0 (ts: 2101), 1:D1 (ts: 2101), 2:D2 (ts: 2101), 3:D3 (ts: 2101),
      //            0:E0 (ts: 2102), 1:E1 (ts: 2102), 2:E2 (ts: 2102), 3:E3 (ts: 2102),
      //            0:F0 (ts: 2103), 1:F1 (ts: 2103), 2:F2 (ts: 2103), 3:F3 (ts: 2103),
      //            0:G0 (ts: 2104), 1:G1 (ts: 2104), 2:G2 (ts: 2104), 3:G3 (ts: 2104),
      //            0:H0 (ts: 1899), 1:H1 (ts: 1899), 2:H2 (ts: 1899), 3:H3 (ts: 1899),
      //            0:I0 (ts: 1900), 1:I1 (ts: 1900), 2:I2 (ts: 1900), 3:I3 (ts: 1900),
      //            0:J0 (ts: 1901), 1:J1 (ts: 1901), 2:J2 (ts: 1901), 3:J3 (ts: 1901),
      //            0:K0 (ts: 1902), 1:K1 (ts: 1902), 2:K2 (ts: 1902), 3:K3 (ts: 1902),
      //            0:L0 (ts: 1903), 1:L1 (ts: 1903), 2:L2 (ts: 1903), 3:L3 (ts: 1903) }
      //     w2 = { 0:l0 (ts: 2000), 1:l1 (ts: 2001), 2:l2 (ts: 2002), 3:l3 (ts: 2003) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic1.pipeInput(expectedKey, "L" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "L0+l0", 2000),
        kvt(1, "L1+l1", 2001),
        kvt(2, "L2+l2", 2002),
        kvt(3, "L3+l3", 2003)
      );
    }
  });

  /** KStreamKStreamJoinTest.testAsymmetricWindowingAfter */
  it('testAsymmetricWindowingAfter', () => {
    const builder = new StreamsBuilder();

    const expectedKeys = [0, 1, 2, 3];
    const supplier = new MockApiProcessorSupplier();
    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed);

    const joined = stream1.join(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceWithNoGrace(0).after(100),
      StreamJoined.with(I,
        S,
        S)
    );
    joined.process(supplier);

    const groups = copartitionGroups(builder.build());

    expect(groups.length).toBe(1);
    expect(groups[0]).toEqual(new Set([topic1, topic2]));

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();
      let time = 1000;

      // push four items with increasing timestamps to the primary stream; the other window is empty; this should produce no items
      // w1 = {}
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = {}
      for (let i = 0; i < expectedKeys.length; i++) {
        inputTopic1.pipeInput(expectedKeys[i]!, "A" + expectedKeys[i]!, time + i);
      }
      processor.checkAndClearProcessResult();

      // push four items smaller timestamps (out of window) to the secondary stream; this should produce no items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999) }
      time = 1000 - 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "a" + expectedKey, time);
      }
      processor.checkAndClearProcessResult();

      // push four items with increased timestamps to the secondary stream; this should produce one item
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //            0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "b" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+b0", 1000)
      );

      // push four items with increased timestamps to the secondary stream; this should produce two items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //        0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //            0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //            0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "c" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+c0", 1001),
        kvt(1, "A1+c1", 1001)
      );

      // push four items with increased timestamps to the secondary stream; this should produce three items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //        0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //        0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //            0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //            0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //            0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "d" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+d0", 1002),
        kvt(1, "A1+d1", 1002),
        kvt(2, "A2+d2", 1002)
      );

      // push four items with increased timestamps to the secondary stream; this should produce four items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //        0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //        0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //        0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //            0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //            0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //            0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002),
      //            0:e0 (ts: 1003), 1:e1 (ts: 1003), 2:e2 (ts: 1003), 3:e3 (ts: 1003) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "e" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+e0", 1003),
        kvt(1, "A1+e1", 1003),
        kvt(2, "A2+e2", 1003),
        kvt(3, "A3+e3", 1003)
      );

      // push four items with larger timestamps to the secondary stream; this should produce four items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //        0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //        0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //        0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002),
      //        0:e0 (ts: 1003), 1:e1 (ts: 1003), 2:e2 (ts: 1003), 3:e3 (ts: 1003) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //            0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //            0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //            0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002),
      //            0:e0 (ts: 1003), 1:e1 (ts: 1003), 2:e2 (ts: 1003), 3:e3 (ts: 1003),
      //            0:f0 (ts: 1100), 1:f1 (ts: 1100), 2:f2 (ts: 1100), 3:f3 (ts: 1100) }
      time = 1000 + 100;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "f" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+f0", 1100),
        kvt(1, "A1+f1", 1100),
        kvt(2, "A2+f2", 1100),
        kvt(3, "A3+f3", 1100)
      );

      // push four items with increased timestamps to the secondary stream; this should produce three items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //        0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //        0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //        0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002),
      //        0:e0 (ts: 1003), 1:e1 (ts: 1003), 2:e2 (ts: 1003), 3:e3 (ts: 1003),
      //        0:f0 (ts: 1100), 1:f1 (ts: 1100), 2:f2 (ts: 1100), 3:f3 (ts: 1100) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //            0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //            0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //            0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002),
      //            0:e0 (ts: 1003), 1:e1 (ts: 1003), 2:e2 (ts: 1003), 3:e3 (ts: 1003),
      //            0:f0 (ts: 1100), 1:f1 (ts: 1100), 2:f2 (ts: 1100), 3:f3 (ts: 1100),
      //            0:g0 (ts: 1101), 1:g1 (ts: 1101), 2:g2 (ts: 1101), 3:g3 (ts: 1101) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "g" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(1, "A1+g1", 1101),
        kvt(2, "A2+g2", 1101),
        kvt(3, "A3+g3", 1101)
      );

      // push four items with increased timestamps to the secondary stream; this should produce two items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //        0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //        0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //        0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002),
      //        0:e0 (ts: 1003), 1:e1 (ts: 1003), 2:e2 (ts: 1003), 3:e3 (ts: 1003),
      //        0:f0 (ts: 1100), 1:f1 (ts: 1100), 2:f2 (ts: 1100), 3:f3 (ts: 1100),
      //        0:g0 (ts: 1101), 1:g1 (ts: 1101), 2:g2 (ts: 1101), 3:g3 (ts: 1101) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //            0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //            0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //            0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002),
      //            0:e0 (ts: 1003), 1:e1 (ts: 1003), 2:e2 (ts: 1003), 3:e3 (ts: 1003),
      //            0:f0 (ts: 1100), 1:f1 (ts: 1100), 2:f2 (ts: 1100), 3:f3 (ts: 1100),
      //            0:g0 (ts: 1101), 1:g1 (ts: 1101), 2:g2 (ts: 1101), 3:g3 (ts: 1101),
      //            0:h0 (ts: 1102), 1:h1 (ts: 1102), 2:h2 (ts: 1102), 3:h3 (ts: 1102) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "h" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(2, "A2+h2", 1102),
        kvt(3, "A3+h3", 1102)
      );

      // push four items with increased timestamps to the secondary stream; this should produce one item
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //        0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //        0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //        0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002),
      //        0:e0 (ts: 1003), 1:e1 (ts: 1003), 2:e2 (ts: 1003), 3:e3 (ts: 1003),
      //        0:f0 (ts: 1100), 1:f1 (ts: 1100), 2:f2 (ts: 1100), 3:f3 (ts: 1100),
      //        0:g0 (ts: 1101), 1:g1 (ts: 1101), 2:g2 (ts: 1101), 3:g3 (ts: 1101),
      //        0:h0 (ts: 1102), 1:h1 (ts: 1102), 2:h2 (ts: 1102), 3:h3 (ts: 1102) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //            0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //            0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //            0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002),
      //            0:e0 (ts: 1003), 1:e1 (ts: 1003), 2:e2 (ts: 1003), 3:e3 (ts: 1003),
      //            0:f0 (ts: 1100), 1:f1 (ts: 1100), 2:f2 (ts: 1100), 3:f3 (ts: 1100),
      //            0:g0 (ts: 1101), 1:g1 (ts: 1101), 2:g2 (ts: 1101), 3:g3 (ts: 1101),
      //            0:h0 (ts: 1102), 1:h1 (ts: 1102), 2:h2 (ts: 1102), 3:h3 (ts: 1102),
      //            0:i0 (ts: 1103), 1:i1 (ts: 1103), 2:i2 (ts: 1103), 3:i3 (ts: 1103) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "i" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(3, "A3+i3", 1103)
      );

      // push four items with increased timestamps (no out of window) to the secondary stream; this should produce no items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //        0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //        0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //        0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002),
      //        0:e0 (ts: 1003), 1:e1 (ts: 1003), 2:e2 (ts: 1003), 3:e3 (ts: 1003),
      //        0:f0 (ts: 1100), 1:f1 (ts: 1100), 2:f2 (ts: 1100), 3:f3 (ts: 1100),
      //        0:g0 (ts: 1101), 1:g1 (ts: 1101), 2:g2 (ts: 1101), 3:g3 (ts: 1101),
      //        0:h0 (ts: 1102), 1:h1 (ts: 1102), 2:h2 (ts: 1102), 3:h3 (ts: 1102),
      //        0:i0 (ts: 1103), 1:i1 (ts: 1103), 2:i2 (ts: 1103), 3:i3 (ts: 1103) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 999), 1:a1 (ts: 999), 2:a2 (ts: 999), 3:a3 (ts: 999),
      //            0:b0 (ts: 1000), 1:b1 (ts: 1000), 2:b2 (ts: 1000), 3:b3 (ts: 1000),
      //            0:c0 (ts: 1001), 1:c1 (ts: 1001), 2:c2 (ts: 1001), 3:c3 (ts: 1001),
      //            0:d0 (ts: 1002), 1:d1 (ts: 1002), 2:d2 (ts: 1002), 3:d3 (ts: 1002),
      //            0:e0 (ts: 1003), 1:e1 (ts: 1003), 2:e2 (ts: 1003), 3:e3 (ts: 1003),
      //            0:f0 (ts: 1100), 1:f1 (ts: 1100), 2:f2 (ts: 1100), 3:f3 (ts: 1100),
      //            0:g0 (ts: 1101), 1:g1 (ts: 1101), 2:g2 (ts: 1101), 3:g3 (ts: 1101),
      //            0:h0 (ts: 1102), 1:h1 (ts: 1102), 2:h2 (ts: 1102), 3:h3 (ts: 1102),
      //            0:i0 (ts: 1103), 1:i1 (ts: 1103), 2:i2 (ts: 1103), 3:i3 (ts: 1103),
      //            0:j0 (ts: 1104), 1:j1 (ts: 1104), 2:j2 (ts: 1104), 3:j3 (ts: 1104) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "j" + expectedKey, time);
      }
      processor.checkAndClearProcessResult();
    }
  });

  /** KStreamKStreamJoinTest.testAsymmetricWindowingBefore */
  it('testAsymmetricWindowingBefore', () => {
    const builder = new StreamsBuilder();

    const expectedKeys = [0, 1, 2, 3];
    const supplier = new MockApiProcessorSupplier();

    const stream1 = builder.stream(topic1, consumed);
    const stream2 = builder.stream(topic2, consumed);

    const joined = stream1.join(
      stream2,
      TOSTRING_JOINER,
      JoinWindows.ofTimeDifferenceWithNoGrace(0).before(100),
      StreamJoined.with(I, S, S)
    );
    joined.process(supplier);

    const groups = copartitionGroups(builder.build());

    expect(groups.length).toBe(1);
    expect(groups[0]).toEqual(new Set([topic1, topic2]));

    {
      const { driver } = track(driverFor(builder));
      const inputTopic1 = driver.createInputTopic(topic1, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopic2 = driver.createInputTopic(topic2, I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();
      let time = 1000;

      // push four items with increasing timestamps to the primary stream; the other window is empty; this should produce no items
      // w1 = {}
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = {}
      for (let i = 0; i < expectedKeys.length; i++) {
        inputTopic1.pipeInput(expectedKeys[i]!, "A" + expectedKeys[i]!, time + i);
      }
      processor.checkAndClearProcessResult();

      // push four items with smaller timestamps (before the window) to the other stream; this should produce no items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = {}
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899) }
      time = 1000 - 100 - 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "a" + expectedKey, time);
      }
      processor.checkAndClearProcessResult();

      // push four items with increased timestamp to the other stream; this should produce one item
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //            0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "b" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+b0", 1000)
      );

      // push four items with increased timestamp to the other stream; this should produce two items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //        0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //            0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //            0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "c" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+c0", 1000),
        kvt(1, "A1+c1", 1001)
      );

      // push four items with increased timestamp to the other stream; this should produce three items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //        0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //        0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //            0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //            0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //            0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "d" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+d0", 1000),
        kvt(1, "A1+d1", 1001),
        kvt(2, "A2+d2", 1002)
      );

      // push four items with increased timestamp to the other stream; this should produce four items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //        0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //        0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //        0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //            0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //            0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //            0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902),
      //            0:e0 (ts: 903), 1:e1 (ts: 903), 2:e2 (ts: 903), 3:e3 (ts: 903) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "e" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+e0", 1000),
        kvt(1, "A1+e1", 1001),
        kvt(2, "A2+e2", 1002),
        kvt(3, "A3+e3", 1003)
      );

      // push four items with larger timestamp to the other stream; this should produce four items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //        0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //        0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //        0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902),
      //        0:e0 (ts: 903), 1:e1 (ts: 903), 2:e2 (ts: 903), 3:e3 (ts: 903) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //            0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //            0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //            0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902),
      //            0:e0 (ts: 903), 1:e1 (ts: 903), 2:e2 (ts: 903), 3:e3 (ts: 903),
      //            0:f0 (ts: 1000), 1:f1 (ts: 1000), 2:f2 (ts: 1000), 3:f3 (ts: 1000) }
      time = 1000;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "f" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(0, "A0+f0", 1000),
        kvt(1, "A1+f1", 1001),
        kvt(2, "A2+f2", 1002),
        kvt(3, "A3+f3", 1003)
      );

      // push four items with increase timestamp to the other stream; this should produce three items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //        0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //        0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //        0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902),
      //        0:e0 (ts: 903), 1:e1 (ts: 903), 2:e2 (ts: 903), 3:e3 (ts: 903),
      //        0:f0 (ts: 1000), 1:f1 (ts: 1000), 2:f2 (ts: 1000), 3:f3 (ts: 1000) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //            0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //            0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //            0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902),
      //            0:e0 (ts: 903), 1:e1 (ts: 903), 2:e2 (ts: 903), 3:e3 (ts: 903),
      //            0:f0 (ts: 1000), 1:f1 (ts: 1000), 2:f2 (ts: 1000), 3:f3 (ts: 1000),
      //            0:g0 (ts: 1001), 1:g1 (ts: 1001), 2:g2 (ts: 1001), 3:g3 (ts: 1001) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "g" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(1, "A1+g1", 1001),
        kvt(2, "A2+g2", 1002),
        kvt(3, "A3+g3", 1003)
      );

      // push four items with increase timestamp to the other stream; this should produce two items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //        0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //        0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //        0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902),
      //        0:e0 (ts: 903), 1:e1 (ts: 903), 2:e2 (ts: 903), 3:e3 (ts: 903),
      //        0:f0 (ts: 1000), 1:f1 (ts: 1000), 2:f2 (ts: 1000), 3:f3 (ts: 1000),
      //        0:g0 (ts: 1001), 1:g1 (ts: 1001), 2:g2 (ts: 1001), 3:g3 (ts: 1001) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //            0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //            0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //            0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902),
      //            0:e0 (ts: 903), 1:e1 (ts: 903), 2:e2 (ts: 903), 3:e3 (ts: 903),
      //            0:f0 (ts: 1000), 1:f1 (ts: 1000), 2:f2 (ts: 1000), 3:f3 (ts: 1000),
      //            0:g0 (ts: 1001), 1:g1 (ts: 1001), 2:g2 (ts: 1001), 3:g3 (ts: 1001),
      //            0:h0 (ts: 1002), 1:h1 (ts: 1002), 2:h2 (ts: 1002), 3:h3 (ts: 1002) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "h" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(2, "A2+h2", 1002),
        kvt(3, "A3+h3", 1003)
      );

      // push four items with increase timestamp to the other stream; this should produce one item
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //        0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //        0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //        0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902),
      //        0:e0 (ts: 903), 1:e1 (ts: 903), 2:e2 (ts: 903), 3:e3 (ts: 903),
      //        0:f0 (ts: 1000), 1:f1 (ts: 1000), 2:f2 (ts: 1000), 3:f3 (ts: 1000),
      //        0:g0 (ts: 1001), 1:g1 (ts: 1001), 2:g2 (ts: 1001), 3:g3 (ts: 1001),
      //        0:h0 (ts: 1002), 1:h1 (ts: 1002), 2:h2 (ts: 1002), 3:h3 (ts: 1002) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //            0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //            0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //            0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902),
      //            0:e0 (ts: 903), 1:e1 (ts: 903), 2:e2 (ts: 903), 3:e3 (ts: 903),
      //            0:f0 (ts: 1000), 1:f1 (ts: 1000), 2:f2 (ts: 1000), 3:f3 (ts: 1000),
      //            0:g0 (ts: 1001), 1:g1 (ts: 1001), 2:g2 (ts: 1001), 3:g3 (ts: 1001),
      //            0:h0 (ts: 1002), 1:h1 (ts: 1002), 2:h2 (ts: 1002), 3:h3 (ts: 1002),
      //            0:i0 (ts: 1003), 1:i1 (ts: 1003), 2:i2 (ts: 1003), 3:i3 (ts: 1003) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "i" + expectedKey, time);
      }
      processor.checkAndClearProcessResult(
        kvt(3, "A3+i3", 1003)
      );

      // push four items with increase timestamp (no out of window) to the other stream; this should produce no items
      // w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      // w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //        0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //        0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //        0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902),
      //        0:e0 (ts: 903), 1:e1 (ts: 903), 2:e2 (ts: 903), 3:e3 (ts: 903),
      //        0:f0 (ts: 1000), 1:f1 (ts: 1000), 2:f2 (ts: 1000), 3:f3 (ts: 1000),
      //        0:g0 (ts: 1001), 1:g1 (ts: 1001), 2:g2 (ts: 1001), 3:g3 (ts: 1001),
      //        0:h0 (ts: 1002), 1:h1 (ts: 1002), 2:h2 (ts: 1002), 3:h3 (ts: 1002),
      //        0:i0 (ts: 1003), 1:i1 (ts: 1003), 2:i2 (ts: 1003), 3:i3 (ts: 1003) }
      // --> w1 = { 0:A0 (ts: 1000), 1:A1 (ts: 1001), 2:A2 (ts: 1002), 3:A3 (ts: 1003) }
      //     w2 = { 0:a0 (ts: 899), 1:a1 (ts: 899), 2:a2 (ts: 899), 3:a3 (ts: 899),
      //            0:b0 (ts: 900), 1:b1 (ts: 900), 2:b2 (ts: 900), 3:b3 (ts: 900),
      //            0:c0 (ts: 901), 1:c1 (ts: 901), 2:c2 (ts: 901), 3:c3 (ts: 901),
      //            0:d0 (ts: 902), 1:d1 (ts: 902), 2:d2 (ts: 902), 3:d3 (ts: 902),
      //            0:e0 (ts: 903), 1:e1 (ts: 903), 2:e2 (ts: 903), 3:e3 (ts: 903),
      //            0:f0 (ts: 1000), 1:f1 (ts: 1000), 2:f2 (ts: 1000), 3:f3 (ts: 1000),
      //            0:g0 (ts: 1001), 1:g1 (ts: 1001), 2:g2 (ts: 1001), 3:g3 (ts: 1001),
      //            0:h0 (ts: 1002), 1:h1 (ts: 1002), 2:h2 (ts: 1002), 3:h3 (ts: 1002),
      //            0:i0 (ts: 1003), 1:i1 (ts: 1003), 2:i2 (ts: 1003), 3:i3 (ts: 1003),
      //            0:j0 (ts: 1004), 1:j1 (ts: 1004), 2:j2 (ts: 1004), 3:j3 (ts: 1004) }
      time += 1;
      for (const expectedKey of expectedKeys) {
        inputTopic2.pipeInput(expectedKey, "j" + expectedKey, time);
      }
      processor.checkAndClearProcessResult();
    }
  });

});

/** The Java helper `KStreamKStreamJoinTest.runJoin`. */
function runJoin(streamJoined: StreamJoined<string, number, number>, joinWindows: JoinWindows): void {
    const builder = new StreamsBuilder();

    const left = builder.stream("left", { keySerde: S, valueSerde: I });
    const right = builder.stream("right", { keySerde: S, valueSerde: I });
    const supplier = new MockApiProcessorSupplier();

    const joinedStream = left.join(
      right,
      SUM,
      joinWindows,
      streamJoined
    );

    joinedStream.process(supplier);

    {
      const { driver } = track(driverFor(builder));
      const inputTopicLeft = driver.createInputTopic("left", S, I, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const inputTopicRight = driver.createInputTopic("right", S, I, { startTimestampMs: 0, autoAdvanceMs: 0 });
      const processor = supplier.theCapturedProcessor();

      inputTopicLeft.pipeInput("A", 1, 1);
      inputTopicLeft.pipeInput("B", 1, 2);

      inputTopicRight.pipeInput("A", 1, 1);
      inputTopicRight.pipeInput("B", 2, 2);

      processor.checkAndClearProcessResult(
        kvt("A", 2, 1),
        kvt("B", 3, 2)
      );
    }
}

/** The Java helper `KStreamKStreamJoinTest.buildStreamsJoinThatShouldThrow`. */
function buildStreamsJoinThatShouldThrow(streamJoined: StreamJoined<string, number, number>, joinWindows: JoinWindows, expectedExceptionMessagePrefix: string): void {

    const builder = new StreamsBuilder();
    const left = builder.stream("left", { keySerde: S, valueSerde: I });
    const right = builder.stream("right", { keySerde: S, valueSerde: I });

    const streamsException = captureThrow(() => left.join(
        right,
        SUM,
        joinWindows,
        streamJoined
      )
    );

    expect(streamsException.message.startsWith(expectedExceptionMessagePrefix)).toBe(true);
}
