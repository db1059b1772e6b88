/**
 * The instance's view of the whole group (Kafka Streams' `StreamsMetadataState`):
 * updated from every assignment's user data (`partitionsByHost`), it answers
 * `queryMetadataForKey`, `streamsMetadataForStore` and
 * `metadataForAllStreamsClients`.
 *
 * The key's partition: the key serialized with the given serializer for the
 * store's source topic with the most partitions (Kafka's
 * `SourceTopicsInfo.topicWithMostPartitions`), then the default partitioner
 * (murmur2, as the producer's), over that topic's partition count.
 */
import type { Serializer } from '../../serdes/serde.js';
import type { TopicPartition } from '../../records/types.js';
import { partitionFor } from '../../records/partitioner.js';
import { topicPartitionKey } from '../../records/topic-partition.js';
import { parseHostInfo, type HostInfo } from '../../assignment/host-info.js';
import type { AssignmentInfo } from '../../assignment/user-data.js';
import { KeyQueryMetadata, UnknownStateStoreError, type StreamsMetadata } from '../streams-metadata.js';
import { IllegalArgumentError } from '../../errors.js';
import type { TopologyRuntime } from '../../processors/task-contract.js';
import type { Logger } from '../../internal/logger.js';
import { decodeAssignment } from '../../assignment/user-data.js';

/** The topology as the metadata needs it. */
export interface MetadataTopology {
  subtopologies: ReadonlyArray<{ id: number; sourceTopics: readonly string[] }>;
  storesBySubtopology: ReadonlyMap<number, readonly string[]>;
  globalStores: readonly string[];
  partitionCount(topic: string): number | undefined;
}

interface HostEntry {
  hostInfo: HostInfo;
  partitions: TopicPartition[];
  /** Input partitions of its standby tasks (warm-ups included). */
  standbyPartitions: TopicPartition[];
}

/** See the module comment. */
export class StreamsMetadataState {
  #hosts: HostEntry[] | undefined;
  readonly #subtopologyOfTopic = new Map<string, number>();
  readonly #subtopologyOfStore = new Map<string, number>();

  /** This instance's `applicationServer`, parsed (the config check guarantees it parses). */
  readonly #local: HostInfo | undefined;

  /** The metadata of an app running `topology` (partition counts from the app's cache). */
  static of(topology: TopologyRuntime, partitionCount: (topic: string) => number | undefined, applicationServer: string | undefined): StreamsMetadataState {
    return new StreamsMetadataState(
      {
        subtopologies: topology.subtopologies,
        storesBySubtopology: topology.storesBySubtopology?.() ?? new Map(),
        globalStores: (topology.globalStores?.() ?? []).map((g) => g.storeName),
        partitionCount,
      },
      applicationServer,
    );
  }

  constructor(private readonly topology: MetadataTopology, applicationServer?: string) {
    const local = applicationServer === undefined ? undefined : parseHostInfo(applicationServer);
    this.#local = typeof local === 'string' ? undefined : local;
    for (const sub of topology.subtopologies) for (const topic of sub.sourceTopics) this.#subtopologyOfTopic.set(topic, sub.id);
    for (const [sub, stores] of topology.storesBySubtopology) for (const store of stores) this.#subtopologyOfStore.set(store, sub);
  }

  /** True once an assignment with host metadata arrived. */
  get initialized(): boolean {
    return this.#hosts !== undefined;
  }

  /**
   * Takes the hosts of a new assignment: active partitions from `partitionsByHost`, standby ones from
   * `standbyPartitionsByHost` (a host with standbys only is listed too; unparseable hosts are skipped:
   * the config check makes them impossible).
   */
  update(info: AssignmentInfo): void {
    const hosts = new Map<string, HostEntry>();
    const entry = (host: string): HostEntry | undefined => {
      const hostInfo = parseHostInfo(host);
      if (typeof hostInfo === 'string') return undefined;
      let found = hosts.get(host);
      if (!found) hosts.set(host, (found = { hostInfo, partitions: [], standbyPartitions: [] }));
      return found;
    };
    for (const h of info.partitionsByHost) entry(h.host)?.partitions.push(...h.partitions);
    for (const h of info.standbyPartitionsByHost) entry(h.host)?.standbyPartitions.push(...h.partitions);
    this.#hosts = [...hosts.values()];
  }

  /** The assignor's user data of a new assignment; one that cannot be decoded keeps the previous view (logged). */
  updateFrom(userData: Buffer, logger: Logger): void {
    try {
      this.update(decodeAssignment(userData));
    } catch (error) {
      logger.warn({ err: error }, 'the assignment user data cannot be decoded; the key metadata keeps its previous view');
    }
  }

