import { describe, expect, it } from 'vitest';
import { Record as ProcessorRecord, Serdes, StreamRecord, StreamsBuilder, type ProcessorContext } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

// Importing StreamRecord leaves TypeScript's global Record<K, V> usable in the same module.
const counts: Record<string, number> = { a: 1 };

describe('StreamRecord', () => {
  it('is the Processor API Record class under a non-shadowing name', () => {
    expect(StreamRecord).toBe(ProcessorRecord);
    const r = new StreamRecord('k', 'v', 5).withValue('w');
    expect(r).toBeInstanceOf(ProcessorRecord);
    expect([r.key, r.value, r.timestamp]).toEqual(['k', 'w', 5]);
    expect(counts.a).toBe(1);
  });

  it('works in a process() processor', () => {
    const S = Serdes.String();
    const b = new StreamsBuilder();
    b.stream('in', { keySerde: S, valueSerde: S })
      .process<string, string>(() => {
        let ctx: ProcessorContext<string, string> | undefined;
        return {
          init: (c: ProcessorContext<string, string>) => (ctx = c),
          process: (record: StreamRecord<string, string>) => ctx?.forward(new StreamRecord(record.key, `${record.value}!`, record.timestamp)),
        };
      })
      .to('out', { keySerde: S, valueSerde: S });
    const driver = new TopologyTestDriver(b.build());
    driver.createInputTopic('in', S, S).pipeInput('k', 'v');
    expect(driver.createOutputTopic('out', S, S).readValuesToList()).toEqual(['v!']);
    driver.close();
  });
});
