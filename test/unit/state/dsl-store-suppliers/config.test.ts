/**
 * The `dslStoreSuppliers` key of the KafkaStreams config (Kafka's
 * `dsl.store.suppliers.class`): a class or an instance, resolved to an
 * instance; unset means lmdb; anything else a ConfigError naming the key.
 * Kafka's `StreamsConfigTest.shouldSpecifyRocksdbDslSupplierWhenNotExplicitlyAddedToConfigs`
 * and `shouldSpecifyInMemoryDslSupplierWhenExplicitlyAddedToConfigs`, in
 * sluice's terms (unset resolves to undefined, which the DSL reads as lmdb).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BuiltInDslStoreSuppliers, ConfigError } from '../../../../src/index.js';
import { EmbeddedKafkaCluster } from '../../../../src/cluster/embedded/embedded-cluster.js';
import { resolveConfig } from '../../../../src/runtime/config.js';

const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
afterAll(() => cluster.close());
const base = () => ({ applicationId: 'app', cluster });

describe('KafkaStreams config: dslStoreSuppliers', () => {
  // StreamsConfigTest.shouldSpecifyRocksdbDslSupplierWhenNotExplicitlyAddedToConfigs
  it('is unset by default (the DSL then uses lmdb)', () => {
    expect(resolveConfig(base()).dslStoreSuppliers).toBeUndefined();
  });

  // StreamsConfigTest.shouldSpecifyInMemoryDslSupplierWhenExplicitlyAddedToConfigs
  it('takes the class or an instance', () => {
    expect(resolveConfig({ ...base(), dslStoreSuppliers: BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers }).dslStoreSuppliers).toBeInstanceOf(
      BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers,
    );
    const instance = new BuiltInDslStoreSuppliers.LmdbDslStoreSuppliers();
    expect(resolveConfig({ ...base(), dslStoreSuppliers: instance }).dslStoreSuppliers).toBe(instance);
  });

  it('refuses anything else with a ConfigError naming the key', () => {
    for (const wrong of ['in_memory', 42, {}, class {}]) {
      expect(() => resolveConfig({ ...base(), dslStoreSuppliers: wrong as never })).toThrow(ConfigError);
      expect(() => resolveConfig({ ...base(), dslStoreSuppliers: wrong as never })).toThrow(/Config 'dslStoreSuppliers' must be a DslStoreSuppliers class or instance/);
    }
  });
});
