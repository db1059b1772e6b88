// Values the vitest global setup (test/setup/global-setup.ts) hands to test
// workers through `project.provide()`; read them with `inject()` or, better,
// with the helpers of test/helpers/kafka-env.ts.
export {};

declare module 'vitest' {
  export interface ProvidedContext {
    /** Bootstrap addresses of the Kafka the tests use, or null when broker suites are skipped. */
    kafkaBrokers: string[] | null;
    /** Why broker suites are skipped (null when a broker is available). */
    kafkaSkipReason: string | null;
  }
}
