/**
 * Port of Kafka's `KTableKTableForeignKeyJoinIntegrationTest.shouldIgnoreOutOfOrderRecordsIffVersioned`
 * (its TopologyTestDriver case over `versionedData()`: leftJoin × materialized ×
 * leftVersioned × rightVersioned, no optimization, no rejoin), inputs and
 * expected outputs unchanged: an out-of-order update (KIP-914) of a versioned
 * side produces no result; of a timestamped side it does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Serdes } from '../../../../../src/serdes/serdes.js';
import type { KeyValueStore } from '../../../../../src/state/state-store.js';
import { TopologyTestDriver } from '../../../../../src/testing/topology-test-driver.js';
import { foreignKeyJoinTopology, LEFT_TABLE, OUTPUT, readKeyValuesToMap, RIGHT_TABLE } from '../../../../helpers/ktable/foreign-key-join-topology.js';
import { storeOf } from '../../../../helpers/store-of.js';

const S = Serdes.String();
const baseTimestamp = 1_700_000_000_000;

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

const flags = [true, false];
const cases = flags.flatMap((leftJoin) =>
  flags.flatMap((materialized) => flags.flatMap((leftVersioned) => flags.map((rightVersioned) => ({ leftJoin, materialized, leftVersioned, rightVersioned })))),
);

describe('KTableKTableForeignKeyJoinIntegrationTest.shouldIgnoreOutOfOrderRecordsIffVersioned', () => {
  for (const { leftJoin, materialized, leftVersioned, rightVersioned } of cases) {
    it(`leftJoin=${leftJoin} materialized=${materialized} leftVersioned=${leftVersioned} rightVersioned=${rightVersioned}`, () => {
      driver = new TopologyTestDriver(foreignKeyJoinTopology({ queryableStoreName: materialized ? 'store' : null, leftJoin, rejoin: false, leftVersioned, rightVersioned }));
      const d = driver;
      const right = d.createInputTopic(RIGHT_TABLE, S, S);
      const left = d.createInputTopic(LEFT_TABLE, S, S);
      const outputTopic = d.createOutputTopic(OUTPUT, S, S);
      const store = () => storeOf(d.getKeyValueStore<string, string>('store'));
      const check = (output: Map<string, string | null>, stored: Map<string, string | null>): void => {
        expect(readKeyValuesToMap(outputTopic)).toEqual(output);
        if (materialized) expect(asMap(store())).toEqual(stored);
      };

      // RHS record
      right.pipeInput('rhs1', 'rhsValue1', baseTimestamp + 4);
      check(emptyMap(), emptyMap());

      // LHS records with match to existing RHS record
      left.pipeInput('lhs1', 'lhsValue1|rhs1', baseTimestamp + 3);
      left.pipeInput('lhs2', 'lhsValue2|rhs1', baseTimestamp + 5);
      {
        const expected = mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2|rhs1,rhsValue1)']);
        check(expected, expected);
      }

      // replace with tombstone, to validate behavior when latest record is null
      left.pipeInput('lhs2', null, baseTimestamp + 6);
      check(mkMap(['lhs2', null]), mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)']));

      // out-of-order LHS record (for existing key) does not produce a new result iff LHS is versioned
      left.pipeInput('lhs1', 'lhsValue1_ooo|rhs1', baseTimestamp + 2);
      left.pipeInput('lhs2', 'lhsValue2_ooo|rhs1', baseTimestamp + 2);
      if (leftVersioned) {
        check(emptyMap(), mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)']));
      } else {
        const expected = mkMap(['lhs1', '(lhsValue1_ooo|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2_ooo|rhs1,rhsValue1)']);
        check(expected, expected);
      }

      // out-of-order LHS tombstone (for existing key) is similarly ignored (iff LHS is versioned)
      left.pipeInput('lhs1', null, baseTimestamp + 2);
      if (leftVersioned) check(emptyMap(), mkMap(['lhs1', '(lhsValue1|rhs1,rhsValue1)']));
      else check(mkMap(['lhs1', null]), mkMap(['lhs2', '(lhsValue2_ooo|rhs1,rhsValue1)']));

      // LHS record with larger timestamp always produces a new result
      left.pipeInput('lhs1', 'lhsValue1_new|rhs1', baseTimestamp + 8);
      left.pipeInput('lhs2', 'lhsValue2_new|rhs1', baseTimestamp + 8);
      {
        const expected = mkMap(['lhs1', '(lhsValue1_new|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2_new|rhs1,rhsValue1)']);
        check(expected, expected);
      }

      // out-of-order RHS record (for existing key) does not produce a new result iff RHS is versioned
      right.pipeInput('rhs1', 'rhsValue1_ooo', baseTimestamp + 1);
      if (rightVersioned) {
        check(emptyMap(), mkMap(['lhs1', '(lhsValue1_new|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2_new|rhs1,rhsValue1)']));
      } else {
        const expected = mkMap(['lhs1', '(lhsValue1_new|rhs1,rhsValue1_ooo)'], ['lhs2', '(lhsValue2_new|rhs1,rhsValue1_ooo)']);
        check(expected, expected);
      }

      // out-of-order RHS tombstone (for existing key) is similarly ignored (iff RHS is versioned)
      right.pipeInput('rhs1', null, baseTimestamp + 1);
      if (rightVersioned) {
        check(emptyMap(), mkMap(['lhs1', '(lhsValue1_new|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2_new|rhs1,rhsValue1)']));
      } else if (leftJoin) {
        const expected = mkMap(['lhs1', '(lhsValue1_new|rhs1,null)'], ['lhs2', '(lhsValue2_new|rhs1,null)']);
        check(expected, expected);
      } else {
        check(mkMap(['lhs1', null], ['lhs2', null]), emptyMap());
      }

      // RHS record with larger timestamps always produces new results
      right.pipeInput('rhs1', 'rhsValue1_new', baseTimestamp + 6);
      {
        const expected = mkMap(['lhs1', '(lhsValue1_new|rhs1,rhsValue1_new)'], ['lhs2', '(lhsValue2_new|rhs1,rhsValue1_new)']);
        check(expected, expected);
      }
    });
  }
});
