import { describe, expect, it } from 'vitest';
import { KafkaJsGroupConsumer } from '../../../src/cluster/kafkajs/internal/group-consumer.js';
import type { GroupConsumerHandlers } from '../../../src/cluster/port.js';
import { componentLogger } from '../../../src/internal/logger.js';

const logger = componentLogger('test');
const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

/** A kafkajs Kafka whose consumer is driven by the test: it emits GROUP_JOIN and hands batches itself. */
function stubKafka() {
  const listeners = new Map<string, (e: unknown) => void>();
  const seeks: Array<{ topic: string; partition: number; offset: string }> = [];
  const pendingSeek = new Set<string>();
  let eachBatch: ((payload: unknown) => Promise<void>) | undefined;
  const events = { GROUP_JOIN: 'consumer.group_join', CRASH: 'consumer.crash' };
  const consumer = {
    events,
    connect: async () => undefined,
    subscribe: async () => undefined,
    disconnect: async () => undefined,
    on: (name: string, listener: (e: unknown) => void) => listeners.set(name, listener),
    run: async (config: { eachBatch: (payload: unknown) => Promise<void> }) => {
      eachBatch = config.eachBatch;
    },
    seek: (s: { topic: string; partition: number; offset: string }) => {
      seeks.push(s);
      pendingSeek.add(`${s.topic}-${s.partition}`);
    },
    pause: () => undefined,
    resume: () => undefined,
    commitOffsets: async () => undefined,
  };
  const kafka = { consumer: () => consumer, admin: () => ({ connect: async () => undefined, disconnect: async () => undefined }) };
  return {
    kafka: kafka as never,
    seeks,
    join(memberAssignment: Record<string, number[]>) {
      listeners.get(events.GROUP_JOIN)!({ payload: { memberId: 'm-1', memberAssignment } });
    },
    /** kafkajs fetching: applies pending seeks (like consumerGroup.seekOffsets) */
    fetch() {
      pendingSeek.clear();
    },
    deliver(topic: string, partition: number, offsets: number[]) {
      const messages = offsets.map((o) => ({ offset: String(o), key: null, value: Buffer.from(`v${o}`), headers: {}, timestamp: '1' }));
      return eachBatch!({
        batch: { topic, partition, highWatermark: '100', messages, lastOffset: () => String(offsets[offsets.length - 1]) },
        heartbeat: async () => undefined,
        isStale: () => pendingSeek.has(`${topic}-${partition}`),
        isRunning: () => true,
      });
    },
  };
}

function recorder(onAssignment?: GroupConsumerHandlers['onAssignment']) {
  const delivered: string[] = [];
  const changes: string[] = [];
  const errors: Error[] = [];
  const handlers: GroupConsumerHandlers = {
    onAssignment:
      onAssignment ??
      (async (c) => {
        changes.push(`+${c.assigned.map((t) => t.partition).join(',')} -${c.revoked.map((t) => t.partition).join(',')}`);
      }),
    eachBatch: async (b) => void delivered.push(`${b.partition}:${b.records.map((r) => r.offset).join(',')}`),
    onError: (e) => void errors.push(e),
  };
  return { handlers, delivered, changes, errors };
}

describe('KafkaJsGroupConsumer (kafkajs stubbed)', () => {
  it('diffs assignments and drops batches of revoked partitions', async () => {
    const stub = stubKafka();
    const c = new KafkaJsGroupConsumer(stub.kafka, { groupId: 'g' }, logger);
    const r = recorder();
    await c.subscribe(['t']);
    await c.run(r.handlers);
    stub.join({ t: [0, 1] });
    stub.join({ t: [1, 2] });
    await tick();
    expect(r.changes).toEqual(['+0,1 -', '+2 -0']);
    await stub.deliver('t', 0, [0, 1]);
    await stub.deliver('t', 2, [0]);
    expect(r.delivered).toEqual(['2:0']);
    await c.close();
  });

  it('holds a batch of a new partition until onAssignment resolved; a seek made there makes it stale', async () => {
    const stub = stubKafka();
    const c = new KafkaJsGroupConsumer(stub.kafka, { groupId: 'g' }, logger);
    let finish!: () => void;
    const r = recorder(async ({ assigned }) => {
      await new Promise<void>((res) => (finish = res));
      for (const tp of assigned) c.seek({ ...tp, offset: 3 });
    });
    await c.run(r.handlers);
    stub.join({ t: [0] });
    const first = stub.deliver('t', 0, [0, 1, 2]);
    await tick();
    expect(r.delivered).toEqual([]);
    finish();
    await first;
    expect(r.delivered).toEqual([]); // stale: the seek to 3 decides
    expect(stub.seeks).toEqual([{ topic: 't', partition: 0, offset: '3' }]);
    stub.fetch();
    await stub.deliver('t', 0, [3, 4]);
    expect(r.delivered).toEqual(['0:3,4']);
    await c.close();
  });

  it('keeps a kept partition at its position across a rejoin, even when kafkajs re-reads from the committed offset', async () => {
    const stub = stubKafka();
    const c = new KafkaJsGroupConsumer(stub.kafka, { groupId: 'g' }, logger);
    const r = recorder();
    await c.run(r.handlers);
    stub.join({ t: [0] });
    await stub.deliver('t', 0, [0, 1, 2]);
    stub.join({ t: [0, 1] }); // rebalance: partition 0 kept
    expect(stub.seeks).toEqual([{ topic: 't', partition: 0, offset: '3' }]);
    stub.fetch();
    await stub.deliver('t', 0, [1, 2, 3, 4]); // overlapping re-fetch
    expect(r.delivered).toEqual(['0:0,1,2', '0:3,4']);
    await c.close();
  });

  it('a batch running across a rejoin does not cause a re-delivery', async () => {
    const stub = stubKafka();
    const c = new KafkaJsGroupConsumer(stub.kafka, { groupId: 'g' }, logger);
    let release!: () => void;
    const delivered: string[] = [];
    await c.run({
      onAssignment: async () => undefined,
      eachBatch: async (b) => {
        delivered.push(b.records.map((x) => x.offset).join(','));
        if (delivered.length === 2) await new Promise<void>((res) => (release = res));
      },
    });
    stub.join({ t: [0] });
    await stub.deliver('t', 0, [0, 1]);
    const running = stub.deliver('t', 0, [2, 3]);
    await tick();
    stub.join({ t: [0] }); // rejoin while 2,3 is being handled: seeks back to 2
    release();
    await running;
    stub.fetch();
    await stub.deliver('t', 0, [2, 3, 4]);
    expect(delivered).toEqual(['0,1', '2,3', '4']);
    await c.close();
  });

  it('a failed onAssignment goes to onError and its partitions get no batches', async () => {
    const stub = stubKafka();
    const c = new KafkaJsGroupConsumer(stub.kafka, { groupId: 'g' }, logger);
    const r = recorder(async () => {
      throw new Error('cannot init producer');
    });
    await c.run(r.handlers);
    stub.join({ t: [0] });
    await stub.deliver('t', 0, [0]);
    expect(r.delivered).toEqual([]);
    expect(r.errors.map((e) => e.message)).toEqual(['cannot init producer']);
    await c.close();
  });

  it('a seek before run is applied when the partition is assigned', async () => {
    const stub = stubKafka();
    const c = new KafkaJsGroupConsumer(stub.kafka, { groupId: 'g' }, logger);
    c.seek({ topic: 't', partition: 1, offset: 7 });
    await c.run(recorder().handlers);
    stub.join({ t: [0, 1] });
    expect(stub.seeks).toEqual([{ topic: 't', partition: 1, offset: '7' }]);
    await c.close();
  });
});
