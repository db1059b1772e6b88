/**
 * Runs the WordCountDemo against Kafka until Ctrl-C:
 * `npx tsx examples/wordcount/main.ts [config.properties]` (create the topics
 * `streams-plaintext-input` and `streams-wordcount-output` first). Stop it and
 * start it again: the counts continue where they were.
 */
import { KafkaStreams, StreamsBuilder } from '../../src/index.js';
import { createWordCountStream, streamsConfig } from './word-count-demo.js';

const builder = new StreamsBuilder<string, string>();
createWordCountStream(builder);
const streams = new KafkaStreams(builder.build(), streamsConfig(process.argv.slice(2)));

// close cleanly on Ctrl-C (the stores checkpoint, the next start restores nothing)
process.once('SIGINT', () => {
  void streams.close().then(() => process.exit(0));
});
try {
  await streams.start();
} catch (error) {
  console.error(`wordcount demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
