/**
 * The versioned user data of the task assignor (Kafka Streams'
 * `SubscriptionInfo` and `AssignmentInfo`): a 4-byte big-endian version,
 * then UTF-8 JSON. Version 1 is the first; a reader ignores fields it does
 * not know, so later versions only add fields (standby and warm-up details,
 * static membership), and `latestSupportedVersion` tells the leader what a
 * member reads (Kafka's version probing: the leader encodes the assignment
 * at the lowest version any member supports).
 *
 * Subscription (each member → leader): its process id, `applicationServer`,
 * the tasks it runs now (previous active) and the changelog offset sum of
 * every other task it has state for on disk (Kafka's `taskOffsetSums`).
 *
 * Assignment (leader → each member): its active tasks, its standby tasks
 * (warm-ups included, as Kafka), for every member with an
 * `applicationServer` the host and the partitions it runs as active
 * (`partitionsByHost`) and as standby (`standbyPartitionsByHost`), and on
 * one member only, when a probing rebalance is needed, `nextRebalanceMs`
 * (Kafka's `AssignmentInfo.nextRebalanceMs`: absolute epoch ms at which that
 * member rejoins the group). Optional fields are added without a version
 * bump: an older payload without them decodes (they are absent), and an
 * older reader ignores them.
 */
import { StreamsError } from '../errors.js';
import type { TopicPartition } from '../records/types.js';

/** The user-data version this sluice writes. */
export const USER_DATA_VERSION = 1;
/** The highest version this sluice reads. */
export const LATEST_SUPPORTED_VERSION = 1;

/** What a member reports in its subscription. */
export interface SubscriptionInfo {
  version: number;
  latestSupportedVersion: number;
  /** A random id of the app instance (Kafka's `processId`). */
  processId: string;
  /** `host:port` of the instance's query endpoint (`applicationServer`), if configured. */
  applicationServer?: string;
  /** Tasks running on this member now. */
  previousActive: string[];
  /** Changelog offset sum per task with state on disk that the member does not run now. */
  taskOffsetSums: Record<string, number>;
}

/** A host and what it holds, as the assignment carries it. */
export interface HostPartitions {
  /** `host:port` (an `applicationServer`). */
  host: string;
  partitions: TopicPartition[];
}

/** What a member receives with its assignment. */
export interface AssignmentInfo {
  version: number;
  latestSupportedVersion: number;
  activeTasks: string[];
  standbyTasks: string[];
  partitionsByHost: HostPartitions[];
  standbyPartitionsByHost: HostPartitions[];
  /** Epoch ms at which this member should trigger a probing rebalance; absent: none scheduled. */
  nextRebalanceMs?: number;
}

function invalid(what: string, why: string): StreamsError {
  return new StreamsError(`The task assignor's ${what} user data cannot be decoded: ${why}. Every member of the group must run sluice (a version that reads user data version ${LATEST_SUPPORTED_VERSION})`, {
    code: 'ASSIGNMENT_USER_DATA_INVALID',
  });
}

function encode(value: object): Buffer {
  const json = Buffer.from(JSON.stringify(value), 'utf8');
  const out = Buffer.alloc(4 + json.length);
  out.writeInt32BE(USER_DATA_VERSION, 0);
  json.copy(out, 4);
  return out;
}

