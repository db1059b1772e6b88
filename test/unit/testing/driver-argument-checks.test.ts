import { describe, expect, it } from 'vitest';
import { IllegalArgumentError, Serdes, Topology } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

const DAY = 24 * 60 * 60 * 1000;

function passThrough(): TopologyTestDriver {
  return new TopologyTestDriver(new Topology().addSource('src', 'in').addSink('sink', 'out', 'src'));
}

describe('TopologyTestDriver argument checks (Kafka TestTopicsTest)', () => {
  it('testDuration: a negative auto-advance is refused', () => {
    const driver = passThrough();
    try {
      expect(() => driver.createInputTopic('in', Serdes.String(), Serdes.String(), { startTimestampMs: 0, autoAdvanceMs: -DAY })).toThrow(IllegalArgumentError);
    } finally {
      driver.close();
    }
  });

  it('testNegativeAdvance: advanceTime(-1 day) is refused', () => {
    const driver = passThrough();
    try {
      const input = driver.createInputTopic('in', Serdes.String(), Serdes.String());
      expect(() => input.advanceTime(-DAY)).toThrow(IllegalArgumentError);
    } finally {
      driver.close();
    }
  });

  it('shouldNotAllowToCreateTopicWithNullTopicName / shouldNotAllowToCreateOutputTopicWithNullTopicName', () => {
    const driver = passThrough();
    try {
      expect(() => driver.createInputTopic(null as unknown as string, Serdes.String(), Serdes.String())).toThrow(/topicName cannot be null/);
      expect(() => driver.createOutputTopic(null as unknown as string, Serdes.String(), Serdes.String())).toThrow(/topicName cannot be null/);
    } finally {
      driver.close();
    }
  });
});
