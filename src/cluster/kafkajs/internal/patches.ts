/**
 * Every change sluice makes to kafkajs, in one place, applied to sluice's own
 * private copy of kafkajs only.
 *
 * The patches (each in its own module):
 * - Produce v8 with `record_errors` (`produce-v8.ts`);
 * - the read_committed aborted-transaction filter on Fetch decode (`fetch-aborted-filter.ts`);
 * - the JoinGroup generation-id and SyncGroup assignment user-data capture (`join-generation.ts`);
 * - a control record standing for each record batch emptied by compaction (`empty-batch-marker.ts`);
 * - Produce request bodies encoded by sluice's record-batch encoder (`produce-request.ts`, from `produce-v8.ts`);
 * - a linear `groupMessagesPerPartition` (kafkajs' is quadratic; `linear-grouping.ts`);
 * - a record decoder for Fetch without kafkajs' per-record `Long` arithmetic, same records (`fast-record-decoder.ts`);
 * - static membership (`groupInstanceId` on JoinGroup/SyncGroup/Heartbeat, no LeaveGroup on a static
 *   member's close) and rejoin on request (`static-membership.ts`);
 * - a fetch refused by a dead leader's broker refreshes the metadata, and a heartbeat refused by a
 *   dead group coordinator looks the coordinator up again, instead of exhausting the consumer's
 *   retries against that broker (`fetch-leader-failover.ts`);
 * - snappy, lz4 and zstd in the codec table of Fetch decoding (`compression-codecs.ts`);
 * - a FindCoordinator refused for authorization (53, 30) reaches the caller instead of "Failed to find
 *   group coordinator" (`coordinator-denial.ts`).
 *
 * Containment: the patched module objects belong to a private copy of the
 * kafkajs module graph (`private-module.ts`); every kafkajs client sluice
 * creates is made from that copy's `Kafka`. A user's `import 'kafkajs'` or
 * `require('kafkajs')`, in the same process, before or after, ESM or CommonJS,
 * gets Node's shared, unpatched kafkajs.
 *
 * Safety: the patches reach into kafkajs' internals, verified on kafkajs
 * {@link VERIFIED_KAFKAJS_VERSION}. Before anything is patched, the version and
 * every patched shape are checked; a mismatch throws a {@link StreamsError}
 * (`UNSUPPORTED_KAFKAJS`) naming the version found and the one verified.
 */
import type * as KafkaJsModule from 'kafkajs';
import { StreamsError } from '../../../errors.js';
import { COMPRESSION_MODULE, installCompressionCodecs } from './compression-codecs.js';
import { installEmptyBatchMarkers } from './empty-batch-marker.js';
import { installFastRecordDecoder } from './fast-record-decoder.js';
import { installAbortedTransactionFilter } from './fetch-aborted-filter.js';
import { installFetchLeaderFailover } from './fetch-leader-failover.js';
import { registerJoinGenerationCapture, registerSyncAssignmentCapture } from './join-generation.js';
import { installLinearGrouping } from './linear-grouping.js';
import type { KafkaJsInternals } from './kafkajs-internals.js';
import { privatePackage, type PrivatePackage } from './private-module.js';
import { registerProduceV8 } from './produce-v8.js';
import { installStaticMembership } from './static-membership.js';
import { installCoordinatorDenial } from './coordinator-denial.js';

/** The kafkajs version the patches were written and tested against. */
export const VERIFIED_KAFKAJS_VERSION = '2.2.4';

/** sluice's patched kafkajs: the module to build clients from, and its internals. */
export interface SluiceKafkaJs {
  /** The private kafkajs module (`Kafka`, `logLevel`, ...), patched. */
  readonly kafkajs: typeof KafkaJsModule;
  /** Internal modules of the same copy (what the patches changed). */
  readonly internals: KafkaJsInternals;
  /** The kafkajs version found. */
  readonly version: string;
}

/** Kafka's codec ids of the codecs sluice adds (kafkajs' `Types` must agree). */
const KAFKA_CODEC_IDS: Readonly<Record<string, number>> = { Snappy: 2, LZ4: 3, ZSTD: 4 };

