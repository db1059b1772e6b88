import type { ErrorHandlerContext, FailedOutputRecord, RawInputRecord } from '../../../src/handlers/types.js';

export const context: ErrorHandlerContext = {
  topic: 'orders-in',
  partition: 2,
  offset: 41,
  headers: { trace: 'abc' },
  timestamp: 1_700_000_000_000,
  processorNodeId: 'KSTREAM-SINK-0000000004',
  taskId: '0_2',
};

export const output: FailedOutputRecord = {
  topic: 'orders-eu',
  partition: 1,
  key: 'o-1',
  value: { big: true },
  keyBytes: Buffer.from('o-1'),
  valueBytes: Buffer.from('{"big":true}'),
  headers: { out: 'h' },
  timestamp: 1_700_000_000_500,
};

export const rawInput: RawInputRecord = {
  topic: 'orders-in',
  partition: 2,
  offset: 41,
  key: Buffer.from('k-raw'),
  value: Buffer.from([0xff, 0x00, 0x7b]),
  headers: { trace: 'abc' },
  timestamp: 1_700_000_000_000,
};
