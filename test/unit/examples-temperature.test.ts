/**
 * Kafka Streams' TemperatureDemo (streams/examples/.../temperature/
 * TemperatureDemo.java), ported to examples/temperature, run through the
 * TopologyTestDriver. Kafka has no TemperatureDemoTest: the inputs below are
 * the demo's own (null-keyed temperatures as text, as its console-producer
 * instructions send: 10, 15, 22), then enough to cross windows; the expected
 * outputs follow the demo's rules: the maximum per 5 s window, written when
 * above 20 (every update, the cache being off), and with `finalResultsOnly`
 * once per window after its 24 h grace.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder, Windowed } from '../../src/index.js';
import { TopologyTestDriver } from '../../src/testing.js';
import {
  createTemperatureStream,
  INPUT_TOPIC,
  OUTPUT_TOPIC,
  streamsConfig,
  windowedSerde,
  type TemperatureOptions,
} from '../../examples/temperature/temperature-demo.js';

const DAY = 24 * 60 * 60 * 1000;
const drivers: TopologyTestDriver[] = [];
afterEach(() => {
  for (const driver of drivers.splice(0)) driver.close();
});

function demo(options: TemperatureOptions = {}) {
  const builder = new StreamsBuilder<string, string>();
  createTemperatureStream(builder, options);
  const topology = builder.build();
  const config = streamsConfig();
  const driver = new TopologyTestDriver(topology, {
    applicationId: config.applicationId,
    ...(config.defaultKeySerde ? { defaultKeySerde: config.defaultKeySerde } : {}),
    ...(config.defaultValueSerde ? { defaultValueSerde: config.defaultValueSerde } : {}),
    statestoreCacheMaxBytes: config.statestoreCacheMaxBytes ?? 0,
  });
  drivers.push(driver);
  const input = driver.createInputTopic(INPUT_TOPIC, Serdes.String(), Serdes.String());
  const output = driver.createOutputTopic(OUTPUT_TOPIC, windowedSerde, Serdes.String());
  /** Pipes a keyless temperature at `timestamp`. */
  const send = (temperature: string, timestamp: number) => input.pipeInput(null as unknown as string, temperature, timestamp);
  const read = () => output.readRecordsToList().map((r) => `${Windowed.toString(r.key as Windowed<string>)}=${String(r.value)}@${r.timestamp}`);
  return { topology, send, read };
}

describe('TemperatureDemo (TopologyTestDriver)', () => {
  it('re-keys to "temp" through a repartition topic, then a 5 s windowed max', () => {
    const text = demo().topology.describe().toString();
    expect(text).toContain('Processor: KSTREAM-KEY-SELECT-0000000001');
    expect(text).toContain('Sink: KSTREAM-SINK-0000000004 (topic: KSTREAM-REDUCE-STATE-STORE-0000000002-repartition)');
    expect(text).toContain('Source: KSTREAM-SOURCE-0000000006 (topics: [KSTREAM-REDUCE-STATE-STORE-0000000002-repartition])');
    expect(text).toContain('Processor: KSTREAM-REDUCE-0000000003 (stores: [KSTREAM-REDUCE-STATE-STORE-0000000002])');
  });

  it('writes every update of a window’s maximum above 20, keyed by the window', () => {
    const { send, read } = demo();
    send('10', 0);
    send('15', 1_000);
    expect(read()).toEqual([]); // the maximum (15) is not above the threshold
    send('22', 2_000);
    expect(read()).toEqual(['[temp@0/5000]=22@2000']);
    send('21', 3_000); // the maximum stays 22: the window's updated (unchanged) maximum is written again
    expect(read()).toEqual(['[temp@0/5000]=22@3000']);
    send('19', 6_000); // a new window whose maximum is below the threshold
    send('25', 7_000);
    send('8', 4_000); // out of order, inside the 24 h grace: still counts for the first window
    expect(read()).toEqual(['[temp@5000/10000]=25@7000', '[temp@0/5000]=22@4000']);
  });

  it('finalResultsOnly: one record per window above 20, once its 24 h grace passed', () => {
    const { topology, send, read } = demo({ finalResultsOnly: true });
    expect(topology.describe().toString()).toContain('Processor: KTABLE-SUPPRESS-0000000007 (stores: [KTABLE-SUPPRESS-STATE-STORE-0000000008])');
    send('10', 0);
    send('15', 1_000);
    send('22', 2_000);
    send('21', 3_000);
    send('19', 6_000);
    send('25', 7_000);
    send('12', 11_000);
    send('8', 4_000);
    send('30', 5_000 + DAY - 1); // a window a day later (closes a day after that); stream time is 1 ms short of the first window's close
    expect(read()).toEqual([]);
    send('9', 5_000 + DAY); // closes [0, 5000); its last update (8 at 4000) set the window's timestamp, as Kafka's window aggregation
    expect(read()).toEqual(['[temp@0/5000]=22@4000']);
    send('9', 15_000 + DAY); // closes [5000, 10000) and [10000, 15000) (maximum 12: not written)
    expect(read()).toEqual(['[temp@5000/10000]=25@7000']);
  });
});
