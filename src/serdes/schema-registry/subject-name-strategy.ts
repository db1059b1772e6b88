/**
 * How a Schema Registry serde names the subject of a topic's schema
 * (Confluent's `key.subject.name.strategy` / `value.subject.name.strategy`):
 * `topic` — `<topic>-key` / `<topic>-value` (TopicNameStrategy, the default);
 * `record` — the record's full name (RecordNameStrategy);
 * `topic-record` — `<topic>-<record full name>` (TopicRecordNameStrategy).
 * The record name is the Avro record's full name, the JSON Schema's `title`,
 * or the Protobuf message's full name.
 */
export type SubjectNameStrategy = 'topic' | 'record' | 'topic-record';
