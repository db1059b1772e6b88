/**
 * The broker's limit: Kafka's own ProducerPerformance and ConsumerPerformance
 * (kafka-tools, run through bench/java's ToolRunner so the JVM reports its RSS
 * and CPU) on a fresh 8-partition topic with 100-byte records, acks=all.
 */
import type { Kafka as KafkaClient } from 'kafkajs';
import { spawnChild } from './child.js';
import { createRunTopics, deleteTopics } from './kafka.js';
import type { RunResult } from './result.js';
import { VALUE_BYTES } from './workload.js';

/** Options of one broker-limit run. */
export interface BrokerRunOptions {
  kafka: KafkaClient;
  brokers: string[];
  javaClasspath: string;
  name: string;
  round: number;
  records: number;
  timeoutMs: number;
  log: (line: string) => void;
}

async function runTool(o: BrokerRunOptions, tool: 'producer' | 'consumer', args: string[]) {
  const child = spawnChild('java', ['-cp', o.javaClasspath, 'dev.sluice.bench.ToolRunner', tool, ...args]);
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), o.timeoutMs);
  const code = await child.exited;
  clearTimeout(timer);
  const usage = await child.stop();
  return { code, usage, output: child.output };
}

/** ProducerPerformance then ConsumerPerformance: two rows (broker-produce, broker-consume). */
export async function runBrokerLimit(o: BrokerRunOptions): Promise<RunResult[]> {
  const topic = `${o.name}-perf`;
  // JIT warm-up of the producer JVM is not the broker's limit: produce 20% more
  // records (at most 100,000) first and report the steady state only.
  const warmup = Math.min(100_000, Math.ceil(o.records / 5));
  const base = { round: o.round, records: o.records };
  const failed = (id: string, reason: string): RunResult => ({
    id, ...base, ok: false, reason, recordsPerSec: 0, seconds: 0, maxRssKb: 0, cpuSeconds: 0, usageSource: 'none',
  });
  try {
    await createRunTopics(o.kafka, topic, undefined);
    const prod = await runTool(o, 'producer', [
      '--topic', topic, '--num-records', String(o.records + warmup), '--warmup-records', String(warmup),
      '--record-size', String(VALUE_BYTES), '--throughput', '-1',
      '--bootstrap-server', o.brokers.join(','), '--command-property', 'acks=all',
    ]);
    // "N [steady state ]records sent, X records/sec (Y MB/sec), A ms avg latency, M ms max latency, P50 ms 50th, P95 ms 95th, P99 ms 99th, ..."
    // With --warmup-records the last such line is the steady state (after the warm-up records).
    const line = prod.output.filter((l) => / records sent, .* records\/sec .* 99th/.test(l)).at(-1);
    const m = line && /^(\d+) (?:steady state )?records sent, ([\d.]+) records\/sec.* (\d+) ms 50th, (\d+) ms 95th, (\d+) ms 99th/.exec(line);
    let produce: RunResult;
    if (prod.code !== 0 || !m) {
      produce = failed('broker-produce', `ProducerPerformance exit ${prod.code}: ${prod.output.slice(-10).join('\n')}`);
    } else {
      const sent = Number(m[1]);
      const rps = Number(m[2]);
      produce = {
        id: 'broker-produce', ...base, ok: sent === o.records, recordsPerSec: rps, seconds: sent / rps,
        latencyP50Ms: Number(m[3]), latencyP99Ms: Number(m[5]),
        maxRssKb: prod.usage.maxRssKb, cpuSeconds: prod.usage.cpuSeconds, cpuRecords: o.records + warmup, usageSource: prod.usage.source,
        ...(sent === o.records ? {} : { reason: `sent ${sent} of ${o.records}` }),
      };
    }
    const cons = await runTool(o, 'consumer', [
      '--bootstrap-server', o.brokers.join(','), '--topic', topic, '--num-records', String(o.records), '--timeout', '20000',
    ]);
    // header: start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec
    const row = cons.output.map((l) => l.split(',').map((f) => f.trim())).find((f) => f.length >= 10 && /^\d+$/.test(f[4] ?? ''));
    let consume: RunResult;
    if (cons.code !== 0 || !row) {
      consume = failed('broker-consume', `ConsumerPerformance exit ${cons.code}: ${cons.output.slice(-10).join('\n')}`);
    } else {
      const n = Number(row[4]);
      const fetchMs = Number(row[7]);
      const rps = Number(row[9]);
      consume = {
        id: 'broker-consume', ...base, ok: n >= o.records, recordsPerSec: rps, seconds: fetchMs / 1000,
        maxRssKb: cons.usage.maxRssKb, cpuSeconds: cons.usage.cpuSeconds, usageSource: cons.usage.source,
        ...(n >= o.records ? {} : { reason: `consumed ${n} of ${o.records}` }),
      };
    }
    for (const r of [produce, consume]) {
      o.log(`  ${r.id} r${o.round}: ${r.ok ? 'OK' : `FAILED (${r.reason})`} ${Math.round(r.recordsPerSec)} rec/s, ` +
        `RSS ${(r.maxRssKb / 1024).toFixed(0)} MiB, CPU ${r.cpuSeconds.toFixed(2)} s`);
    }
    return [produce, consume];
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return [failed('broker-produce', reason), failed('broker-consume', reason)];
  } finally {
    await deleteTopics(o.kafka, [topic]);
  }
}
