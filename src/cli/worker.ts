/**
 * `sluice run`: loads an app module, prepares the cluster, runs the app until
 * SIGINT/SIGTERM (exit 0 after a clean close) or until it fails (exit 1 with a
 * one-line reason on stderr).
 */
import type { Logger } from 'pino';
import type { ClusterPort } from '../cluster/port.js';
import { createKafkaCluster } from '../cluster/kafkajs/index.js';
import { EmbeddedKafkaCluster } from '../cluster/embedded/embedded-cluster.js';
import { ConfigError } from '../errors.js';
import { resolveConfig, type KafkaStreamsConfig } from '../runtime/config.js';
import { setRootLogger } from '../internal/logger.js';
import { KafkaStreams } from '../runtime/kafka-streams.js';
import { toTopology, type AppDefinition } from './define-app.js';
import { loadApp } from './load-app.js';
import { createCliLogger } from './logger.js';
import { createMetricsRegistry, type MetricsSource } from './metrics-registry.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';
import type { RunOptions } from './options.js';
import { startProgressLine, type ProgressLine } from './progress-line.js';
import { connectionHint, oneLineReason } from './internal/reason.js';

/** Streams the worker writes to, and its environment. */
export interface WorkerIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
}

/** Extra hooks, mostly for tests. */
export interface WorkerHooks {
  /** Called once the app is RUNNING. */
  onRunning?(app: KafkaStreams, info: { metricsPort: number | undefined }): void;
  /** Resolves to stop the worker (in addition to SIGINT/SIGTERM). */
  stopSignal?: Promise<unknown>;
  /** Install SIGINT/SIGTERM handlers (default true). */
  handleSignals?: boolean;
}

interface Placement {
  config: KafkaStreamsConfig;
  cluster: ClusterPort;
  ownsCluster: boolean;
  embedded: boolean;
}

/** Merges CLI options over the module's config and decides where the app runs. */
function placeApp(def: AppDefinition, options: RunOptions, logger: Logger): Placement {
  const base: Partial<KafkaStreamsConfig> = { ...(def.config ?? {}) };
  const applicationId = options.applicationId ?? base.applicationId;
  if (!applicationId) {
    throw new ConfigError(
      `No application id: set config.applicationId in ${options.modulePath}, or pass --application-id (env SLUICE_APPLICATION_ID)`,
    );
  }
  const config: KafkaStreamsConfig = { ...base, applicationId, logger: base.logger ?? logger };
  if (options.processingGuarantee) config.processingGuarantee = options.processingGuarantee;
  if (options.commitIntervalMs !== undefined) config.commitIntervalMs = options.commitIntervalMs;
  if (options.embedded) {
    const cluster = new EmbeddedKafkaCluster();
    delete config.bootstrapServers;
    return { config: { ...config, cluster }, cluster, ownsCluster: true, embedded: true };
  }
  const brokers = options.bootstrapServers ?? (base.cluster ? undefined : base.bootstrapServers);
  if (brokers) {
    const list = typeof brokers === 'string' ? brokers.split(',') : brokers;
    delete config.cluster;
    config.bootstrapServers = list;
    return { config, cluster: createKafkaCluster({ bootstrapServers: list, logger }), ownsCluster: true, embedded: false };
  }
  if (base.cluster) return { config, cluster: base.cluster, ownsCluster: false, embedded: base.cluster.kind === 'embedded' };
  throw new ConfigError('No Kafka to run on: pass --bootstrap-servers host:port (or set KAFKA_BROKERS), or --embedded for an in-process cluster');
}

