/**
 * A host of the group's query endpoints (Kafka's `HostInfo`), written
 * `host:port` in `applicationServer` and in the assignment user data.
 */

/** A host and port (Kafka's `HostInfo`). */
export interface HostInfo {
  readonly host: string;
  readonly port: number;
}

/** Kafka's `HostInfo.unavailable()`: the host of {@link KeyQueryMetadata.NOT_AVAILABLE}-style answers. */
export const UNAVAILABLE_HOST: HostInfo = Object.freeze({ host: 'unavailable', port: -1 });

/**
 * Parses `host:port` (an IPv6 host in brackets: `[::1]:7070`); returns the
 * problem as a string when it is not one, so callers can name their key.
 */
export function parseHostInfo(text: string): HostInfo | string {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]/]+):(\d{1,5})$/.exec(text);
  if (!match) return `'${text}' is not 'host:port' (e.g. 'localhost:7070' or '[::1]:7070')`;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return `port ${port} of '${text}' is outside 1-65535`;
  return { host: String(match[1]), port };
}

/** `host:port` of a host. */
export function formatHostInfo(host: HostInfo): string {
  return `${host.host}:${host.port}`;
}
