/**
 * Fault injection of the embedded cluster: scheduled produce errors per
 * partition and added latency for produce and fetch.
 */
import { KafkaProtocolError, kafkaErrorName } from '../../../errors.js';
import { sleep } from '../../../internal/backoff.js';

import type { Latency, ProduceFault, TxnFault } from '../faults.js';

export type { Latency, ProduceFault, TxnFault };

/** Holds the injected faults and hands them out. */
export class FaultInjector {
  private readonly produceFaults: (ProduceFault & { remaining: number })[] = [];
  private readonly txnFaults: (TxnFault & { remaining: number })[] = [];
  latency: Required<Latency> = { produceMs: 0, fetchMs: 0 };

  /** Schedules `count` failing produce requests. */
  failProduce(fault: ProduceFault): void {
    this.produceFaults.push({ ...fault, remaining: fault.count ?? 1 });
  }

  /** Schedules `count` failing coordinator requests of a transactional id. */
  failTxn(fault: TxnFault): void {
    this.txnFaults.push({ ...fault, remaining: fault.count ?? 1 });
  }

  /** Consumes one scheduled coordinator failure, if any. */
  takeTxnError(api: TxnFault['api'], transactionalId: string): KafkaProtocolError | undefined {
    const i = this.txnFaults.findIndex((f) => f.api === api && f.transactionalId === transactionalId && f.remaining > 0);
    const f = this.txnFaults[i];
    if (f === undefined) return undefined;
    if (--f.remaining === 0) this.txnFaults.splice(i, 1);
    return new KafkaProtocolError(f.code, `${kafkaErrorName(f.code)} (${f.code}): injected fault for ${api} of ${transactionalId}`, { errorMessage: null });
  }

  /** Sets latency (merged with the current settings). */
  setLatency(latency: Latency): void {
    this.latency = { ...this.latency, ...latency };
  }

  /** Removes every fault. */
  clear(): void {
    this.produceFaults.length = 0;
    this.txnFaults.length = 0;
    this.latency = { produceMs: 0, fetchMs: 0 };
  }

  /** Consumes one scheduled failure for the partition, if any, as the error to answer (`afterAppend`: after handling the request). */
  takeProduceError(topic: string, partition: number): (KafkaProtocolError & { afterAppend?: boolean }) | undefined {
    const i = this.produceFaults.findIndex((f) => f.topic === topic && (f.partition === undefined || f.partition === partition) && f.remaining > 0);
    const f = this.produceFaults[i];
    if (f === undefined) return undefined;
    f.remaining -= 1;
    if (f.remaining === 0) this.produceFaults.splice(i, 1);
    const error = new KafkaProtocolError(f.code, `${kafkaErrorName(f.code)} (${f.code}): injected fault for ${topic}-${partition}${f.errorMessage ? `: ${f.errorMessage}` : ''}`, {
      recordErrors: f.recordErrors ?? [],
      errorMessage: f.errorMessage ?? null,
    });
    return Object.assign(error, { afterAppend: f.afterAppend === true });
  }
}

/** Resolves after `ms` real milliseconds (immediately for 0). */
export function delay(ms: number): Promise<void> {
  return sleep(ms);
}