/** Runs one app until it is stopped; resolves with the process exit code. */
export async function runWorker(options: RunOptions, io: WorkerIo, hooks: WorkerHooks = {}): Promise<number> {
  // Loggers the app module creates itself (handlers, default loggers) follow --log-level too.
  process.env.LOG_LEVEL = options.logLevel;
  let progress: ProgressLine | undefined;
  const logger = createCliLogger(options.logLevel, { destination: io.stdout, beforeWrite: () => progress?.clear() });
  setRootLogger(logger);
  const log = logger.child({ component: 'cli' });
  const def = await loadApp(options.modulePath, io.cwd);
  const placement = placeApp(def, options, logger);
  const { config } = placement;
  checkConfig(config, options);
  const context = { embedded: placement.embedded, applicationId: config.applicationId, logger };
  const brokers = placement.config.bootstrapServers as string[] | undefined;
  if (def.setup) {
    const admin = placement.cluster.admin();
    try {
      await def.setup({ ...context, admin, cluster: placement.cluster });
    } catch (error) {
      io.stderr.write(`sluice: setup of ${options.modulePath} failed: ${oneLineReason(error)}${connectionHint(error, brokers)}\n`);
      return error instanceof ConfigError ? 2 : 1;
    } finally {
      await admin.close().catch(() => undefined);
    }
  }
  const topology = toTopology(await def.topology(context));
  const app = new KafkaStreams(topology, config);

  const source: MetricsSource = { metrics: () => app.metrics(), state: () => app.state };
  let metricsServer: MetricsServer | undefined;
  let stopRequested: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stopRequested = resolve));
  const onSignal = (signal: NodeJS.Signals): void => {
    log.info({ signal }, `${signal} received, closing`);
    stopRequested(signal);
  };
  const handleSignals = hooks.handleSignals !== false;
  if (handleSignals) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  void hooks.stopSignal?.then(() => stopRequested('stop requested'));
  const failed = new Promise<Error>((resolve) => {
    const sub = app.state$.subscribe((state) => {
      if (state === 'PENDING_ERROR' || state === 'ERROR') {
        resolve(app.error ?? new Error(`the app went to state ${state}`));
        queueMicrotask(() => sub.unsubscribe());
      }
    });
  });

  let code = 0;
  // The clients' own timers are unref'd: keep the worker alive until it is stopped.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  try {
    if (options.metricsPort !== undefined) {
      metricsServer = await startMetricsServer({
        registry: createMetricsRegistry(source),
        port: options.metricsPort,
        host: options.metricsHost,
        healthy: () => app.state !== 'ERROR' && app.state !== 'PENDING_ERROR',
      });
      log.info({ port: metricsServer.port }, `Prometheus metrics on http://${options.metricsHost}:${metricsServer.port}/metrics`);
    }
    const started = app.start().then(() => 'started' as const);
    const first = await Promise.race([started, stopped, failed]);
    if (first instanceof Error) throw first;
    if (first === 'started') {
      log.info({ applicationId: config.applicationId, cluster: placement.cluster.kind, name: def.name }, 'app running');
      if (options.progress && (io.stderr as { isTTY?: boolean }).isTTY) {
        progress = startProgressLine({ source, stream: io.stderr as NodeJS.WriteStream });
      }
      hooks.onRunning?.(app, { metricsPort: metricsServer?.port });
      const end = await Promise.race([stopped, failed]);
      if (end instanceof Error) throw end;
    }
    progress?.stop();
    progress = undefined;
    await app.close();
    if (app.state === 'ERROR') throw app.error ?? new Error('the app ended in state ERROR');
    log.info({ metrics: summary(app) }, 'closed');
  } catch (error) {
    progress?.stop();
    progress = undefined;
    await app.close().catch(() => undefined);
    io.stderr.write(`sluice: ${oneLineReason(error)}${connectionHint(error, brokers)}\n`);
    code = error instanceof ConfigError ? 2 : 1;
  } finally {
    clearInterval(keepAlive);
    if (handleSignals) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    await metricsServer?.close();
    if (placement.ownsCluster && placement.cluster instanceof EmbeddedKafkaCluster) await placement.cluster.close();
  }
  return code;
}

/** Validates the merged config before `setup` touches the cluster; names the flag when a flag set the offending value. */
function checkConfig(config: KafkaStreamsConfig, options: RunOptions): void {
  try {
    resolveConfig(config);
  } catch (error) {
    if (error instanceof ConfigError && options.commitIntervalMs !== undefined && error.message.includes("'commitIntervalMs'")) {
      throw new ConfigError(`${error.message} (commitIntervalMs ${options.commitIntervalMs} comes from --commit-interval-ms / SLUICE_COMMIT_INTERVAL_MS)`, {
        cause: error,
      });
    }
    throw error;
  }
}

function summary(app: KafkaStreams): Record<string, number> {
  const m = app.metrics();
  return {
    recordsProcessed: m.recordsProcessed,
    recordsProduced: m.recordsProduced,
    droppedRecords: m.droppedRecords,
    commits: m.commits,
    aborts: m.aborts,
  };
}
