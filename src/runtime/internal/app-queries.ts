/**
 * The read side of a running app (Kafka's interactive queries and metadata
 * calls on `KafkaStreams`): local store views, where a key lives, which
 * instance holds a store, this instance's tasks; and the live UI's data. `KafkaStreams` keeps the
 * public methods and their contracts; the work is done here, on a view of
 * the app's parts that may not exist yet (before `start()`).
 */
import type { TopologyRuntime } from '../../processors/task-contract.js';
import type { Serializer } from '../../serdes/serde.js';
import { keyValueView, type LocalStores, type StoreQueryParameters } from '../interactive-queries.js';
import { sessionView, versionedView, windowView } from './store-views.js';
import { KeyQueryMetadata, UnknownStateStoreError, type StreamsMetadata, type ThreadMetadata } from '../streams-metadata.js';
import type { AppState } from './app-state.js';
import type { GlobalStateManager } from './global-state-manager.js';
import type { StreamsMetadataState } from './streams-metadata-state.js';
import type { TaskManager } from './task-manager.js';
import { consumerClientId } from './group-member.js';
import { createUiSource, type UiSourceDeps } from '../ui-source.js';
import type { UiDataSource } from '../../ui/types.js';

/** What the queries read of the app, each possibly absent before `start()`. */
export interface AppQueryView {
  readonly state: AppState;
  readonly clientId: string;
  readonly topology: TopologyRuntime;
  readonly metadata: StreamsMetadataState | undefined;
  readonly global: GlobalStateManager | undefined;
  readonly manager: TaskManager | undefined;
}

/** Throws an `UnknownStateStoreError` naming the topology's stores when it has no store `storeName` (in every state). */
export function checkStoreName(view: AppQueryView, what: string, storeName: string): void {
  if (view.metadata) return view.metadata.checkStoreName(what, storeName);
  const topology = view.topology;
  const bySub = topology.storesBySubtopology?.();
  if (bySub === undefined) return;
  const known = [...new Set([...[...bySub.values()].flat(), ...(topology.globalStores?.() ?? []).map((g) => g.storeName)])].sort();
  if (known.includes(storeName)) return;
  throw new UnknownStateStoreError(
    `No state store '${storeName}' in the topology; its stores are: ${known.length ? known.map((n) => `'${n}'`).join(', ') : '(none)'}. Name a store with Materialized.as('<name>') to query it`,
  );
}

/** `KafkaStreams.store(params)`; `view` is read on every call of the returned store. */
export function storeView<T>(view: () => AppQueryView, params: StoreQueryParameters<T>): T {
  if (!params || typeof params.storeName !== 'string' || !params.queryableStoreType) {
    throw new TypeError(
      "app.store() takes { storeName, queryableStoreType }, e.g. { storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore() } (or versionedKeyValueStore(), windowStore(), timestampedWindowStore(), sessionStore())",
    );
  }
  checkStoreName(view(), 'store', params.storeName);
  const stale = params.enableStaleStores === true;
  const local: LocalStores = () => {
    const { state, global, manager } = view();
    return { appState: state, stores: [...(global?.storesNamed(params.storeName) ?? []), ...(manager?.storesNamed(params.storeName, stale) ?? [])] };
  };
  const untyped = params as StoreQueryParameters<unknown>;
  switch (params.queryableStoreType.kind) {
    case 'versioned':
      return versionedView(untyped, local) as T;
    case 'window':
    case 'timestampedWindow':
      return windowView(untyped, local) as T;
    case 'session':
      return sessionView(untyped, local) as T;
    default:
      return keyValueView(untyped, local) as T;
  }
}

/** `KafkaStreams.queryMetadataForKey`. */
export function keyQueryMetadata<K>(view: AppQueryView, storeName: string, key: K, keySerializer: Serializer<K>): KeyQueryMetadata {
  checkStoreName(view, 'queryMetadataForKey', storeName);
  if (view.state !== 'RUNNING' || view.metadata === undefined) return KeyQueryMetadata.NOT_AVAILABLE;
  return view.metadata.keyMetadata(storeName, key, keySerializer);
}

/** `KafkaStreams.streamsMetadataForStore`. */
export function metadataForStore(view: AppQueryView, storeName: string): StreamsMetadata[] {
  checkStoreName(view, 'streamsMetadataForStore', storeName);
  return view.metadata?.forStore(storeName) ?? [];
}

/** `KafkaStreams.metadataForLocalThreads`: one entry, sluice runs one processing loop. */
export function localThreads(view: AppQueryView, threadIndex = 1): ThreadMetadata[] {
  const { active, standby } = view.manager?.localTasks() ?? { active: [], standby: [] };
  return [{ threadName: `${view.clientId}-StreamThread-${threadIndex}`, threadState: view.state, consumerClientId: consumerClientId(view.clientId, threadIndex), activeTasks: active, standbyTasks: standby }];
}

/** The live UI's data source (../ui-source.ts) over the app's query view and what the app adds (its description, metrics, restoration, decisions). */
export function uiSourceOf(view: () => AppQueryView, app: Omit<UiSourceDeps, 'instance' | 'runtime' | 'state' | 'tasks' | 'nodeRecordCounts'>): UiDataSource {
  return createUiSource({
    ...app,
    instance: view().clientId,
    runtime: () => view().topology,
    state: () => view().state,
    tasks: () => view().manager?.taskStates() ?? [],
    nodeRecordCounts: () => view().manager?.nodeRecordCounts() ?? new Map<string, number>(),
  });
}
