/**
 * The processing guarantee, resolved once (in `resolveConfig`) into every
 * setting that depends on it, so no other file compares
 * `processingGuarantee` itself:
 * 1. the guarantee's name (`exactly_once_v2` is Kafka Streams' name of
 *    `exactly_once`) and whether the app runs transactions;
 * 2. the default commit interval (100 ms under exactly_once, 30 s otherwise);
 * 3. the isolation levels: the group consumer and the changelog readers
 *    (restoration, standbys) read `read_committed`; the global stores' reader
 *    `read_committed` under exactly_once, else `read_uncommitted`; whether
 *    `consumerConfig['isolation.level'] = read_uncommitted` is refused;
 * 4. the send option of a task's outputs (KIP-1059: `IGNORE_SEND_ERRORS`
 *    inside a transaction, else `NONE`);
 * 5. a task producer's transactional id (`<applicationId>-<taskId>`, none
 *    under at_least_once).
 */
import { TxnSendOption } from '../../eos/txn-send-option.js';

import type { ProcessingGuarantee } from '../processing-guarantee.js';

export type { ProcessingGuarantee };

/** The names `processingGuarantee` accepts (`exactly_once_v2`: Kafka Streams' name, an alias of `exactly_once`). */
export const PROCESSING_GUARANTEE_NAMES = ['exactly_once', 'exactly_once_v2', 'at_least_once'] as const;

/** One of {@link PROCESSING_GUARANTEE_NAMES}. */
export type ProcessingGuaranteeName = (typeof PROCESSING_GUARANTEE_NAMES)[number];

/** A reader's isolation level. */
export type IsolationLevel = 'read_committed' | 'read_uncommitted';

/** What the processing guarantee decides (see the module comment). */
export interface GuaranteeProfile {
  /** 1. The guarantee, the alias resolved. */
  readonly guarantee: ProcessingGuarantee;
  /** 1. True under exactly_once: one transaction per task and commit interval. */
  readonly exactlyOnce: boolean;
  /** 2. `commitIntervalMs` when the config gives none. */
  readonly defaultCommitIntervalMs: number;
  /** 3. The group consumer's default and the changelog readers' level (restoration, standby tasks). */
  readonly isolationLevel: 'read_committed';
  /** 3. The level of the global stores' reader. */
  readonly globalIsolationLevel: IsolationLevel;
  /** 3. Whether a consumer override `isolation.level = read_uncommitted` is refused (it would read aborted records). */
  readonly refusesReadUncommitted: boolean;
  /** 4. The send option of a task's outputs. */
  readonly sendOption: TxnSendOption;
  /** 5. The transactional id of task `taskId`'s producer; undefined under at_least_once. */
  transactionalIdOf(taskId: string): string | undefined;
}

/** Steps 1–5 for `name` (already checked to be one of {@link PROCESSING_GUARANTEE_NAMES}). */
export function guaranteeProfile(name: ProcessingGuaranteeName, applicationId: string): GuaranteeProfile {
  // 1. the one comparison
  const exactlyOnce = name !== 'at_least_once';
  return {
    guarantee: exactlyOnce ? 'exactly_once' : 'at_least_once',
    exactlyOnce,
    // 2.
    defaultCommitIntervalMs: exactlyOnce ? 100 : 30_000,
    // 3.
    isolationLevel: 'read_committed',
    globalIsolationLevel: exactlyOnce ? 'read_committed' : 'read_uncommitted',
    refusesReadUncommitted: exactlyOnce,
    // 4.
    sendOption: exactlyOnce ? TxnSendOption.IGNORE_SEND_ERRORS : TxnSendOption.NONE,
    // 5.
    transactionalIdOf: (taskId) => (exactlyOnce ? `${applicationId}-${taskId}` : undefined),
  };
}
