#!/usr/bin/env node
// A local Apicurio Registry speaking Confluent's Schema Registry API (/apis/ccompat/v7), in memory.
//   node scripts/registry/apicurio.mjs start [--port 8081] [--version 2.6.13.Final]   (npm run registry:start)
//   node scripts/registry/apicurio.mjs stop  [--port 8081]                            (npm run registry:stop)
//   node scripts/registry/apicurio.mjs status [--port 8081]
//   node scripts/registry/apicurio.mjs fetch [--version 2.6.13.Final]                 (distribution only)
// Environment: SCHEMA_REGISTRY_PORT, APICURIO_VERSION, REGISTRY_HEAP_OPTS, SLUICE_KAFKA_HOME (cache).
// `start` prints the URL on its last line: export SCHEMA_REGISTRY_URL=http://127.0.0.1:<port>/apis/ccompat/v7
import { parseArgs } from 'node:util';
import { apicurioVersion, ensureApicurio, registryPort, registryStatus, startRegistry, stopRegistry } from './server.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string', short: 'p' },
    version: { type: 'string', short: 'v' },
    help: { type: 'boolean', short: 'h' },
  },
});
const command = values.help ? 'help' : (positionals[0] ?? 'help');

async function main() {
  switch (command) {
    case 'start': {
      const r = await startRegistry({ port: values.port, version: values.version });
      const what = r.reused ? 'already running' : `started in ${(r.startMs / 1000).toFixed(1)} s${r.downloaded ? ' (distribution downloaded)' : ''}`;
      console.log(`Apicurio Registry ${r.version} ${what}: pid ${r.pid}, log ${r.logFile}`);
      console.log(`export SCHEMA_REGISTRY_URL=${r.url}`);
      return;
    }
    case 'stop': {
      const port = registryPort(values.port);
      const r = await stopRegistry({ port });
      console.log(r.stopped ? `registry on port ${port} stopped (${r.how})` : `no registry started by this script runs on port ${port}`);
      return;
    }
    case 'status': {
      const s = registryStatus({ port: values.port });
      console.log(s.running ? `running: ${s.url} (Apicurio Registry ${s.version}, pid ${s.pid}, log ${s.logFile})` : 'not running');
      return;
    }
    case 'fetch': {
      const r = await ensureApicurio(values.version);
      console.log(`Apicurio Registry ${apicurioVersion(values.version)} ${r.downloaded ? 'fetched into' : 'already in'} ${r.dir}`);
      return;
    }
    default:
      console.log('usage: node scripts/registry/apicurio.mjs start|stop|status|fetch [--port 8081] [--version 2.6.13.Final]');
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
