/**
 * Static membership (KIP-345) and rejoin on request for kafkajs 2.2.4, which
 * has the request encoders (JoinGroup v5, SyncGroup v3, Heartbeat v3,
 * LeaveGroup v3 take a `groupInstanceId`) but whose `ConsumerGroup` never
 * passes one, always sends LeaveGroup on stop and has no way to ask for a
 * rebalance. Patched in sluice's private copy only (`patches.ts`):
 *
 * - Which consumer: the group consumer tags the objects its partition
 *   assigners create with a {@link MemberTag} (`tagAssigners`); a
 *   `ConsumerGroup` finds it in `this.assigners`.
 * - `ConsumerGroup.prototype.joinAndSync` and `heartbeat` run inside an
 *   AsyncLocalStorage context holding the tag; the patched JoinGroup,
 *   SyncGroup and Heartbeat request builders read it and add
 *   `groupInstanceId` (a broker that negotiates an older version than the one
 *   carrying the field gets a clear error instead of a silently dynamic member).
 * - `ConsumerGroup.prototype.leave` of a static member sends no LeaveGroup
 *   (as Kafka's consumer on close): a restart within the session timeout causes no rebalance.
 * - Rejoin on request ({@link MemberTag.rejoinReason}): every heartbeat of the
 *   member fails with kafkajs' own REBALANCE_IN_PROGRESS until the next
 *   `joinAndSync`, so kafkajs' runner rejoins as it does when the broker says
 *   so. A broker rebalances a Stable group on a follower's JoinGroup only when
 *   the member's protocols changed (Kafka Streams puts a changing `uniqueField`
 *   in its subscription for this); that JoinGroup therefore carries one more
 *   protocol, {@link REJOIN_PROTOCOL} (empty metadata, offered last, so it is
 *   never the group's choice while another protocol is common to all members).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { StreamsError } from '../../../errors.js';
import { kafkaJsProtocolErrorClass, protocolErrors, type KafkaJsInternals, type KafkaJsRequestDefinitions } from './kafkajs-internals.js';

/** The extra protocol name of a requested rejoin's JoinGroup (see the module comment). */
export const REJOIN_PROTOCOL = 'sluice-rejoin-request';

/** What a group consumer tells its kafkajs `ConsumerGroup` (through its assigners). */
export interface MemberTag {
  /** Static membership id; undefined: a dynamic member. */
  readonly groupInstanceId: string | undefined;
  /** Set by `requestRejoin`: heartbeats fail with REBALANCE_IN_PROGRESS until the rejoin starts. */
  rejoinReason?: string | undefined;
  /** Called when a requested rejoin starts (tests, logs). */
  onRejoin?: ((reason: string) => void) | undefined;
  /** Called when a join (`joinAndSync`) starts; the returned function when it settles (join-wait.ts). */
  onJoinStart?: (() => () => void) | undefined;
}

interface Context {
  tag: MemberTag;
  /** The join was asked for: JoinGroup offers {@link REJOIN_PROTOCOL} too. */
  rejoin: boolean;
}

const TAG = Symbol.for('sluice.kafkajs.memberTag');
const PATCHED = Symbol.for('sluice.kafkajs.staticMembership');
const context = new AsyncLocalStorage<Context>();

/** The minimum version of each request that carries `group_instance_id`. */
export const INSTANCE_ID_VERSIONS = { JoinGroup: 5, SyncGroup: 3, Heartbeat: 3 } as const;

/** The prototype methods of kafkajs' `ConsumerGroup` this module wraps. */
interface ConsumerGroupLike {
  assigners?: Array<Record<symbol, unknown>>;
  memberId: string | null;
  joinAndSync(): Promise<void>;
  heartbeat(options: { interval: number }): Promise<void>;
  leave(): Promise<void>;
}
type ConsumerGroupClass = { prototype: ConsumerGroupLike };

/** A kafkajs assigner factory whose assigners carry `tag`. */
export function tagAssigner<F extends (...args: never[]) => object>(factory: F, tag: MemberTag): F {
  // a wrapper of a generic F is not an F to TypeScript (its return type is the intersection); it is called as F is
  return ((...args: Parameters<F>) => Object.assign(factory(...args), { [TAG]: tag })) as unknown as F;
}

/** The tag of a kafkajs ConsumerGroup (from its assigners), if any. */
export function tagOf(group: Pick<ConsumerGroupLike, 'assigners'>): MemberTag | undefined {
  for (const assigner of group.assigners ?? []) {
    const tag = assigner[TAG] as MemberTag | undefined;
    if (tag) return tag;
  }
  return undefined;
}

