import { describe, expect, it } from 'vitest';
import { filterAbortedRecords, type FetchedMessage } from '../../../src/cluster/kafkajs/internal/fetch-aborted-filter.js';

const data = (offset: number, producerId: string, inTransaction = true): FetchedMessage & { tag: string } => ({
  offset: String(offset),
  key: Buffer.from('k'),
  batchContext: { producerId, inTransaction },
  tag: `${producerId}@${offset}`,
});
const abortMarker = (offset: number, producerId: string): FetchedMessage & { tag: string } => ({
  offset: String(offset),
  key: Buffer.from([0, 0, 0, 0]),
  isControlRecord: true,
  batchContext: { producerId, inTransaction: true },
  tag: `abort:${producerId}@${offset}`,
});
const commitMarker = (offset: number, producerId: string): FetchedMessage & { tag: string } => ({
  ...abortMarker(offset, producerId),
  key: Buffer.from([0, 0, 0, 1]),
  tag: `commit:${producerId}@${offset}`,
});

describe('read_committed filtering of aborted transactions (kafkajs fetch fix)', () => {
  it('drops interleaved aborted transactions listed in marker order, not offset order', () => {
    // A writes 0, B writes 1, B aborts (2), A aborts (3), plain record 4: the broker lists B before A.
    const messages = [data(0, 'A'), data(1, 'B'), abortMarker(2, 'B'), abortMarker(3, 'A'), data(4, 'P', false)];
    const kept = filterAbortedRecords(messages, [
      { producerId: 'B', firstOffset: '1' },
      { producerId: 'A', firstOffset: '0' },
    ]).map((m) => m.tag);
    expect(kept).toEqual(['abort:B@2', 'abort:A@3', 'P@4']);
  });

  it('activates every aborted transaction that started before the first fetched record', () => {
    // The fetch starts at offset 5, inside two aborted transactions that began at 0 and 1.
    const messages = [data(5, 'A'), data(6, 'B'), abortMarker(7, 'A'), abortMarker(8, 'B'), data(9, 'A')];
    const kept = filterAbortedRecords(messages, [
      { producerId: 'A', firstOffset: '0' },
      { producerId: 'B', firstOffset: '1' },
    ]).map((m) => m.tag);
    expect(kept).toEqual(['abort:A@7', 'abort:B@8', 'A@9']);
  });

  it('keeps committed transactions and non-transactional records of an aborted producer id', () => {
    const messages = [data(0, 'A'), abortMarker(1, 'A'), data(2, 'A'), commitMarker(3, 'A'), data(4, 'A', false)];
    const kept = filterAbortedRecords(messages, [{ producerId: 'A', firstOffset: '0' }]).map((m) => m.tag);
    expect(kept).toEqual(['abort:A@1', 'A@2', 'commit:A@3', 'A@4']);
  });

  it('returns the records unchanged when nothing was aborted', () => {
    const messages = [data(0, 'A'), commitMarker(1, 'A')];
    expect(filterAbortedRecords(messages, [])).toBe(messages);
  });
});
