import { describe, expect, it } from 'vitest';
import { IllegalStateError, Serdes, Topology } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

function passThrough(): TopologyTestDriver {
  return new TopologyTestDriver(new Topology().addSource('src', 'in').addSink('sink', 'out', 'src'));
}

describe('TestOutputTopic.readKeyValuesToMap', () => {
  // Kafka's TestTopicsTest.testKeyValuesToMapWithNull
  it('throws an IllegalStateError on a null key (and reads nothing)', () => {
    const driver = passThrough();
    try {
      const input = driver.createInputTopic('in', Serdes.Long(), Serdes.String());
      const output = driver.createOutputTopic('out', Serdes.Long(), Serdes.String());
      input.pipeValue('value');
      expect(() => output.readKeyValuesToMap()).toThrow(IllegalStateError);
      expect(output.getQueueSize()).toBe(1);
    } finally {
      driver.close();
    }
  });

  it('keeps a tombstone as key -> null, as Kafka', () => {
    const driver = passThrough();
    try {
      const input = driver.createInputTopic('in', Serdes.String(), Serdes.String());
      const output = driver.createOutputTopic('out', Serdes.String(), Serdes.String());
      input.pipeInput('a', '1');
      input.pipeInput('b', '2');
      input.pipeInput('a', null);
      expect(output.readKeyValuesToMap()).toEqual(new Map([['a', null], ['b', '2']]));
    } finally {
      driver.close();
    }
  });
});
