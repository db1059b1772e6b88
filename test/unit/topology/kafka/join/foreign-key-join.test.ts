/**
 * Port of Kafka's `KTableKTableForeignKeyJoinIntegrationTest` (its
 * TopologyTestDriver cases), inputs and expected outputs unchanged. The Java
 * test is parameterized over leftJoin × optimization × materialized × rejoin
 * (× versioned); here over leftJoin × materialized × rejoin (sluice has no
 * topology optimization; the versioned parameters and
 * `shouldIgnoreOutOfOrderRecordsIffVersioned` are in foreign-key-join-versioned.test.ts).
 * Outputs are read as Kafka's `readKeyValuesToMap` does (a tombstone stays
 * as `key -> null`). The rejoin cases need the key-based table join: they are skipped while it
 * is not there.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Serdes } from '../../../../../src/serdes/serdes.js';
import type { KeyValueStore } from '../../../../../src/state/state-store.js';
import { TopologyTestDriver } from '../../../../../src/testing/topology-test-driver.js';
import type { Topology } from '../../../../../src/topology/topology.js';
import { foreignKeyJoinTopology, keyJoinAvailable, LEFT_TABLE, OUTPUT, readKeyValuesToMap, REJOIN_OUTPUT, RIGHT_TABLE } from '../../../../helpers/ktable/foreign-key-join-topology.js';
import { storeOf } from '../../../../helpers/store-of.js';

const S = Serdes.String();
const baseTimestamp = 1_700_000_000_000;
const rejoinAvailable = keyJoinAvailable();

const mkMap = (...entries: Array<[string, string | null]>): Map<string, string | null> => new Map(entries);
const emptyMap = (): Map<string, string | null> => new Map();

function asMap(store: KeyValueStore<string, string>): Map<string, string | null> {
  return new Map(store.all().map((kv) => [kv.key, kv.value]));
}

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function open(topology: Topology) {
  driver = new TopologyTestDriver(topology);
  const d = driver;
  return {
    driver: d,
    right: d.createInputTopic(RIGHT_TABLE, S, S),
    left: d.createInputTopic(LEFT_TABLE, S, S),
    outputTopic: d.createOutputTopic(OUTPUT, S, S),
    rejoinOutputTopic: d.createOutputTopic(REJOIN_OUTPUT, S, S),
    store: () => storeOf(d.getKeyValueStore<string, string>('store')),
  };
}

const cases = [true, false].flatMap((leftJoin) => [true, false].flatMap((materialized) => [true, false].map((rejoin) => ({ leftJoin, materialized, rejoin }))));

for (const { leftJoin, materialized, rejoin } of cases) {
  const title = `leftJoin=${leftJoin} materialized=${materialized} rejoin=${rejoin}`;
  (rejoin && !rejoinAvailable ? describe.skip : describe)(`KTableKTableForeignKeyJoinIntegrationTest [${title}]`, () => {
    const topology = (extractor?: (value: string) => string | null) =>
      foreignKeyJoinTopology({ queryableStoreName: materialized ? 'store' : null, leftJoin, rejoin, ...(extractor ? { extractor } : {}) });

    // KTableKTableForeignKeyJoinIntegrationTest.doJoinFromLeftThenDeleteLeftEntity
    it('doJoinFromLeftThenDeleteLeftEntity', () => {
      const { right, left, outputTopic, rejoinOutputTopic, store } = open(topology());
      // Pre-populate the RHS records. This test is all about what happens when we add/remove LHS records
      right.pipeInput('rhs1', 'rhsValue1', baseTimestamp);
      right.pipeInput('rhs2', 'rhsValue2', baseTimestamp + 1);
      right.pipeInput('rhs3', 'rhsValue3', baseTimestamp + 2); // this unreferenced FK won't show up in any results
      expect(readKeyValuesToMap(outputTopic)).toEqual(emptyMap());
      if (rejoin) expect(readKeyValuesToMap(rejoinOutputTopic)).toEqual(emptyMap());
      if (materialized) expect(asMap(store())).toEqual(emptyMap());

      left.pipeInput('lhs1', 'lhsValue1|rhs1', baseTimestamp + 3);
      left.pipeInput('lhs2', 'lhsValue2|rhs2', baseTimestamp + 4);
      {
        const expected = mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2|rhs2,rhsValue2)']);
        expect(readKeyValuesToMap(outputTopic)).toEqual(expected);
        if (rejoin) {
          expect(readKeyValuesToMap(rejoinOutputTopic)).toEqual(
            mkMap(['lhs1', 'rejoin((lhsValue1|rhs1,rhsValue1),lhsValue1|rhs1)'], ['lhs2', 'rejoin((lhsValue2|rhs2,rhsValue2),lhsValue2|rhs2)']),
          );
        }
        if (materialized) expect(asMap(store())).toEqual(expected);
      }

      // Add another reference to an existing FK
      left.pipeInput('lhs3', 'lhsValue3|rhs1', baseTimestamp + 5);
      expect(readKeyValuesToMap(outputTopic)).toEqual(mkMap(['lhs3', '(lhsValue3|rhs1,rhsValue1)']));
      if (rejoin) expect(readKeyValuesToMap(rejoinOutputTopic)).toEqual(mkMap(['lhs3', 'rejoin((lhsValue3|rhs1,rhsValue1),lhsValue3|rhs1)']));
      if (materialized) {
        expect(asMap(store())).toEqual(mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2|rhs2,rhsValue2)'], ['lhs3', '(lhsValue3|rhs1,rhsValue1)']));
      }

      // Now delete one LHS entity such that one delete is propagated down to the output.
      left.pipeInput('lhs1', null, baseTimestamp + 6);
      expect(readKeyValuesToMap(outputTopic)).toEqual(mkMap(['lhs1', null]));
      if (rejoin) expect(readKeyValuesToMap(rejoinOutputTopic)).toEqual(mkMap(['lhs1', null]));
      if (materialized) expect(asMap(store())).toEqual(mkMap(['lhs2', '(lhsValue2|rhs2,rhsValue2)'], ['lhs3', '(lhsValue3|rhs1,rhsValue1)']));
    });

    // KTableKTableForeignKeyJoinIntegrationTest.doJoinFromRightThenDeleteRightEntity
    it('doJoinFromRightThenDeleteRightEntity', () => {
      const { right, left, outputTopic, store } = open(topology());
      // Pre-populate the LHS records. This test is all about what happens when we add/remove RHS records
      left.pipeInput('lhs1', 'lhsValue1|rhs1', baseTimestamp);
      left.pipeInput('lhs2', 'lhsValue2|rhs2', baseTimestamp + 1);
      left.pipeInput('lhs3', 'lhsValue3|rhs1', baseTimestamp + 2);
      const halfJoined = mkMap(['lhs1', '(lhsValue1|rhs1,null)'], ['lhs2', '(lhsValue2|rhs2,null)'], ['lhs3', '(lhsValue3|rhs1,null)']);
      expect(readKeyValuesToMap(outputTopic)).toEqual(leftJoin ? halfJoined : emptyMap());
      if (materialized) expect(asMap(store())).toEqual(leftJoin ? halfJoined : emptyMap());

      right.pipeInput('rhs1', 'rhsValue1', baseTimestamp + 3);
      expect(readKeyValuesToMap(outputTopic)).toEqual(mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs3', '(lhsValue3|rhs1,rhsValue1)']));
      if (materialized) {
        expect(asMap(store())).toEqual(
          leftJoin
            ? mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2|rhs2,null)'], ['lhs3', '(lhsValue3|rhs1,rhsValue1)'])
            : mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs3', '(lhsValue3|rhs1,rhsValue1)']),
        );
      }

      right.pipeInput('rhs2', 'rhsValue2', baseTimestamp + 4);
      expect(readKeyValuesToMap(outputTopic)).toEqual(mkMap(['lhs2', '(lhsValue2|rhs2,rhsValue2)']));
      const allJoined = mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2|rhs2,rhsValue2)'], ['lhs3', '(lhsValue3|rhs1,rhsValue1)']);
      if (materialized) expect(asMap(store())).toEqual(allJoined);

      right.pipeInput('rhs3', 'rhsValue3', baseTimestamp + 5); // this unreferenced FK won't show up in any results
      expect(readKeyValuesToMap(outputTopic)).toEqual(emptyMap());
      if (materialized) expect(asMap(store())).toEqual(allJoined);

      // Now delete the RHS entity such that all matching keys have deletes propagated.
      right.pipeInput('rhs1', null, baseTimestamp + 6);
      expect(readKeyValuesToMap(outputTopic)).toEqual(mkMap(['lhs1', leftJoin ? '(lhsValue1|rhs1,null)' : null], ['lhs3', leftJoin ? '(lhsValue3|rhs1,null)' : null]));
      if (materialized) {
        expect(asMap(store())).toEqual(
          leftJoin
            ? mkMap(['lhs1', '(lhsValue1|rhs1,null)'], ['lhs2', '(lhsValue2|rhs2,rhsValue2)'], ['lhs3', '(lhsValue3|rhs1,null)'])
            : mkMap(['lhs2', '(lhsValue2|rhs2,rhsValue2)']),
        );
      }
    });

    // KTableKTableForeignKeyJoinIntegrationTest.shouldEmitTombstoneWhenDeletingNonJoiningRecords
    it('shouldEmitTombstoneWhenDeletingNonJoiningRecords', () => {
      const { left, outputTopic, store } = open(topology());
      left.pipeInput('lhs1', 'lhsValue1|rhs1', baseTimestamp);
      {
        const expected = leftJoin ? mkMap(['lhs1', '(lhsValue1|rhs1,null)']) : emptyMap();
        expect(readKeyValuesToMap(outputTopic)).toEqual(expected);
        if (materialized) expect(asMap(store())).toEqual(expected);
      }
      // Deleting a non-joining record produces an unnecessary tombstone for inner joins, because
      // it's not possible to know whether a result was previously emitted.
      // For the left join, the tombstone is necessary.
      left.pipeInput('lhs1', null, baseTimestamp + 1);
      expect(readKeyValuesToMap(outputTopic)).toEqual(mkMap(['lhs1', null]));
      if (materialized) expect(asMap(store())).toEqual(emptyMap());
      // Deleting a non-existing record is idempotent
      left.pipeInput('lhs1', null, baseTimestamp + 2);
      expect(readKeyValuesToMap(outputTopic)).toEqual(emptyMap());
      if (materialized) expect(asMap(store())).toEqual(emptyMap());
    });

    // KTableKTableForeignKeyJoinIntegrationTest.shouldNotEmitTombstonesWhenDeletingNonExistingRecords
    it('shouldNotEmitTombstonesWhenDeletingNonExistingRecords', () => {
      const { left, outputTopic, store } = open(topology());
      // Deleting a record that never existed doesn't need to emit tombstones.
      left.pipeInput('lhs1', null, baseTimestamp);
      expect(readKeyValuesToMap(outputTopic)).toEqual(emptyMap());
      if (materialized) expect(asMap(store())).toEqual(emptyMap());
    });

    // KTableKTableForeignKeyJoinIntegrationTest.joinShouldProduceNullsWhenValueHasNonMatchingForeignKey
    it('joinShouldProduceNullsWhenValueHasNonMatchingForeignKey', () => {
      const { right, left, outputTopic, store } = open(topology());
      left.pipeInput('lhs1', 'lhsValue1|rhs1', baseTimestamp);
      // no output for a new inner join on a non-existent FK
      // the left join of course emits the half-joined output
      expect(readKeyValuesToMap(outputTopic)).toEqual(leftJoin ? mkMap(['lhs1', '(lhsValue1|rhs1,null)']) : emptyMap());
      if (materialized) expect(asMap(store())).toEqual(leftJoin ? mkMap(['lhs1', '(lhsValue1|rhs1,null)']) : emptyMap());
      // "moving" our subscription to another non-existent FK results in an unnecessary tombstone for inner join,
      // since it impossible to know whether the prior FK existed or not (and thus whether any results have
      // previously been emitted)
      // The left join emits a _necessary_ update (since the lhs record has actually changed)
      left.pipeInput('lhs1', 'lhsValue1|rhs2', baseTimestamp + 1);
      expect(readKeyValuesToMap(outputTopic)).toEqual(mkMap(['lhs1', leftJoin ? '(lhsValue1|rhs2,null)' : null]));
      if (materialized) expect(asMap(store())).toEqual(leftJoin ? mkMap(['lhs1', '(lhsValue1|rhs2,null)']) : emptyMap());
      // of course, moving it again to yet another non-existent FK has the same effect
      left.pipeInput('lhs1', 'lhsValue1|rhs3', baseTimestamp + 2);
      expect(readKeyValuesToMap(outputTopic)).toEqual(mkMap(['lhs1', leftJoin ? '(lhsValue1|rhs3,null)' : null]));
      if (materialized) expect(asMap(store())).toEqual(leftJoin ? mkMap(['lhs1', '(lhsValue1|rhs3,null)']) : emptyMap());

      // Adding an RHS record now, so that we can demonstrate "moving" from a non-existent FK to an existent one
      // This RHS key was previously referenced, but it's not referenced now, so adding this record should
      // result in no changes whatsoever.
      right.pipeInput('rhs1', 'rhsValue1', baseTimestamp + 3);
      expect(readKeyValuesToMap(outputTopic)).toEqual(emptyMap());
      if (materialized) expect(asMap(store())).toEqual(leftJoin ? mkMap(['lhs1', '(lhsValue1|rhs3,null)']) : emptyMap());

      // now, we change to a FK that exists, and see the join completes
      left.pipeInput('lhs1', 'lhsValue1|rhs1', baseTimestamp + 4);
      expect(readKeyValuesToMap(outputTopic)).toEqual(mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)']));
      if (materialized) expect(asMap(store())).toEqual(mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)']));

      // but if we update it again to a non-existent one, we'll get a tombstone for the inner join, and the
      // left join updates appropriately.
      left.pipeInput('lhs1', 'lhsValue1|rhs2', baseTimestamp + 5);
      expect(readKeyValuesToMap(outputTopic)).toEqual(mkMap(['lhs1', leftJoin ? '(lhsValue1|rhs2,null)' : null]));
      if (materialized) expect(asMap(store())).toEqual(leftJoin ? mkMap(['lhs1', '(lhsValue1|rhs2,null)']) : emptyMap());
    });

    // KTableKTableForeignKeyJoinIntegrationTest.shouldUnsubscribeOldForeignKeyIfLeftSideIsUpdated
    it('shouldUnsubscribeOldForeignKeyIfLeftSideIsUpdated', () => {
      const { right, left, outputTopic, store } = open(topology());
      // Pre-populate the RHS records. This test is all about what happens when we change LHS records foreign key reference
      // then populate update on RHS
      right.pipeInput('rhs1', 'rhsValue1', baseTimestamp);
      right.pipeInput('rhs2', 'rhsValue2', baseTimestamp + 1);
      expect(readKeyValuesToMap(outputTopic)).toEqual(emptyMap());
      if (materialized) expect(asMap(store())).toEqual(emptyMap());

      left.pipeInput('lhs1', 'lhsValue1|rhs1', baseTimestamp + 2);
      {
        const expected = mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)']);
        expect(readKeyValuesToMap(outputTopic)).toEqual(expected);
        if (materialized) expect(asMap(store())).toEqual(expected);
      }
      // Change LHS foreign key reference
      left.pipeInput('lhs1', 'lhsValue1|rhs2', baseTimestamp + 3);
      {
        const expected = mkMap(['lhs1', '(lhsValue1|rhs2,rhsValue2)']);
        expect(readKeyValuesToMap(outputTopic)).toEqual(expected);
        if (materialized) expect(asMap(store())).toEqual(expected);
      }
      // Populate RHS update on old LHS foreign key ref
      right.pipeInput('rhs1', 'rhsValue1Delta', baseTimestamp + 4);
      expect(readKeyValuesToMap(outputTopic)).toEqual(emptyMap());
      if (materialized) expect(asMap(store())).toEqual(mkMap(['lhs1', '(lhsValue1|rhs2,rhsValue2)']));
    });

    if (leftJoin) {
      // KTableKTableForeignKeyJoinIntegrationTest.shouldEmitRecordOnNullForeignKeyForLeftJoins
      it('shouldEmitRecordOnNullForeignKeyForLeftJoins', () => {
        const { left, outputTopic, store } = open(topology(() => null));
        left.pipeInput('lhs1', 'lhsValue1|rhs1', baseTimestamp);
        const expected = mkMap(['lhs1', '(lhsValue1|rhs1,null)']);
        expect(readKeyValuesToMap(outputTopic)).toEqual(expected);
        if (materialized) expect(asMap(store())).toEqual(expected);
      });

      // KTableKTableForeignKeyJoinIntegrationTest.shouldEmitRecordWhenOldAndNewFkDiffer
      it('shouldEmitRecordWhenOldAndNewFkDiffer', () => {
        const foreignKeyExtractor = (value: string): string | null => {
          const split = value.split('|')[1] ?? null;
          // new fk: null; old fk: the split
          return split === 'returnNull' ? null : split;
        };
        const built = topology(foreignKeyExtractor);
        const { driver: d, left, outputTopic, store } = open(built);
        const subscriptionStoreName = built
          .describe()
          .subtopologies.flatMap((s) => s.nodes.flatMap((n) => (n.type === 'processor' ? n.stores : [])))
          .find((name) => name.includes('SUBSCRIPTION-STATE-STORE'));
        if (subscriptionStoreName === undefined) throw new Error("couldn't find store");
        const subscriptionStore = storeOf(d.getKeyValueStore<Buffer, unknown>(subscriptionStoreName));
        const key = subscriptionStoreKey('lhs1', 'rhs1');
        left.pipeInput('lhs1', 'lhsValue1|rhs1', baseTimestamp);
        {
          const expected = mkMap(['lhs1', '(lhsValue1|rhs1,null)']);
          expect(readKeyValuesToMap(outputTopic)).toEqual(expected);
          if (materialized) expect(asMap(store())).toEqual(expected);
          expect(subscriptionStore.get(key)).not.toBeNull();
        }
        left.pipeInput('lhs1', 'lhsValue1|returnNull', baseTimestamp);
        {
          const expected = mkMap(['lhs1', '(lhsValue1|returnNull,null)']);
          expect(readKeyValuesToMap(outputTopic)).toEqual(expected);
          if (materialized) expect(asMap(store())).toEqual(expected);
          expect(subscriptionStore.get(key)).toBeNull();
        }
      });
    }
  });
}

/** Kafka's `subscriptionStoreKey`: `{int rhs length}{rhs}{lhs}`. */
function subscriptionStoreKey(lhs: string, rhs: string): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(Buffer.byteLength(rhs));
  return Buffer.concat([length, Buffer.from(rhs), Buffer.from(lhs)]);
}
