/**
 * The one validator of broker addresses, shared by the `KafkaStreams` config
 * (`bootstrapServers`) and the CLI (`--bootstrap-servers`, `KAFKA_BROKERS`):
 * every entry is `host:port` with a port from 1 to 65535, so a typo fails at
 * once instead of after the client's connection retries.
 */

const ENTRY = /^([^:\s]+):(\d{1,5})$/;

/**
 * Why `entry` is not a usable broker address, or undefined when it is one
 * (`host:port`, port 1..65535, no blanks).
 */
export function brokerAddressProblem(entry: string): string | undefined {
  const match = ENTRY.exec(entry);
  if (!match) {
    return entry.includes(':') ? `'${entry}' is not host:port` : `'${entry}' has no port (write it as host:port, e.g. ${entry || 'localhost'}:9092)`;
  }
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return `'${entry}' has port ${match[2]}, outside 1..65535`;
  return undefined;
}

/**
 * Splits a comma-separated list (or takes an array), trims the entries, drops
 * empty ones and checks each with {@link brokerAddressProblem}. Returns the list,
 * or the first problem (a list without entries is a problem too).
 */
export function checkBrokerList(value: string | readonly string[]): { brokers: string[] } | { problem: string } {
  const list = (typeof value === 'string' ? value.split(',') : [...value]).map((s) => s.trim()).filter((s) => s !== '');
  if (list.length === 0) return { problem: 'no broker is named' };
  for (const entry of list) {
    const problem = brokerAddressProblem(entry);
    if (problem) return { problem };
  }
  return { brokers: list };
}
