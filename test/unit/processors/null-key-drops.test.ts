import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/**
 * Issue 12 (minor): null-key or null-value records into count()/reduce()/aggregate()
 * are dropped as Kafka Streams does, with a WARN "Skipping record due to null key
 * or value" (throttled) and the input counted as skipped (metric recordsSkipped).
 */
import { describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder } from '../../../src/index.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';
import { captureLogger } from '../handlers/capture-logger.js';

const S = Serdes.String();
const handlers = { deserialization: { handle: () => 'FAIL' as const }, processing: { handle: () => 'FAIL' as const } };
const rec = (key: string | null, value: string | null, offset: number) => ({
  topic: 'in',
  partition: 0,
  offset,
  key: key === null ? null : Buffer.from(key),
  value: value === null ? null : Buffer.from(value),
  headers: {},
  timestamp: offset,
});

describe('null keys and values into aggregations', () => {
  for (const op of ['count', 'reduce', 'aggregate'] as const) {
    it(`${op}(): a null key or value is dropped, logged once at WARN (then throttled) and reported as skipped`, () => {
      const b = new StreamsBuilder();
      const grouped = b.stream<string, string>('in', { keySerde: S, valueSerde: S }).groupByKey();
      const table =
        op === 'count'
          ? grouped.count()
          : op === 'reduce'
            ? grouped.reduce((a, v) => a + v)
            : grouped.aggregate(() => '', (_k, v, a) => a + v);
      const valueSerde = op === 'count' ? Serdes.Json<number>() : S;
      (table.toStream() as unknown as { to(topic: string, options: object): void }).to('out', { keySerde: S, valueSerde });
      const { logger, lines } = captureLogger();
      const sent: unknown[] = [];
      const task = toRuntime(b.build()).createTask({ subtopology: 0, partition: 0 }, { send: (o) => void sent.push(o.value) }, handlers, { logger, clock: () => 0 });
      // store lifecycle step 2 (the runtime and the driver do this before the processors' init)
      for (const store of task.stores) {
        store.init({ applicationId: 'null-drops', taskId: task.taskId, stateDir: mkdtempSync(join(tmpdir(), 'sluice-null-drops-')), changelog: undefined, cache: undefined, recordContext: () => task.recordContext(), logger });
      }
      task.init();
      expect(task.process(rec('a', 'x', 0))).toBe('processed');
      expect(task.process(rec(null, 'y', 1))).toBe('skipped');
      expect(task.process(rec(null, 'z', 2))).toBe('skipped');
      if (op !== 'count') expect(task.process(rec('a', null, 3))).toBe('skipped');
      expect(sent).toHaveLength(1);
      const warns = lines.filter((l) => l.level === 40);
      expect(warns).toHaveLength(1); // the second drop within a minute is counted, not logged
      expect(warns[0]).toMatchObject({ reason: 'null key or value', topic: 'in', partition: 0, offset: 1, taskId: '0_0' });
      expect(String(warns[0]!.msg)).toMatch(/^Skipping record due to null key or value \(processor 'KSTREAM-(AGGREGATE|REDUCE)-\d+' of task 0_0, input in-0@1\)/);
      task.close();
    });
  }
});
