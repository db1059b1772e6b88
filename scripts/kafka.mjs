#!/usr/bin/env node
// Local Apache Kafka for development and tests (no build needed).
//   node scripts/kafka.mjs start [--port 9092] [--version X.Y.Z]   (npm run kafka:start)
//   node scripts/kafka.mjs stop  [--port 9092]                      (npm run kafka:stop)
//   node scripts/kafka.mjs restart [--port 9092] [--kill]           (keeps the data; --kill: SIGKILL, as a crash)
//   node scripts/kafka.mjs status [--port 9092]
//   node scripts/kafka.mjs fetch [--version X.Y.Z]                  (jars only)
//   node scripts/kafka.mjs start|stop|status --brokers 3 [--port P]  (a 3-node KRaft cluster, scripts/kafka/cluster.mjs)
//   node scripts/kafka.mjs kill|restart --brokers 3 --node ID [--port P] (SIGKILL / restart one node, data kept)
// Environment: KAFKA_PORT, KAFKA_VERSION, KAFKA_CONTROLLER_PORT, KAFKA_HEAP_OPTS.
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
    help: { type: 'boolean', short: 'h' },
  },
});
const command = positionals[0] ?? 'help';

async function main() {
  if (values.brokers !== undefined && Number(values.brokers) !== 1) return clusterCommand(command, values);
  switch (command) {
    case 'start': {
      const b = await startBroker({ port: values.port, version: values.version });
      const what = b.reused ? 'already running' : `started in ${(b.startMs / 1000).toFixed(1)} s (answering after ${(b.answeringMs / 1000).toFixed(1)} s, then coordinator warm-up${b.downloaded ? '; jars downloaded' : ''})`;
      console.log(`Kafka ${b.version} ${what}: pid ${b.pid}, log ${b.logFile}`);
      console.log(`bootstrap: ${b.bootstrap}`);
      console.log(`export KAFKA_BROKERS=${b.bootstrap}`);
      return;
    }
    case 'stop': {
      const port = kafkaPort(values.port);
      const r = await stopBroker({ port });
      console.log(r.stopped ? `Kafka on port ${port} stopped (${r.how}), data removed` : `no Kafka started by this script runs on port ${port}`);
      return;
    }
    case 'restart': {
      const r = await restartBroker({ port: values.port, kill: values.kill });
      console.log(`Kafka on ${r.bootstrap} restarted with its data kept (${values.kill ? 'SIGKILL' : 'SIGTERM'}) in ${(r.restartMs / 1000).toFixed(1)} s: pid ${r.pid}`);
      return;
    }
    case 'status': {
      const s = brokerStatus({ port: values.port });
      console.log(s.running ? `running: ${s.bootstrap} (Kafka ${s.version}, pid ${s.pid}, log ${s.logFile})` : 'not running');
      process.exitCode = s.running ? 0 : 3;
      return;
    }
    case 'fetch': {
      const r = await ensureKafkaJars(kafkaVersion(values.version));
      console.log(`${r.downloaded ? 'fetched' : 'cached'}: ${r.dir}`);
      return;
    }
    default:
      console.log('usage: node scripts/kafka.mjs start|stop|restart|status|fetch [--port N] [--version X.Y.Z] [--kill]');
      process.exitCode = command === 'help' ? 0 : 2;
  }
}

main().catch((err) => {
  console.error(err instanceof KafkaSetupError ? `kafka: ${err.message}` : err);
  process.exitCode = 1;
});
