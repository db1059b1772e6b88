#!/usr/bin/env node
// Local Apache Kafka for development and tests (no build needed).
//   node scripts/kafka.mjs start [--port 9092] [--version X.Y.Z]   (npm run kafka:start)
//   node scripts/kafka.mjs stop  [--port 9092]                      (npm run kafka:stop)
//   node scripts/kafka.mjs restart [--port 9092] [--kill]           (keeps the data; --kill: SIGKILL, as a crash)
//   node scripts/kafka.mjs status [--port 9092]
//   node scripts/kafka.mjs fetch [--version X.Y.Z]                  (jars only)
//   node scripts/kafka.mjs start|stop|status --brokers 3 [--port P]  (a 3-node KRaft cluster, scripts/kafka/cluster.mjs)
//   node scripts/kafka.mjs kill|restart --brokers 3 --node ID [--port P] (SIGKILL / restart one node, data kept)
//   --secure (start/stop/status/restart): the SASL_SSL + mTLS broker with ACLs (default port 9093,
//   mTLS on the next port or --mtls-port); certificates and users in .kafka/run/<port>/.
// Environment: KAFKA_PORT, KAFKA_SECURE_PORT, KAFKA_VERSION, KAFKA_CONTROLLER_PORT, KAFKA_HEAP_OPTS.
import { parseArgs } from 'node:util';
import { brokerStatus, kafkaPort, kafkaVersion, KafkaSetupError, restartBroker, startBroker, stopBroker } from './kafka/broker.mjs';
import { ensureKafkaJars } from './kafka/jars.mjs';
import { clusterCommand } from './kafka/cluster-cli.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string', short: 'p' },
    version: { type: 'string', short: 'v' },
    kill: { type: 'boolean' },
    brokers: { type: 'string', short: 'b' },
    node: { type: 'string' },
    secure: { type: 'boolean' },
    'mtls-port': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const command = positionals[0] ?? 'help';

async function main() {
  if (values.brokers !== undefined && Number(values.brokers) !== 1) return clusterCommand(command, values);
  switch (command) {
    case 'start': {
      const mtlsPort = values['mtls-port'] ? Number(values['mtls-port']) : undefined;
      const b = await startBroker({ port: values.port, version: values.version, secure: values.secure, mtlsPort });
      const what = b.reused ? 'already running' : `started in ${(b.startMs / 1000).toFixed(1)} s (answering after ${(b.answeringMs / 1000).toFixed(1)} s, then coordinator warm-up${b.downloaded ? '; jars downloaded' : ''})`;
      console.log(`Kafka ${b.version} ${what}: pid ${b.pid}, log ${b.logFile}`);
      console.log(`bootstrap: ${b.bootstrap}`);
      if (b.secure) printSecure(b.secure);
      else console.log(`export KAFKA_BROKERS=${b.bootstrap}`);
      return;
    }
    case 'stop': {
      const port = kafkaPort(values.port, { secure: values.secure });
      const r = await stopBroker({ port });
      console.log(r.stopped ? `Kafka on port ${port} stopped (${r.how}), data removed` : `no Kafka started by this script runs on port ${port}`);
      return;
    }
    case 'restart': {
      const r = await restartBroker({ port: kafkaPort(values.port, { secure: values.secure }), kill: values.kill });
      console.log(`Kafka on ${r.bootstrap} restarted with its data kept (${values.kill ? 'SIGKILL' : 'SIGTERM'}) in ${(r.restartMs / 1000).toFixed(1)} s: pid ${r.pid}`);
      return;
    }
    case 'status': {
      const s = brokerStatus({ port: values.port, secure: values.secure });
      console.log(s.running ? `running: ${s.bootstrap} (Kafka ${s.version}, pid ${s.pid}, log ${s.logFile})` : 'not running');
      if (s.running && s.secure) printSecure(s.secure);
      process.exitCode = s.running ? 0 : 3;
      return;
    }
    case 'fetch': {
      const r = await ensureKafkaJars(kafkaVersion(values.version));
      console.log(`${r.downloaded ? 'fetched' : 'cached'}: ${r.dir}`);
      return;
    }
    default:
      console.log('usage: node scripts/kafka.mjs start|stop|restart|status|fetch [--port N] [--version X.Y.Z] [--kill] [--secure [--mtls-port N]]');
      process.exitCode = command === 'help' ? 0 : 2;
  }
}

/** Where a client finds what it needs to connect to the secure broker (passwords stay in the state file). */
function printSecure(secure) {
  console.log(`SASL_SSL (${secure.mechanisms.join(', ')}): ${secure.bootstrap}`);
  console.log(`mTLS (client certificate required): ${secure.mtlsBootstrap}`);
  console.log(`CA: ${secure.caPath}`);
  console.log(`client certificate/key (principal ${secure.clientPrincipal}): ${secure.clientCertPath} ${secure.clientKeyPath}`);
  console.log(`users (super user: admin): ${Object.keys(secure.users).join(', ')}; passwords in ${secure.statePath ?? 'state.json'}`);
  console.log(`Kafka CLI tools as admin: --command-config ${secure.adminProperties}`);
}

main().catch((err) => {
  console.error(err instanceof KafkaSetupError ? `kafka: ${err.message}` : err);
  process.exitCode = 1;
});
