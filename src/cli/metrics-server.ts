/**
 * The `--metrics-port` HTTP endpoint: `GET /metrics` answers the registry in
 * the Prometheus text format; `GET /healthz` answers `200 ok` while the app is
 * healthy, else `503 unhealthy: <reason>` (see `health.ts`).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IllegalArgumentError } from '../errors.js';
import { authorized, createGuardedServer, listen, refuseUnauthorized, securityProblem, type HttpSecurityOptions } from '../internal/http-guard.js';
import type { Registry } from 'prom-client';
import type { HealthStatus } from './health.js';

/** A running metrics endpoint. */
export interface MetricsServer {
  /** The bound port (useful with port 0). */
  readonly port: number;
  close(): Promise<void>;
}

/** Starts the endpoint on `host:port` (port 0 picks a free one); with `token` every request needs it (401), with `tls` it serves HTTPS. */
export async function startMetricsServer(options: HttpSecurityOptions & {
  registry: Registry;
  port: number;
  host?: string;
  /** Simple form: true while healthy. */
  healthy?: () => boolean;
  /** With a reason; takes precedence over `healthy`. */
  health?: () => HealthStatus;
}): Promise<MetricsServer> {
  const { registry } = options;
  const problem = securityProblem(options, 'the metrics endpoint');
  if (problem) throw new IllegalArgumentError(problem);
  const server: Server = createGuardedServer(options, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (!authorized(req, options.token)) {
      refuseUnauthorized(res, 'sluice metrics');
    } else if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET' }).end();
    } else if (path === '/metrics') {
      registry.metrics().then(
        (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
        (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
      );
    } else if (path === '/healthz') {
      const status = options.health?.() ?? { ok: options.healthy?.() ?? true };
      const body = status.ok ? 'ok\n' : status.reason ? `unhealthy: ${status.reason}\n` : 'error\n';
      res.writeHead(status.ok ? 200 : 503, { 'content-type': 'text/plain' }).end(body);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('try /metrics\n');
    }
  });
  await listen(server, options.port, options.host ?? '0.0.0.0', 'the metrics endpoint');
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
