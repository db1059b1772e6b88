/**
 * `sluice/testing`: the embedded cluster and the topology test driver.
 */
export { EmbeddedKafkaCluster } from './embedded/embedded-cluster.js';
export type { EmbeddedKafkaClusterOptions, PlainRecord, PlainRecordMetadata, ProduceFault, Latency } from './embedded/embedded-cluster.js';
