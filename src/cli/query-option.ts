/**
 * `sluice run --query-port P`: the query API of the worker's app
 * (src/runtime/query-server.ts), and the `applicationServer` it advertises.
 * When the module's config sets no `applicationServer`, the worker advertises
 * `<--query-advertised-host or os.hostname()>:P` (the host name: what the
 * other instances of a deployment usually resolve, e.g. a Kubernetes pod's
 * name with a headless service); a config that sets one keeps it.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { KafkaStreamsConfig } from '../runtime/config.js';
import type { KafkaStreams } from '../runtime/kafka-streams.js';
import { serveQueries, type QueryServer } from '../runtime/query-server.js';
import type { RunOptions } from './options.js';

/** `config` with the default `applicationServer` of `--query-port` filled in (unchanged without the flag). */
export function withQueryEndpoint(config: KafkaStreamsConfig, options: Pick<RunOptions, 'queryPort' | 'queryAdvertisedHost'>, host: () => string = hostname): KafkaStreamsConfig {
  if (options.queryPort === undefined || config.applicationServer !== undefined) return config;
  const advertised = options.queryAdvertisedHost ?? host();
  const bracketed = advertised.includes(':') && !advertised.startsWith('[') ? `[${advertised}]` : advertised;
  return { ...config, applicationServer: `${bracketed}:${options.queryPort}` };
}

/** Starts the query API of `app` when `--query-port` was given (after `app.start()`); undefined otherwise. */
export async function startQueryApi(app: KafkaStreams, config: KafkaStreamsConfig, options: RunOptions, logger: Logger): Promise<QueryServer | undefined> {
  if (options.queryPort === undefined) return undefined;
  const server = await serveQueries(app, { port: options.queryPort, host: options.queryHost, applicationServer: config.applicationServer, logger });
  logger.child({ component: 'cli' }).info({ port: options.queryPort, applicationServer: server.applicationServer }, `query API on http://${options.queryHost}:${options.queryPort}/stores, advertised as ${server.applicationServer}`);
  return server;
}
