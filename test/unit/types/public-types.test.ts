/** Type-level checks of the public surface (vitest's expectTypeOf; checked by `tsc --noEmit`). */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ProcessorRecordMetadata, RecordMetadata, TaskId, ErrorHandlerContext, ProcessorContext } from '../../../src/index.js';

describe('public types', () => {
  it('a producer RecordMetadata is a ProcessorRecordMetadata (same coordinates, plus the timestamp)', () => {
    expectTypeOf<RecordMetadata>().toMatchTypeOf<ProcessorRecordMetadata>();
    expectTypeOf<RecordMetadata['timestamp']>().toEqualTypeOf<number>();
  });

  it('one TaskId: the processor context holds it, the handler context its printed form', () => {
    expectTypeOf<ProcessorContext['taskId']>().toEqualTypeOf<TaskId>();
    expectTypeOf<ErrorHandlerContext['taskId']>().toEqualTypeOf<string>();
  });
});

describe('EmbeddedKafkaCluster', () => {
  it('exposes no broker internals', async () => {
    const { EmbeddedKafkaCluster } = await import('../../../src/testing.js');
    const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
    expectTypeOf(cluster).not.toHaveProperty('broker');
    expect((cluster as unknown as Record<string, unknown>)['broker']).toBeUndefined();
    await cluster.close();
  });
});
