/** Shared fixtures of the runtime unit tests (embedded cluster). */
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import type { ConsumedRecord } from '../../../src/cluster/port.js';
import { KafkaStreams } from '../../../src/runtime/kafka-streams.js';
import type { KafkaStreamsConfig } from '../../../src/runtime/config.js';
import type { AppState } from '../../../src/runtime/internal/app-state.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import type { Topology } from '../../../src/topology/topology.js';
import type { Serde } from '../../../src/serdes/serde.js';

export { EmbeddedKafkaCluster, KafkaStreams };

/** in → uppercase values → out (String serdes); an optional output value serde replaces String. */
export function upperTopology(input: string, output: string, valueSerde?: Serde<string>): Topology {
  const builder = new StreamsBuilder();
  builder
    .stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
    .mapValues((v) => v.toUpperCase())
    .to(output, { keySerde: Serdes.String(), valueSerde: valueSerde ?? Serdes.String() });
  return builder.build();
}

/** Tracks apps and clusters and closes them after each test. */
export class Closer {
  readonly apps: KafkaStreams[] = [];
  readonly clusters: EmbeddedKafkaCluster[] = [];
  app(topology: Topology, config: KafkaStreamsConfig): KafkaStreams {
    const app = new KafkaStreams(topology, config);
    this.apps.push(app);
    return app;
  }
  cluster(): EmbeddedKafkaCluster {
    const cluster = new EmbeddedKafkaCluster();
    this.clusters.push(cluster);
    return cluster;
  }
  async closeAll(): Promise<void> {
    await Promise.all(this.apps.splice(0).map((a) => a.close()));
    await Promise.all(this.clusters.splice(0).map((c) => c.close()));
  }
}

/** Records the states an app goes through. */
export function recordStates(app: KafkaStreams): AppState[] {
  const states: AppState[] = [];
  app.state$.subscribe((s) => states.push(s));
  return states;
}

/** `key=value` strings of records. */
export function kv(records: ConsumedRecord[]): string[] {
  return records.map((r) => `${r.key?.toString() ?? 'null'}=${r.value?.toString() ?? 'null'}`);
}

/** Produces `n` records `k<i>`/`v<i>` (i from `from`) to `topic`. */
export async function produceN(cluster: EmbeddedKafkaCluster, topic: string, n: number, from = 0): Promise<void> {
  const records = Array.from({ length: n }, (_, j) => ({ key: `k${from + j}`, value: `v${from + j}` }));
  await cluster.produce(topic, records);
}