/** The static-membership context of the request being built (tests). */
export function currentContext(): Readonly<Context> | undefined {
  return context.getStore();
}

/** Runs `fn` as `tag`'s request context (tests, and the wrapped ConsumerGroup methods). */
export function withMemberContext<T>(tag: MemberTag, rejoin: boolean, fn: () => T): T {
  return context.run({ tag, rejoin }, fn);
}

function tooOld(api: string, version: number, groupInstanceId: string): StreamsError {
  return new StreamsError(
    `groupInstanceId '${groupInstanceId}' needs ${api} v${INSTANCE_ID_VERSIONS[api as keyof typeof INSTANCE_ID_VERSIONS]} (Kafka 2.3 or newer), but the broker speaks v${version}: ` +
      `upgrade the brokers or remove groupInstanceId`,
    { code: 'INVALID_CONFIG', kind: 'fatal' },
  );
}

/** Wraps a request module's builders: `rewrite(args, ctx, version)` returns the arguments to build with. */
function wrapBuilder(
  internals: KafkaJsInternals,
  module: string,
  api: keyof typeof INSTANCE_ID_VERSIONS,
  rewrite: (args: Record<string, unknown>, ctx: Context) => Record<string, unknown>,
): void {
  const definitions = internals.load<KafkaJsRequestDefinitions>(module);
  const original = definitions.protocol;
  definitions.protocol = ({ version }) => {
    const factory = original({ version });
    return (args) => {
      const ctx = context.getStore();
      if (!ctx) return factory(args);
      const id = ctx.tag.groupInstanceId;
      if (id !== undefined && version < INSTANCE_ID_VERSIONS[api]) throw tooOld(api, version, id);
      return factory(rewrite(id === undefined ? args : { ...args, groupInstanceId: id }, ctx));
    };
  };
}

/**
 * Installs the patches (idempotent):
 * 1. JoinGroup, SyncGroup, Heartbeat builders add `groupInstanceId` from the context (JoinGroup: and the rejoin protocol);
 * 2. `joinAndSync` runs in the context, taking a pending rejoin request, watched by `onJoinStart`;
 * 3. `heartbeat` runs in the context; fails with REBALANCE_IN_PROGRESS while a rejoin is pending;
 * 4. `leave` of a static member sends nothing.
 */
export function installStaticMembership(internals: KafkaJsInternals): void {
  const ConsumerGroup = internals.load<ConsumerGroupClass & { [PATCHED]?: true }>('consumer/consumerGroup.js');
  if (ConsumerGroup[PATCHED]) return;
  ConsumerGroup[PATCHED] = true;
  // 1.
  wrapBuilder(internals, 'protocol/requests/joinGroup/index.js', 'JoinGroup', (args, ctx) =>
    ctx.rejoin ? { ...args, groupProtocols: [...(args.groupProtocols as object[]), { name: REJOIN_PROTOCOL, metadata: Buffer.alloc(0) }] } : args,
  );
  wrapBuilder(internals, 'protocol/requests/syncGroup/index.js', 'SyncGroup', (args) => args);
  wrapBuilder(internals, 'protocol/requests/heartbeat/index.js', 'Heartbeat', (args) => args);
  const proto = ConsumerGroup.prototype;
  const { joinAndSync, heartbeat, leave } = proto;
  // 2.
  proto.joinAndSync = function (this: ConsumerGroupLike) {
    const tag = tagOf(this);
    if (!tag) return joinAndSync.call(this);
    const reason = tag.rejoinReason;
    tag.rejoinReason = undefined;
    if (reason !== undefined) tag.onRejoin?.(reason);
    const settled = tag.onJoinStart?.();
    const joined = context.run({ tag, rejoin: reason !== undefined }, () => joinAndSync.call(this));
    return settled ? joined.finally(settled) : joined;
  };
  // 3.
  const rebalancing = protocolErrors(internals).errorCodes.find((e) => e.type === 'REBALANCE_IN_PROGRESS');
  const ProtocolError = kafkaJsProtocolErrorClass(internals);
  proto.heartbeat = function (this: ConsumerGroupLike, options: { interval: number }) {
    const tag = tagOf(this);
    if (!tag) return heartbeat.call(this, options);
    if (tag.rejoinReason !== undefined && rebalancing) return Promise.reject(new ProtocolError(rebalancing));
    return context.run({ tag, rejoin: false }, () => heartbeat.call(this, options));
  };
  // 4.
  proto.leave = function (this: ConsumerGroupLike) {
    if (tagOf(this)?.groupInstanceId === undefined) return leave.call(this);
    this.memberId = null;
    return Promise.resolve();
  };
}
