/**
 * Runs the TemperatureDemo against Kafka until Ctrl-C:
 * `npx tsx examples/temperature/main.ts [--final]` (create the topics
 * `iot-temperature` and `iot-temperature-max`, one partition each, first;
 * `--final`: one result per window, once it closed). Send temperatures with
 * `kafka-console-producer.sh --bootstrap-server localhost:9092 --topic iot-temperature`.
 */
import { KafkaStreams, StreamsBuilder } from '../../src/index.js';
import { createTemperatureStream, streamsConfig } from './temperature-demo.js';

const builder = new StreamsBuilder<string, string>();
createTemperatureStream(builder, { finalResultsOnly: process.argv.includes('--final') });
const streams = new KafkaStreams(builder.build(), streamsConfig());

// attach shutdown handler to catch control-c
process.once('SIGINT', () => {
  void streams.close().then(() => process.exit(0));
});
try {
  await streams.start();
} catch (error) {
  console.error(`temperature demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
