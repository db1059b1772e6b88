/**
 * Step 4 of a task's recovery sequence (see `TaskExecutor.initialize`): the
 * record collector, the processors with their stores (built, or taken over
 * from this instance's standby of the task), and the state manager of one
 * task, wired to the task's producer.
 */
import { TaskRecordCollector } from '../../eos/record-collector.js';
import type { StreamsProducer } from '../../eos/streams-producer.js';
import { TxnSendOption } from '../../eos/txn-send-option.js';
import type { TaskProcessor } from '../../processors/task-contract.js';
import { TaskStateManager } from './state-manager.js';
import type { TaskExecutorDeps } from './task-deps.js';

/** What step 4 creates. */
export interface TaskParts {
  collector: TaskRecordCollector;
  processor: TaskProcessor;
  state: TaskStateManager;
}

/**
 * Creates the collector (the option itself goes down: IGNORE_SEND_ERRORS
 * inside a transaction, NONE for dead letters, changelog records and
 * at_least_once), the processors and stores, and the state manager.
 */
export function buildTaskParts(
  deps: TaskExecutorDeps,
  producer: StreamsProducer,
  options: {
    exactlyOnce: boolean;
    beforeSend: () => void;
    restorationStopped: () => boolean;
    /** The group's committed offset of the task's partition of `topic` (none: undefined); bounds a source-topic changelog's restoration. */
    committedOffset: (topic: string) => number | undefined;
  },
): TaskParts {
  const { config, id, taskId, logger } = deps;
  const { productionExceptionHandler: handler, deserializationExceptionHandler: deserialization, processingExceptionHandler: processing } = config;
  const collector = new TaskRecordCollector({
    taskId: id, producer, handler, partitionCount: deps.partitionCount, counters: deps.metrics, logger,
    sendOption: config.guarantee.sendOption,
    deadLetterOption: TxnSendOption.NONE,
    beforeSend: options.beforeSend,
  });
  // a standby of this task on this instance brings its processors and stores (promotion, ./standby-handover.ts)
  const promoted = deps.state.takeOverStandby?.(id);
  const processor = promoted?.processor ?? deps.topology.createTask(taskId, collector, { deserialization, processing }, {
    logger,
    asyncCallTimeoutMs: config.asyncCallTimeoutMs,
    onAsyncSkipped: () => void deps.metrics.recordsSkipped++,
  });
  const state = new TaskStateManager({
    taskId, id, stores: processor.stores, collector, runtime: deps.state, exactlyOnce: options.exactlyOnce,
    recordContext: () => processor.recordContext(), logger, stopped: options.restorationStopped,
    sourceChangelogs: deps.topology.sourceChangelogs?.() ?? new Map(), committedOffset: options.committedOffset,
    ...(promoted ? { promoted } : {}),
  });
  return { collector, processor, state };
}
