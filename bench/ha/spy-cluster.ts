/**
 * A {@link ClusterPort} decorator that reports what the HA scenarios measure
 * from inside one app instance, on either backend, without touching src/:
 * - `join`: the group consumer's `run()` was called (its first JoinGroup follows);
 * - `assignment`: every `onAssignment` call (generation, member id, the tasks
 *   owned afterwards, gained and lost), stamped when kafkajs / the embedded
 *   coordinator hands it over;
 * - `commit`: a transaction of a task producer committed (transactional id
 *   `<applicationId>-<taskId>`), stamped when `commitTransaction()` resolved.
 * And {@link SpyCluster.crash}: the instance dies without a final commit, for
 * the in-process "kill": 1. every producer call from then on rejects (the
 * open transactions are never committed; the new owners' producers fence and
 * abort them); 2. its group members stop without leaving the group (the
 * embedded cluster's `crashGroupMember`: no heartbeat, no LeaveGroup, the
 * group notices after the session timeout); on real Kafka the consumers are
 * closed instead (a LeaveGroup, faster than a SIGKILL: use child processes
 * there).
 * Everything else is forwarded unchanged (a Proxy), so methods and options
 * added to the port later (e.g. static membership's) pass through.
 */
import type { ClusterPort, GroupConsumerHandlers, GroupConsumerOptions, GroupConsumerPort, RawProducerOptions, RawProducerPort } from '../../src/cluster/port.js';

/** One observation of an instance, `ts` in ms since the epoch. */
export type SpyEvent =
  | { kind: 'join'; ts: number }
  | { kind: 'assignment'; ts: number; generation: number; memberId: string; tasks: string[]; gained: string[]; lost: string[] }
  | { kind: 'commit'; ts: number; task: string };

/** The decorated cluster and its controls. */
export interface SpyCluster {
  readonly cluster: ClusterPort;
  /** Tasks owned now (from the last assignment). */
  readonly owned: ReadonlySet<string>;
  /** Member ids this instance had (one per consumer join identity). */
  readonly memberIds: ReadonlySet<string>;
  /** Kills the instance's clients without a final commit (see the module comment). */
  crash(): Promise<void>;
}

/** Options of {@link spyCluster}. */
export interface SpyOptions {
  applicationId: string;
  /** The source topic: its partition p is task `0_p` (one sub-topology). */
  input: string;
  onEvent: (event: SpyEvent) => void;
}

interface CrashableEmbedded {
  crashGroupMember?: (groupId: string, memberId?: string) => string[];
}

const dead = (): Promise<never> => Promise.reject(new Error('instance crashed (HA harness): no more requests'));

/** Wraps `inner` (see the module comment). */
export function spyCluster(inner: ClusterPort, options: SpyOptions): SpyCluster {
  const owned = new Set<string>();
  const memberIds = new Set<string>();
  const consumers: { port: GroupConsumerPort; groupId: string }[] = [];
  let crashed = false;
  const taskOf = (partition: number): string => `0_${partition}`;
  const prefix = `${options.applicationId}-`;

  const wrapHandlers = (handlers: GroupConsumerHandlers): GroupConsumerHandlers =>
    new Proxy(handlers, {
      get(target, prop, receiver) {
        if (prop === 'onAssignment') {
          return async (change: Parameters<GroupConsumerHandlers['onAssignment']>[0]) => {
            if (crashed) return;
            memberIds.add(change.memberId);
            const gained = change.assigned.filter((tp) => tp.topic === options.input).map((tp) => taskOf(tp.partition));
            const lost = change.revoked.filter((tp) => tp.topic === options.input).map((tp) => taskOf(tp.partition));
            for (const t of lost) owned.delete(t);
            for (const t of gained) owned.add(t);
            options.onEvent({ kind: 'assignment', ts: Date.now(), generation: change.generationId, memberId: change.memberId, tasks: [...owned].sort(), gained, lost });
            return target.onAssignment(change);
          };
        }
        if (prop === 'eachBatch') return (batch: Parameters<GroupConsumerHandlers['eachBatch']>[0]) => (crashed ? new Promise<void>(() => undefined) : target.eachBatch(batch));
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });

  const wrapConsumer = (port: GroupConsumerPort, groupOptions: GroupConsumerOptions): GroupConsumerPort => {
    consumers.push({ port, groupId: groupOptions.groupId });
    return new Proxy(port, {
      get(target, prop) {
        if (prop === 'run') {
          return (handlers: GroupConsumerHandlers) => {
            options.onEvent({ kind: 'join', ts: Date.now() });
            return target.run(wrapHandlers(handlers));
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };

  const wrapProducer = (port: RawProducerPort): RawProducerPort =>
    new Proxy(port, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function') return value;
        const method = (value as (...a: unknown[]) => Promise<unknown>).bind(target);
        if (prop === 'close') return method;
        if (prop === 'commitTransaction') {
          return async () => {
            if (crashed) return dead();
            await method();
            const id = target.transactionalId;
            if (id?.startsWith(prefix)) options.onEvent({ kind: 'commit', ts: Date.now(), task: id.slice(prefix.length) });
          };
        }
        return (...args: unknown[]) => (crashed ? dead() : method(...args));
      },
    });

  const cluster = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'consumer') return (o: GroupConsumerOptions) => wrapConsumer(target.consumer(o), o);
      if (prop === 'producer') return (o: RawProducerOptions) => wrapProducer(target.producer(o));
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });

  return {
    cluster,
    owned,
    memberIds,
    async crash() {
      // 1. no producer request from now on
      crashed = true;
      // 2. the group members die without leaving (embedded), or leave (real Kafka)
      const embedded = inner as unknown as CrashableEmbedded;
      for (const { port, groupId } of consumers) {
        if (typeof embedded.crashGroupMember === 'function') {
          for (const memberId of memberIds) {
            try {
              embedded.crashGroupMember(groupId, memberId);
            } catch {
              // not a member of this group
            }
          }
        } else {
          await port.close().catch(() => undefined);
        }
      }
    },
  };
}
