/**
 * `KStream.print(Printed)` (issue 29 item 13): Kafka's `KStreamPrint` line
 * `[label]: key, value` on standard output, the label defaulting to the
 * processor's name (`KSTREAM-PRINTER-<n>`); a null value prints "null" as
 * Java's string concatenation does. (Not a port of Kafka's KStreamPrintTest.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Printed, Serdes, StreamsBuilder } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

const S = Serdes.String();

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
  vi.restoreAllMocks();
});

function printed(build: (b: StreamsBuilder) => void, input: Array<[string, string | null]>): { lines: string[]; description: string } {
  const b = new StreamsBuilder();
  build(b);
  const topology = b.build();
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  driver = new TopologyTestDriver(topology);
  const topic = driver.createInputTopic('in', S, S);
  for (const [k, v] of input) topic.pipeInput(k, v);
  vi.restoreAllMocks();
  return { lines, description: topology.describe().toString() };
}

describe('KStream.print', () => {
  it('prints [processor name]: key, value per record by default', () => {
    const { lines, description } = printed((b) => b.stream('in', { keySerde: S, valueSerde: S }).print(Printed.toSysOut()), [['a', 'x'], ['b', null]]);
    expect(description).toContain('Processor: KSTREAM-PRINTER-0000000001');
    expect(lines).toEqual(['[KSTREAM-PRINTER-0000000001]: a, x\n', '[KSTREAM-PRINTER-0000000001]: b, null\n']);
  });

  it('takes a label, a key-value mapper and a processor name', () => {
    const { lines, description } = printed(
      (b) => b.stream<string, string>('in', { keySerde: S, valueSerde: S }).print(Printed.toSysOut<string, string>().withLabel('orders').withKeyValueMapper((k, v) => `${k}=${v}`).withName('printer')),
      [['a', 'x']],
    );
    expect(description).toContain('Processor: printer');
    expect(lines).toEqual(['[orders]: a=x\n']);
  });
});
