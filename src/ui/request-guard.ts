/**
 * Who may read the live UI: the bound address and the names configured for
 * it, checked on every request (`Host`, and `Origin` when a browser sends one),
 * and the token when one is set.
 *
 * The `Host` check defeats DNS rebinding: a web page the operator visits can
 * make its own name resolve to 127.0.0.1 and then read the UI as a
 * same-origin page, but its requests still say `Host: evil.example`, which
 * gets 421. A cross-site `Origin` gets 403. Non-browser clients that send no
 * `Origin` are served on the `Host` check alone.
 */
import type { IncomingMessage } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];
const WILDCARD = ['0.0.0.0', '::', ''];

/** The host names (lower case, no port, no brackets) a UI bound to `host` answers to. */
export function allowedHostNames(host: string, extra: readonly string[] = []): Set<string> {
  const names = new Set<string>([...LOOPBACK, normalise(host), ...extra.map(normalise)]);
  if (WILDCARD.includes(host)) {
    names.add(normalise(hostname()));
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(normalise(a.address));
  }
  names.delete('');
  return names;
}

function normalise(name: string): string {
  let n = name.trim().toLowerCase();
  if (n.startsWith('[') && n.endsWith(']')) n = n.slice(1, -1);
  return n.endsWith('.') ? n.slice(0, -1) : n;
}

/** The host name of a `Host` header value (`name`, `name:port`, `[v6]:port`). */
export function hostOfHeader(value: string): string {
  const v = value.trim();
  if (v.startsWith('[')) return normalise(v.slice(0, v.indexOf(']') + 1));
  const colon = v.lastIndexOf(':');
  return normalise(colon >= 0 && v.indexOf(':') === colon ? v.slice(0, colon) : v);
}

/** Why `req` must be refused (status and text), or undefined when its `Host` and `Origin` are allowed. */
export function refusal(req: IncomingMessage, allowed: Set<string>): { status: number; text: string } | undefined {
  const host = req.headers.host;
  if (host !== undefined && !allowed.has(hostOfHeader(host))) {
    return { status: 421, text: `the UI does not answer to Host '${host}'; add the name to the UI's allowedHosts (sluice run --ui-allowed-host) to use it\n` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let originHost: string | undefined;
    try {
      originHost = normalise(new URL(origin).hostname);
    } catch {
      originHost = undefined;
    }
    if (originHost === undefined || !allowed.has(originHost)) return { status: 403, text: 'cross-origin requests are refused\n' };
  }
  return undefined;
}
