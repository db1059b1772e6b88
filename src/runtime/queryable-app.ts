/**
 * What the query API needs of an app (`serveQueries` in query-server.ts and
 * its handlers under internal/query-*.ts): its own module so the handlers
 * name it without importing the server that imports them.
 */
import type { StoreKind } from '../processors/store-kind.js';
import type { Serializer } from '../serdes/serde.js';
import type { StoreQueryParameters } from './interactive-queries.js';
import type { KeyQueryMetadata, StreamsMetadata } from './streams-metadata.js';

/** The part of a `KafkaStreams` app the query API uses (a `KafkaStreams` is one; tests pass fakes). */
export interface QueryableApp {
  readonly state: string;
  store<T>(params: StoreQueryParameters<T>): T;
  queryMetadataForKey<K>(storeName: string, key: K, keySerializer: Serializer<K>): KeyQueryMetadata;
  streamsMetadataForStore(storeName: string): StreamsMetadata[];
  metadataForAllStreamsClients(): StreamsMetadata[];
  /** The `applicationServer` the app advertises (a `KafkaStreams` has it); the server checks it names the same address. */
  readonly applicationServer?: string | undefined;
  /** The kind of a store (a `KafkaStreams` has it): `/stores` lists each store's type, and never a suppression buffer. */
  storeKind?(storeName: string): StoreKind | undefined;
}
