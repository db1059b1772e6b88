/**
 * Reading a dead-letter topic back in the exception-handler contract cases:
 * each record with its `sluice.*` headers as strings and the input
 * coordinates they name.
 */
import { DeadLetterHeaders } from '../../../src/handlers/dead-letter-queue.js';
import type { BackendContext, ReadIsolation } from '../backends.js';

/** A dead-letter record as read back. */
export interface DeadLetter {
  /** `<input partition>:<input offset>` from the headers. */
  input: string;
  inPartition: number;
  inOffset: number;
  header(name: string): string | undefined;
  key: Buffer | null;
  value: Buffer | null;
}

const text = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : Buffer.isBuffer(v) ? v.toString() : String(v));

/** Every dead-letter record of `topic` a reader with `isolation` sees. */
export async function readDeadLetters(ctx: BackendContext, topic: string, isolation: ReadIsolation = 'read_committed'): Promise<DeadLetter[]> {
  return (await ctx.read(topic, isolation)).map((r) => {
    const header = (name: string) => text(r.headers[name]);
    const inPartition = Number(header(DeadLetterHeaders.INPUT_PARTITION));
    const inOffset = Number(header(DeadLetterHeaders.INPUT_OFFSET));
    return { input: `${inPartition}:${inOffset}`, inPartition, inOffset, header, key: r.key, value: r.value };
  });
}

/** How many dead letters name each input coordinate. */
export function countByInput(letters: DeadLetter[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of letters) counts.set(d.input, (counts.get(d.input) ?? 0) + 1);
  return counts;
}
