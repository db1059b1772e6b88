/**
 * Ported from Kafka Streams' `KStreamWindowAggregateTest`, the cases run
 * through the TopologyTestDriver (inputs and expected outputs unchanged;
 * `testJoin` is in `kstream-window-aggregate-join.test.ts`, the cases driving
 * the processor with a mock context in `kstream-window-aggregate-emit.test.ts`). Each case runs for Kafka's four
 * parameters (`getEmitStrategy`: on window update / close, with and without
 * cache).
 *
 * Differences, by case:
 * - with cache the window store has its record-cache layer; the driver
 *   flushes after every record, so outputs are the same as without (as in
 *   Kafka's test);
 * - Kafka's `dropped-records` / `record-lateness` / `window-aggregate-final-emit`
 *   metrics have no TopologyTestDriver counterpart: the log lines (DEBUG, with
 *   Kafka's text) and the outputs are checked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  EmitStrategy,
  Grouped,
  KeyValue,
  Materialized,
  Serdes,
  StreamsBuilder,
  TimeWindows,
  Windowed,
  type EmitStrategyType,
} from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { defaultLogger, setRootLogger } from '../../../../../src/internal/logger.js';
import { captureLogger } from '../../../handlers/capture-logger.js';
import { RecordingProcessorSupplier, kvt } from '../../../../helpers/ktable/recording-processor.js';

const str = Serdes.String();
const consumed = { keySerde: str, valueSerde: str };
// MockInitializer.STRING_INIT, MockAggregator.TOSTRING_ADDER, MockAggregator.toStringInstance("+")
const STRING_INIT = (): string => '0';
const TOSTRING_ADDER = (_k: string, value: string, aggregate: string): string => `${aggregate}+${value}`;
const PLUS = (_k: string, value: string | null, aggregate: string): string => `${aggregate}+${String(value)}`;
const w = (key: string, start: number, end: number): Windowed<string> => Windowed.of(key, { start, end });

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
  setRootLogger(defaultLogger());
});

function start(builder: StreamsBuilder): TopologyTestDriver {
  driver = new TopologyTestDriver(builder.build(), { applicationId: 'kstream-window-aggregate-test' });
  return driver;
}

const getEmitStrategy: Array<[EmitStrategyType, boolean]> = [
  ['ON_WINDOW_UPDATE', true],
  ['ON_WINDOW_UPDATE', false],
  ['ON_WINDOW_CLOSE', true],
  ['ON_WINDOW_CLOSE', false],
];

describe.each(getEmitStrategy)('KStreamWindowAggregateTest [%s, withCache=%s]', (type, withCache) => {
  const emitFinal = type === 'ON_WINDOW_CLOSE';
  const emitStrategy = emitFinal ? EmitStrategy.onWindowClose() : EmitStrategy.onWindowUpdate();
  const setMaterializedCache = <M extends { withCachingEnabled(): M; withCachingDisabled(): M }>(m: M): M =>
    withCache ? m.withCachingEnabled() : m.withCachingDisabled();

  // KStreamWindowAggregateTest.testAggBasic
  it('testAggBasic', () => {
    const builder = new StreamsBuilder();
    const table2 = builder
      .stream('topic1', consumed)
      .groupByKey(Grouped.with(str, str))
      .windowedBy(TimeWindows.ofSizeAndGrace(10, 100).advanceBy(5))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, setMaterializedCache(Materialized.as<string, string>('topic1-Canonized').withValueSerde(str)));
    const supplier = new RecordingProcessorSupplier<Windowed<string>, string>();
    table2.toStream().process(() => supplier.get());
    const inputTopic1 = start(builder).createInputTopic('topic1', str, str);
    inputTopic1.pipeInput('A', '1', 0);
    inputTopic1.pipeInput('B', '2', 1);
    inputTopic1.pipeInput('C', '3', 2);
    inputTopic1.pipeInput('D', '4', 3);
    inputTopic1.pipeInput('A', '1', 4);

    inputTopic1.pipeInput('A', '1', 5);
    inputTopic1.pipeInput('B', '2', 6);
    inputTopic1.pipeInput('D', '4', 7);
    inputTopic1.pipeInput('B', '2', 8);
    inputTopic1.pipeInput('C', '3', 9);

    inputTopic1.pipeInput('A', '1', 10);
    inputTopic1.pipeInput('B', '2', 11);
    inputTopic1.pipeInput('D', '4', 12);
    inputTopic1.pipeInput('B', '2', 13);
    inputTopic1.pipeInput('C', '3', 14);

    inputTopic1.pipeInput('B', '1', 3);
    inputTopic1.pipeInput('B', '2', 2);
    inputTopic1.pipeInput('B', '3', 9);

    if (emitFinal) {
      // Nothing processed since grace is 100L and no window closes
      expect(supplier.theCapturedProcessor().processed()).toEqual([]);
    } else {
      expect(supplier.theCapturedProcessor().processed()).toEqual([
        kvt(w('A', 0, 10), '0+1', 0),
        kvt(w('B', 0, 10), '0+2', 1),
        kvt(w('C', 0, 10), '0+3', 2),
        kvt(w('D', 0, 10), '0+4', 3),
        kvt(w('A', 0, 10), '0+1+1', 4),
        kvt(w('A', 0, 10), '0+1+1+1', 5),
        kvt(w('A', 5, 15), '0+1', 5),
        kvt(w('B', 0, 10), '0+2+2', 6),
        kvt(w('B', 5, 15), '0+2', 6),
        kvt(w('D', 0, 10), '0+4+4', 7),
        kvt(w('D', 5, 15), '0+4', 7),
        kvt(w('B', 0, 10), '0+2+2+2', 8),
        kvt(w('B', 5, 15), '0+2+2', 8),
        kvt(w('C', 0, 10), '0+3+3', 9),
        kvt(w('C', 5, 15), '0+3', 9),
        kvt(w('A', 5, 15), '0+1+1', 10),
        kvt(w('A', 10, 20), '0+1', 10),
        kvt(w('B', 5, 15), '0+2+2+2', 11),
        kvt(w('B', 10, 20), '0+2', 11),
        kvt(w('D', 5, 15), '0+4+4', 12),
        kvt(w('D', 10, 20), '0+4', 12),
        kvt(w('B', 5, 15), '0+2+2+2+2', 13),
        kvt(w('B', 10, 20), '0+2+2', 13),
        kvt(w('C', 5, 15), '0+3+3', 14),
        kvt(w('C', 10, 20), '0+3', 14),
        kvt(w('B', 0, 10), '0+2+2+2+1', 8),
        kvt(w('B', 0, 10), '0+2+2+2+1+2', 8),
        kvt(w('B', 0, 10), '0+2+2+2+1+2+3', 9),
        kvt(w('B', 5, 15), '0+2+2+2+2+3', 13),
      ]);
    }
  });

  // KStreamWindowAggregateTest.shouldLogAndMeterWhenSkippingNullKey
  it('shouldLogAndMeterWhenSkippingNullKey', () => {
    const { logger, lines } = captureLogger();
    setRootLogger(logger);
    const builder = new StreamsBuilder();
    builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(str, str))
      .windowedBy(TimeWindows.ofSizeWithNoGrace(10).advanceBy(5))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, PLUS, setMaterializedCache(Materialized.as<string, string>('topic1-Canonicalized').withValueSerde(str)));
    const inputTopic = start(builder).createInputTopic('topic', str, str);
    inputTopic.pipeInput(null, '1');
    // sluice's drop line (WARN, throttled, counted in recordsSkipped) carries Kafka's phrase and the record's topic, partition and offset
    expect(lines.map((l) => l.msg)).toContainEqual(expect.stringMatching(/^Skipping record due to null key \(processor 'KSTREAM-AGGREGATE-\d+' of task 0_0, input topic-0@0\)/));
  });

  // KStreamWindowAggregateTest.shouldLogAndMeterWhenSkippingExpiredWindow
  it('shouldLogAndMeterWhenSkippingExpiredWindow', () => {
    const { logger, lines } = captureLogger();
    setRootLogger(logger);
    const builder = new StreamsBuilder();
    builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(str, str))
      .windowedBy(TimeWindows.ofSizeAndGrace(10, 90).advanceBy(5))
      .emitStrategy(emitStrategy)
      .aggregate(() => '', PLUS, setMaterializedCache(Materialized.as<string, string>('topic1-Canonicalized').withValueSerde(str).withLoggingDisabled().withRetention(100)))
      .toStream()
      .map((key, value) => KeyValue.pair(Windowed.toString(key), value))
      .to('output', { keySerde: str, valueSerde: str });
    const d = start(builder);
    const inputTopic = d.createInputTopic('topic', str, str);
    inputTopic.pipeInput('k', '100', 100);
    inputTopic.pipeInput('k', '0', 0);
    inputTopic.pipeInput('k', '1', 1);
    inputTopic.pipeInput('k', '2', 2);
    inputTopic.pipeInput('k', '3', 3);
    inputTopic.pipeInput('k', '4', 4);
    inputTopic.pipeInput('k', '5', 5);
    inputTopic.pipeInput('k', '6', 6);
    inputTopic.pipeInput('k', '105', 105);
    inputTopic.pipeInput('k', '106', 106);

    expect(lines.filter((l) => l.level === 20).map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[1] timestamp=[0] window=[0,10) expiration=[10] streamTime=[100]',
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[2] timestamp=[1] window=[0,10) expiration=[10] streamTime=[100]',
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[3] timestamp=[2] window=[0,10) expiration=[10] streamTime=[100]',
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[4] timestamp=[3] window=[0,10) expiration=[10] streamTime=[100]',
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[5] timestamp=[4] window=[0,10) expiration=[10] streamTime=[100]',
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[6] timestamp=[5] window=[0,10) expiration=[10] streamTime=[100]',
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[7] timestamp=[6] window=[0,10) expiration=[10] streamTime=[100]',
      ]),
    );
    // how many events get dropped: 7 (Kafka's dropped-records-total counts each expired window)
    expect(lines.filter((l) => l.level === 20 && String(l.msg).startsWith('Skipping record for expired window.'))).toHaveLength(7);

    const outputTopic = d.createOutputTopic('output', str, str);
    const read = (): [string | null, string | null, number] => {
      const r = outputTopic.readRecord();
      return [r.key, r.value, r.timestamp];
    };
    if (emitFinal) {
      // Window close time is 15 when timestamp is 105
      expect(read()).toEqual(['[k@5/15]', '+5+6', 6]);
    } else {
      expect(read()).toEqual(['[k@95/105]', '+100', 100]);
      expect(read()).toEqual(['[k@100/110]', '+100', 100]);
      expect(read()).toEqual(['[k@5/15]', '+5', 5]);
      expect(read()).toEqual(['[k@5/15]', '+5+6', 6]);
      expect(read()).toEqual(['[k@100/110]', '+100+105', 105]);
      expect(read()).toEqual(['[k@105/115]', '+105', 105]);
      expect(read()).toEqual(['[k@100/110]', '+100+105+106', 106]);
      expect(read()).toEqual(['[k@105/115]', '+105+106', 106]);
    }
    expect(outputTopic.isEmpty()).toBe(true);
  });

  // KStreamWindowAggregateTest.shouldLogAndMeterWhenSkippingExpiredWindowByGrace
  it('shouldLogAndMeterWhenSkippingExpiredWindowByGrace', () => {
    const { logger, lines } = captureLogger();
    setRootLogger(logger);
    const builder = new StreamsBuilder();
    builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(str, str))
      .windowedBy(TimeWindows.ofSizeAndGrace(10, 90).advanceBy(10))
      .emitStrategy(emitStrategy)
      .aggregate(() => '', PLUS, setMaterializedCache(Materialized.as<string, string>('topic1-Canonicalized').withValueSerde(str).withLoggingDisabled()))
      .toStream()
      .map((key, value) => KeyValue.pair(Windowed.toString(key), value))
      .to('output', { keySerde: str, valueSerde: str });
    const d = start(builder);
    const inputTopic = d.createInputTopic('topic', str, str);
    inputTopic.pipeInput('k', '100', 200);
    inputTopic.pipeInput('k', '0', 100);
    inputTopic.pipeInput('k', '1', 101);
    inputTopic.pipeInput('k', '2', 102);
    inputTopic.pipeInput('k', '3', 103);
    inputTopic.pipeInput('k', '4', 104);
    inputTopic.pipeInput('k', '5', 105);
    inputTopic.pipeInput('k', '6', 6);

    expect(lines.filter((l) => l.level === 20).map((l) => l.msg)).toEqual(
      expect.arrayContaining([
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[1] timestamp=[100] window=[100,110) expiration=[110] streamTime=[200]',
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[2] timestamp=[101] window=[100,110) expiration=[110] streamTime=[200]',
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[3] timestamp=[102] window=[100,110) expiration=[110] streamTime=[200]',
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[4] timestamp=[103] window=[100,110) expiration=[110] streamTime=[200]',
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[5] timestamp=[104] window=[100,110) expiration=[110] streamTime=[200]',
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[6] timestamp=[105] window=[100,110) expiration=[110] streamTime=[200]',
        'Skipping record for expired window. topic=[topic] partition=[0] offset=[7] timestamp=[6] window=[0,10) expiration=[110] streamTime=[200]',
      ]),
    );
    // each of the 7 late records fell into no open window: dropped, counted in recordsSkipped (one WARN line for the node, throttled)
    expect(lines.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([expect.stringMatching(/^Skipping record due to expired window \(processor 'KSTREAM-AGGREGATE-\d+' of task 0_0, input topic-0@1\); 1 record/)]);
    if (!emitFinal) {
      const outputTopic = d.createOutputTopic('output', str, str);
      const r = outputTopic.readRecord();
      expect([r.key, r.value, r.timestamp]).toEqual(['[k@200/210]', '+100', 200]);
      expect(outputTopic.isEmpty()).toBe(true);
    }
  });
});
