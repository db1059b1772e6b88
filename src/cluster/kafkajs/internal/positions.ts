/**
 * Per-partition positions, seeks and pauses of the kafkajs group consumer,
 * and the kafkajs calls that apply them (`seek`, `pause`, `resume`).
 *
 * kafkajs builds a new offset manager per generation and would restart kept
 * partitions from the committed offset; it also throws on seek/pause while it
 * has no consumer group (restarting after a crash). So the member keeps:
 * - the next offset to deliver per partition (after a delivered batch or a seek);
 * - a count of `seek()` calls per partition (a batch handled across a seek does not move the position);
 * - seeks of partitions not (yet) assigned, applied at the join that assigns them;
 * - the paused partitions, re-applied at every join.
 */
import type { Consumer } from 'kafkajs';
import type { TopicPartition, TopicPartitionOffset } from '../../port.js';
import { tpKey } from './assignment.js';

/** Positions, seeks and pauses of one member; see the module comment. */
export class PartitionPositions {
  private readonly positions = new Map<string, number>();
  private readonly seekCounts = new Map<string, number>();
  private readonly pendingSeeks = new Map<string, TopicPartitionOffset>();
  private readonly paused = new Map<string, TopicPartition>();

  constructor(private readonly consumer: Pick<Consumer, 'seek' | 'pause' | 'resume'>) {}

  /** The next offset to deliver of a partition, if known. */
  position(key: string): number | undefined {
    return this.positions.get(key);
  }

  /** How many times `seek()` was called for a partition. */
  seeks(key: string): number {
    return this.seekCounts.get(key) ?? 0;
  }

  /** Moves the position forward to `next` (never back). */
  advance(key: string, next: number): void {
    if ((this.positions.get(key) ?? -1) < next) this.positions.set(key, next);
  }

  /**
   * At a join: 1. revoked partitions forget their position (a later owner starts from the committed
   * offset); 2. kept ones continue where this member was, assigned ones take a seek made before;
   * 3. paused ones that are assigned are paused again in kafkajs.
   */
  onJoin(change: { assigned: TopicPartition[]; revoked: TopicPartition[]; kept: TopicPartition[] }, assignedKeys: Set<string>): void {
    // 1.
    for (const tp of change.revoked) this.positions.delete(tpKey(tp));
    // 2.
    for (const tp of change.kept) {
      const pending = this.pendingSeeks.get(tpKey(tp));
      if (pending) this.positions.set(tpKey(tp), pending.offset);
      this.pendingSeeks.delete(tpKey(tp));
      const position = this.positions.get(tpKey(tp));
      if (position !== undefined) this.kafkaSeek({ ...tp, offset: position });
    }
    for (const tp of change.assigned) {
      const seek = this.pendingSeeks.get(tpKey(tp));
      if (seek) {
        this.pendingSeeks.delete(tpKey(tp));
        this.positions.set(tpKey(tp), seek.offset);
        this.kafkaSeek(seek);
      }
    }
    // 3.
    for (const tp of this.paused.values()) if (assignedKeys.has(tpKey(tp))) this.kafkaPause([tp]);
  }

  /** A caller's seek: applied now when `live` (running and assigned), else at the join that assigns it. */
  seek(tpo: TopicPartitionOffset, live: boolean): void {
    const key = tpKey(tpo);
    this.seekCounts.set(key, this.seeks(key) + 1);
    if (!live) {
      this.pendingSeeks.set(key, { ...tpo });
      return;
    }
    this.positions.set(key, tpo.offset);
    this.kafkaSeek(tpo);
  }

  /** Pauses the partitions; those in `live` are paused in kafkajs now. */
  pause(partitions: TopicPartition[], live: TopicPartition[]): void {
    for (const tp of partitions) this.paused.set(tpKey(tp), { ...tp });
    this.kafkaPause(live);
  }

  /** Resumes the partitions (in kafkajs too when `live`). */
  resume(partitions: TopicPartition[], live: boolean): void {
    for (const tp of partitions) this.paused.delete(tpKey(tp));
    if (!live) return;
    try {
      this.consumer.resume(partitions.map((tp) => ({ topic: tp.topic, partitions: [tp.partition] })));
    } catch {
      // No kafkajs consumer group right now (restarting): the next join re-applies only `paused`.
    }
  }

  /** kafkajs seek; kept for the next join when kafkajs has no consumer group (restarting after a crash). */
  private kafkaSeek(tpo: TopicPartitionOffset): void {
    try {
      this.consumer.seek({ topic: tpo.topic, partition: tpo.partition, offset: String(tpo.offset) });
    } catch {
      this.pendingSeeks.set(tpKey(tpo), { ...tpo });
    }
  }

  private kafkaPause(partitions: TopicPartition[]): void {
    if (partitions.length === 0) return;
    try {
      this.consumer.pause(partitions.map((tp) => ({ topic: tp.topic, partitions: [tp.partition] })));
    } catch {
      // No kafkajs consumer group right now (restarting): the next join re-applies `paused`.
    }
  }
}
