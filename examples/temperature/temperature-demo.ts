/**
 * Kafka Streams' TemperatureDemo (streams/examples/.../temperature/TemperatureDemo.java),
 * ported: an IoT demo that reads temperatures (integers as text, no key) from
 * `iot-temperature`, keeps the maximum per 5-second tumbling window (grace 24
 * hours) and writes a window's maximum to `iot-temperature-max` when it
 * exceeds 20. The output key is the windowed key `"temp"` in Kafka's
 * `TimeWindowedSerializer` layout (`"temp"` bytes | 8-byte window start), so
 * a Java consumer with `WindowedSerdes.timeWindowedSerdeFrom(String.class, 5000)`
 * reads it.
 *
 * As Kafka's demo, every update of a window's maximum above the threshold is
 * written (the cache is off). `finalResultsOnly` (not in Kafka's demo) adds
 * `suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))`: one
 * record per window, once it closed (stream time ≥ window end + 24 h).
 */
import { BufferConfig, Serdes, StreamsBuilder, Suppressed, TimeWindows, WindowedSerdes, type KafkaStreamsConfig } from '../../src/index.js';

/** The input topic: values are temperatures as text (`"22"`), keys are null. */
export const INPUT_TOPIC = 'iot-temperature';
/** The output topic: windowed key `temp`, value the window's maximum as text. */
export const OUTPUT_TOPIC = 'iot-temperature-max';
/** Threshold used for filtering max temperature values. */
export const TEMPERATURE_THRESHOLD = 20;
/** Window size within which the filtering is applied, in seconds. */
export const TEMPERATURE_WINDOW_SIZE = 5;
const DURATION_24_HOURS = 24 * 60 * 60 * 1000;

/** The demo's configuration (`statestoreCacheMaxBytes: 0`: every update of a maximum goes downstream, as in Kafka's demo). */
export type TemperatureConfig = KafkaStreamsConfig & { statestoreCacheMaxBytes?: number };

/** The config of `TemperatureDemo.main`: application `streams-temperature` on localhost:9092, String serdes, from the earliest offset. */
export function streamsConfig(): TemperatureConfig {
  return {
    applicationId: 'streams-temperature',
    bootstrapServers: 'localhost:9092',
    defaultKeySerde: Serdes.String(),
    defaultValueSerde: Serdes.String(),
    autoOffsetReset: 'earliest',
    statestoreCacheMaxBytes: 0,
  };
}

/**
 * The serde of the output keys. Kafka's demo passes `TEMPERATURE_WINDOW_SIZE`
 * (5, read as milliseconds) to `timeWindowedSerdeFrom`; the window size only
 * matters to the reading side (end = start + size), the bytes written are the
 * same, so sluice gives the true size, 5000 ms.
 */
export const windowedSerde = WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), TEMPERATURE_WINDOW_SIZE * 1000);

/** Options of {@link createTemperatureStream}. */
export interface TemperatureOptions {
  /** Emit each window's maximum once, when the window closes (not in Kafka's demo). Default false. */
  finalResultsOnly?: boolean;
}

/**
 * Adds the demo's topology to `builder` (default serdes String, String), as
 * `TemperatureDemo.main`: select key `temp` → group → 5 s tumbling windows
 * with 24 h grace → reduce to the maximum → above the threshold → output.
 */
export function createTemperatureStream(builder: StreamsBuilder<string, string>, options: TemperatureOptions = {}): void {
  const source = builder.stream(INPUT_TOPIC);
  const maxPerWindow = source
    // temperature values are sent without a key (null), so in order
    // to group and reduce them, a key is needed ("temp" has been chosen)
    .selectKey(() => 'temp')
    .groupByKey()
    .windowedBy(TimeWindows.ofSizeAndGrace(TEMPERATURE_WINDOW_SIZE * 1000, DURATION_24_HOURS))
    .reduce((value1, value2) => (Number.parseInt(value1, 10) > Number.parseInt(value2, 10) ? value1 : value2));
  const max = (options.finalResultsOnly === true ? maxPerWindow.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())) : maxPerWindow)
    .toStream()
    .filter((_key, value) => Number.parseInt(value, 10) > TEMPERATURE_THRESHOLD);
  // need to override key serde to Windowed<String> type
  max.to(OUTPUT_TOPIC, { keySerde: windowedSerde, valueSerde: Serdes.String() });
}
