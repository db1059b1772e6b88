/**
 * Ported from Kafka Streams' `KTableImplTest`: the cases about KTable-KTable
 * key joins (argument checks, serdes of the joined table, the stores a join
 * materializes). Inputs and expectations unchanged; Java's
 * NullPointerException is sluice's IllegalArgumentError "<argument> can't be null".
 */
import { describe, expect, it } from 'vitest';
import { IllegalArgumentError, Materialized, Serdes, StreamsBuilder, type Topology } from '../../../../../src/index.js';
import { TOSTRING_JOINER } from '../../../../helpers/ktable/tt-join-recorder.js';
import { impl } from '../../../../helpers/dsl-impl.js';

const S = Serdes.String();
const consumed = { keySerde: S, valueSerde: S };
const table = () => new StreamsBuilder().table('test', consumed);

/** The distinct state stores of `topology` (Kafka's `driver.getAllStateStores().size()`). */
function stateStores(topology: Topology): Set<string> {
  return new Set(topology.describe().subtopologies.flatMap((s) => s.nodes.flatMap((n) => (n.type === 'processor' ? n.stores : []))));
}

describe('KTableImplTest (key joins)', () => {
  /** KTableImplTest.shouldNotAllowNullOtherTableOnJoin */
  it('shouldNotAllowNullOtherTableOnJoin', () => {
    expect(() => table().join(null as never, TOSTRING_JOINER)).toThrow(IllegalArgumentError);
  });

  /** KTableImplTest.shouldAllowNullStoreInJoin */
  it('shouldAllowNullStoreInJoin', () => {
    const t = table();
    expect(t.join(t, TOSTRING_JOINER).queryableStoreName).toBeUndefined();
  });

  /** KTableImplTest.shouldNotAllowNullJoinerJoin */
  it('shouldNotAllowNullJoinerJoin', () => {
    const t = table();
    expect(() => t.join(t, null as never)).toThrow("joiner can't be null");
  });

  /** KTableImplTest.shouldNotAllowNullOtherTableOnOuterJoin */
  it('shouldNotAllowNullOtherTableOnOuterJoin', () => {
    expect(() => table().outerJoin(null as never, TOSTRING_JOINER)).toThrow(IllegalArgumentError);
  });

  /** KTableImplTest.shouldNotAllowNullJoinerOnOuterJoin */
  it('shouldNotAllowNullJoinerOnOuterJoin', () => {
    const t = table();
    expect(() => t.outerJoin(t, null as never)).toThrow("joiner can't be null");
  });

  /** KTableImplTest.shouldNotAllowNullJoinerOnLeftJoin */
  it('shouldNotAllowNullJoinerOnLeftJoin', () => {
    const t = table();
    expect(() => t.leftJoin(t, null as never)).toThrow("joiner can't be null");
  });

  /** KTableImplTest.shouldNotAllowNullOtherTableOnLeftJoin */
  it('shouldNotAllowNullOtherTableOnLeftJoin', () => {
    expect(() => table().leftJoin(null as never, TOSTRING_JOINER)).toThrow(IllegalArgumentError);
  });

  /** KTableImplTest.shouldThrowNullPointerOnJoinWhenMaterializedIsNull */
  it('shouldThrowNullPointerOnJoinWhenMaterializedIsNull', () => {
    const t = table();
    expect(() => t.join(t, TOSTRING_JOINER, null as never)).toThrow("materialized can't be null");
  });

  /** KTableImplTest.shouldThrowNullPointerOnLeftJoinWhenMaterializedIsNull */
  it('shouldThrowNullPointerOnLeftJoinWhenMaterializedIsNull', () => {
    const t = table();
    expect(() => t.leftJoin(t, TOSTRING_JOINER, null as never)).toThrow("materialized can't be null");
  });

  /** KTableImplTest.shouldThrowNullPointerOnOuterJoinWhenMaterializedIsNull */
  it('shouldThrowNullPointerOnOuterJoinWhenMaterializedIsNull', () => {
    const t = table();
    expect(() => t.outerJoin(t, TOSTRING_JOINER, null as never)).toThrow("materialized can't be null");
  });

  /** KTableImplTest.shouldPreserveSerdesForOperators (its join, leftJoin and outerJoin assertions) */
  it('shouldPreserveSerdesForOperators (joins)', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table('topic-2', consumed);
    const joiner = (value1: string | null) => value1 ?? '';
    const mySerde = { ...Serdes.String(), name: 'mySerde' }; // a serde distinct from the table's
    const joins = {
      join: (m?: Materialized<string, string>) => (m ? table1.join(table1, joiner, m) : table1.join(table1, joiner)),
      leftJoin: (m?: Materialized<string, string>) => (m ? table1.leftJoin(table1, joiner, m) : table1.leftJoin(table1, joiner)),
      outerJoin: (m?: Materialized<string, string>) => (m ? table1.outerJoin(table1, joiner, m) : table1.outerJoin(table1, joiner)),
    };
    for (const [name, join] of Object.entries(joins)) {
      expect(impl(join()).serdes.key, name).toBe(S);
      expect(impl(join()).serdes.value, name).toBeUndefined();
      expect(impl(join(Materialized.with(mySerde, mySerde))).serdes.key, name).toBe(mySerde);
      expect(impl(join(Materialized.with(mySerde, mySerde))).serdes.value, name).toBe(mySerde);
    }
  });

  /** KTableImplTest.testStateStore */
  it('testStateStore', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table('topic1', consumed);
    const table2 = builder.table('topic2', consumed);
    const table1Mapped = table1.mapValues((s) => Number.parseInt(s, 10));
    const table1MappedFiltered = table1Mapped.filter((_key, value) => value % 2 === 0);
    table2.join(table1MappedFiltered, (v1, v2) => v1 + String(v2));
    expect(stateStores(builder.build()).size).toBe(2);
  });

  /** KTableImplTest.testStateStoreLazyEval */
  it('testStateStoreLazyEval', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table('topic1', consumed);
    builder.table('topic2', consumed);
    table1.mapValues((s) => Number.parseInt(s, 10)).filter((_key, value) => value % 2 === 0);
    expect(stateStores(builder.build()).size).toBe(0);
  });
});
