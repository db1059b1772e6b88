/**
 * The input of Kafka's `AbstractJoinIntegrationTest` with out-of-order data
 * (as its versioned subclasses use it: `StreamTableJoinWithGraceIntegrationTest`,
 * `TableTableJoinIntegrationTest`), shared by their ports: [topic, value,
 * timestamp], every record under `ANY_UNIQUE_KEY`.
 */
export const INPUT_TOPIC_LEFT = 'inputTopicLeft';
export const INPUT_TOPIC_RIGHT = 'inputTopicRight';
export const ANY_UNIQUE_KEY = 0n;

/** AbstractJoinIntegrationTest.input: [topic, value, timestamp], all under ANY_UNIQUE_KEY. */
export const input: [string, string | null, number][] = [
  [INPUT_TOPIC_LEFT, null, 1],
  [INPUT_TOPIC_RIGHT, null, 2],
  [INPUT_TOPIC_LEFT, 'A', 3],
  [INPUT_TOPIC_RIGHT, 'a', 4],
  [INPUT_TOPIC_LEFT, 'B', 5],
  [INPUT_TOPIC_RIGHT, 'b', 6],
  [INPUT_TOPIC_LEFT, null, 7],
  [INPUT_TOPIC_RIGHT, null, 8],
  [INPUT_TOPIC_LEFT, 'C', 9],
  [INPUT_TOPIC_RIGHT, 'c', 10],
  [INPUT_TOPIC_RIGHT, null, 11],
  [INPUT_TOPIC_LEFT, null, 12],
  [INPUT_TOPIC_RIGHT, null, 13],
  [INPUT_TOPIC_RIGHT, 'd', 7], // out-of-order data with null as latest
  [INPUT_TOPIC_LEFT, 'D', 6],
  [INPUT_TOPIC_LEFT, null, 2],
  [INPUT_TOPIC_RIGHT, null, 3],
  [INPUT_TOPIC_RIGHT, 'e', 14],
  [INPUT_TOPIC_LEFT, 'E', 15],
  [INPUT_TOPIC_LEFT, null, 10], // out-of-order data with non-null as latest
  [INPUT_TOPIC_RIGHT, null, 9],
  [INPUT_TOPIC_LEFT, 'F', 4],
  [INPUT_TOPIC_RIGHT, 'f', 3],
];
