/**
 * A main script wrongly given as its own `streamThreadModule` (see
 * test/contract/stream-threads.test.ts): imported on a stream thread's worker,
 * it starts a KafkaStreams with numStreamThreads 2 again, which must be
 * refused instead of starting threads again.
 */
import { KafkaStreams } from '../../../src/runtime/kafka-streams.js';
import { threadsTopology } from './threads-app.js';

const env = (name: string): string => process.env[name] ?? '';
const app = new KafkaStreams(threadsTopology(env('SLUICE_THREADS_TEST_INPUT'), env('SLUICE_THREADS_TEST_OUTPUT'), 'nested'), {
  applicationId: env('SLUICE_THREADS_TEST_APP'),
  bootstrapServers: env('SLUICE_THREADS_TEST_BROKERS'),
  numStreamThreads: 2,
  streamThreadModule: new URL(import.meta.url),
});
await app.start();
