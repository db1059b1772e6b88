/**
 * The cases of Kafka's `KTableKTableForeignKeyJoinIntegrationTest` as data
 * (inputs and expected outputs unchanged from the Java test; the driver port
 * `test/unit/topology/kafka/join/foreign-key-join.test.ts` states them as
 * code), for the contract test that runs them through `KafkaStreams`. Each
 * step pipes its inputs, then the output read since the previous step (as
 * Kafka's `readKeyValuesToMap`: last value per key, a tombstone kept as
 * `key -> null`) and, when materialized, the join's store must equal the
 * step's expectations.
 */

/** One input record: the table it goes to, its key and value (null deletes). */
export type FkInput = [side: 'left' | 'right', key: string, value: string | null];

/** One step of a case: inputs, then the expected output delta and store contents. */
export interface FkStep {
  inputs: FkInput[];
  output: Map<string, string | null>;
  /** The materialized store after the step (checked only when materialized). */
  store: Map<string, string | null>;
}

/** A case: the Java method's name and its steps for `leftJoin`. */
export interface FkCase {
  /** `KTableKTableForeignKeyJoinIntegrationTest.<name>`. */
  name: string;
  steps(leftJoin: boolean): FkStep[];
}

const m = (...entries: Array<[string, string | null]>): Map<string, string | null> => new Map(entries);

