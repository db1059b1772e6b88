/**
 * Kafka Streams' built-in class names, as a properties file names them
 * (`default.key.serde=org.apache.kafka.common.serialization.Serdes$StringSerde`,
 * `default.deserialization.exception.handler=org.apache.kafka.streams.errors.LogAndContinueExceptionHandler`),
 * and the sluice objects that do the same. Used by `sluice run --config`.
 * A class is also found by its simple name (`StringSerde`, `LogAndContinueExceptionHandler`).
 */
import { failHandler } from '../handlers/fail.js';
import { logAndContinueHandler } from '../handlers/log-and-continue.js';
import type { Serde } from '../serdes/serde.js';
import { Serdes } from '../serdes/serdes.js';
import {
  FailOnInvalidTimestamp,
  LogAndSkipOnInvalidTimestamp,
  UsePartitionTimeOnInvalidTimestamp,
  WallclockTimestampExtractor,
  type TimestampExtractor,
} from '../processors/timestamp-extractors.js';

/** The handler slots of the config. */
export type HandlerSlotKey = 'deserializationExceptionHandler' | 'productionExceptionHandler' | 'processingExceptionHandler';

const ERRORS = 'org.apache.kafka.streams.errors.';
const SERDES = 'org.apache.kafka.common.serialization.Serdes$';
const PROCESSOR = 'org.apache.kafka.streams.processor.';

/** Kafka's built-in handlers per slot: FAIL or CONTINUE. */
const HANDLERS: Readonly<Record<HandlerSlotKey, Readonly<Record<string, 'FAIL' | 'CONTINUE'>>>> = {
  deserializationExceptionHandler: { [`${ERRORS}LogAndFailExceptionHandler`]: 'FAIL', [`${ERRORS}LogAndContinueExceptionHandler`]: 'CONTINUE' },
  processingExceptionHandler: { [`${ERRORS}LogAndFailProcessingExceptionHandler`]: 'FAIL', [`${ERRORS}LogAndContinueProcessingExceptionHandler`]: 'CONTINUE' },
  productionExceptionHandler: { [`${ERRORS}DefaultProductionExceptionHandler`]: 'FAIL' },
};

const SERDE_CLASSES: Readonly<Record<string, () => Serde<unknown>>> = {
  StringSerde: () => Serdes.String() as Serde<unknown>,
  ByteArraySerde: () => Serdes.ByteArray() as Serde<unknown>,
  BytesSerde: () => Serdes.Buffer() as Serde<unknown>,
  ByteBufferSerde: () => Serdes.Buffer() as Serde<unknown>,
  LongSerde: () => Serdes.Long() as Serde<unknown>,
  IntegerSerde: () => Serdes.Integer() as Serde<unknown>,
  ShortSerde: () => Serdes.Short() as Serde<unknown>,
  FloatSerde: () => Serdes.Float() as Serde<unknown>,
  DoubleSerde: () => Serdes.Double() as Serde<unknown>,
  BooleanSerde: () => Serdes.Boolean() as Serde<unknown>,
  UUIDSerde: () => Serdes.UUID() as Serde<unknown>,
  VoidSerde: () => Serdes.Void() as Serde<unknown>,
};

const EXTRACTORS: Readonly<Record<string, () => TimestampExtractor>> = {
  FailOnInvalidTimestamp: () => new FailOnInvalidTimestamp(),
  LogAndSkipOnInvalidTimestamp: () => new LogAndSkipOnInvalidTimestamp(),
  UsePartitionTimeOnInvalidTimestamp: () => new UsePartitionTimeOnInvalidTimestamp(),
  WallclockTimestampExtractor: () => new WallclockTimestampExtractor(),
};

function simpleName(className: string): string {
  return className.slice(Math.max(className.lastIndexOf('.'), className.lastIndexOf('$')) + 1);
}

/** The Kafka class names a handler slot accepts, for messages. */
export function kafkaHandlerClassNames(slot: HandlerSlotKey): string[] {
  return Object.keys(HANDLERS[slot]);
}

/** sluice's handler for Kafka's built-in handler `className` in `slot`; undefined when there is none. */
export function kafkaHandlerFor(slot: HandlerSlotKey, className: string): object | undefined {
  const table = HANDLERS[slot];
  const answer = table[className] ?? Object.entries(table).find(([name]) => simpleName(name) === className)?.[1];
  if (answer === undefined) return undefined;
  return answer === 'FAIL' ? failHandler() : logAndContinueHandler();
}

/** The Kafka serde class names with a sluice equivalent, for messages. */
export function kafkaSerdeClassNames(): string[] {
  return Object.keys(SERDE_CLASSES).map((s) => `${SERDES}${s}`);
}

/** sluice's serde for Kafka's `Serdes$XSerde` (also written `Serdes.XSerde`, or `XSerde`); undefined when there is none. */
export function kafkaSerdeFor(className: string): Serde<unknown> | undefined {
  const ok = className.startsWith('org.apache.kafka.common.serialization.Serdes') || !className.includes('.');
  return ok ? SERDE_CLASSES[simpleName(className)]?.() : undefined;
}

/** The Kafka timestamp extractor class names with a sluice equivalent, for messages. */
export function kafkaTimestampExtractorClassNames(): string[] {
  return Object.keys(EXTRACTORS).map((s) => `${PROCESSOR}${s}`);
}

/** sluice's extractor for Kafka's built-in `className`; undefined when there is none. */
export function kafkaTimestampExtractorFor(className: string): TimestampExtractor | undefined {
  const ok = className.startsWith(PROCESSOR) || !className.includes('.');
  return ok ? EXTRACTORS[simpleName(className)]?.() : undefined;
}
