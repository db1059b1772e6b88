/**
 * The shape of an application module that `sluice run` and `sluice describe`
 * load. A module's default export (or its named export `app`) is an
 * {@link AppDefinition}, best written with {@link defineApp}:
 *
 * ```ts
 * // orders-app.ts
 * import { defineApp, StreamsBuilder, Serdes } from 'sluice';
 *
 * export default defineApp({
 *   config: { applicationId: 'orders-app' },
 *   async setup({ admin }) {
 *     await admin.createTopic('orders', { partitions: 3 }).catch(() => {});
 *   },
 *   topology() {
 *     const builder = new StreamsBuilder();
 *     builder.stream('orders', { keySerde: Serdes.String(), valueSerde: Serdes.String() }).to('orders-out');
 *     return builder;                      // or builder.build(), or a low-level Topology
 *   },
 * });
 * ```
 *
 * Run it with `sluice run orders-app.ts --bootstrap-servers 127.0.0.1:9092`
 * (or `--embedded`). Options given on the command line or through environment
 * variables override the module's `config`.
 */
import type { Logger } from 'pino';
import type { AdminPort, ClusterPort } from '../cluster/port.js';
import type { KafkaStreamsConfig } from '../runtime/config.js';
import type { Topology } from '../topology/topology.js';
import type { BuildProps } from '../topology/streams-builder.js';
import { ConfigError } from '../errors.js';

/** Something that is or builds a topology: a `Topology`, or a `StreamsBuilder` (its `build()` is called). */
export type TopologySource = Topology | { build(): Topology };

/** What the `topology` and `setup` functions of an app are given. */
export interface AppContext {
  /** True when running on an in-process `EmbeddedKafkaCluster` (`--embedded`). */
  embedded: boolean;
  /** The effective application id. */
  applicationId: string;
  /** The CLI's logger. */
  logger: Logger;
}

/** What `setup` is given, in addition to {@link AppContext}. */
export interface AppSetupContext extends AppContext {
  /** An admin client of the cluster the app runs on (closed by the CLI after `setup`). */
  admin: AdminPort;
  /** The cluster the app runs on (the embedded cluster with `--embedded`). */
  cluster: ClusterPort;
}

/** An application as `sluice run` / `sluice describe` load it. */
export interface AppDefinition {
  /** A name for logs; default: the application id. */
  name?: string;
  /** Builds the topology (called once per run, after `setup`; `describe` calls it with a stub context). */
  topology(context: AppContext): TopologySource | Promise<TopologySource>;
  /**
   * `KafkaStreams` config. `bootstrapServers` / `cluster` are normally left to
   * the CLI (`--bootstrap-servers`, `KAFKA_BROKERS`, `--embedded`); handlers,
   * `applicationId`, `processingGuarantee`, `commitIntervalMs` etc. go here.
   */
  config?: Partial<KafkaStreamsConfig>;
  /** Prepares the cluster before the app starts, e.g. creates its topics. Not called by `describe`. */
  setup?(context: AppSetupContext): void | Promise<void>;
}

/**
 * Declares an application module for the `sluice` CLI. Returns its argument
 * unchanged (it exists for type checking and readability).
 */
export function defineApp(definition: AppDefinition): AppDefinition {
  return definition;
}

/** True when `value` looks like an {@link AppDefinition}. */
export function isAppDefinition(value: unknown): value is AppDefinition {
  return value !== null && typeof value === 'object' && typeof (value as { topology?: unknown }).topology === 'function';
}

/**
 * Turns what `topology()` returned into a `Topology`: a builder is built with
 * `props` (Kafka's `builder.build(props)`, e.g. `topology.optimization` of a
 * `--config` file). Props other than `'none'` cannot reach an already built
 * `Topology`: that is a ConfigError naming the fix.
 */
export function toTopology(source: TopologySource, props?: BuildProps): Topology {
  const maybeBuilder = source as { build?: unknown; describe?: unknown };
  if (typeof maybeBuilder.describe !== 'function' && typeof maybeBuilder.build === 'function') {
    return (source as { build(props?: BuildProps): Topology }).build(props);
  }
  const optimization = props?.topologyOptimization;
  if (optimization !== undefined && optimization !== 'none') {
    throw new ConfigError(
      'topology.optimization applies when the topology is built: return the StreamsBuilder from topology() (the CLI builds it with the setting), or pass it to builder.build({ topologyOptimization }) yourself and remove the key from the file',
    );
  }
  return source as Topology;
}
