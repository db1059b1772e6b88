/**
 * Issue 12, items 2, 3 and 5 (producer part), on the embedded cluster and on
 * real Kafka: a user-supplied field the encoders cannot take (fractional,
 * negative or huge timestamps, bad partitions, headers, keys, values, topic
 * names) is rejected alone with a record-level error and the transaction still
 * commits; garbage given to sendOffsetsToTransaction is refused with
 * IllegalArgumentError, commits nothing and leaves the transaction usable; a
 * send to a topic that does not exist fails within seconds (maxBlockMs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IllegalArgumentError,
  InvalidRecordError,
  InvalidTimestampError,
  SerializationError,
  StreamsError,
  UnknownTopicError,
} from '../../src/errors.js';
import { TransactionalProducer, TxnSendOption, type ProducerRecord } from '../../src/index.js';
import { eosBackends, type EosBackend } from '../helpers/eos-backends.js';
import { uniqueName, uniqueTopic } from '../helpers/names.js';
import { waitFor } from '../helpers/wait-for.js';

const IGNORE = TxnSendOption.IGNORE_SEND_ERRORS;
type ErrorClass = abstract new (...a: never[]) => Error;

/** Bad records: what is wrong, the record (value = marker), the error class and what the message must name. */
const BAD: Array<[string, (topic: string, v: string) => ProducerRecord, ErrorClass, RegExp]> = [
  ['fractional timestamp', (t, v) => ({ topic: t, key: 'k', value: v, timestamp: Date.now() + 0.5 }), InvalidTimestampError, /timestamp.*integer.*\.5/],
  ['timestamp 1.5', (t, v) => ({ topic: t, key: 'k', value: v, timestamp: 1.5 }), InvalidTimestampError, /timestamp.*1\.5/],
  ['NaN timestamp', (t, v) => ({ topic: t, key: 'k', value: v, timestamp: NaN }), InvalidTimestampError, /timestamp.*NaN/],
  ['Infinity timestamp', (t, v) => ({ topic: t, key: 'k', value: v, timestamp: Infinity }), InvalidTimestampError, /timestamp.*Infinity/],
  ['negative timestamp', (t, v) => ({ topic: t, key: 'k', value: v, timestamp: -5 }), InvalidTimestampError, /timestamp.*-5/],
  ['timestamp > 2^63-1', (t, v) => ({ topic: t, key: 'k', value: v, timestamp: 2 ** 64 }), InvalidTimestampError, /timestamp.*at most/],
  ['string timestamp', (t, v) => ({ topic: t, key: 'k', value: v, timestamp: '5' as never }), InvalidTimestampError, /timestamp.*'5' \(string\)/],
  ['fractional partition', (t, v) => ({ topic: t, key: 'k', value: v, partition: 1.5 }), InvalidRecordError, /partition.*1\.5/],
  ['negative partition', (t, v) => ({ topic: t, key: 'k', value: v, partition: -1 }), InvalidRecordError, /partition.*-1/],
  ['partition >= count', (t, v) => ({ topic: t, key: 'k', value: v, partition: 3 }), InvalidRecordError, /Partition 3 .*3 partition/],
  ['number header', (t, v) => ({ topic: t, key: 'k', value: v, headers: { n: 5 as never } }), InvalidRecordError, /header 'n'.*5 \(number\)/],
  ['object header', (t, v) => ({ topic: t, key: 'k', value: v, headers: { o: {} as never } }), InvalidRecordError, /header 'o'/],
  ['undefined header', (t, v) => ({ topic: t, key: 'k', value: v, headers: { u: undefined as never } }), InvalidRecordError, /header 'u'.*undefined/],
  ['number key', (t, v) => ({ topic: t, key: 7 as never, value: v }), SerializationError, /key.*7 \(number\)/],
];

