/** The processing guarantee of an app (Kafka Streams' `processing.guarantee`); resolved into a profile by ./internal/guarantee-profile.ts. */

/** `exactly_once` (transactions, the default) or `at_least_once`. */
export type ProcessingGuarantee = 'exactly_once' | 'at_least_once';