  /** Checks the arguments of `app.<what>(storeName, ...)`: a non-empty string naming a store of the topology. */
  checkStoreName(what: string, storeName: unknown): asserts storeName is string {
    if (typeof storeName !== 'string' || storeName === '') throw new TypeError(`app.${what}() takes a store name (a non-empty string) first`);
    this.#checkStore(storeName);
  }

  /** Forgets the group's view (the app stopped). */
  clear(): void {
    this.#hosts = undefined;
  }

  /** Every instance with an `applicationServer` (Kafka's `getAllMetadata`); empty before the first assignment. */
  all(): StreamsMetadata[] {
    return (this.#hosts ?? []).map((h) => this.#metadataOf(h));
  }

  /** The instances holding `storeName` (every one for a global store); an unknown store is an error naming the stores. */
  forStore(storeName: string): StreamsMetadata[] {
    this.#checkStore(storeName);
    const all = this.all();
    if (this.topology.globalStores.includes(storeName)) return all;
    return all.filter((m) => m.stateStoreNames.includes(storeName) || m.standbyStateStoreNames.includes(storeName));
  }

  /** Where `key` of `storeName` lives; NOT_AVAILABLE before the first assignment or when no advertised host runs its task. */
  keyMetadata<K>(storeName: string, key: K, serializer: Serializer<K>): KeyQueryMetadata {
    this.checkStoreName('queryMetadataForKey', storeName);
    const local = this.#local;
    if (this.#hosts === undefined) return KeyQueryMetadata.NOT_AVAILABLE;
    if (this.topology.globalStores.includes(storeName)) {
      return local === undefined ? KeyQueryMetadata.NOT_AVAILABLE : { activeHost: local, standbyHosts: [], partition: -1 };
    }
    const sub = this.topology.subtopologies.find((s) => s.id === this.#subtopologyOfStore.get(storeName));
    const topics = (sub?.sourceTopics ?? []).map((topic) => ({ topic, count: this.topology.partitionCount(topic) ?? 0 })).filter((t) => t.count > 0);
    const widest = topics.reduce<{ topic: string; count: number } | undefined>((best, t) => (best === undefined || t.count > best.count ? t : best), undefined);
    if (widest === undefined) return KeyQueryMetadata.NOT_AVAILABLE;
    const bytes = serializer.serialize(widest.topic, key);
    if (bytes === null) throw new IllegalArgumentError(`queryMetadataForKey('${storeName}', key): the key serialized to null; a store key must not be null`);
    const partition = partitionFor(bytes, widest.count);
    const wanted = topicPartitionKey({ topic: widest.topic, partition });
    const owner = this.#hosts.find((h) => h.partitions.some((tp) => topicPartitionKey(tp) === wanted));
    const standbyHosts = this.#hosts.filter((h) => h.standbyPartitions.some((tp) => topicPartitionKey(tp) === wanted)).map((h) => h.hostInfo);
    return owner === undefined ? KeyQueryMetadata.NOT_AVAILABLE : { activeHost: owner.hostInfo, standbyHosts, partition };
  }

  #metadataOf(h: HostEntry): StreamsMetadata {
    const stores = this.#storesOf(h.partitions);
    for (const store of this.topology.globalStores) stores.add(store);
    return {
      hostInfo: h.hostInfo,
      host: h.hostInfo.host,
      port: h.hostInfo.port,
      stateStoreNames: [...stores].sort(),
      topicPartitions: [...h.partitions],
      standbyStateStoreNames: [...this.#storesOf(h.standbyPartitions)].sort(),
      standbyTopicPartitions: [...h.standbyPartitions],
    };
  }

  #storesOf(partitions: readonly TopicPartition[]): Set<string> {
    const stores = new Set<string>();
    for (const tp of partitions) {
      const sub = this.#subtopologyOfTopic.get(tp.topic);
      for (const store of (sub === undefined ? undefined : this.topology.storesBySubtopology.get(sub)) ?? []) stores.add(store);
    }
    return stores;
  }

  #checkStore(storeName: string): void {
    if (this.#subtopologyOfStore.has(storeName) || this.topology.globalStores.includes(storeName)) return;
    const known = [...this.#subtopologyOfStore.keys(), ...this.topology.globalStores].sort();
    throw new UnknownStateStoreError(
      `No state store '${storeName}' in the topology; its stores are: ${known.length ? known.map((s) => `'${s}'`).join(', ') : '(none)'}. Name a store with Materialized.as('<name>') to query it`,
    );
  }
}
