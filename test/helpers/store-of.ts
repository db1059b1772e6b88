/**
 * `storeOf(driver.getKeyValueStore('name'))`: the store a test expects to
 * exist. The driver's store getters return null for an unknown name (as
 * Kafka's TopologyTestDriver); a test that reads a store it built fails here
 * naming the problem instead of on a null dereference later.
 */
export function storeOf<S>(store: S | null): S {
  if (store === null) throw new Error('TopologyTestDriver returned null: no state store of that name and kind');
  return store;
}