/** The six cases the contract test runs (rejoin and the left-join-only cases stay with the driver port). */
export const FK_CASES: FkCase[] = [
  {
    // KTableKTableForeignKeyJoinIntegrationTest.doJoinFromLeftThenDeleteLeftEntity
    name: 'doJoinFromLeftThenDeleteLeftEntity',
    steps: () => [
      // Pre-populate the RHS records. This test is all about what happens when we add/remove LHS records
      { inputs: [['right', 'rhs1', 'rhsValue1'], ['right', 'rhs2', 'rhsValue2'], ['right', 'rhs3', 'rhsValue3']], output: m(), store: m() },
      {
        inputs: [['left', 'lhs1', 'lhsValue1|rhs1'], ['left', 'lhs2', 'lhsValue2|rhs2']],
        output: m(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2|rhs2,rhsValue2)']),
        store: m(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2|rhs2,rhsValue2)']),
      },
      // Add another reference to an existing FK
      {
        inputs: [['left', 'lhs3', 'lhsValue3|rhs1']],
        output: m(['lhs3', '(lhsValue3|rhs1,rhsValue1)']),
        store: m(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2|rhs2,rhsValue2)'], ['lhs3', '(lhsValue3|rhs1,rhsValue1)']),
      },
      // Now delete one LHS entity such that one delete is propagated down to the output.
      {
        inputs: [['left', 'lhs1', null]],
        output: m(['lhs1', null]),
        store: m(['lhs2', '(lhsValue2|rhs2,rhsValue2)'], ['lhs3', '(lhsValue3|rhs1,rhsValue1)']),
      },
    ],
  },
  {
    // KTableKTableForeignKeyJoinIntegrationTest.doJoinFromRightThenDeleteRightEntity
    name: 'doJoinFromRightThenDeleteRightEntity',
    steps: (leftJoin) => {
      const halfJoined = m(['lhs1', '(lhsValue1|rhs1,null)'], ['lhs2', '(lhsValue2|rhs2,null)'], ['lhs3', '(lhsValue3|rhs1,null)']);
      const allJoined = m(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2|rhs2,rhsValue2)'], ['lhs3', '(lhsValue3|rhs1,rhsValue1)']);
      return [
        // Pre-populate the LHS records. This test is all about what happens when we add/remove RHS records
        {
          inputs: [['left', 'lhs1', 'lhsValue1|rhs1'], ['left', 'lhs2', 'lhsValue2|rhs2'], ['left', 'lhs3', 'lhsValue3|rhs1']],
          output: leftJoin ? halfJoined : m(),
          store: leftJoin ? halfJoined : m(),
        },
        {
          inputs: [['right', 'rhs1', 'rhsValue1']],
          output: m(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs3', '(lhsValue3|rhs1,rhsValue1)']),
          store: leftJoin
            ? m(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs2', '(lhsValue2|rhs2,null)'], ['lhs3', '(lhsValue3|rhs1,rhsValue1)'])
            : m(['lhs1', '(lhsValue1|rhs1,rhsValue1)'], ['lhs3', '(lhsValue3|rhs1,rhsValue1)']),
        },
        { inputs: [['right', 'rhs2', 'rhsValue2']], output: m(['lhs2', '(lhsValue2|rhs2,rhsValue2)']), store: allJoined },
        // this unreferenced FK won't show up in any results
        { inputs: [['right', 'rhs3', 'rhsValue3']], output: m(), store: allJoined },
        // Now delete the RHS entity such that all matching keys have deletes propagated.
        {
          inputs: [['right', 'rhs1', null]],
          output: m(['lhs1', leftJoin ? '(lhsValue1|rhs1,null)' : null], ['lhs3', leftJoin ? '(lhsValue3|rhs1,null)' : null]),
          store: leftJoin
            ? m(['lhs1', '(lhsValue1|rhs1,null)'], ['lhs2', '(lhsValue2|rhs2,rhsValue2)'], ['lhs3', '(lhsValue3|rhs1,null)'])
            : m(['lhs2', '(lhsValue2|rhs2,rhsValue2)']),
        },
      ];
    },
  },
  {
    // KTableKTableForeignKeyJoinIntegrationTest.shouldEmitTombstoneWhenDeletingNonJoiningRecords
    name: 'shouldEmitTombstoneWhenDeletingNonJoiningRecords',
    steps: (leftJoin) => {
      const first = leftJoin ? m(['lhs1', '(lhsValue1|rhs1,null)']) : m();
      return [
        { inputs: [['left', 'lhs1', 'lhsValue1|rhs1']], output: first, store: first },
        // Deleting a non-joining record produces an unnecessary tombstone for inner joins, because
        // it's not possible to know whether a result was previously emitted.
        // For the left join, the tombstone is necessary.
        { inputs: [['left', 'lhs1', null]], output: m(['lhs1', null]), store: m() },
        // Deleting a non-existing record is idempotent
        { inputs: [['left', 'lhs1', null]], output: m(), store: m() },
      ];
    },
  },
  {
    // KTableKTableForeignKeyJoinIntegrationTest.shouldNotEmitTombstonesWhenDeletingNonExistingRecords
    name: 'shouldNotEmitTombstonesWhenDeletingNonExistingRecords',
    // Deleting a record that never existed doesn't need to emit tombstones.
    steps: () => [{ inputs: [['left', 'lhs1', null]], output: m(), store: m() }],
  },
  {
    // KTableKTableForeignKeyJoinIntegrationTest.joinShouldProduceNullsWhenValueHasNonMatchingForeignKey
    name: 'joinShouldProduceNullsWhenValueHasNonMatchingForeignKey',
    steps: (leftJoin) => {
      const half = (fk: string) => (leftJoin ? m(['lhs1', `(lhsValue1|${fk},null)`]) : m());
      const update = (fk: string) => m(['lhs1', leftJoin ? `(lhsValue1|${fk},null)` : null]);
      return [
        // no output for a new inner join on a non-existent FK; the left join emits the half-joined output
        { inputs: [['left', 'lhs1', 'lhsValue1|rhs1']], output: half('rhs1'), store: half('rhs1') },
        // "moving" our subscription to another non-existent FK results in an unnecessary tombstone for inner join;
        // the left join emits a _necessary_ update (since the lhs record has actually changed)
        { inputs: [['left', 'lhs1', 'lhsValue1|rhs2']], output: update('rhs2'), store: half('rhs2') },
        // of course, moving it again to yet another non-existent FK has the same effect
        { inputs: [['left', 'lhs1', 'lhsValue1|rhs3']], output: update('rhs3'), store: half('rhs3') },
        // Adding an RHS record now: it was previously referenced, but it's not referenced now: no changes whatsoever.
        { inputs: [['right', 'rhs1', 'rhsValue1']], output: m(), store: half('rhs3') },
        // now, we change to a FK that exists, and see the join completes
        { inputs: [['left', 'lhs1', 'lhsValue1|rhs1']], output: m(['lhs1', '(lhsValue1|rhs1,rhsValue1)']), store: m(['lhs1', '(lhsValue1|rhs1,rhsValue1)']) },
        // but if we update it again to a non-existent one, we'll get a tombstone for the inner join,
        // and the left join updates appropriately.
        { inputs: [['left', 'lhs1', 'lhsValue1|rhs2']], output: update('rhs2'), store: half('rhs2') },
      ];
    },
  },
  {
    // KTableKTableForeignKeyJoinIntegrationTest.shouldUnsubscribeOldForeignKeyIfLeftSideIsUpdated
    name: 'shouldUnsubscribeOldForeignKeyIfLeftSideIsUpdated',
    steps: () => [
      // Pre-populate the RHS records; then change the LHS foreign key reference, then update the old RHS
      { inputs: [['right', 'rhs1', 'rhsValue1'], ['right', 'rhs2', 'rhsValue2']], output: m(), store: m() },
      { inputs: [['left', 'lhs1', 'lhsValue1|rhs1']], output: m(['lhs1', '(lhsValue1|rhs1,rhsValue1)']), store: m(['lhs1', '(lhsValue1|rhs1,rhsValue1)']) },
      // Change LHS foreign key reference
      { inputs: [['left', 'lhs1', 'lhsValue1|rhs2']], output: m(['lhs1', '(lhsValue1|rhs2,rhsValue2)']), store: m(['lhs1', '(lhsValue1|rhs2,rhsValue2)']) },
      // Populate RHS update on old LHS foreign key ref
      { inputs: [['right', 'rhs1', 'rhsValue1Delta']], output: m(), store: m(['lhs1', '(lhsValue1|rhs2,rhsValue2)']) },
    ],
  },
];
