/**
 * The runtime's `defaultKeySerde` / `defaultValueSerde` reach state stores and
 * every serde slot left empty, as Kafka's `default.key.serde` /
 * `default.value.serde` do (Kafka resolves a store's null serde from
 * `context.keySerde()` / `context.valueSerde()` when the store is initialised).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { JoinWindows, Serdes, StreamsBuilder } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

const S = Serdes.String();
const DEFAULTS = { defaultKeySerde: S, defaultValueSerde: S };
let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

describe('default serdes in state stores', () => {
  // Shape of Kafka's KStreamKStreamJoinTest (inner join, window 100): no serdes anywhere, the config defaults apply.
  it('a windowed join of streams whose values changed type stores them with the config defaults', () => {
    const b = new StreamsBuilder();
    const left = b.stream('left').mapValues((v) => `L${String(v)}`);
    const right = b.stream('right').mapValues((v) => `R${String(v)}`);
    left.join(right, (l, r) => `${String(l)}+${String(r)}`, JoinWindows.ofTimeDifferenceWithNoGrace(100)).to('out');
    driver = new TopologyTestDriver(b.build(), DEFAULTS);
    driver.createInputTopic('left', S, S).pipeInput('k', 'a', 0);
    driver.createInputTopic('right', S, S).pipeInput('k', 'b', 10);
    expect(driver.createOutputTopic('out', S, S).readKeyValuesToList()).toEqual([{ key: 'k', value: 'La+Rb' }]);
  });

  it('a second join of a join result (was: expected a Buffer, got string)', () => {
    const b = new StreamsBuilder();
    const w = JoinWindows.ofTimeDifferenceWithNoGrace(100);
    const a = b.stream('a');
    const c = b.stream('b');
    const d = b.stream('c');
    a.join(c, (x, y) => `${String(x)}${String(y)}`, w).join(d, (xy, z) => `${String(xy)}${String(z)}`, w).to('out');
    driver = new TopologyTestDriver(b.build(), DEFAULTS);
    driver.createInputTopic('a', S, S).pipeInput('k', '1', 0);
    driver.createInputTopic('b', S, S).pipeInput('k', '2', 1);
    driver.createInputTopic('c', S, S).pipeInput('k', '3', 2);
    expect(driver.createOutputTopic('out', S, S).readKeyValuesToList()).toEqual([{ key: 'k', value: '123' }]);
  });
});