function decode(what: string, data: Uint8Array): Record<string, unknown> {
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buffer.length < 4) throw invalid(what, `${buffer.length} bytes, too short for a version`);
  const version = buffer.readInt32BE(0);
  if (version < 1) throw invalid(what, `version ${version}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(buffer.subarray(4).toString('utf8'));
  } catch (error) {
    throw invalid(what, `version ${version} but no JSON after it (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid(what, 'not a JSON object');
  return { ...(parsed as Record<string, unknown>), version };
}

const isTaskList = (v: unknown): v is string[] => Array.isArray(v) && v.every((t) => typeof t === 'string' && /^\d+_\d+$/.test(t));

function hostList(what: string, value: unknown): HostPartitions[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid(what, 'partitionsByHost is not a list');
  return value.map((entry: unknown) => {
    const e = entry as { host?: unknown; partitions?: unknown };
    if (typeof e?.host !== 'string' || !Array.isArray(e.partitions)) throw invalid(what, 'a partitionsByHost entry has no host or partitions');
    const partitions = e.partitions.map((tp: unknown) => {
      const [topic, partition] = Array.isArray(tp) ? (tp as unknown[]) : [];
      if (typeof topic !== 'string' || !Number.isInteger(partition)) throw invalid(what, `a partition of host ${e.host} is not [topic, partition]`);
      return { topic, partition: partition as number };
    });
    return { host: e.host, partitions };
  });
}

/** Encodes a member's subscription user data. */
export function encodeSubscription(info: Omit<SubscriptionInfo, 'version' | 'latestSupportedVersion'>): Buffer {
  return encode({ latestSupportedVersion: LATEST_SUPPORTED_VERSION, ...info });
}

/** Decodes a subscription; throws `ASSIGNMENT_USER_DATA_INVALID` naming what is wrong. */
export function decodeSubscription(data: Uint8Array): SubscriptionInfo {
  const raw = decode('subscription', data);
  const { processId, applicationServer, previousActive, taskOffsetSums } = raw;
  if (typeof processId !== 'string' || processId === '') throw invalid('subscription', 'no processId');
  if (applicationServer !== undefined && typeof applicationServer !== 'string') throw invalid('subscription', 'applicationServer is not a string');
  if (!isTaskList(previousActive)) throw invalid('subscription', 'previousActive is not a list of task ids');
  const sums: Record<string, number> = {};
  for (const [task, sum] of Object.entries((taskOffsetSums as Record<string, unknown> | undefined) ?? {})) {
    if (!/^\d+_\d+$/.test(task) || typeof sum !== 'number' || !Number.isFinite(sum)) throw invalid('subscription', `taskOffsetSums entry ${task} is not a task id with an offset`);
    sums[task] = sum;
  }
  return {
    version: raw.version as number,
    latestSupportedVersion: typeof raw.latestSupportedVersion === 'number' ? raw.latestSupportedVersion : (raw.version as number),
    processId,
    ...(applicationServer !== undefined ? { applicationServer } : {}),
    previousActive,
    taskOffsetSums: sums,
  };
}

/** Encodes a member's assignment user data. */
export function encodeAssignment(info: Omit<AssignmentInfo, 'version' | 'latestSupportedVersion'>): Buffer {
  const hosts = (list: HostPartitions[]) => list.map((h) => ({ host: h.host, partitions: h.partitions.map((tp) => [tp.topic, tp.partition]) }));
  return encode({
    latestSupportedVersion: LATEST_SUPPORTED_VERSION,
    activeTasks: info.activeTasks,
    standbyTasks: info.standbyTasks,
    partitionsByHost: hosts(info.partitionsByHost),
    standbyPartitionsByHost: hosts(info.standbyPartitionsByHost),
    ...(info.nextRebalanceMs !== undefined ? { nextRebalanceMs: info.nextRebalanceMs } : {}),
  });
}

/** Decodes an assignment; throws `ASSIGNMENT_USER_DATA_INVALID` naming what is wrong. */
export function decodeAssignment(data: Uint8Array): AssignmentInfo {
  const raw = decode('assignment', data);
  if (!isTaskList(raw.activeTasks) || !isTaskList(raw.standbyTasks ?? [])) throw invalid('assignment', 'activeTasks or standbyTasks is not a list of task ids');
  const { nextRebalanceMs } = raw;
  if (nextRebalanceMs !== undefined && (typeof nextRebalanceMs !== 'number' || !Number.isFinite(nextRebalanceMs))) throw invalid('assignment', 'nextRebalanceMs is not a number');
  return {
    version: raw.version as number,
    latestSupportedVersion: typeof raw.latestSupportedVersion === 'number' ? raw.latestSupportedVersion : (raw.version as number),
    activeTasks: raw.activeTasks,
    standbyTasks: (raw.standbyTasks as string[] | undefined) ?? [],
    partitionsByHost: hostList('assignment', raw.partitionsByHost),
    standbyPartitionsByHost: hostList('assignment', raw.standbyPartitionsByHost),
    ...(nextRebalanceMs !== undefined ? { nextRebalanceMs } : {}),
  };
}
