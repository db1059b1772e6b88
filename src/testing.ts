/**
 * `sluice/testing`: the embedded cluster and the topology test driver.
 */
export { EmbeddedKafkaCluster } from './cluster/embedded/embedded-cluster.js';
export type {
  EmbeddedKafkaClusterOptions,
  EmbeddedGroupDescription,
  EmbeddedTransactionDescription,
  PlainRecord,
  PlainRecordMetadata,
  ProduceFault,
  Latency,
  TxnFault,
} from './cluster/embedded/embedded-cluster.js';
export { TopologyTestDriver } from './testing/topology-test-driver.js';
export type { TopologyTestDriverConfig } from './testing/topology-test-driver.js';
export { TestInputTopic } from './testing/test-input-topic.js';
export type { TestRecordInput, TestInputTopicOptions } from './testing/test-input-topic.js';
export { TestOutputTopic } from './testing/test-output-topic.js';
export type { TestRecord } from './testing/test-output-topic.js';
export { MockProcessorContext } from './testing/mock-processor-context.js';
export type { CapturedForward, CapturedPunctuator, MockProcessorContextOptions } from './testing/mock-processor-context.js';
export { DriverMetrics, DRIVER_THREAD_ID } from './testing/driver-metrics.js';
export type { DriverMetric, MetricName, MetricQuery } from './testing/driver-metrics.js';
export { InProcessSchemaRegistry } from './testing/schema-registry.js';
export type { InProcessSchemaRegistryOptions } from './testing/schema-registry.js';
