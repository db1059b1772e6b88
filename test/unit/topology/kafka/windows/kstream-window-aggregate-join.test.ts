/**
 * Ported from Kafka Streams' `KStreamWindowAggregateTest.testJoin` (inputs and
 * expected outputs unchanged): two windowed aggregations joined as tables
 * (`table1.join(table2, joiner)`, the join reading the other side through
 * the window store's value getter), for Kafka's four parameters
 * (`getEmitStrategy`).
 *
 * On window close with cache, the record cache still serves a window its
 * store already expired (the join then finds it), as Kafka's: that variant
 * has its own expected outputs, as in Kafka's test.
 */
import { afterEach, describe, it } from 'vitest';
import { EmitStrategy, Grouped, Materialized, Serdes, StreamsBuilder, TimeWindows, Windowed, type EmitStrategyType, type KTable } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { RecordingProcessorSupplier, kvt } from '../../../../helpers/ktable/recording-processor.js';

const str = Serdes.String();
const consumed = { keySerde: str, valueSerde: str };
// MockInitializer.STRING_INIT, MockAggregator.TOSTRING_ADDER
const STRING_INIT = (): string => '0';
const TOSTRING_ADDER = (_k: string, value: string, aggregate: string): string => `${aggregate}+${value}`;
const w = (key: string, start: number, end: number): Windowed<string> => Windowed.of(key, { start, end });

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function start(builder: StreamsBuilder): TopologyTestDriver {
  driver = new TopologyTestDriver(builder.build(), { applicationId: 'kstream-window-aggregate-join-test' });
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

  // KStreamWindowAggregateTest.testJoin (all four parameters)
  it('testJoin', () => {
    const builder = new StreamsBuilder();
    const grace = emitFinal ? 5 : 100;
    const windowed = (topic: string, store: string): KTable<Windowed<string>, string> =>
      builder
        .stream(topic, consumed)
        .groupByKey(Grouped.with(str, str))
        .windowedBy(TimeWindows.ofSizeAndGrace(10, grace).advanceBy(5))
        .emitStrategy(emitStrategy)
        .aggregate(STRING_INIT, TOSTRING_ADDER, setMaterializedCache(Materialized.as<string, string>(store).withValueSerde(str)));
    const supplier = new RecordingProcessorSupplier<Windowed<string>, string>();
    const table1 = windowed('topic1', 'topic1-Canonized');
    table1.toStream().process(() => supplier.get());
    const table2 = windowed('topic2', 'topic2-Canonized');
    table2.toStream().process(() => supplier.get());
    table1.join(table2, (p1: string, p2: string) => `${p1}%${p2}`).toStream().process(() => supplier.get());

    const d = start(builder);
    const inputTopic1 = d.createInputTopic('topic1', str, str);
    const inputTopic2 = d.createInputTopic('topic2', str, str);
    // the processors in Kafka's order: table1's, table2's, the join's (their nodes KSTREAM-PROCESSOR-<n> in that order)
    const processors = supplier.capturedProcessors(3).sort((a, b) => a.nodeName.localeCompare(b.nodeName));
    if (emitFinal) {
      // processEmitFinalJoin
      inputTopic1.pipeInput('A', '1', 0);
      inputTopic1.pipeInput('B', '2', 1);
      inputTopic1.pipeInput('C', '3', 2);
      inputTopic1.pipeInput('D', '4', 3);
      inputTopic1.pipeInput('A', '1', 9);
      inputTopic1.pipeInput('A', '1', 15);
      processors[0]!.checkAndClearProcessResult(kvt(w('A', 0, 10), '0+1+1', 9), kvt(w('B', 0, 10), '0+2', 1), kvt(w('C', 0, 10), '0+3', 2), kvt(w('D', 0, 10), '0+4', 3));
      processors[1]!.checkAndClearProcessResult();
      processors[2]!.checkAndClearProcessResult();

      inputTopic1.pipeInput('A', '1', 10);
      inputTopic1.pipeInput('B', '2', 11);
      inputTopic1.pipeInput('D', '4', 12);
      inputTopic1.pipeInput('B', '2', 13);
      inputTopic1.pipeInput('C', '3', 14);
      inputTopic1.pipeInput('A', '1', 20);
      processors[0]!.checkAndClearProcessResult(kvt(w('A', 5, 15), '0+1+1', 10), kvt(w('B', 5, 15), '0+2+2', 13), kvt(w('C', 5, 15), '0+3', 14), kvt(w('D', 5, 15), '0+4', 12));
      processors[1]!.checkAndClearProcessResult();
      processors[2]!.checkAndClearProcessResult();

      inputTopic2.pipeInput('A', 'a', 0);
      inputTopic2.pipeInput('B', 'b', 1);
      inputTopic2.pipeInput('C', 'c', 2);
      inputTopic2.pipeInput('D', 'd', 10);
      inputTopic2.pipeInput('A', 'a', 15);
      processors[0]!.checkAndClearProcessResult();
      if (withCache) {
        // the windows [0, 10) of table1 expired in its store but are still in its cache: the join finds them (as Kafka's)
        processors[1]!.checkAndClearProcessResult(kvt(w('A', 0, 10), '0+a', 0), kvt(w('B', 0, 10), '0+b', 1), kvt(w('C', 0, 10), '0+c', 2));
        processors[2]!.checkAndClearProcessResult(kvt(w('A', 0, 10), '0+1+1%0+a', 9), kvt(w('B', 0, 10), '0+2%0+b', 1), kvt(w('C', 0, 10), '0+3%0+c', 2));
      } else {
        processors[0]!.checkAndClearProcessResult();
        processors[2]!.checkAndClearProcessResult();
      }

      inputTopic2.pipeInput('A', 'a', 5);
      inputTopic2.pipeInput('B', 'b', 6);
      inputTopic2.pipeInput('D', 'd', 7);
      inputTopic2.pipeInput('D', 'd', 18);
      inputTopic2.pipeInput('A', 'a', 21);
      processors[0]!.checkAndClearProcessResult();
      if (withCache) {
        processors[1]!.checkAndClearProcessResult(kvt(w('A', 5, 15), '0+a', 5), kvt(w('B', 5, 15), '0+b', 6), kvt(w('D', 5, 15), '0+d+d', 10));
      } else {
        processors[1]!.checkAndClearProcessResult(
          kvt(w('A', 0, 10), '0+a', 0),
          kvt(w('B', 0, 10), '0+b', 1),
          kvt(w('C', 0, 10), '0+c', 2),
          kvt(w('A', 5, 15), '0+a', 5),
          kvt(w('B', 5, 15), '0+b', 6),
          kvt(w('D', 5, 15), '0+d+d', 10),
        );
      }
      processors[2]!.checkAndClearProcessResult(kvt(w('A', 5, 15), '0+1+1%0+a', 10), kvt(w('B', 5, 15), '0+2+2%0+b', 13), kvt(w('D', 5, 15), '0+4%0+d+d', 12));
    } else {
      // processEmitUpdateJoin
      inputTopic1.pipeInput('A', '1', 0);
      inputTopic1.pipeInput('B', '2', 1);
      inputTopic1.pipeInput('C', '3', 2);
      inputTopic1.pipeInput('D', '4', 3);
      inputTopic1.pipeInput('A', '1', 9);
      processors[0]!.checkAndClearProcessResult(
        kvt(w('A', 0, 10), '0+1', 0),
        kvt(w('B', 0, 10), '0+2', 1),
        kvt(w('C', 0, 10), '0+3', 2),
        kvt(w('D', 0, 10), '0+4', 3),
        kvt(w('A', 0, 10), '0+1+1', 9),
        kvt(w('A', 5, 15), '0+1', 9),
      );
      processors[1]!.checkAndClearProcessResult();
      processors[2]!.checkAndClearProcessResult();

      inputTopic1.pipeInput('A', '1', 5);
      inputTopic1.pipeInput('B', '2', 6);
      inputTopic1.pipeInput('D', '4', 7);
      inputTopic1.pipeInput('B', '2', 8);
      inputTopic1.pipeInput('C', '3', 9);
      processors[0]!.checkAndClearProcessResult(
        kvt(w('A', 0, 10), '0+1+1+1', 9),
        kvt(w('A', 5, 15), '0+1+1', 9),
        kvt(w('B', 0, 10), '0+2+2', 6),
        kvt(w('B', 5, 15), '0+2', 6),
        kvt(w('D', 0, 10), '0+4+4', 7),
        kvt(w('D', 5, 15), '0+4', 7),
        kvt(w('B', 0, 10), '0+2+2+2', 8),
        kvt(w('B', 5, 15), '0+2+2', 8),
        kvt(w('C', 0, 10), '0+3+3', 9),
        kvt(w('C', 5, 15), '0+3', 9),
      );
      processors[1]!.checkAndClearProcessResult();
      processors[2]!.checkAndClearProcessResult();

      inputTopic2.pipeInput('A', 'a', 0);
      inputTopic2.pipeInput('B', 'b', 1);
      inputTopic2.pipeInput('C', 'c', 2);
      inputTopic2.pipeInput('D', 'd', 20);
      inputTopic2.pipeInput('A', 'a', 20);
      processors[0]!.checkAndClearProcessResult();
      processors[1]!.checkAndClearProcessResult(
        kvt(w('A', 0, 10), '0+a', 0),
        kvt(w('B', 0, 10), '0+b', 1),
        kvt(w('C', 0, 10), '0+c', 2),
        kvt(w('D', 15, 25), '0+d', 20),
        kvt(w('D', 20, 30), '0+d', 20),
        kvt(w('A', 15, 25), '0+a', 20),
        kvt(w('A', 20, 30), '0+a', 20),
      );
      processors[2]!.checkAndClearProcessResult(kvt(w('A', 0, 10), '0+1+1+1%0+a', 9), kvt(w('B', 0, 10), '0+2+2+2%0+b', 8), kvt(w('C', 0, 10), '0+3+3%0+c', 9));

      inputTopic2.pipeInput('A', 'a', 5);
      inputTopic2.pipeInput('B', 'b', 6);
      inputTopic2.pipeInput('D', 'd', 7);
      inputTopic2.pipeInput('D', 'd', 18);
      inputTopic2.pipeInput('A', 'a', 21);
      processors[0]!.checkAndClearProcessResult();
      processors[1]!.checkAndClearProcessResult(
        kvt(w('A', 0, 10), '0+a+a', 5),
        kvt(w('A', 5, 15), '0+a', 5),
        kvt(w('B', 0, 10), '0+b+b', 6),
        kvt(w('B', 5, 15), '0+b', 6),
        kvt(w('D', 0, 10), '0+d', 7),
        kvt(w('D', 5, 15), '0+d', 7),
        kvt(w('D', 10, 20), '0+d', 18),
        kvt(w('D', 15, 25), '0+d+d', 20),
        kvt(w('A', 15, 25), '0+a+a', 21),
        kvt(w('A', 20, 30), '0+a+a', 21),
      );
      processors[2]!.checkAndClearProcessResult(
        kvt(w('A', 0, 10), '0+1+1+1%0+a+a', 9),
        kvt(w('A', 5, 15), '0+1+1%0+a', 9),
        kvt(w('B', 0, 10), '0+2+2+2%0+b+b', 8),
        kvt(w('B', 5, 15), '0+2+2%0+b', 8),
        kvt(w('D', 0, 10), '0+4+4%0+d', 7),
        kvt(w('D', 5, 15), '0+4%0+d', 7),
      );
    }
  });
});
