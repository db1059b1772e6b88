// Where Kafka keeps a transactional id's / a group's state: Utils.abs(String.hashCode) % partitions
// (TransactionStateManager.partitionFor, GroupCoordinator.partitionFor).
import { describe, expect, it } from 'vitest';
import { clusterNodes } from '../../../scripts/kafka/cluster-config.mjs';
import { javaStringHashCode, transactionStatePartition } from '../../../scripts/kafka/cluster-metadata.mjs';

describe('scripts/kafka cluster helpers', () => {
  it("javaStringHashCode is Java's String.hashCode (32-bit overflow included)", () => {
    expect(javaStringHashCode('')).toBe(0);
    expect(javaStringHashCode('hello')).toBe(99162322);
    expect(javaStringHashCode('Aa')).toBe(javaStringHashCode('BB')); // 2112, Java's classic collision
    expect(javaStringHashCode('polygenelubricants')).toBe(-2147483648);
    expect(javaStringHashCode('app-1_0')).toBe(-795166218);
  });

  it('transactionStatePartition: abs(hash) % partitions, Integer.MIN_VALUE mapping to 0', () => {
    expect(transactionStatePartition('hello', 50)).toBe(99162322 % 50);
    expect(transactionStatePartition('polygenelubricants', 10)).toBe(0);
    expect(transactionStatePartition('app-1_0', 10)).toBe(795166218 % 10);
  });

  it('node i listens on port+i-1, its controller on port+N+i-1', () => {
    expect(clusterNodes(19501, 3)).toEqual([
      { id: 1, port: 19501, controllerPort: 19504 },
      { id: 2, port: 19502, controllerPort: 19505 },
      { id: 3, port: 19503, controllerPort: 19506 },
    ]);
  });
});
