/**
 * `sluice run`: loads an app module, prepares the cluster, runs the app until
 * SIGINT/SIGTERM/SIGHUP (exit 0 after a clean close) or until it fails (exit 1
 * with a one-line reason on stderr). Whatever ends the run, the app is closed
 * (for at most `--close-timeout-ms`) before the worker exits; see
 * `internal/process-guards.ts` for what would otherwise kill the process.
 */
import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import type { ClusterPort } from '../cluster/port.js';
import { createKafkaCluster } from '../cluster/kafkajs/index.js';
import { checkSasl, checkSsl } from '../cluster/kafkajs/connection-security.js';
import { EmbeddedKafkaCluster } from '../cluster/embedded/embedded-cluster.js';
import { ConfigError } from '../errors.js';
import { resolveConfig, type KafkaStreamsConfig, type ResolvedConfig } from '../runtime/config.js';
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
import { installProcessGuards } from './internal/process-guards.js';
import { launchedByNpm, watchParent } from './internal/parent-watch.js';
import { CommitWatchdog, stallThresholdMs, type HealthStatus } from './health.js';
import { startQueryApi, withQueryEndpoint } from './query-option.js';
import { listenFailure } from './server-security.js';
import { buildPropsOf, logConfigFile } from './config-file-log.js';
import { fileSourceOf, loadConfigFile, mergeFileConfig, type ConfigFile } from './config-file.js';
import type { QueryServer } from '../runtime/query-server.js';

/** Streams the worker writes to, and its environment. */
export interface WorkerIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  /** Environment of `${env:NAME}` in a `--config` file; default `process.env`. */
  env?: Record<string, string | undefined>;
}

/** Extra hooks, mostly for tests. */
export interface WorkerHooks {
  /** Called once the app is RUNNING (and its query API listens, with `--query-port`). */
  onRunning?(app: KafkaStreams, info: { metricsPort: number | undefined; uiPort?: number; queryPort?: number }): void;
  /** Resolves to stop the worker (in addition to SIGINT/SIGTERM). */
  stopSignal?: Promise<unknown>;
  /** Install the SIGINT/SIGTERM/SIGHUP, unhandled-rejection and uncaught-exception handlers (default true). */
  handleSignals?: boolean;
  /** Close the app when the parent process dies (default: with `handleSignals`, when launched by npm: `npx`, `npm start`). */
  watchParent?: boolean;
}

interface Placement {
  config: KafkaStreamsConfig;
  cluster: ClusterPort;
  ownsCluster: boolean;
  embedded: boolean;
}

/**
 * With `numStreamThreads` above 1 on Kafka, threads 2..N load the app from
 * the module `sluice run` was given (its `topology()`, never `setup()`),
 * unless the config names another `streamThreadModule`.
 */
function withStreamThreadModule(config: KafkaStreamsConfig, modulePath: string, cwd: string | undefined, embedded: boolean): KafkaStreamsConfig {
  if (embedded || (config.numStreamThreads ?? 1) === 1 || config.streamThreadModule !== undefined) return config;
  return { ...config, streamThreadModule: pathToFileURL(resolvePath(cwd ?? process.cwd(), modulePath)) };
}

