import { describe, expect, it } from 'vitest';
import { KafkaErrorCode, KafkaProtocolError } from '../../../src/errors.js';
import { pollUntil, retryRetriable, retryWhile } from '../../../src/internal/retry.js';

describe('retryWhile', () => {
  it('runs again while the policy allows, then returns the result', async () => {
    let calls = 0;
    const result = await retryWhile(
      async () => {
        if (++calls < 3) throw new Error(`try ${calls}`);
        return 'ok';
      },
      { retryIf: () => true, delayMs: () => 1 },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
  });

  it('rethrows the first error the policy refuses, with the attempt number it saw', async () => {
    const seen: number[] = [];
    let calls = 0;
    await expect(
      retryWhile(
        async () => {
          throw new Error(`try ${++calls}`);
        },
        { retryIf: (_e, attempt) => (seen.push(attempt), attempt < 2), delayMs: () => 1 },
      ),
    ).rejects.toThrow('try 3');
    expect(seen).toEqual([0, 1, 2]);
  });
});

describe('retryRetriable', () => {
  it('retries a retriable error, not a non-retriable one', async () => {
    let calls = 0;
    const op = async (): Promise<number> => {
      calls++;
      if (calls === 1) throw new KafkaProtocolError(KafkaErrorCode.NOT_LEADER_OR_FOLLOWER);
      throw new KafkaProtocolError(KafkaErrorCode.INVALID_CONFIG);
    };
    await expect(retryRetriable(op, { retryBackoffMs: 1, deliveryTimeoutMs: 1_000 })).rejects.toMatchObject({ kafkaCode: KafkaErrorCode.INVALID_CONFIG });
    expect(calls).toBe(2);
  });
});

describe('pollUntil', () => {
  it('resolves true once the condition holds', async () => {
    let n = 0;
    expect(await pollUntil(async () => ++n === 3, { timeoutMs: 1_000, intervalMs: 1 })).toBe(true);
    expect(n).toBe(3);
  });

  it('resolves false after the timeout, having checked at least once', async () => {
    let n = 0;
    const started = Date.now();
    expect(await pollUntil(async () => (n++, false), { timeoutMs: 30, intervalMs: 5 })).toBe(false);
    expect(n).toBeGreaterThanOrEqual(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });
});