/** One expected shape: a module below `src/`, a property path, its type and (for functions) its arity. */
interface Shape {
  module: string;
  path: string[];
  type: 'function' | 'array' | 'object';
  arity?: number;
}

/** What the patches read or replace (`produce-v8.ts`, `fetch-aborted-filter.ts`, `join-generation.ts`, `static-membership.ts`, `kafkajs-internals.ts`) and what the partition reader calls. */
const SHAPES: readonly Shape[] = [
  { module: 'protocol/requests/index.js', path: ['lookup'], type: 'function', arity: 1 },
  { module: 'protocol/requests/produce/index.js', path: ['versions'], type: 'array' },
  { module: 'protocol/requests/produce/index.js', path: ['protocol'], type: 'function', arity: 1 },
  { module: 'protocol/requests/produce/v7/request.js', path: [], type: 'function', arity: 1 },
  { module: 'protocol/requests/fetch/index.js', path: ['protocol'], type: 'function', arity: 1 },
  { module: 'protocol/requests/joinGroup/index.js', path: ['protocol'], type: 'function', arity: 1 },
  { module: 'protocol/requests/syncGroup/index.js', path: ['protocol'], type: 'function', arity: 1 },
  { module: 'protocol/decoder.js', path: [], type: 'function', arity: 1 },
  { module: 'protocol/recordBatch/v0/decoder.js', path: [], type: 'function', arity: 1 },
  ...['readInt16', 'readInt32', 'readInt64', 'readString'].map((m): Shape => ({ module: 'protocol/decoder.js', path: ['prototype', m], type: 'function', arity: 0 })),
  { module: 'protocol/decoder.js', path: ['prototype', 'readArray'], type: 'function', arity: 1 },
  { module: 'protocol/error.js', path: ['errorCodes'], type: 'array' },
  { module: 'errors.js', path: ['KafkaJSProtocolError'], type: 'function' },
  { module: '../index.js', path: ['Kafka'], type: 'function' },
  // the partition reader (`reader-cluster.ts`, `partition-reader.ts`) calls these
  ...(
    [['connect', 0], ['disconnect', 0], ['refreshMetadata', 0], ['addTargetTopic', 1], ['findTopicPartitionMetadata', 1], ['findLeaderForPartitions', 2], ['findBroker', 1], ['fetchTopicsOffset', 1]] as const
  ).map(([m, arity]): Shape => ({ module: 'cluster/index.js', path: ['prototype', m], type: 'function', arity })),
  { module: 'broker/index.js', path: ['prototype', 'fetch'], type: 'function', arity: 1 },
  // static membership and rejoin on request (`static-membership.ts`)
  { module: 'protocol/requests/heartbeat/index.js', path: ['protocol'], type: 'function', arity: 1 },
  ...['joinGroup', 'syncGroup', 'heartbeat'].map((api): Shape => ({ module: `protocol/requests/${api}/index.js`, path: ['versions'], type: 'array' })),
  ...([['joinAndSync', 0], ['heartbeat', 1], ['leave', 0], ['recoverFromFetch', 1]] as const).map(([m, arity]): Shape => ({ module: 'consumer/consumerGroup.js', path: ['prototype', m], type: 'function', arity })),
  // the codec table (`compression-codecs.ts`) and its lookup by the record-batch decoder
  { module: COMPRESSION_MODULE, path: ['Codecs'], type: 'object' },
  { module: COMPRESSION_MODULE, path: ['Types'], type: 'object' },
  { module: COMPRESSION_MODULE, path: ['lookupCodecByAttributes'], type: 'function', arity: 1 },
  ...['Snappy', 'LZ4', 'ZSTD'].map((t): Shape => ({ module: COMPRESSION_MODULE, path: ['Codecs', String(KAFKA_CODEC_IDS[t])], type: 'function', arity: 0 })),
  // authorization failures of FindCoordinator (`coordinator-denial.ts`)
  { module: 'broker/index.js', path: ['prototype', 'findGroupCoordinator'], type: 'function', arity: 1 },
  { module: 'cluster/index.js', path: ['prototype', 'findGroupCoordinatorMetadata'], type: 'function', arity: 1 },
];

