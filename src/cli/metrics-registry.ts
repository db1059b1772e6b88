/**
 * Prometheus metrics of a running app, read from `app.metrics()` on every
 * scrape (prom-client `collect` callbacks): processing, production, drop,
 * commit, abort, restart and lag metrics, in total and per task.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { KafkaStreamsMetrics, TaskMetrics } from '../runtime/metrics.js';

/** Where the registry reads from. */
export interface MetricsSource {
  /** The app's current metrics (undefined before the app exists). */
  metrics(): KafkaStreamsMetrics | undefined;
  /** The app's current state, e.g. `RUNNING`. */
  state(): string | undefined;
}

const STATES = ['CREATED', 'REBALANCING', 'RUNNING', 'PENDING_SHUTDOWN', 'NOT_RUNNING', 'PENDING_ERROR', 'ERROR'];

type Totals = 'recordsProcessed' | 'recordsSkipped' | 'recordsProduced' | 'droppedRecords' | 'commits' | 'aborts' | 'enforcedProcessing';
const COUNTERS: Array<[Totals, string, string]> = [
  ['recordsProcessed', 'records_processed', 'Input records consumed (processed or skipped by a handler).'],
  ['recordsSkipped', 'records_skipped', 'Input records skipped because a deserialization or processing handler answered CONTINUE.'],
  ['recordsProduced', 'records_produced', 'Output records acknowledged by the cluster (dead-letter records included).'],
  ['droppedRecords', 'dropped_records', 'Output records dropped because the production exception handler answered CONTINUE.'],
  ['commits', 'commits', 'Committed transactions (exactly_once) or offset commits (at_least_once).'],
  ['aborts', 'aborts', 'Aborted transactions.'],
  ['enforcedProcessing', 'enforced_processing', "Records processed although an input partition of their task had nothing buffered, after max.task.idle.ms (Kafka's enforced-processing-total)."],
];

/**
 * Builds a prom-client registry for one app. With `defaults` (the default) it
 * also carries Node.js process metrics (`sluice_process_*`, `sluice_nodejs_*`).
 */
export function createMetricsRegistry(source: MetricsSource, options: { defaults?: boolean } = {}): Registry {
  const registry = new Registry();
  if (options.defaults !== false) collectDefaultMetrics({ register: registry, prefix: 'sluice_' });
  for (const [key, name, help] of COUNTERS) {
    new Counter({
      name: `sluice_${name}_total`,
      help,
      registers: [registry],
      collect() {
        this.reset();
        const m = source.metrics();
        if (m) this.inc(m[key]);
      },
    });
    new Counter({
      name: `sluice_task_${name}_total`,
      help: `${help} Per task.`,
      labelNames: ['task'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [task, t] of Object.entries(source.metrics()?.tasks ?? {})) this.inc({ task }, (t as TaskMetrics)[key]);
      },
    });
  }
  new Counter({
    name: 'sluice_task_restarts_total',
    help: 'Tasks closed dirty and re-created (fencing or RESTART_TASK).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(source.metrics()?.taskRestarts ?? 0);
    },
  });
  new Counter({
    name: 'sluice_rebalances_total',
    help: 'Rebalances (assignment changes) handled.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(source.metrics()?.rebalances ?? 0);
    },
  });
  new Gauge({
    name: 'sluice_consumer_lag',
    help: 'Records behind the high watermark, summed over the owned input partitions.',
    registers: [registry],
    collect() {
      this.set(source.metrics()?.consumerLag ?? 0);
    },
  });
  new Gauge({
    name: 'sluice_partition_lag',
    help: 'Records behind the high watermark per owned input partition.',
    labelNames: ['task', 'partition'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [task, t] of Object.entries(source.metrics()?.tasks ?? {})) {
        if (!t.owned) continue;
        for (const [partition, lag] of Object.entries(t.lag)) this.set({ task, partition }, lag);
      }
    },
  });
  new Counter({
    name: 'sluice_restore_records_total',
    help: 'State store records restored from changelogs since start.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(source.metrics()?.restore?.restoredRecords ?? 0);
    },
  });
  new Gauge({
    name: 'sluice_restore_remaining_records',
    help: 'Changelog records still to restore by the restorations under way.',
    registers: [registry],
    collect() {
      this.set(source.metrics()?.restore?.remainingRecords ?? 0);
    },
  });
  new Gauge({
    name: 'sluice_restore_rate',
    help: 'Records restored per second by the restorations under way.',
    registers: [registry],
    collect() {
      this.set(source.metrics()?.restore?.rate ?? 0);
    },
  });
  new Gauge({
    name: 'sluice_tasks_owned',
    help: 'Tasks this instance runs now.',
    registers: [registry],
    collect() {
      this.set(Object.values(source.metrics()?.tasks ?? {}).filter((t) => t.owned).length);
    },
  });
  new Gauge({
    name: 'sluice_app_state',
    help: 'The app state: 1 for the current state, 0 for the others.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const current = source.state();
      for (const state of STATES) this.set({ state }, state === current ? 1 : 0);
    },
  });
  return registry;
}
