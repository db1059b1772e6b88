/**
 * `sluice describe <module>`: prints the app's topology as Kafka Streams'
 * text description or as a Mermaid flowchart.
 */
import { pino } from 'pino';
import { ConfigError } from '../errors.js';
import { toTopology } from './define-app.js';
import { loadApp } from './load-app.js';

/** Output formats of `sluice describe`. */
export type DescribeFormat = 'text' | 'mermaid';

/** Loads the module at `modulePath`, builds its topology (without touching any cluster) and renders it. */
export async function describeApp(modulePath: string, format: DescribeFormat = 'text', cwd = process.cwd()): Promise<string> {
  if (format !== 'text' && format !== 'mermaid') {
    throw new ConfigError(`--format must be text or mermaid, got '${String(format)}'`);
  }
  const app = await loadApp(modulePath, cwd);
  const applicationId = app.config?.applicationId ?? 'sluice-app';
  const source = await app.topology({ embedded: false, applicationId, logger: pino({ level: 'silent' }) });
  const description = toTopology(source).describe();
  const text = format === 'mermaid' ? description.toMermaid() : description.toString();
  return text.endsWith('\n') ? text : `${text}\n`;
}