/** Merges CLI options over the config file over the module's config, and decides where the app runs. */
function placeApp(def: AppDefinition, options: RunOptions, logger: Logger, file: ConfigFile | undefined): Placement {
  const base: Partial<KafkaStreamsConfig> = mergeFileConfig({ ...(def.config ?? {}) }, file);
  const applicationId = options.applicationId ?? base.applicationId;
  if (!applicationId) {
    throw new ConfigError(
      `No application id: set config.applicationId in ${options.modulePath}${file ? `, application.id in ${file.path}` : ''}, or pass --application-id (env SLUICE_APPLICATION_ID)`,
    );
  }
  const config: KafkaStreamsConfig = { ...base, applicationId, logger: base.logger ?? logger };
  if (options.processingGuarantee) config.processingGuarantee = options.processingGuarantee;
  if (options.commitIntervalMs !== undefined) config.commitIntervalMs = options.commitIntervalMs;
  if (options.groupInstanceId !== undefined) config.groupInstanceId = options.groupInstanceId;
  if (options.stateDir !== undefined) config.stateDir = options.stateDir;
  if (options.embedded) {
    const cluster = new EmbeddedKafkaCluster();
    delete config.bootstrapServers;
    // (the in-process cluster speaks neither TLS nor SASL: a module's settings for the real one are left out)
    delete config.ssl;
    delete config.sasl;
    return { config: { ...config, cluster }, cluster, ownsCluster: true, embedded: true };
  }
  const brokers = options.bootstrapServers ?? (base.cluster ? undefined : base.bootstrapServers);
  if (brokers) {
    const list = typeof brokers === 'string' ? brokers.split(',') : brokers;
    delete config.cluster;
    config.bootstrapServers = list;
    // the module's ssl/sasl reach the CLI's own cluster (setup's admin) and the app's clients alike
    return { config, cluster: createKafkaCluster({ bootstrapServers: list, logger, ssl: checkSsl(config.ssl), sasl: checkSasl(config.sasl) }), ownsCluster: true, embedded: false };
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
  const file = options.configFile === undefined ? undefined : loadConfigFile(options.configFile, io.env ?? process.env, io.cwd);
  const def = await loadApp(options.modulePath, io.cwd);
  if (file) logConfigFile(log, file);
  const placement = placeApp(def, options, logger, file);
  const config = withStreamThreadModule(withQueryEndpoint(placement.config, options), options.modulePath, io.cwd, placement.embedded);
  const resolved = checkConfig(config, options, file);
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
  const topology = toTopology(await def.topology(context), buildPropsOf(file));
  const app = new KafkaStreams(topology, config);

  const source: MetricsSource = { metrics: () => app.metrics(), state: () => app.state };
  let metricsServer: MetricsServer | undefined;
  let queries: QueryServer | undefined;
  // How the run ends: a stop request (a string) or a failure (an Error), whichever comes first.
  let endWith: (end: string | Error) => void = () => undefined;
  const ended = new Promise<string | Error>((resolve) => (endWith = resolve));
  const guards = installProcessGuards(
    io,
    {
      onSignal: (signal) => {
        log.info({ signal }, `${signal} received, closing`);
        endWith(signal);
      },
      onFatal: (error) => {
        log.error({ err: error }, 'closing the app after an error that would have killed the worker');
        endWith(error);
      },
    },
    hooks.handleSignals !== false,
  );
  void hooks.stopSignal?.then(() => endWith('stop requested'));
  const parentWatched = hooks.watchParent ?? (hooks.handleSignals !== false && launchedByNpm(io.env ?? process.env));
  const stopParentWatch = parentWatched
    ? watchParent({
        ppid: () => process.ppid,
        onOrphaned: (from, to) => {
          log.info({ parentPid: from, newParentPid: to }, 'the launching process (npm/npx and its sh) exited, closing as on SIGTERM');
          endWith('parent exited');
        },
      })
    : () => undefined;
  const sub = app.state$.subscribe((state) => {
    if (state === 'PENDING_ERROR' || state === 'ERROR') endWith(app.error ?? new Error(`the app went to state ${state}`));
  });
  const watchdog = new CommitWatchdog(stallThresholdMs(resolved.commitIntervalMs));
  const health = (): HealthStatus => watchdog.check(app.state, app.metrics(), Date.now());
  const sampler = setInterval(health, 1000);
  sampler.unref();

  let failure: Error | undefined;
  // The clients' own timers are unref'd: keep the worker alive until it is stopped.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  try {
    if (options.metricsPort !== undefined) {
      const port = options.metricsPort;
      metricsServer = await startMetricsServer({ registry: createMetricsRegistry(source), port, host: options.metricsHost, health, ...options.metricsSecurity }).catch((error: unknown) => {
        throw listenFailure(error, '--metrics-port', 'SLUICE_METRICS_PORT', port, options.metricsHost) ?? error;
      });
      log.info({ port: metricsServer.port }, `Prometheus metrics on ${options.metricsSecurity.tls ? 'https' : 'http'}://${options.metricsHost}:${metricsServer.port}/metrics`);
    }
    // The live UI from the start too (it shows REBALANCING and the restoration); the app closes it.
    const uiPort = options.uiPort;
    const ui =
      uiPort === undefined
        ? undefined
        : await app.serveUi({ port: uiPort, host: options.uiHost, allowedHosts: options.uiAllowedHosts, ...options.uiSecurity }).catch((error: unknown) => {
            throw listenFailure(error, '--ui-port', 'SLUICE_UI_PORT', uiPort, options.uiHost) ?? error;
          });
    if (ui) log.info({ port: ui.port }, `live UI on ${ui.url}`);
    // The progress line runs from the start: restoration (before RUNNING) shows as `restoring 63% (...)`.
    if (options.progress && (io.stderr as { isTTY?: boolean }).isTTY) {
      progress = startProgressLine({ source, stream: io.stderr as NodeJS.WriteStream });
    }
    const started = app.start().then(() => 'started' as const);
    started.catch(() => undefined); // a stop during start() makes it reject: that is the stop, not a failure
    const first = await Promise.race([started, ended]);
    if (first instanceof Error) throw first;
    if (first === 'started') {
      log.info({ applicationId: config.applicationId, cluster: placement.cluster.kind, name: def.name }, 'app running');
      // The query API once the app runs (its key metadata exists from then on); closed with the app below.
      queries = await startQueryApi(app, config, options, logger);
      hooks.onRunning?.(app, { metricsPort: metricsServer?.port, ...(ui ? { uiPort: ui.port } : {}), ...(queries ? { queryPort: queries.address.port } : {}) });
      const end = await ended;
      if (end instanceof Error) throw end;
    }
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
  } finally {
    progress?.stop();
    progress = undefined;
  }
  let code = 0;
  try {
    const closed = await closeWithin(app, options.closeTimeoutMs);
    await queries?.close();
    // A task failure while closing (or an ERROR end) means the work did not end cleanly: say so, exit non-zero.
    failure ??= app.error ?? (app.state === 'ERROR' ? new Error('the app ended in state ERROR') : undefined);
    if (failure || !closed) {
      const late = closed ? undefined : `the app did not close within ${options.closeTimeoutMs} ms (--close-timeout-ms); exiting anyway`;
      const reason = failure ? `${oneLineReason(failure)}${connectionHint(failure, brokers)}` : undefined;
      io.stderr.write(`sluice: ${[reason, late].filter((part) => part !== undefined).join('; ')}\n`);
      code = failure instanceof ConfigError ? 2 : 1;
    } else {
      log.info({ metrics: summary(app) }, 'closed');
    }
  } finally {
    sub.unsubscribe();
    clearInterval(sampler);
    clearInterval(keepAlive);
    stopParentWatch();
    guards.dispose();
    await metricsServer?.close();
    if (placement.ownsCluster && placement.cluster instanceof EmbeddedKafkaCluster) await placement.cluster.close();
  }
  return code;
}

/** `app.close()`, waiting at most `timeoutMs`; false when it did not finish in time (it goes on in the background). */
async function closeWithin(app: KafkaStreams, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([app.close().then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Validates the merged config with the runtime's `resolveConfig` before `setup` touches the cluster (the app
 * resolves it again, the same way); names the flag or the property when one set the offending value.
 */
function checkConfig(config: KafkaStreamsConfig, options: RunOptions, file: ConfigFile | undefined): ResolvedConfig {
  try {
    return resolveConfig(config);
  } catch (error) {
    if (error instanceof ConfigError && options.commitIntervalMs !== undefined && error.message.includes("'commitIntervalMs'")) {
      throw new ConfigError(`${error.message} (commitIntervalMs ${options.commitIntervalMs} comes from --commit-interval-ms / SLUICE_COMMIT_INTERVAL_MS)`, {
        cause: error,
      });
    }
    const key = error instanceof ConfigError ? /'([A-Za-z]+)'/.exec(error.message)?.[1] : undefined;
    if (error instanceof ConfigError && key !== undefined && fileSourceOf(file, key) !== '') {
      throw new ConfigError(`${error.message}${fileSourceOf(file, key)}`, { cause: error });
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
