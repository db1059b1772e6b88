/**
 * Contract of TransactionalProducer + TxnSendOption (issue #5, seeds 000 and
 * 001) on the embedded cluster and on a real Kafka broker: for each send error
 * and each option, the record's promise, its callback and the transaction
 * state; culprits never take innocent records with them; sequences stay in
 * step after failures.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  DeliveryTimeoutError,
  IllegalStateError,
  InvalidRecordError,
  InvalidTimestampError,
  KafkaErrorCode,
  ProducerFencedError,
  RecordTooLargeError,
  SerializationError,
  TransactionAbortableError,
} from '../../src/errors.js';
import { TransactionalProducer, TxnSendOption, type ProducerRecord } from '../../src/index.js';
import { eosBackends, type EosBackend } from '../helpers/eos-backends.js';
import { uniqueName, uniqueTopic } from '../helpers/names.js';
import { waitFor } from '../helpers/wait-for.js';
import { kafkaBrokers } from '../helpers/kafka-env.js';

const kafkaBootstrap = (): string[] => kafkaBrokers() ?? [];

const IGNORE = TxnSendOption.IGNORE_SEND_ERRORS;
const NONE = TxnSendOption.NONE;

for (const { name, create, skip } of eosBackends()) {
  const suite = create ? describe : describe.skip;
  suite(`TransactionalProducer contract [${name}]${skip ? ` [skipped: ${skip}]` : ''}`, () => {
    let backend: EosBackend;
    const topics = { out: '', compact: '', small: '', recent: '' };
    const producers: TransactionalProducer[] = [];

    beforeAll(async () => {
      backend = create!();
      topics.out = uniqueTopic('txp-out');
      topics.compact = uniqueTopic('txp-compact');
      topics.small = uniqueTopic('txp-small');
      topics.recent = uniqueTopic('txp-recent');
      await backend.createTopic(topics.out, 3);
      await backend.createTopic(topics.compact, 3, { 'cleanup.policy': 'compact' });
      await backend.createTopic(topics.small, 3, { 'max.message.bytes': '2048' });
      await backend.createTopic(topics.recent, 3, { 'message.timestamp.before.max.ms': '60000' });
    });
    afterAll(async () => {
      await Promise.allSettled(producers.map((p) => p.close()));
      await backend?.close();
    });

    async function producer(extra: Partial<ConstructorParameters<typeof TransactionalProducer>[0]> = {}): Promise<TransactionalProducer> {
      const p = new TransactionalProducer({ transactionalId: uniqueName('txp'), cluster: backend.cluster, lingerMs: 5, retryBackoffMs: 20, ...extra });
      producers.push(p);
      await p.initTransactions();
      return p;
    }

    /** Values with `marker` a read_committed reader sees in `topic` (waits for `expected` of them, then settles). */
    async function visible(topic: string, marker: string, expected: number): Promise<string[]> {
      let values: string[] = [];
      await waitFor(
        async () => {
          values = (await backend.readCommitted(topic)).map((r) => r.value ?? '').filter((v) => v.startsWith(marker));
          return values.length >= expected;
        },
        { timeoutMs: 20_000, message: `${expected} visible records with ${marker} in ${topic}` },
      ).catch(() => undefined);
      return values;
    }

    const culprits: Record<string, (m: string) => { record: ProducerRecord; error: abstract new (...a: never[]) => Error }> = {
      'too large': (m) => ({ record: { topic: topics.small, key: 'k', value: `${m}-bad-${'x'.repeat(5000)}` }, error: RecordTooLargeError }),
      'keyless on a compacted topic': (m) => ({ record: { topic: topics.compact, value: `${m}-bad` }, error: InvalidRecordError }),
      'bad timestamp': (m) => ({ record: { topic: topics.recent, key: 'k', value: `${m}-bad`, timestamp: Date.now() - 3_600_000 }, error: InvalidTimestampError }),
      serialization: (m) => ({ record: { topic: topics.out, key: 'k', value: { m } as unknown as string }, error: SerializationError }),
    };

    it('IGNORE_SEND_ERRORS outside a transaction throws IllegalStateError synchronously', async () => {
      const p = await producer();
      expect(() => p.send({ topic: topics.out, key: 'k', value: 'v' }, undefined, IGNORE)).toThrow(IllegalStateError);
      const idempotent = new TransactionalProducer({ cluster: backend.cluster });
      producers.push(idempotent);
      expect(() => idempotent.send({ topic: topics.out, key: 'k', value: 'v' }, undefined, IGNORE)).toThrow(IllegalStateError);
      expect(p.pendingSends + idempotent.pendingSends).toBe(0);
    });

    for (const [kind, make] of Object.entries(culprits)) {
      it(`${kind} + IGNORE_SEND_ERRORS: only that record fails, the transaction commits`, async () => {
        const m = uniqueName('ign');
        const c = make(m);
        const p = await producer();
        p.beginTransaction();
        const cb = vi.fn();
        const good = [0, 1, 2].map((i) => p.send({ topic: topics.out, key: `k${i}`, value: `${m}-${i}` }, undefined, IGNORE));
        const failed = p.send(c.record, cb, IGNORE);
        await expect(failed).rejects.toBeInstanceOf(c.error);
        expect(cb).toHaveBeenCalledOnce();
        expect(cb.mock.calls[0]![0]).toBeInstanceOf(c.error);
        expect(p.state).toBe('IN_TRANSACTION');
        await p.commitTransaction();
        expect((await Promise.all(good)).every((md) => md.offset >= 0)).toBe(true);
        expect((await visible(topics.out, m, 3)).sort()).toEqual([`${m}-0`, `${m}-1`, `${m}-2`]);
      });

      it(`${kind} + NONE: the transaction can only abort, nothing becomes visible`, async () => {
        const m = uniqueName('none');
        const c = make(m);
        const p = await producer();
        p.beginTransaction();
        const cb = vi.fn();
        const good = p.send({ topic: topics.out, key: 'k', value: `${m}-good` });
        await expect(p.send(c.record, cb, NONE)).rejects.toBeInstanceOf(c.error);
        expect(cb.mock.calls[0]![0]).toBeInstanceOf(c.error);
        expect(p.state).toBe('ABORTABLE_ERROR');
        await expect(p.commitTransaction()).rejects.toBeInstanceOf(TransactionAbortableError);
        await good.catch(() => undefined);
        await p.abortTransaction();
        expect(p.state).toBe('READY');
        const marker = uniqueName('after');
        p.beginTransaction();
        await p.send({ topic: topics.out, key: 'k', value: `${marker}-x` });
        await p.commitTransaction();
        expect(await visible(topics.out, marker, 1)).toEqual([`${marker}-x`]);
        expect(await visible(topics.out, m, 0)).toEqual([]);
      });
    }

    it('a retriable error is retried and then succeeds (embedded: broker-side fault; Kafka: injected before the request)', async () => {
      const m = uniqueName('retry');
      const p = await producer();
      backend.failProduce({ topic: topics.out, code: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER, count: 3 });
      p.beginTransaction();
      const cb = vi.fn();
      const meta = await p.send({ topic: topics.out, key: 'k', value: `${m}-1` }, cb, NONE);
      expect(meta.offset).toBeGreaterThanOrEqual(0);
      expect(cb).toHaveBeenCalledWith(null, meta);
      expect(p.state).toBe('IN_TRANSACTION');
      await p.commitTransaction();
      expect(await visible(topics.out, m, 1)).toEqual([`${m}-1`]);
    });

    // Issue 13 item 3: a write that may be in the log is never dropped silently under IGNORE_SEND_ERRORS.
    for (const code of [KafkaErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND, KafkaErrorCode.REQUEST_TIMED_OUT]) {
      it(`${code === 7 ? 'REQUEST_TIMED_OUT' : 'NOT_ENOUGH_REPLICAS_AFTER_APPEND'} after the append until the delivery timeout: not reported as dropped, the transaction cannot commit, abort works, the next transaction commits once`, async () => {
        const m = uniqueName(`unknown-${code}`);
        const p = await producer({ deliveryTimeoutMs: 1000, retryBackoffMs: 50 });
        p.beginTransaction();
        const good = p.send({ topic: topics.out, key: 'g', value: `${m}-innocent`, partition: 1 }, undefined, IGNORE);
        await good;
        backend.failProduce({ topic: topics.out, code, count: 10_000, afterAppend: true });
        const cb = vi.fn();
        const err = await p.send({ topic: topics.out, key: 'k', value: `${m}-maybe`, partition: 0 }, cb, IGNORE).catch((e: unknown) => e);
        backend.clearFaults();
        // not a record-level failure a handler could drop: its kind says the outcome is unknown
        expect(err).toBeInstanceOf(DeliveryTimeoutError);
        expect(err).toMatchObject({ kind: 'unknown_outcome', code: 'DELIVERY_OUTCOME_UNKNOWN', cause: { kafkaCode: code } });
        expect(cb.mock.calls[0]![0]).toBe(err);
        expect(p.state).toBe('ABORTABLE_ERROR');
        await expect(p.commitTransaction()).rejects.toBeInstanceOf(TransactionAbortableError);
        await p.abortTransaction();
        expect(p.state).toBe('READY');
        // the retry in a new transaction (same producer, epoch bumped) commits exactly once
        p.beginTransaction();
        await p.send({ topic: topics.out, key: 'k', value: `${m}-maybe`, partition: 0 }, undefined, IGNORE);
        await p.send({ topic: topics.out, key: 'k2', value: `${m}-next`, partition: 0 }, undefined, IGNORE);
        await p.commitTransaction();
        expect((await visible(topics.out, m, 2)).sort()).toEqual([`${m}-maybe`, `${m}-next`]);
      });
    }

    it('NOT_ENOUGH_REPLICAS_AFTER_APPEND then success: retried, committed exactly once, the transaction stays committable', async () => {
      const m = uniqueName('nera-retry');
      const p = await producer();
      // embedded: written then answered with the error (the retry is de-duplicated); Kafka: injected before the request
      backend.failProduce({ topic: topics.out, code: KafkaErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND, count: 2, afterAppend: backend.name === 'embedded' });
      p.beginTransaction();
      const meta = await p.send({ topic: topics.out, key: 'k', value: `${m}-1` }, undefined, IGNORE);
      expect(meta.offset).toBeGreaterThanOrEqual(0);
      expect(p.state).toBe('IN_TRANSACTION');
      await p.commitTransaction();
      expect(await visible(topics.out, m, 1)).toEqual([`${m}-1`]);
    });

    /** 1,000 records over 6 partitions of a compacted topic; every 37th is keyless, every 101st too large. */
    function thousand(topic: string, m: string): Array<{ record: ProducerRecord; culprit: boolean }> {
      return Array.from({ length: 1000 }, (_, i) => {
        if (i % 37 === 36) return { record: { topic, value: `${m}-${i}` }, culprit: true };
        if (i % 101 === 100) return { record: { topic, key: `k${i}`, value: `${m}-${i}-${'x'.repeat(3000)}` }, culprit: true };
        return { record: { topic, key: `k${i}`, value: `${m}-${i}` }, culprit: false };
      });
    }

    it('IGNORE_SEND_ERRORS: 1,000 records over several partitions with culprits commit; read_committed sees exactly the non-culprits once', async () => {
      const topic = uniqueTopic('txp-1000');
      await backend.createTopic(topic, 6, { 'cleanup.policy': 'compact', 'max.message.bytes': '2048' });
      const m = uniqueName('k1000');
      const p = await producer();
      p.beginTransaction();
      const batch = thousand(topic, m);
      const results = await Promise.allSettled(batch.map((b) => p.send(b.record, undefined, IGNORE)));
      results.forEach((r, i) => expect(r.status, `record ${i}`).toBe(batch[i]!.culprit ? 'rejected' : 'fulfilled'));
      const partitions = new Set(results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.partition] : [])));
      expect(partitions.size).toBeGreaterThan(1);
      await p.commitTransaction();
      const expected = batch.filter((b) => !b.culprit).map((b) => b.record.value as string);
      const seen = await visible(topic, m, expected.length);
      expect(seen.length).toBe(expected.length);
      expect([...seen].sort()).toEqual([...expected].sort());
    });

    it('NONE: the same 1,000-record transaction cannot commit; after abort nothing is visible', async () => {
      const topic = uniqueTopic('txp-1000n');
      await backend.createTopic(topic, 6, { 'cleanup.policy': 'compact', 'max.message.bytes': '2048' });
      const m = uniqueName('n1000');
      const p = await producer();
      p.beginTransaction();
      const results = await Promise.allSettled(thousand(topic, m).map((b) => p.send(b.record, undefined, NONE)));
      expect(results.some((r) => r.status === 'rejected')).toBe(true);
      await expect(p.commitTransaction()).rejects.toBeInstanceOf(TransactionAbortableError);
      await p.abortTransaction();
      const marker = uniqueName('n1000-after');
      p.beginTransaction();
      await p.send({ topic, key: 'after', value: marker });
      await p.commitTransaction();
      const all = (await visible(topic, '', 1)).filter((v) => v.startsWith(m) || v === marker);
      expect(all).toEqual([marker]);
    });

    it('broker-side culprit: topic switched to compact after caching; only the keyless record fails; then 10,000 more records, no sequence error', async () => {
      const topic = uniqueTopic('txp-switch');
      await backend.createTopic(topic, 4);
      const m = uniqueName('sw');
      const p = await producer({ lingerMs: 50 });
      p.beginTransaction();
      await p.send({ topic, key: 'warm', value: `${m}-warm`, partition: 0 }); // caches the (delete) config
      await p.commitTransaction();
      await backend.alterTopicConfig(topic, { 'cleanup.policy': 'compact' });
      const admin = backend.cluster.admin();
      await waitFor(async () => (await admin.describeTopic(topic)).config['cleanup.policy'] === 'compact', { timeoutMs: 10_000 });
      await admin.close();
      if (backend.name === 'kafka') await new Promise((r) => setTimeout(r, 1000)); // the log picks up the new config
      p.beginTransaction();
      const sends = Array.from({ length: 41 }, (_, i) =>
        p.send({ topic, key: i === 20 ? null : `k${i}`, value: `${m}-${i}`, partition: 0 }, undefined, IGNORE),
      );
      const results = await Promise.allSettled(sends);
      const rejected = results.flatMap((r, i) => (r.status === 'rejected' ? [[i, r.reason as Error] as const] : []));
      expect(rejected.map(([i]) => i)).toEqual([20]);
      expect(rejected[0]![1]).toBeInstanceOf(InvalidRecordError);
      expect(rejected[0]![1].message).toMatch(/broker rejected the record/); // named by the broker, not by pre-send validation
      await p.commitTransaction();
      const expected = [`${m}-warm`, ...Array.from({ length: 41 }, (_, i) => `${m}-${i}`).filter((v) => v !== `${m}-20`)];
      expect((await visible(topic, m, expected.length)).sort()).toEqual(expected.sort());

      // the same producer: 10,000 more records over several partitions
      const m2 = uniqueName('tenk');
      p.beginTransaction();
      const more = await Promise.all(
        Array.from({ length: 10_000 }, (_, i) => p.send({ topic, key: `key-${i}`, value: `${m2}-${i}` }, undefined, IGNORE)),
      );
      expect(new Set(more.map((md) => md.partition)).size).toBe(4);
      await p.commitTransaction();
      expect(p.state).toBe('READY');
      expect((await visible(topic, m2, 10_000)).length).toBe(10_000);
    });

    it('a topic that does not exist: retried until the delivery timeout, then DeliveryTimeoutError naming it (record-level)', async () => {
      const missing = uniqueTopic('txp-missing');
      const m = uniqueName('miss');
      const p = await producer({ deliveryTimeoutMs: 1500, retryBackoffMs: 100 });
      p.beginTransaction();
      const good = p.send({ topic: topics.out, key: 'k', value: `${m}-ok` }, undefined, IGNORE);
      const started = Date.now();
      const err = await p.send({ topic: missing, key: 'k', value: 'v' }, undefined, IGNORE).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DeliveryTimeoutError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
      expect((err as Error).message).toContain(`'${missing}'`);
      expect(p.state).toBe('IN_TRANSACTION');
      await good;
      await p.commitTransaction();
      expect(await visible(topics.out, m, 1)).toEqual([`${m}-ok`]);
    });

    it('sendOffsetsToTransaction: offsets commit with the transaction and vanish with an abort', async () => {
      const input = uniqueTopic('txp-in');
      await backend.createTopic(input, 2);
      const group = uniqueName('txp-group');
      const p = await producer();
      const admin = backend.cluster.admin();
      try {
        p.beginTransaction();
        await p.send({ topic: topics.out, key: 'k', value: uniqueName('off') }, undefined, IGNORE);
        await p.sendOffsetsToTransaction([{ topic: input, partition: 1, offset: 7 }], group);
        await p.abortTransaction();
        expect(await admin.committedOffsets(group, input)).toEqual([-1, -1]);
        p.beginTransaction();
        await p.sendOffsetsToTransaction([{ topic: input, partition: 1, offset: 5 }], group);
        await p.commitTransaction();
        await waitFor(async () => (await admin.committedOffsets(group, input))[1] === 5, { timeoutMs: 10_000 });
        expect(await admin.committedOffsets(group, input)).toEqual([-1, 5]);
      } finally {
        await admin.close();
      }
    });

    it('fencing detected by EndTxn: commit rejects with ProducerFencedError, the producer is fatal, nothing visible', async () => {
      const m = uniqueName('fence-commit');
      const first = await producer();
      first.beginTransaction();
      await first.send({ topic: topics.out, key: 'k', value: `${m}-old` }, undefined, IGNORE);
      const second = new TransactionalProducer({ transactionalId: first.transactionalId, cluster: backend.cluster });
      producers.push(second);
      await second.initTransactions();
      await expect(first.commitTransaction()).rejects.toBeInstanceOf(ProducerFencedError);
      expect(first.state).toBe('FATAL_ERROR');
      expect(() => first.beginTransaction()).toThrow(IllegalStateError);
      second.beginTransaction();
      await second.send({ topic: topics.out, key: 'k', value: `${m}-new` });
      await second.commitTransaction();
      expect(await visible(topics.out, m, 1)).toEqual([`${m}-new`]);
    });

    it('a callback sending a dead-letter record in the same transaction is seen by the commit', async () => {
      const m = uniqueName('dlq');
      const p = await producer();
      p.beginTransaction();
      const order: string[] = [];
      const failed = p.send(
        { topic: topics.compact, value: `${m}-bad` },
        (err) => {
          order.push('callback');
          if (err) void p.send({ topic: topics.out, key: 'dlq', value: `${m}-dead:${err.name}` }, undefined, IGNORE);
        },
        IGNORE,
      );
      void failed.catch(() => order.push('promise'));
      await p.commitTransaction();
      expect(order).toEqual(['callback', 'promise']);
      expect(await visible(topics.out, m, 1)).toEqual([`${m}-dead:InvalidRecordError`]);
    });

    /** Creates a topic, sends and commits one record (so the producer caches the config), then alters the config. */
    async function cachedThenAltered(p: TransactionalProducer, topic: string, config: Record<string, string>): Promise<void> {
      await backend.createTopic(topic, 2);
      p.beginTransaction();
      await p.send({ topic, key: 'warm', value: 'warm', partition: 1 });
      await p.commitTransaction();
      await backend.alterTopicConfig(topic, config);
      const admin = backend.cluster.admin();
      await waitFor(async () => {
        const described = await admin.describeTopic(topic);
        return Object.entries(config).every(([k, v]) => described.config[k] === v);
      }, { timeoutMs: 10_000 });
      await admin.close();
      if (backend.name === 'kafka') await new Promise((r) => setTimeout(r, 1000)); // the log picks up the new config
    }

    it('broker-side MESSAGE_TOO_LARGE for a batch (max.message.bytes shrunk after caching): split until only the big record fails', async () => {
      const topic = uniqueTopic('txp-shrunk');
      const m = uniqueName('shr');
      const p = await producer({ lingerMs: 50 });
      await cachedThenAltered(p, topic, { 'max.message.bytes': '1500' });
      p.beginTransaction();
      const sends = Array.from({ length: 21 }, (_, i) =>
        p.send({ topic, key: `k${i}`, value: `${m}-${i}-${(i === 10 ? 'y' : 'x').repeat(i === 10 ? 3000 : 200)}`, partition: 0 }, undefined, IGNORE),
      );
      const results = await Promise.allSettled(sends);
      const rejected = results.flatMap((r, i) => (r.status === 'rejected' ? [[i, r.reason as Error] as const] : []));
      expect(rejected.map(([i]) => i)).toEqual([10]);
      expect(rejected[0]![1]).toBeInstanceOf(RecordTooLargeError);
      expect(rejected[0]![1].message).toMatch(/broker rejected the record/);
      await p.commitTransaction();
      expect((await visible(topic, m, 20)).length).toBe(20);
      p.beginTransaction();
      await Promise.all(Array.from({ length: 500 }, (_, i) => p.send({ topic, key: `a${i}`, value: `${m}-after-${i}` })));
      await p.commitTransaction();
      expect((await visible(topic, `${m}-after`, 500)).length).toBe(500);
    });

    it('broker-side INVALID_TIMESTAMP (bounds tightened after caching): only the old record fails', async () => {
      const topic = uniqueTopic('txp-ts');
      const m = uniqueName('ts');
      const p = await producer({ lingerMs: 50 });
      await cachedThenAltered(p, topic, { 'message.timestamp.before.max.ms': '60000' });
      p.beginTransaction();
      const sends = Array.from({ length: 10 }, (_, i) =>
        p.send({ topic, key: `k${i}`, value: `${m}-${i}`, partition: 0, timestamp: i === 3 ? Date.now() - 3_600_000 : Date.now() }, undefined, IGNORE),
      );
      const results = await Promise.allSettled(sends);
      const rejected = results.flatMap((r, i) => (r.status === 'rejected' ? [[i, r.reason as Error] as const] : []));
      expect(rejected.map(([i]) => i)).toEqual([3]);
      expect(rejected[0]![1]).toBeInstanceOf(InvalidTimestampError);
      expect(rejected[0]![1].message).toMatch(/broker rejected the record/);
      await p.commitTransaction();
      expect((await visible(topic, m, 9)).length).toBe(9);
    });

    it('an idempotent producer (no transactionalId) sends without a transaction', async () => {
      const topic = uniqueTopic('txp-idem');
      await backend.createTopic(topic, 3);
      const m = uniqueName('idem');
      const p = new TransactionalProducer(
        backend.name === 'kafka' ? { bootstrapServers: kafkaBootstrap(), lingerMs: 5 } : { cluster: backend.cluster, lingerMs: 5 },
      );
      producers.push(p);
      const metas = await Promise.all(Array.from({ length: 100 }, (_, i) => p.send({ topic, key: `k${i}`, value: `${m}-${i}` })));
      expect(new Set(metas.map((md) => md.partition)).size).toBe(3);
      await expect(p.send({ topic, key: 'k', value: { bad: 1 } as unknown as string })).rejects.toBeInstanceOf(SerializationError);
      expect(p.state).toBe('READY');
      await p.flush();
      expect((await visible(topic, m, 100)).length).toBe(100);
      await p.close();
      expect(p.state).toBe('CLOSED');
    });

    for (const option of [NONE, IGNORE]) {
      it(`fencing (${option}): a second producer with the same id initialises; the first is fatal`, async () => {
        const m = uniqueName('fence');
        const first = await producer();
        first.beginTransaction();
        await first.send({ topic: topics.out, key: 'k', value: `${m}-old` }, undefined, option);
        const second = new TransactionalProducer({ transactionalId: first.transactionalId, cluster: backend.cluster });
        producers.push(second);
        await second.initTransactions();
        const cb = vi.fn();
        const err = await first.send({ topic: topics.out, key: 'k', value: `${m}-late` }, cb, option).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ProducerFencedError);
        expect(cb.mock.calls[0]![0]).toBeInstanceOf(ProducerFencedError);
        expect(first.state).toBe('FATAL_ERROR');
        await expect(first.commitTransaction()).rejects.toBeInstanceOf(ProducerFencedError);
        await first.close();
        expect(await visible(topics.out, m, 0)).toEqual([]);
        second.beginTransaction();
        await second.send({ topic: topics.out, key: 'k', value: `${m}-new` });
        await second.commitTransaction();
        expect(await visible(topics.out, m, 1)).toEqual([`${m}-new`]);
      });
    }
  });
}

