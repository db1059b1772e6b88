/**
 * `sluice/testing`: the embedded cluster and the topology test driver.
 */
export { EmbeddedKafkaCluster } from './embedded/embedded-cluster.js';
export type { EmbeddedKafkaClusterOptions, PlainRecord, PlainRecordMetadata, ProduceFault, Latency, TxnFault } from './embedded/embedded-cluster.js';
export { TopologyTestDriver } from './topology/test-driver/topology-test-driver.js';
export type { TopologyTestDriverConfig } from './topology/test-driver/topology-test-driver.js';
export { TestInputTopic } from './topology/test-driver/test-input-topic.js';
export type { TestRecordInput, TestInputTopicOptions } from './topology/test-driver/test-input-topic.js';
export { TestOutputTopic } from './topology/test-driver/test-output-topic.js';
export type { TestRecord } from './topology/test-driver/test-output-topic.js';
