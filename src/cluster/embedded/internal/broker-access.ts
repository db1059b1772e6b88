/**
 * The broker behind an `EmbeddedKafkaCluster`, for sluice's own tests only.
 * The cluster keeps its broker in a private field (`#broker`) so the public
 * type exposes no internals; this accessor is the one door to them.
 */
import type { Broker } from './broker.js';

const brokers = new WeakMap<object, Broker>();

/** Called by the cluster's constructor. */
export function registerBroker(cluster: object, broker: Broker): void {
  brokers.set(cluster, broker);
}

/** The broker of `cluster` (an `EmbeddedKafkaCluster`); throws for anything else. */
export function brokerOf(cluster: object): Broker {
  const broker = brokers.get(cluster);
  if (!broker) throw new TypeError('brokerOf() needs an EmbeddedKafkaCluster');
  return broker;
}
