import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, Serdes, StreamsBuilder, type Topology } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../../helpers/index.js';
import { Closer, kv } from '../runtime/fixtures.js';

const S = Serdes.String();
const closer = new Closer();
let driver: TopologyTestDriver | undefined;
afterEach(async () => {
  driver?.close();
  driver = undefined;
  await closer.closeAll();
});

/** in -> drop 'skip' -> out, with no serde anywhere: the runtime's default serdes apply. */
function noSerdes(input = 'in', output = 'out'): Topology {
  const b = new StreamsBuilder<string, string>();
  b.stream(input).filter((_k, v) => v !== 'skip').to(output);
  return b.build();
}

describe('defaultKeySerde / defaultValueSerde (Kafka default.key.serde / default.value.serde)', () => {
  it('the TopologyTestDriver config defaults are the serdes of sources and sinks that name none', () => {
    driver = new TopologyTestDriver(noSerdes(), { defaultKeySerde: S, defaultValueSerde: Serdes.Json<string>() });
    const input = driver.createInputTopic('in', S, Serdes.Json<string>());
    input.pipeInput('k', 'héllo');
    input.pipeInput('k', 'skip');
    const out = driver.createOutputTopic('out', Serdes.Buffer(), Serdes.Buffer()).readRecordsToList();
    expect(out.map((r) => [r.key?.toString(), r.value?.toString()])).toEqual([['k', '"héllo"']]);
  });

  it('without defaults sources and sinks stay Buffer, as before', () => {
    driver = new TopologyTestDriver(noSerdes());
    driver.createInputTopic('in', Serdes.Buffer(), Serdes.Buffer()).pipeInput(Buffer.from('k'), Buffer.from('v'));
    const [record] = driver.createOutputTopic('out', Serdes.Buffer(), Serdes.Buffer()).readRecordsToList();
    expect(Buffer.isBuffer(record?.value)).toBe(true);
    expect(record?.value?.toString()).toBe('v');
  });

  it("a StreamsBuilder's own default serde wins over the runtime's", () => {
    const b = new StreamsBuilder({ defaultKeySerde: S, defaultValueSerde: S });
    b.stream('in').to('out');
    driver = new TopologyTestDriver(b.build(), { defaultKeySerde: Serdes.Json(), defaultValueSerde: Serdes.Json() });
    driver.createInputTopic('in', S, S).pipeInput('k', 'v');
    expect(driver.createOutputTopic('out', S, S).readKeyValue()).toEqual({ key: 'k', value: 'v' });
  });

  it('a default that is not a serde is a ConfigError naming the key', () => {
    expect(() => new TopologyTestDriver(noSerdes(), { defaultValueSerde: 'String' as never })).toThrow(ConfigError);
    expect(() => new TopologyTestDriver(noSerdes(), { defaultValueSerde: 'String' as never })).toThrow(/'defaultValueSerde' must be a serde/);
  });

  it('KafkaStreams config defaults apply on the embedded cluster', async () => {
    const cluster = closer.cluster();
    const input = uniqueTopic('in');
    const output = uniqueTopic('out');
    await cluster.createTopic(input, { partitions: 1 });
    await cluster.createTopic(output, { partitions: 1 });
    await cluster.produce(input, [{ key: 'a', value: '"x"' }, { key: 'b', value: '"skip"' }, { key: 'c', value: '"z"' }]);
    const app = closer.app(noSerdes(input, output), {
      applicationId: uniqueGroup('defaults'), cluster, defaultKeySerde: S, defaultValueSerde: Serdes.Json<string>(),
    });
    await app.start();
    const out = await waitFor(async () => {
      const records = kv(await cluster.readCommitted(output));
      return records.length >= 2 && records;
    });
    expect(out).toEqual(['a="x"', 'c="z"']);
  });
});
