/**
 * TLS and tokens of the worker's three servers (query API, live UI, metrics),
 * from flags and environment variables:
 *
 * - `--<server>-tls-cert <file>` and `--<server>-tls-key <file>` (both or
 *   neither; env `SLUICE_<SERVER>_TLS_CERT` / `_KEY`), and for the query API
 *   `--query-tls-ca <file>` to trust the other instances' certificates;
 * - the token from env `SLUICE_<SERVER>_TOKEN` or `--<server>-token-file
 *   <file>` (never a flag value: it would show in `ps`); never logged, never in
 *   an error message.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../errors.js';
import type { HttpSecurityOptions } from '../internal/http-guard.js';

/** The three servers. */
export type ServerName = 'query' | 'ui' | 'metrics';

/** Raw flag values of one server's security (commander's camel case). */
export type SecurityFlags = Partial<Record<`${ServerName}${'TlsCert' | 'TlsKey' | 'TlsCa' | 'TokenFile'}`, string>>;

type Env = Record<string, string | undefined>;

function readFlagFile(path: string, flag: string, cwd: string): string {
  try {
    return readFileSync(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw new ConfigError(`${flag}: cannot read '${path}' (${(error as NodeJS.ErrnoException).code ?? String(error)}); pass a readable file`);
  }
}

function pick(flags: SecurityFlags, key: keyof SecurityFlags, env: Env, variable: string): { value: string; flag: string } | undefined {
  const flagName = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  const given = flags[key];
  if (given !== undefined) return { value: given, flag: flagName };
  const fromEnv = env[variable];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return { value: fromEnv.trim(), flag: `${variable} (or ${flagName})` };
  return undefined;
}

/** The TLS and token of `server` (empty when none is configured). */
export function serverSecurity(server: ServerName, flags: SecurityFlags, env: Env, cwd = process.cwd()): HttpSecurityOptions {
  const prefix = `SLUICE_${server.toUpperCase()}`;
  const cert = pick(flags, `${server}TlsCert`, env, `${prefix}_TLS_CERT`);
  const key = pick(flags, `${server}TlsKey`, env, `${prefix}_TLS_KEY`);
  const ca = server === 'query' ? pick(flags, 'queryTlsCa', env, `${prefix}_TLS_CA`) : undefined;
  if ((cert === undefined) !== (key === undefined)) {
    throw new ConfigError(`--${server}-tls-cert and --${server}-tls-key go together: pass both (a PEM certificate and its private key) or neither`);
  }
  const security: HttpSecurityOptions = {};
  if (cert && key) {
    security.tls = { cert: readFlagFile(cert.value, cert.flag, cwd), key: readFlagFile(key.value, key.flag, cwd), ...(ca ? { ca: readFlagFile(ca.value, ca.flag, cwd) } : {}) };
  } else if (ca) {
    throw new ConfigError('--query-tls-ca needs --query-tls-cert and --query-tls-key: the query API calls the other instances with HTTPS only when it serves HTTPS');
  }
  const tokenFile = flags[`${server}TokenFile`];
  const token = tokenFile !== undefined ? readFlagFile(tokenFile, `--${server}-token-file`, cwd).trim() : env[`${prefix}_TOKEN`]?.trim();
  if (token !== undefined && token !== '') {
    if (!/^[\x21-\x7e]+$/.test(token)) {
      throw new ConfigError(`the ${server} token (${tokenFile !== undefined ? `--${server}-token-file` : `${prefix}_TOKEN`}) must be visible ASCII characters without spaces`);
    }
    security.token = token;
  }
  return security;
}

/** Whether `error` is a port already in use (or otherwise not bindable) for the server of `flag`: the error to show then. */
export function listenFailure(error: unknown, flag: string, env: string, port: number, host: string): Error | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return new ConfigError(`${flag} ${port} (or ${env}): port ${port} is already in use on ${host}; stop what listens there or choose another port`, { cause: error });
  if (code === 'EACCES') return new ConfigError(`${flag} ${port} (or ${env}): port ${port} needs privileges; choose a port above 1023`, { cause: error });
  if (code === 'EADDRNOTAVAIL') return new ConfigError(`${flag.replace('-port', '-host')} ${host}: not an address of this machine; choose another interface`, { cause: error });
  return undefined;
}
