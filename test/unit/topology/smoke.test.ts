import { describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

describe('smoke', () => {
  it('filter + mapValues through the driver', () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('in', { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .filter((_k, v) => v !== '')
      .mapValues((v) => v.toUpperCase())
      .to('out', { keySerde: Serdes.String(), valueSerde: Serdes.String() });
    const t = b.build();
    console.log(t.describe().toString());
    const d = new TopologyTestDriver(t);
    const i = d.createInputTopic('in', Serdes.String(), Serdes.String());
    const o = d.createOutputTopic('out', Serdes.String(), Serdes.String());
    i.pipeInput('a', 'x');
    i.pipeInput('b', '');
    i.pipeInput('c', 'y');
    expect(o.readKeyValuesToList()).toEqual([{ key: 'a', value: 'X' }, { key: 'c', value: 'Y' }]);
  });
});
