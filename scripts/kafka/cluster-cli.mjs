// `node scripts/kafka.mjs start|stop|status|kill|restart --brokers N [--port P] [--node ID]`: the multi-broker cluster.
import { kafkaPort } from './broker.mjs';
import { clusterStatus, killNode, restartNode, startCluster, stopCluster } from './cluster.mjs';

/** Runs one CLI command against the cluster whose first client port is `--port` (default KAFKA_PORT, else 9092). */
export async function clusterCommand(command, values) {
  const nodes = Number(values.brokers);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 9) throw new Error(`--brokers must be a whole number from 1 to 9, got ${values.brokers}`);
  const port = kafkaPort(values.port);
  switch (command) {
    case 'start': {
      const c = await startCluster({ port, nodes, version: values.version });
      console.log(`Kafka ${c.version} ${nodes}-node cluster ${c.reused ? 'already running' : `started in ${(c.startMs / 1000).toFixed(1)} s`}: ${c.nodes.map((n) => `node ${n.id} pid ${n.pid} port ${n.port}`).join(', ')}`);
      console.log(`logs: ${c.nodes.map((n) => n.logFile).join(' ')}`);
      console.log(`export KAFKA_BROKERS=${c.bootstrap}`);
      return;
    }
    case 'stop': {
      const r = await stopCluster({ port });
      console.log(r.stopped ? `Kafka cluster at port ${port} stopped, data removed` : `no cluster started by this script runs at port ${port}`);
      return;
    }
    case 'status': {
      const s = clusterStatus({ port });
      for (const n of s.nodes) console.log(`node ${n.id}: ${n.running ? `running, pid ${n.pid}` : 'down'}, 127.0.0.1:${n.port} (controller ${n.controllerPort}), log ${n.logFile}`);
      console.log(s.running ? `running: ${s.nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}` : 'not running (or not every node)');
      process.exitCode = s.running ? 0 : 3;
      return;
    }
    case 'kill':
    case 'restart': {
      const id = Number(values.node);
      if (!Number.isInteger(id)) throw new Error(`${command} needs --node <id> (1..${nodes})`);
      if (command === 'kill') console.log((await killNode({ port, id })).killed ? `node ${id} SIGKILLed (data kept)` : `node ${id} was not running`);
      else console.log(`node ${id} back in ${((await restartNode({ port, id })).restartMs / 1000).toFixed(1)} s`);
      return;
    }
    default:
      console.log('usage: node scripts/kafka.mjs start|stop|status|kill|restart --brokers N [--port P] [--node ID]');
      process.exitCode = 2;
  }
}
