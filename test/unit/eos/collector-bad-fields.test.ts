/**
 * Issue 12 item 2 through the record collector: a processor's
 * `record.withTimestamp(t + 0.5)` (or a number header) reaches the producer via
 * TaskRecordCollector; with a CONTINUE handler only that record is dropped and
 * the task's transaction commits every other record (embedded cluster).
 */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import { TaskRecordCollector } from '../../../src/eos/record-collector.js';
import { TransactionalProducer } from '../../../src/runtime/transactional-producer.js';
import { TxnSendOption } from '../../../src/eos/txn-send-option.js';
import { InvalidRecordError, InvalidTimestampError } from '../../../src/errors.js';
import type { ErrorHandlerContext } from '../../../src/handlers/types.js';
import type { OutputRecord } from '../../../src/processors/task-contract.js';
import { Serdes } from '../../../src/serdes/serdes.js';

const context: ErrorHandlerContext = { topic: 'in', partition: 0, offset: 7, headers: {}, timestamp: 1, processorNodeId: 'KSTREAM-SINK-0000000001', taskId: '0_0' };

describe('record collector + producer: bad user fields are record-level', () => {
  it('a fractional timestamp and a number header go to the handler (CONTINUE drops them alone); the rest commits', async () => {
    const cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('out', { partitions: 2 });
    const producer = new TransactionalProducer({ transactionalId: 'collector-bad-fields', cluster });
    await producer.initTransactions();
    producer.beginTransaction();
    const seen: Error[] = [];
    const counters = { recordsProduced: 0, droppedRecords: 0 };
    const collector = new TaskRecordCollector({
      taskId: '0_0',
      producer,
      sendOption: TxnSendOption.IGNORE_SEND_ERRORS,
      deadLetterOption: TxnSendOption.NONE,
      handler: { handle: (_ctx, _record, error) => (seen.push(error), 'CONTINUE') },
      partitionCount: () => 2,
      counters,
      logger: pino({ level: 'silent' }),
    });
    const t = Date.now();
    const output = (value: string, extra: Partial<OutputRecord> = {}): OutputRecord => ({
      topic: 'out', key: value, value, keySerializer: Serdes.String() as never, valueSerializer: Serdes.String() as never, headers: {}, timestamp: t, ...extra,
    });
    collector.send(output('good-1'), context);
    collector.send(output('fractional', { timestamp: t + 0.5 }), context);
    collector.send(output('number-header', { headers: { n: 5 as never } }), context);
    collector.send(output('good-2'), context);
    await collector.waitForPendingAtMost(0);
    expect(collector.failure).toBeUndefined();
    expect(seen.map((e) => e.constructor)).toEqual([InvalidTimestampError, InvalidRecordError]);
    expect(seen[0]!.message).toMatch(/timestamp must be an integer number of ms, got \d+\.5/);
    expect(seen[1]!.message).toMatch(/header 'n'/);
    expect(counters).toEqual({ recordsProduced: 2, droppedRecords: 2 });
    expect(producer.state).toBe('IN_TRANSACTION');
    await producer.commitTransaction();
    expect((await cluster.readCommitted('out')).map((r) => r.value?.toString()).sort()).toEqual(['good-1', 'good-2']);
    await producer.close();
    await cluster.close();
  });
});
