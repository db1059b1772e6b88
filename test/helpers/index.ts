/** Test helpers for broker-backed suites. See README "Testing". */
export { describeKafka, kafkaBrokers, kafkaSkipReason, requireBrokers } from './kafka-env.js';
export { uniqueGroup, uniqueName, uniqueTopic } from './names.js';
export { waitFor, type WaitForOptions } from './wait-for.js';
export { createClientTracker, quietKafka, testLogLevel, useKafkaClients, type ClientTracker } from './clients.js';
export {
  createTopic,
  endOffsets,
  readAll,
  type CreateTopicOptions,
  type Isolation,
  type PartitionRange,
  type ReadAllOptions,
  type ReadRecord,
} from './topics.js';
