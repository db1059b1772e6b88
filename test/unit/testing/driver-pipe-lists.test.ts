import { describe, expect, it } from 'vitest';
import { Serdes, Topology } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

const testBaseTime = Date.parse('2019-06-01T10:00:00Z');

function passThrough(): TopologyTestDriver {
  return new TopologyTestDriver(new Topology().addSource('src', 'in').addSink('sink', 'out', 'src'));
}

describe('TestInputTopic list overloads with a start timestamp and an advance', () => {
  // Kafka's TestTopicsTest.testKeyValueListDuration (pass-through instead of the key/value swap)
  it('pipeKeyValueList(list, start, advance)', () => {
    const driver = passThrough();
    try {
      const input = driver.createInputTopic('in', Serdes.Long(), Serdes.String());
      const output = driver.createOutputTopic('out', Serdes.Long(), Serdes.String());
      const words = ['This', 'is', 'an', 'example'];
      const advance = 15_000;
      input.pipeKeyValueList(words.map((w, i) => ({ key: i, value: w })), testBaseTime, advance);
      expect(output.readRecordsToList().map((r) => [r.key, r.value, r.timestamp])).toEqual(words.map((w, i) => [i, w, testBaseTime + i * advance]));
    } finally {
      driver.close();
    }
  });

  // Kafka's TestTopicsTest.testRecordList (its pipeValueList part)
  it('pipeValueList(list, start, advance)', () => {
    const driver = passThrough();
    try {
      const input = driver.createInputTopic('in', Serdes.Long(), Serdes.String());
      const output = driver.createOutputTopic('out', Serdes.Long(), Serdes.String());
      const advance = 15_000;
      const recordInstant = testBaseTime + 24 * 60 * 60 * 1000;
      input.pipeValueList(['Advancing', 'time'], recordInstant, advance);
      expect(output.readRecord()).toMatchObject({ key: null, value: 'Advancing', timestamp: recordInstant });
      expect(output.readRecord()).toMatchObject({ key: null, value: 'time', timestamp: recordInstant + advance });
    } finally {
      driver.close();
    }
  });
});
