import { describe, expect, it, vi } from 'vitest';
import { ConsumerLifecycle, isRestartable, restartDelayMs } from '../../../src/cluster/kafkajs/internal/consumer-lifecycle.js';
import { componentLogger } from '../../../src/internal/logger.js';

const logger = componentLogger('test');

describe('kafkajs consumer lifecycle (no restart after close)', () => {
  it('follows kafkajs’ own restart rule and delay', () => {
    expect(isRestartable({ name: 'KafkaJSNumberOfRetriesExceeded' })).toBe(true);
    expect(isRestartable({ name: 'KafkaJSNonRetriableError', cause: { retriable: true } })).toBe(true);
    expect(isRestartable({ name: 'KafkaJSProtocolError', retriable: false })).toBe(false);
    expect(restartDelayMs({ retryTime: 1234 })).toBe(1234);
    expect(restartDelayMs({})).toBe(300);
  });

  it('a coordinator that cannot be found (a broker restarting) is restartable, wrapped or not', () => {
    expect(isRestartable({ name: 'KafkaJSGroupCoordinatorNotFound', retriable: false })).toBe(true);
    expect(isRestartable({ name: 'StreamsError', cause: { name: 'KafkaJSGroupCoordinatorNotFound', retriable: false } })).toBe(true);
    expect(isRestartable({ name: 'StreamsError', cause: { name: 'KafkaJSNonRetriableError', retriable: false } })).toBe(false);
  });

  it('a restart that fails while the cluster is down is retried with a doubling delay; another failure gives up once', async () => {
    vi.useFakeTimers();
    try {
      const lifecycle = new ConsumerLifecycle(logger);
      const down = { name: 'StreamsError', cause: { name: 'KafkaJSGroupCoordinatorNotFound' } };
      let calls = 0;
      const restart = vi.fn(async () => {
        calls++;
        if (calls < 3) throw down;
        if (calls === 3) throw { name: 'KafkaJSProtocolError', retriable: false };
      });
      const giveUp = vi.fn();
      lifecycle.scheduleRestart({ retryTime: 100 }, restart, giveUp);
      await vi.advanceTimersByTimeAsync(100); // attempt 0 after 100 ms: still down
      expect(restart).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(599); // attempt 1 after 2 × 300 ms (kafkajs' default delay, doubled)
      expect(restart).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(restart).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(1200); // attempt 2 after 4 × 300 ms: fails for another reason
      expect(restart).toHaveBeenCalledTimes(3);
      expect(giveUp).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(restart).toHaveBeenCalledTimes(3);
      await lifecycle.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('restarts after a crash unless closed before the delay elapsed', async () => {
    vi.useFakeTimers();
    try {
      const lifecycle = new ConsumerLifecycle(logger);
      const restart = vi.fn(async () => undefined);
      lifecycle.scheduleRestart({ retryTime: 100 }, restart);
      await vi.advanceTimersByTimeAsync(100);
      expect(restart).toHaveBeenCalledTimes(1);
      lifecycle.scheduleRestart({ retryTime: 100 }, restart);
      await lifecycle.close();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(restart).toHaveBeenCalledTimes(1);
      lifecycle.scheduleRestart({ retryTime: 100 }, restart); // a crash reported after close
      await vi.advanceTimersByTimeAsync(1_000);
      expect(restart).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('close() resolves only once every start in flight settled (resolved or rejected)', async () => {
    const lifecycle = new ConsumerLifecycle(logger);
    let finishJoin!: () => void;
    let failSubscribe!: (e: Error) => void;
    void lifecycle.track(new Promise<void>((resolve) => (finishJoin = resolve)));
    lifecycle.track(new Promise<void>((_, reject) => (failSubscribe = reject))).catch(() => undefined);
    let closed = false;
    const closing = lifecycle.close().then(() => void (closed = true));
    expect(lifecycle.closing).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(false);
    failSubscribe(new Error('closed'));
    await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(false);
    finishJoin();
    await closing;
    expect(closed).toBe(true);
  });
});
