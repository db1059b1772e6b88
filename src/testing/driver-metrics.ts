/**
 * The metrics of a TopologyTestDriver (Kafka's `TopologyTestDriver.metrics()`):
 * the task-level `dropped-records-total` / `dropped-records-rate` (group
 * `stream-task-metrics`, tags `thread-id`, `task-id`) and the thread-level
 * `process-total` / `process-rate` (group `stream-thread-metrics`, tag
 * `thread-id`), with Kafka's names. The driver's one thread is `'main'`.
 */
import { SampledRate } from './internal/sampled-rate.js';

/** The driver's one stream thread, the `thread-id` tag of its metrics. */
export const DRIVER_THREAD_ID = 'main';

/** Kafka's `MetricName`: a metric's name, group and tags (the description is left out). */
export interface MetricName {
  readonly name: string;
  readonly group: string;
  readonly tags: Readonly<Record<string, string>>;
}

/** What {@link DriverMetrics.get} looks up: a name and group, and any tags to match (absent tags match any value). */
export interface MetricQuery {
  readonly name: string;
  readonly group: string;
  readonly tags?: Readonly<Record<string, string>>;
  /** Accepted and ignored, so a Kafka `MetricName` with its description can be passed as is. */
  readonly description?: string;
}

/** One metric (Kafka's `Metric`): its name and its current value. */
export interface DriverMetric {
  readonly metricName: MetricName;
  /** The current value (Kafka's `metricValue()`, a `Double`: `2.0` is `2`). */
  metricValue(): number;
}

/**
 * The driver's metrics, Map-like (Kafka's `Map<MetricName, Metric>`): `get`
 * looks one up by name, group and tags (`driver.metrics().get({ name:
 * 'dropped-records-total', group: 'stream-task-metrics', tags: { 'thread-id':
 * 'main', 'task-id': '0_0' } })?.metricValue()`), `value` returns the value
 * directly, and iterating lists them all.
 */
export class DriverMetrics implements Iterable<DriverMetric> {
  /** @internal */
  constructor(private readonly list: readonly DriverMetric[]) {}

  /** The first metric with this name and group whose tags include every tag given; `undefined` when there is none. */
  get(query: MetricQuery): DriverMetric | undefined {
    return this.list.find((m) => m.metricName.name === query.name && m.metricName.group === query.group && tagsMatch(m.metricName.tags, query.tags));
  }

  /** True when {@link get} finds a metric. */
  has(query: MetricQuery): boolean {
    return this.get(query) !== undefined;
  }

  /**
   * The value of the metric {@link get} finds (Kafka's test helper
   * `getMetricByName(metrics, name, group).metricValue()` when no tags are given);
   * `undefined` when there is none.
   */
  value(name: string, group: string, tags?: Readonly<Record<string, string>>): number | undefined {
    return this.get({ name, group, ...(tags ? { tags } : {}) })?.metricValue();
  }

  /** How many metrics there are. */
  get size(): number {
    return this.list.length;
  }

  /** The metrics' names. */
  keys(): MetricName[] {
    return this.list.map((m) => m.metricName);
  }

  /** The metrics. */
  values(): DriverMetric[] {
    return [...this.list];
  }

  [Symbol.iterator](): Iterator<DriverMetric> {
    return this.list[Symbol.iterator]();
  }
}

function tagsMatch(tags: Readonly<Record<string, string>>, wanted: Readonly<Record<string, string>> | undefined): boolean {
  return wanted === undefined || Object.entries(wanted).every(([k, v]) => tags[k] === v);
}

/** @internal The driver's sensors: what it counts and the metrics that read them. */
export class DriverSensors {
  private readonly dropped = new Map<string, { total: number; rate: SampledRate }>();
  private processed = 0;
  private readonly processRate = new SampledRate();

  constructor(
    taskIds: readonly string[],
    private readonly clock: () => number,
  ) {
    for (const id of taskIds) this.dropped.set(id, { total: 0, rate: new SampledRate() });
  }

  /** One record dropped by task `taskId` (Kafka's `droppedRecordsSensor.record()`). */
  recordDropped(taskId: string): void {
    const sensor = this.dropped.get(taskId);
    if (sensor === undefined) return; // the global stores' task has no task metrics, as in Kafka
    sensor.total++;
    sensor.rate.record(this.clock());
  }

  /** One record processed by the driver's thread. */
  recordProcessed(): void {
    this.processed++;
    this.processRate.record(this.clock());
  }

  /** A snapshot view; values are read when asked for. */
  metrics(): DriverMetrics {
    const list: DriverMetric[] = [];
    const metric = (name: string, group: string, tags: Record<string, string>, read: () => number): void => {
      list.push({ metricName: Object.freeze({ name, group, tags: Object.freeze(tags) }), metricValue: read });
    };
    for (const [taskId, sensor] of this.dropped) {
      const tags = { 'thread-id': DRIVER_THREAD_ID, 'task-id': taskId };
      metric('dropped-records-total', 'stream-task-metrics', { ...tags }, () => sensor.total);
      metric('dropped-records-rate', 'stream-task-metrics', { ...tags }, () => sensor.rate.measure(this.clock()));
    }
    metric('process-total', 'stream-thread-metrics', { 'thread-id': DRIVER_THREAD_ID }, () => this.processed);
    metric('process-rate', 'stream-thread-metrics', { 'thread-id': DRIVER_THREAD_ID }, () => this.processRate.measure(this.clock()));
    return new DriverMetrics(list);
  }
}