for (const { name, create, skip } of eosBackends()) {
  const suite = create ? describe : describe.skip;
  suite(`produce-path input checks [${name}]${skip ? ` [skipped: ${skip}]` : ''}`, () => {
    let backend: EosBackend;
    let out = '';
    let input = '';
    const producers: TransactionalProducer[] = [];

    beforeAll(async () => {
      backend = create!();
      out = uniqueTopic('chk-out');
      input = uniqueTopic('chk-in');
      await backend.createTopic(out, 3);
      await backend.createTopic(input, 2);
    });
    afterAll(async () => {
      await Promise.allSettled(producers.map((p) => p.close()));
      await backend?.close();
    });

    async function producer(extra: Partial<ConstructorParameters<typeof TransactionalProducer>[0]> = {}): Promise<TransactionalProducer> {
      const p = new TransactionalProducer({ transactionalId: uniqueName('chk'), cluster: backend.cluster, lingerMs: 5, retryBackoffMs: 20, ...extra });
      producers.push(p);
      await p.initTransactions();
      return p;
    }

    async function committedValues(topic: string, marker: string, expected: number): Promise<string[]> {
      let values: string[] = [];
      await waitFor(
        async () => {
          values = (await backend.readCommitted(topic)).map((r) => r.value ?? '').filter((v) => v.startsWith(marker));
          return values.length >= expected;
        },
        { timeoutMs: 20_000, message: `${expected} committed records with ${marker}` },
      ).catch(() => undefined);
      return values.sort();
    }

    it('item 2: each bad field is rejected alone (record-level, naming the field); the good records commit', async () => {
      const m = uniqueName('fields');
      const p = await producer();
      p.beginTransaction();
      const goods = [0, 1, 2].map((i) => p.send({ topic: out, key: `g${i}`, value: `${m}-good-${i}` }, undefined, IGNORE));
      const bads = BAD.map(([, make], i) => p.send(make(out, `${m}-bad-${i}`), undefined, IGNORE).then(() => null, (e: unknown) => e));
      const errors = await Promise.all(bads);
      BAD.forEach(([what, , cls, message], i) => {
        expect(errors[i], what).toBeInstanceOf(cls);
        expect((errors[i] as StreamsError).kind, what).toBe('record');
        expect((errors[i] as Error).message, what).toMatch(message);
      });
      await Promise.all(goods);
      expect(p.state).toBe('IN_TRANSACTION');
      await p.commitTransaction();
      expect(await committedValues(out, m, 3)).toEqual([`${m}-good-0`, `${m}-good-1`, `${m}-good-2`]);
    });

    it("item 2: bad values and topic names ('' / undefined / illegal) fail at once; the transaction commits", async () => {
      const m = uniqueName('names');
      const p = await producer();
      p.beginTransaction();
      const started = Date.now();
      const cases: Array<[ProducerRecord, ErrorClass, RegExp]> = [
        [{ topic: out, key: 'k', value: undefined as never }, SerializationError, /value.*undefined.*null for a tombstone/],
        [{ topic: out, key: 'k', value: new Uint8Array([1]) as never }, SerializationError, /value.*Uint8Array/],
        [{ topic: '', key: 'k', value: 'x' }, InvalidRecordError, /topic name is empty/],
        [{ topic: undefined as never, key: 'k', value: 'x' }, InvalidRecordError, /topic must be a string, got undefined/],
        [{ topic: 42 as never, key: 'k', value: 'x' }, InvalidRecordError, /topic must be a string, got 42/],
        [{ topic: 'a b/c', key: 'k', value: 'x' }, InvalidRecordError, /'a b\/c' contains characters/],
        [{ topic: 'x'.repeat(250), key: 'k', value: 'x' }, InvalidRecordError, /250 characters/],
        [null as never, InvalidRecordError, /needs a record object/],
      ];
      const good = p.send({ topic: out, key: 'k', value: `${m}-good` }, undefined, IGNORE);
      const errors = await Promise.all(cases.map(([r]) => p.send(r, undefined, IGNORE).then(() => null, (e: unknown) => e)));
      cases.forEach(([, cls, message], i) => {
        expect(errors[i], String(message)).toBeInstanceOf(cls);
        expect((errors[i] as StreamsError).kind).toBe('record');
        expect((errors[i] as Error).message).toMatch(message);
      });
      expect(Date.now() - started).toBeLessThan(2_000);
      await good;
      await p.commitTransaction();
      expect(await committedValues(out, m, 1)).toEqual([`${m}-good`]);
    });

    it('item 3: garbage offsets are refused with IllegalArgumentError, nothing commits, a correct call and commit work after', async () => {
      const group = uniqueName('chk-group');
      const p = await producer({ maxBlockMs: 1_000 });
      const admin = backend.cluster.admin();
      try {
        p.beginTransaction();
        const garbage: Array<[unknown, unknown, RegExp]> = [
          [[{ topic: input, partition: 0, offset: -5 }], group, /offset of .*-0 .*-5/],
          [[{ topic: input, partition: 0, offset: NaN }], group, /offset.*NaN/],
          [[{ topic: input, partition: 0, offset: 1.5 }], group, /offset.*1\.5/],
          [[{ topic: input, partition: 0, offset: 1e300 }], group, /offset.*1e\+300/],
          [[{ topic: input, partition: -1, offset: 3 }], group, /partition.*-1/],
          [[{ topic: input, partition: 0.5, offset: 3 }], group, /partition.*0\.5/],
          [[{ topic: input, partition: 2, offset: 3 }], group, /partition 2 of topic .* has 2 partition/],
          [[{ topic: uniqueTopic('chk-nope'), partition: 0, offset: 3 }], group, /does not exist/],
          [[{ topic: '', partition: 0, offset: 3 }], group, /topic name is empty/],
          [[{ topic: input, partition: 0, offset: 3 }, { topic: input, partition: 0, offset: 4 }], group, /listed twice/],
          [[{ topic: input, partition: 0, offset: 3 }], '', /group id must be a non-empty string/],
          [[{ topic: input, partition: 0, offset: 3 }], undefined, /group id/],
          ['nope', group, /offsets must be an array/],
        ];
        for (const [offsets, groupId, message] of garbage) {
          const error = await p.sendOffsetsToTransaction(offsets as never, groupId as never).catch((e: unknown) => e);
          expect(error, String(message)).toBeInstanceOf(IllegalArgumentError);
          expect((error as StreamsError).kind).toBe('usage');
          expect((error as Error).message).toMatch(message);
          expect(p.state).toBe('IN_TRANSACTION');
        }
        await p.sendOffsetsToTransaction([{ topic: input, partition: 1, offset: 5 }], group);
        await p.commitTransaction();
        await waitFor(async () => (await admin.committedOffsets(group, input))[1] === 5, { timeoutMs: 10_000 });
        expect(await admin.committedOffsets(group, input)).toEqual([-1, 5]);
      } finally {
        await admin.close();
      }
    });

    it('item 5: a send to a topic that does not exist fails within maxBlockMs (default 5 s) as UnknownTopicError; the rest commits', async () => {
      const m = uniqueName('missing');
      const missing = uniqueTopic('chk-typo');
      const p = await producer();
      p.beginTransaction();
      const started = Date.now();
      const good = p.send({ topic: out, key: 'k', value: `${m}-good` }, undefined, IGNORE);
      const error = await p.send({ topic: missing, key: 'k', value: `${m}-lost` }, undefined, IGNORE).catch((e: unknown) => e);
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(UnknownTopicError);
      expect(error).toMatchObject({ code: 'UNKNOWN_TOPIC_OR_PARTITION', kind: 'record', topic: missing });
      expect((error as Error).message).toMatch(new RegExp(`Topic '${missing}' does not exist.*create the topic`));
      expect(elapsed).toBeGreaterThanOrEqual(4_500);
      expect(elapsed).toBeLessThan(10_000);
      await good;
      await p.commitTransaction();
      expect(await committedValues(out, m, 1)).toEqual([`${m}-good`]);
    }, 30_000);
  });
}
