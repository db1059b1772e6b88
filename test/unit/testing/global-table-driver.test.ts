/**
 * The TopologyTestDriver keeps global stores: a record piped into a global
 * topic updates the store at once; a record that does not deserialize goes
 * to the deserialization handler (CONTINUE skips it, FAIL surfaces it); the
 * global store is reached by any processor with getStateStore and is not a
 * task source.
 */
import { describe, expect, it } from 'vitest';
import { LogAndContinueDeserializationExceptionHandler } from '../../../src/handlers/log-and-continue.js';
import { Materialized, Serdes, StreamsBuilder, type KeyValueStore } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { storeOf } from '../../helpers/store-of.js';

const S = Serdes.String();
const I = Serdes.Int32();

function topology() {
  const builder = new StreamsBuilder();
  builder.globalTable('prices', { keySerde: S, valueSerde: I }, Materialized.as<string, number>('prices-store'));
  builder
    .stream('orders', { keySerde: S, valueSerde: S })
    .process(() => {
      let prices: KeyValueStore<string, { value: number }>;
      let forward: (r: import('../../../src/index.js').Record<string, string>) => void;
      return {
        init(context) {
          prices = context.getStateStore<KeyValueStore<string, { value: number }>>('prices-store');
          forward = (r) => context.forward(r);
        },
        process(record) {
          forward(record.withValue(`${record.value}@${prices.get(record.value)?.value ?? 'none'}`));
        },
      };
    })
    .to('out', { keySerde: S, valueSerde: S });
  return builder.build();
}

describe('TopologyTestDriver with a global table', () => {
  it('updates the global store at once; processors read it without a connection', () => {
    const driver = new TopologyTestDriver(topology());
    try {
      const prices = driver.createInputTopic('prices', S, I);
      const orders = driver.createInputTopic('orders', S, S);
      const out = driver.createOutputTopic('out', S, S);
      prices.pipeInput('apple', 3);
      expect(storeOf(driver.getKeyValueStore<string, number>('prices-store')).get('apple')).toBe(3);
      orders.pipeInput('o1', 'apple');
      prices.pipeInput('apple', 4);
      orders.pipeInput('o2', 'apple');
      prices.pipeInput('apple', null);
      orders.pipeInput('o3', 'apple');
      expect(out.readValuesToList()).toEqual(['apple@3', 'apple@4', 'apple@none']);
    } finally {
      driver.close();
    }
  });

  it('a global record that does not deserialize: CONTINUE skips it, the next one is applied', () => {
    const driver = new TopologyTestDriver(topology(), { deserializationExceptionHandler: new LogAndContinueDeserializationExceptionHandler() });
    try {
      const raw = driver.createInputTopic('prices', S, Serdes.Buffer());
      raw.pipeInput('pear', Buffer.from([1, 2])); // not a 4-byte Int32
      raw.pipeInput('plum', I.serialize('prices', 7) as Buffer);
      const store = storeOf(driver.getKeyValueStore<string, number>('prices-store'));
      expect(store.get('pear')).toBeNull();
      expect(store.get('plum')).toBe(7);
    } finally {
      driver.close();
    }
  });

  it('a global record that does not deserialize: the default FAIL handler surfaces the error', () => {
    const driver = new TopologyTestDriver(topology());
    try {
      expect(() => driver.createInputTopic('prices', S, Serdes.Buffer()).pipeInput('pear', Buffer.from([1, 2]))).toThrow();
    } finally {
      driver.close();
    }
  });
});