function unsupported(found: string, detail: string): StreamsError {
  return new StreamsError(
    `sluice patches kafkajs internals verified on kafkajs ${VERIFIED_KAFKAJS_VERSION}, but found kafkajs ${found}${detail}; ` +
      `install kafkajs@${VERIFIED_KAFKAJS_VERSION} (the version sluice depends on)`,
    { code: 'UNSUPPORTED_KAFKAJS', kind: 'fatal' },
  );
}

/** Describes what is wrong with `shape` in `internals`, or undefined when it matches. */
function shapeMismatch(internals: KafkaJsInternals, shape: Shape): string | undefined {
  const where = `${shape.module}${shape.path.map((p) => `.${p}`).join('')}`;
  let value: unknown;
  try {
    value = shape.path.reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], internals.load(shape.module));
  } catch (error) {
    return `${where} cannot be loaded (${(error as Error).message})`;
  }
  if (shape.type === 'array') return Array.isArray(value) ? undefined : `${where} is not an array`;
  if (shape.type === 'object') return typeof value === 'object' && value !== null ? undefined : `${where} is not an object`;
  if (typeof value !== 'function') return `${where} is not a function`;
  if (shape.arity !== undefined && value.length !== shape.arity) return `${where} takes ${value.length} arguments, expected ${shape.arity}`;
  return undefined;
}

/**
 * Checks a private kafkajs copy and patches it:
 * 1. the version is {@link VERIFIED_KAFKAJS_VERSION};
 * 1'. replace the modules swapped whole (before anything requires them): the producer's grouping, the fetch's record decoder;
 * 2. every shape the patches touch is there, with the expected arity;
 * 3. Produce v8, the aborted-transaction filter, the JoinGroup and SyncGroup captures, the empty-batch markers,
 *    static membership, the fetch leader failover, the compression codecs, FindCoordinator refusals.
 * Throws `UNSUPPORTED_KAFKAJS` (nothing patched) when 1 or 2 fails.
 */
export function patchKafkaJs(copy: Pick<PrivatePackage, 'packageJson' | 'load'> & Partial<Pick<PrivatePackage, 'replace'>>): SluiceKafkaJs {
  const version = copy.packageJson.version ?? 'unknown';
  const replace = copy.replace?.bind(copy);
  const internals: KafkaJsInternals = {
    load: <T>(path: string) => copy.load<T>(`src/${path}`),
    ...(replace ? { replace: <T>(path: string, make: (original: T) => T) => replace(`src/${path}`, make) } : {}),
  };
  // 1. version
  if (version !== VERIFIED_KAFKAJS_VERSION) throw unsupported(version, '');
  // 1'. module replacements, before the shape checks load the modules that require them
  installLinearGrouping(internals);
  installFastRecordDecoder(internals);
  // 2. shapes
  const mismatches = SHAPES.map((shape) => shapeMismatch(internals, shape)).filter((m): m is string => m !== undefined);
  if (mismatches.length > 0) throw unsupported(version, ` with other internals: ${mismatches.join('; ')}`);
  // 3. patches
  registerProduceV8(internals);
  installAbortedTransactionFilter(internals);
  registerJoinGenerationCapture(internals);
  registerSyncAssignmentCapture(internals);
  installEmptyBatchMarkers(internals);
  installStaticMembership(internals);
  installFetchLeaderFailover(internals);
  installCompressionCodecs(internals);
  installCoordinatorDenial(internals);
  return { kafkajs: copy.load<typeof KafkaJsModule>('index.js'), internals, version };
}

let shared: SluiceKafkaJs | undefined;

/** sluice's patched private kafkajs, made on first use (one per process, shared by every sluice cluster). */
export function sluiceKafkaJs(): SluiceKafkaJs {
  shared ??= patchKafkaJs(privatePackage('kafkajs', import.meta.url));
  return shared;
}
