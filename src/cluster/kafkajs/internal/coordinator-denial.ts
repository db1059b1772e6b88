/**
 * Patch: an authorization failure of FindCoordinator reaches the caller.
 *
 * kafkajs 2.2.4 `Cluster.findGroupCoordinatorMetadata` asks each broker in turn
 * (`brokerPool.withBroker`, which swallows every error) and, when none
 * answered, throws `KafkaJSGroupCoordinatorNotFound("Failed to find group
 * coordinator")`. A principal without DESCRIBE on its transactional id (error
 * 53, TRANSACTIONAL_ID_AUTHORIZATION_FAILED) or on its group (30,
 * GROUP_AUTHORIZATION_FAILED) thus sees a coordinator that "cannot be found",
 * and the group consumer would restart forever. Here:
 * 1. `Broker.prototype.findGroupCoordinator` records an authorization error
 *    of its answer in the AsyncLocalStorage context of the lookup;
 * 2. `Cluster.prototype.findGroupCoordinatorMetadata` runs in such a context
 *    and, when kafkajs gives up with "not found" after a broker refused, throws
 *    that refusal instead (non-retriable, as kafkajs classifies it), so the
 *    mapping names the transactional id or group and the principal.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { KafkaJsInternals } from './kafkajs-internals.js';

const PATCHED = Symbol.for('sluice.coordinatorDenial');

/** kafkajs' type names of the refusals surfaced. */
const DENIALS: ReadonlySet<string> = new Set(['TRANSACTIONAL_ID_AUTHORIZATION_FAILED', 'GROUP_AUTHORIZATION_FAILED', 'CLUSTER_AUTHORIZATION_FAILED']);

type Lookup = (this: unknown, request: { groupId: string; coordinatorType?: number }) => Promise<unknown>;
type WithPrototype = { prototype: Record<string, unknown> } & { [PATCHED]?: true };

const refusals = new AsyncLocalStorage<{ denied: unknown }>();

/** Installs the patch (idempotent); see the module comment. */
export function installCoordinatorDenial(internals: KafkaJsInternals): void {
  const Broker = internals.load<WithPrototype>('broker/index.js');
  const Cluster = internals.load<WithPrototype>('cluster/index.js');
  if (Cluster[PATCHED]) return;
  Cluster[PATCHED] = true;
  // 1.
  const ask = Broker.prototype.findGroupCoordinator as Lookup;
  Broker.prototype.findGroupCoordinator = async function (this: unknown, request: { groupId: string; coordinatorType?: number }) {
    try {
      return await ask.call(this, request);
    } catch (error) {
      const store = refusals.getStore();
      if (store && DENIALS.has(String((error as { type?: unknown }).type))) store.denied ??= error;
      throw error;
    }
  };
  // 2.
  const find = Cluster.prototype.findGroupCoordinatorMetadata as Lookup;
  Cluster.prototype.findGroupCoordinatorMetadata = function (this: unknown, request: { groupId: string; coordinatorType?: number }) {
    const store: { denied: unknown } = { denied: undefined };
    return refusals.run(store, async () => {
      try {
        return await find.call(this, request);
      } catch (error) {
        if (store.denied !== undefined && (error as { name?: unknown }).name === 'KafkaJSGroupCoordinatorNotFound') throw store.denied;
        throw error;
      }
    });
  };
}
