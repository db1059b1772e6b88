/**
 * What the worker says about a `--config` file at start: one INFO line with
 * every property (secrets as `[hidden]`), one WARN line naming the keys it
 * ignores and why; and the build props the file carries.
 */
import type { Logger } from 'pino';
import type { BuildProps } from '../topology/streams-builder.js';
import type { ConfigFile } from './config-file.js';

/** Logs the file's properties (secrets hidden) and the ignored keys. */
export function logConfigFile(log: Logger, file: ConfigFile): void {
  log.info({ configFile: file.path, properties: file.display }, `config from ${file.path}: ${Object.keys(file.display).length} properties`);
  if (file.ignored.length > 0) {
    const reasons = file.ignored.map(({ key, reason }) => `${key} (${reason})`);
    log.warn({ configFile: file.path, ignored: file.ignored.map((i) => i.key) }, `${file.path}: ignored, no effect in sluice: ${reasons.join('; ')}`);
  }
}

/** `builder.build(props)` of the module's StreamsBuilder: `topology.optimization` from the file. */
export function buildPropsOf(file: ConfigFile | undefined): BuildProps | undefined {
  return file?.topologyOptimization === undefined ? undefined : { topologyOptimization: file.topologyOptimization };
}
