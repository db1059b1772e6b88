/**
 * `TransactionalProducer`, the public producer (API.md "The producer on its
 * own"): the eos layer's `StreamsProducer` with the cluster picked here — the
 * given `cluster`, else a kafkajs cluster for `bootstrapServers` — so that eos
 * never imports a cluster implementation.
 */
import { clusterFor } from './internal/app-cluster.js';
import type { ClusterPort } from '../cluster/port.js';
import { ConfigError } from '../errors.js';
import { StreamsProducer } from '../eos/streams-producer.js';
import { checkSasl, checkSsl } from '../cluster/kafkajs/connection-security.js';
import type { ConnectionSecurityConfig } from './config-connection.js';
import type { StreamsProducerOptions } from '../eos/producer-types.js';

export type { ProducerRecord, RecordMetadata, SendCallback, ProducerStateName } from '../eos/producer-types.js';
export { ProducerState } from '../eos/producer-types.js';

/** Options of {@link TransactionalProducer}: those of the producer, with `cluster` or `bootstrapServers` (it always builds its own topic-metadata cache). */
export interface TransactionalProducerOptions extends Omit<StreamsProducerOptions, 'cluster' | 'topicMetadata'>, ConnectionSecurityConfig {
  /** The cluster to use; otherwise one is created from `bootstrapServers` (kafkajs). */
  cluster?: ClusterPort;
  /** Brokers of a real Kafka cluster, used when `cluster` is absent. */
  bootstrapServers?: string[];
}

/**
 * A transactional (or, without `transactionalId`, idempotent) producer with
 * KIP-1059's `TxnSendOption` (DESIGN.md §3):
 *
 * - `send(record, callback?, option)` validates the record against the topic's
 *   cached configs, batches per partition and delivers batch by batch; a record
 *   that fails gets its own error (never an innocent record).
 * - With `TxnSendOption.NONE` a failed record makes the transaction
 *   abortable-only; with `IGNORE_SEND_ERRORS` only that record is dropped —
 *   unless the write's outcome is unknown (it may be in the log): then the
 *   transaction can only abort, whatever the option.
 * - Fencing and fatal errors put the producer into `FATAL_ERROR`: only
 *   `close()` is allowed; create a new producer.
 *
 * Returned send promises never cause an unhandled rejection: a caller may rely
 * on the callback or on `commitTransaction()` alone.
 */
export class TransactionalProducer extends StreamsProducer {
  constructor(options: TransactionalProducerOptions) {
    super({ ...options, cluster: clusterOf(options), topicMetadata: undefined }); // never a shared cache: it builds its own
  }
}

function clusterOf(options: TransactionalProducerOptions): ClusterPort {
  const ssl = checkSsl(options.ssl);
  const sasl = checkSasl(options.sasl);
  if (options.cluster) {
    if (ssl !== undefined || sasl !== undefined) throw new ConfigError("TransactionalProducer: 'ssl' and 'sasl' apply to 'bootstrapServers' only; give them to createKafkaCluster() for a 'cluster'");
    return options.cluster;
  }
  const bootstrapServers = options.bootstrapServers ?? [];
  if (bootstrapServers.length === 0) throw new ConfigError('TransactionalProducer needs either `cluster` or `bootstrapServers`');
  return clusterFor({ bootstrapServers, logger: options.logger, ssl, sasl });
}
