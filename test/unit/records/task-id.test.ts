import { describe, expect, it } from 'vitest';
import { formatTaskId, parseTaskId, type TaskId } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { StreamsBuilder, Serdes } from '../../../src/index.js';

describe('TaskId', () => {
  it('prints as Kafka Streams does and parses back', () => {
    const id: TaskId = { subtopology: 2, partition: 17 };
    expect(formatTaskId(id)).toBe('2_17');
    expect(parseTaskId('2_17')).toEqual(id);
    expect(parseTaskId(formatTaskId({ subtopology: 0, partition: 0 }))).toEqual({ subtopology: 0, partition: 0 });
  });

  it('refuses a string that is not a task id, naming the expected form', () => {
    expect(() => parseTaskId('0-1')).toThrow(/expected <subtopology>_<partition>/);
    expect(() => parseTaskId('a_1')).toThrow(TypeError);
  });

  it('the processor context holds the object; the handler context holds its printed form', () => {
    const seen: { object?: TaskId; printed?: string } = {};
    const builder = new StreamsBuilder();
    builder
      .stream<string, string>('in', { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .process<string, string>(() => ({
        init: (ctx) => (seen.object = ctx.taskId),
        process: () => {
          throw new Error('boom');
        },
      }));
    const driver = new TopologyTestDriver(builder.build(), {
      processingExceptionHandler: { handle: (context) => ((seen.printed = context.taskId), 'CONTINUE') },
    });
    driver.createInputTopic('in', Serdes.String(), Serdes.String()).pipeInput('k', 'v');
    driver.close();
    expect(seen.object).toEqual({ subtopology: 0, partition: 0 });
    expect(seen.printed).toBe(formatTaskId(seen.object!));
  });
});
