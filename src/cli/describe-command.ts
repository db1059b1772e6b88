/**
 * `sluice describe <module>`: prints the app's topology as Kafka Streams'
 * text description or as a Mermaid flowchart.
 */
import { pino } from 'pino';
import { ConfigError } from '../errors.js';
import { toTopology } from './define-app.js';
import { loadApp } from './load-app.js';
import { buildPropsOf } from './config-file-log.js';
import { describeConfigFile, loadConfigFile } from './config-file.js';

/** Output formats of `sluice describe`. */
export type DescribeFormat = 'text' | 'mermaid';

/** `--config` of `sluice describe`: a properties file, and the environment its variables read. */
export interface DescribeConfigOption {
  configFile: string;
  env: Record<string, string | undefined>;
}

/**
 * Loads the module at `modulePath`, builds its topology (without touching any
 * cluster) and renders it; with `config`, the topology is built with the
 * file's props and the file's mapping follows (secrets as `[hidden]`).
 */
export async function describeApp(modulePath: string, format: DescribeFormat = 'text', cwd = process.cwd(), config?: DescribeConfigOption): Promise<string> {
  if (format !== 'text' && format !== 'mermaid') {
    throw new ConfigError(`--format must be text or mermaid, got '${String(format)}'`);
  }
  const file = config === undefined ? undefined : loadConfigFile(config.configFile, config.env, cwd);
  const app = await loadApp(modulePath, cwd);
  const applicationId = (file?.config.applicationId as string | undefined) ?? app.config?.applicationId ?? 'sluice-app';
  const source = await app.topology({ embedded: false, applicationId, logger: pino({ level: 'silent' }) });
  const description = toTopology(source, buildPropsOf(file)).describe();
  const rendered = format === 'mermaid' ? description.toMermaid() : description.toString();
  const text = rendered.endsWith('\n') ? rendered : `${rendered}\n`;
  return file === undefined ? text : `${text}\n${format === 'mermaid' ? describeConfigFile(file).replace(/^/gm, '%% ') : describeConfigFile(file)}`;
}
