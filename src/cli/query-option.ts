/**
 * `sluice run --query-port P`: the query API of the worker's app
 * (src/runtime/query-server.ts), and the `applicationServer` it advertises.
 * When the module's config sets no `applicationServer`, the worker advertises
 * `<--query-advertised-host>:P`, by default the `--query-host` it listens on
 * (127.0.0.1 unless set), or `os.hostname()` when that is 0.0.0.0 / :: (the
 * host name: what the other instances of a deployment usually resolve, e.g. a
 * Kubernetes pod's name with a headless service); a config that sets one
 * keeps it. At start the server checks that the advertised address reaches it.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { KafkaStreamsConfig } from '../runtime/config.js';
import type { KafkaStreams } from '../runtime/kafka-streams.js';
import { serveQueries, type QueryServer } from '../runtime/query-server.js';
import type { RunOptions } from './options.js';
import { listenFailure } from './server-security.js';

/** `config` with the default `applicationServer` of `--query-port` filled in (unchanged without the flag). */
export function withQueryEndpoint(config: KafkaStreamsConfig, options: Pick<RunOptions, 'queryPort' | 'queryAdvertisedHost'> & { queryHost?: string }, host: () => string = hostname): KafkaStreamsConfig {
  if (options.queryPort === undefined || config.applicationServer !== undefined) return config;
  const listening = options.queryHost;
  const wildcard = listening === undefined || listening === '0.0.0.0' || listening === '::' || listening === '';
  const advertised = options.queryAdvertisedHost ?? (wildcard ? host() : listening);
  const bracketed = advertised.includes(':') && !advertised.startsWith('[') ? `[${advertised}]` : advertised;
  return { ...config, applicationServer: `${bracketed}:${options.queryPort}` };
}

/** Starts the query API of `app` when `--query-port` was given (after `app.start()`); undefined otherwise. A taken port is an error naming the flag. */
export async function startQueryApi(app: KafkaStreams, config: KafkaStreamsConfig, options: RunOptions, logger: Logger): Promise<QueryServer | undefined> {
  if (options.queryPort === undefined) return undefined;
  let server: QueryServer;
  try {
    server = await serveQueries(app, { port: options.queryPort, host: options.queryHost, applicationServer: config.applicationServer, logger, ...options.querySecurity });
  } catch (error) {
    throw listenFailure(error, '--query-port', 'SLUICE_QUERY_PORT', options.queryPort, options.queryHost) ?? error;
  }
  const scheme = options.querySecurity.tls ? 'https' : 'http';
  logger
    .child({ component: 'cli' })
    .info({ port: options.queryPort, applicationServer: server.applicationServer, tls: scheme === 'https', token: options.querySecurity.token !== undefined }, `query API on ${scheme}://${options.queryHost}:${options.queryPort}/stores, advertised as ${server.applicationServer}`);
  return server;
}
