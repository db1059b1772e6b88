// Values the vitest global setup (test/setup/global-setup.ts) hands to test
// workers through `project.provide()`; read them with `inject()` or, better,
// with the helpers of test/helpers/kafka-env.ts.
import type { SecureKafkaInfo } from './secure-setup.js';

export {};

declare module 'vitest' {
  export interface ProvidedContext {
    /** Bootstrap addresses of the Kafka the tests use, or null when broker suites are skipped. */
    kafkaBrokers: string[] | null;
    /** Why broker suites are skipped (null when a broker is available). */
    kafkaSkipReason: string | null;
    /** The secure broker (SASL_SSL, mTLS, ACLs), or null when secure suites are skipped. */
    secureKafka: SecureKafkaInfo | null;
    /** Why secure suites are skipped (null when the secure broker is available). */
    secureKafkaSkipReason: string | null;
    /** Confluent-compatible base URL of the real Schema Registry (e.g. Apicurio's …/apis/ccompat/v7), or null. */
    schemaRegistryUrl: string | null;
    /** Why registry suites are skipped (null when a registry is available). */
    schemaRegistrySkipReason: string | null;
  }
}
