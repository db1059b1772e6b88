/**
 * The Schema Registry serdes in the TopologyTestDriver with a `mock://`
 * registry (synchronous, no I/O): an Avro round trip through a topology, and
 * a record with an unknown schema id dead-lettered by the deserialization
 * handler, the id in `sluice.error.schema.id`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DeadLetterHeaders, Serdes, SchemaRegistrySerdes, StreamsBuilder, deadLetterQueueHandler } from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';

const ORDER = { type: 'record', name: 'Order', namespace: 'shop', fields: [{ name: 'id', type: 'string' }, { name: 'qty', type: 'int' }] };
const TOTAL = { type: 'record', name: 'Total', namespace: 'shop', fields: [{ name: 'id', type: 'string' }, { name: 'items', type: 'int' }] };
const SCOPE = `driver-${process.pid}`;

afterEach(() => SchemaRegistrySerdes.dropMockScope(SCOPE));

describe('Schema Registry serdes in the TopologyTestDriver (mock://)', () => {
  it('Avro in, Avro out; an unknown schema id goes to the dead-letter topic with the id in its headers', () => {
    const url = `mock://${SCOPE}`;
    const orders = SchemaRegistrySerdes.avro<{ id: string; qty: number }>({ url, schema: ORDER });
    const totals = SchemaRegistrySerdes.avro<{ id: string; items: number }>({ url, schema: TOTAL });
    const builder = new StreamsBuilder();
    builder
      .stream<string, { id: string; qty: number }>('orders', { keySerde: Serdes.String(), valueSerde: orders })
      .mapValues((o) => ({ id: o.id, items: o.qty * 2 }))
      .to('totals', { keySerde: Serdes.String(), valueSerde: totals });
    const driver = new TopologyTestDriver(builder.build(), { deserializationExceptionHandler: deadLetterQueueHandler({ topic: 'dlq', logLevel: 'silent' }) });
    try {
      const input = driver.createInputTopic('orders', Serdes.String(), orders);
      const raw = driver.createInputTopic('orders', Serdes.String(), Serdes.Buffer());
      const output = driver.createOutputTopic('totals', Serdes.String(), totals);
      const bytes = driver.createOutputTopic('totals', Serdes.String(), Serdes.Buffer());
      const dlq = driver.createOutputTopic('dlq', Serdes.Buffer(), Serdes.Buffer());
      input.pipeInput('k1', { id: 'o1', qty: 3 });
      raw.pipeInput('k2', Buffer.from([0, 0, 0, 0x30, 0x39, 2, 0x61, 2])); // schema id 12345: unknown
      input.pipeInput('k3', { id: 'o3', qty: 1 });
      const out = output.readKeyValuesToList();
      expect(out).toEqual([
        { key: 'k1', value: { id: 'o1', items: 6 } },
        { key: 'k3', value: { id: 'o3', items: 2 } },
      ]);
      expect(bytes.isEmpty()).toBe(true);
      const dead = dlq.readRecordsToList();
      expect(dead).toHaveLength(1);
      const headers = dead[0]!.headers as Record<string, unknown>;
      expect(String(headers[DeadLetterHeaders.ERROR_SCHEMA_ID])).toBe('12345');
      expect(String(headers[DeadLetterHeaders.ERROR_STAGE])).toBe('deserialization');
      expect(String(headers[DeadLetterHeaders.ERROR_MESSAGE])).toMatch(/12345/);
      expect(dead[0]!.value).toEqual(Buffer.from([0, 0, 0, 0x30, 0x39, 2, 0x61, 2]));
    } finally {
      driver.close();
    }
  });

  it('a generic serde (no schema) writes a record it read back with its writer schema and id: a table store and a sink', () => {
    const url = `mock://${SCOPE}`;
    const writer = SchemaRegistrySerdes.avro<{ id: string; qty: number }>({ url, schema: ORDER });
    const generic = SchemaRegistrySerdes.avro<{ id: string; qty: number }>({ url });
    const builder = new StreamsBuilder();
    builder.table<string, { id: string; qty: number }>('orders', { keySerde: Serdes.String(), valueSerde: generic }).toStream().to('copies', { keySerde: Serdes.String(), valueSerde: generic });
    const driver = new TopologyTestDriver(builder.build());
    try {
      driver.createInputTopic('orders', Serdes.String(), writer).pipeInput('k1', { id: 'o1', qty: 3 });
      const copies = driver.createOutputTopic('copies', Serdes.String(), Serdes.Buffer()).readValuesToList();
      const original = writer.serialize('orders', { id: 'o1', qty: 3 })!;
      // the table's store wrote the value first (without a schema of its own it would have thrown 'needs a schema'),
      // then the sink: same id, same payload as the producer's
      expect(copies).toEqual([original]);
    } finally {
      driver.close();
    }
  });

  it('a sink schema the registry refuses as incompatible (409) is a record-level production error: CONTINUE drops the record', () => {
    const url = `mock://${SCOPE}`;
    SchemaRegistrySerdes.avro({ url, schema: TOTAL }).serialize('totals', { id: 'x', items: 1 }); // version 1 of totals-value
    const incompatible = { ...TOTAL, fields: [...TOTAL.fields, { name: 'required', type: 'string' }] };
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>('in', { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .mapValues((v) => ({ id: v, items: 1, required: 'r' }))
      .to('totals', { keySerde: Serdes.String(), valueSerde: SchemaRegistrySerdes.avro({ url, schema: incompatible }) });
    const driver = new TopologyTestDriver(builder.build(), { productionExceptionHandler: deadLetterQueueHandler({ topic: 'dlq', logLevel: 'silent' }) });
    try {
      driver.createInputTopic('in', Serdes.String(), Serdes.String()).pipeValueList(['a', 'b']);
      expect(driver.createOutputTopic('totals', Serdes.String(), Serdes.Buffer()).isEmpty()).toBe(true);
      const dead = driver.createOutputTopic('dlq', Serdes.Buffer(), Serdes.Buffer()).readRecordsToList();
      expect(dead.map((d) => String((d.headers as Record<string, unknown>)[DeadLetterHeaders.ERROR_STAGE]))).toEqual(['serialization', 'serialization']);
      expect(String((dead[0]!.headers as Record<string, unknown>)[DeadLetterHeaders.ERROR_MESSAGE])).toMatch(/409.*incompatible/);
    } finally {
      driver.close();
    }
  });
});
