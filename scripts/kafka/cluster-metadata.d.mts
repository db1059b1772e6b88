// Types of scripts/kafka/cluster-metadata.mjs.

export interface PartitionState {
  topic: string;
  partition: number;
  /** Node id of the leader, -1 when none. */
  leader: number;
  replicas: number[];
  isr: number[];
}

export declare function clusterBrokerIds(brokers: string[]): Promise<number[]>;
/** Every partition of `topics` (all topics, internal ones included, when empty), from a fresh Metadata request. */
export declare function partitionStates(brokers: string[], topics?: string[]): Promise<PartitionState[]>;
export declare function partitionLeader(brokers: string[], topic: string, partition: number): Promise<number>;
export declare function waitForNewLeader(
  brokers: string[],
  topic: string,
  partition: number,
  previous: number,
  options?: { timeoutMs?: number; intervalMs?: number },
): Promise<{ leader: number; waitedMs: number }>;
export declare function waitForFullIsr(brokers: string[], options?: { topics?: string[]; timeoutMs?: number; intervalMs?: number }): Promise<{ waitedMs: number }>;
export declare function javaStringHashCode(s: string): number;
/** Kafka's `__transaction_state` partition of a transactional id: abs(hashCode) % partitions. */
export declare function transactionStatePartition(transactionalId: string, partitions?: number): number;
export declare function groupCoordinatorPartition(groupId: string, partitions?: number): number;
