/**
 * The init context a caching store hands to the store below it: the same
 * context, except that while a flushed cache entry is written down the
 * current record is that entry's (Kafka sets the processor context's record
 * context to the entry's around the write), so the change-logging layer
 * stamps the changelog record with the timestamp and headers of the write
 * that made the entry dirty.
 */
import type { StoreInitContext, StoreRecordContext } from './store-contract.js';

/** `context`, with `recordContext()` answering `override()` when it is set. */
export function contextOverriding(context: StoreInitContext, override: () => StoreRecordContext | undefined): StoreInitContext {
  return {
    get applicationId() {
      return context.applicationId;
    },
    get taskId() {
      return context.taskId;
    },
    get stateDir() {
      return context.stateDir;
    },
    get changelog() {
      return context.changelog;
    },
    get cache() {
      return context.cache;
    },
    get logger() {
      return context.logger;
    },
    recordContext: () => override() ?? context.recordContext(),
  };
}
