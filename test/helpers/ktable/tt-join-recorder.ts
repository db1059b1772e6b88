/**
 * What a KTable node forwards, recorded as Kafka's `MockApiProcessor` does
 * (`checkAndClearProcessResult(new KeyValueTimestamp<>(0, new Change<>("X0+Y0", null), 5))`),
 * and Kafka's `MockValueJoiner.TOSTRING_JOINER`.
 */
import { expect } from 'vitest';
import { Change } from '../../../src/processors/dsl/change.js';
import type { Record } from '../../../src/processors/record.js';
import type { Topology } from '../../../src/index.js';
import type { TestOutputTopic } from '../../../src/testing.js';

/** Kafka's `KeyValueTimestamp` of a forwarded Change. */
export interface KeyValueTimestamp<K, V> {
  key: K;
  value: Change<V>;
  timestamp: number;
}

/** `new KeyValueTimestamp<>(key, new Change<>(newValue, oldValue), timestamp)` of string values (MockValueJoiner's results). */
export function kvt<K>(key: K, newValue: string | null, oldValue: string | null, timestamp: number): KeyValueTimestamp<K, string> {
  return { key, value: Change.of<string>(newValue, oldValue), timestamp };
}

/** Kafka's `MockValueJoiner.TOSTRING_JOINER`: `value1 + "+" + value2` (null prints as "null"). */
export const TOSTRING_JOINER = (value1: unknown, value2: unknown): string => `${String(value1)}+${String(value2)}`;

/** Records the `Record<K, Change<V>>`s a KTable node forwards to a processor added under it. */
export class ChangeRecorder<K, V> {
  private readonly processed: KeyValueTimestamp<K, V>[] = [];

  /** Adds processor `name` under `parentName` (Kafka's `topology.addProcessor("proc", supplier, joined.name)`). */
  static attach<K, V>(topology: Topology, parentName: string, name = 'proc'): ChangeRecorder<K, V> {
    const recorder = new ChangeRecorder<K, V>();
    topology.addProcessor(
      name,
      () => ({
        process: (record: Record<K, Change<V>>) => {
          recorder.processed.push({ key: record.key, value: Change.of<V>(record.value.newValue, record.value.oldValue, record.value.isLatest), timestamp: record.timestamp });
        },
      }),
      parentName,
    );
    return recorder;
  }

  /** Kafka's `checkAndClearProcessResult`: what was forwarded since the last call equals `expected`, in order. */
  checkAndClearProcessResult(...expected: KeyValueTimestamp<K, V>[]): void {
    const actual = this.processed.splice(0);
    expect(actual.map(show)).toEqual(expected.map(show));
    expect(actual).toEqual(expected);
  }
}

/** `key:(new<-old)@timestamp`: a readable diff when a check fails. */
function show(r: KeyValueTimestamp<unknown, unknown>): string {
  return `${String(r.key)}:${Change.format(r.value)}@${r.timestamp}`;
}

/**
 * The co-partition groups of `topology` as Kafka's
 * `InternalTopologyBuilder.copartitionGroups()` reports them: the source
 * topics feeding each group's nodes.
 */
export function copartitionGroupTopics(topology: Topology): Set<string>[] {
  const groups = (topology as unknown as { graph: { copartitionGroups: string[][] } }).graph.copartitionGroups;
  const nodes = new Map(topology.describe().subtopologies.flatMap((s) => s.nodes.map((n) => [n.name, n] as const)));
  const topicsOf = (name: string, out: Set<string>): Set<string> => {
    const node = nodes.get(name);
    if (node?.type === 'source') node.topics.forEach((t) => out.add(t));
    for (const parent of node?.predecessors ?? []) topicsOf(parent, out);
    return out;
  };
  return groups.map((group) => group.reduce((out, name) => topicsOf(name, out), new Set<string>()));
}

/** Inputs of the KTableKTable*JoinTest cases: pipe to an input topic (key, value, timestamp). */
export interface JoinInput {
  pipeInput(key: number | null, value: string | null, timestamp: number): void;
}

/**
 * The input steps every `KTableKTable{Inner,Left,Outer}JoinTest` case pipes,
 * in order (inputs unchanged from Kafka's tests, comments as theirs). Each
 * case runs step i and then checks step i's expected output.
 */
export function joinTestSteps(inputTopic1: JoinInput, inputTopic2: JoinInput): Array<() => void> {
  const expectedKeys = [0, 1, 2, 3];
  return [
    () => {
      // push two items to the primary stream. the other table is empty
      for (let i = 0; i < 2; i++) inputTopic1.pipeInput(expectedKeys[i]!, `X${expectedKeys[i]}`, 5 + i);
      // pass tuple with null key, it will be discarded in join process
      inputTopic1.pipeInput(null, 'SomeVal', 42);
      // left: X0:0 (ts: 5), X1:1 (ts: 6)
      // right:
    },
    () => {
      // push two items to the other stream. this should produce two items.
      for (let i = 0; i < 2; i++) inputTopic2.pipeInput(expectedKeys[i]!, `Y${expectedKeys[i]}`, 10 * i);
      // pass tuple with null key, it will be discarded in join process
      inputTopic2.pipeInput(null, 'AnotherVal', 73);
      // left: X0:0 (ts: 5), X1:1 (ts: 6)
      // right: Y0:0 (ts: 0), Y1:1 (ts: 10)
    },
    () => {
      // push all four items to the primary stream.
      for (const expectedKey of expectedKeys) inputTopic1.pipeInput(expectedKey, `XX${expectedKey}`, 7);
      // left: XX0:0 (ts: 7), XX1:1 (ts: 7), XX2:2 (ts: 7), XX3:3 (ts: 7)
      // right: Y0:0 (ts: 0), Y1:1 (ts: 10)
    },
    () => {
      // push all items to the other stream. this should produce four items.
      for (const expectedKey of expectedKeys) inputTopic2.pipeInput(expectedKey, `YY${expectedKey}`, expectedKey * 5);
      // left: XX0:0 (ts: 7), XX1:1 (ts: 7), XX2:2 (ts: 7), XX3:3 (ts: 7)
      // right: YY0:0 (ts: 0), YY1:1 (ts: 5), YY2:2 (ts: 10), YY3:3 (ts: 15)
    },
    () => {
      // push all four items to the primary stream. this should produce four items.
      for (const expectedKey of expectedKeys) inputTopic1.pipeInput(expectedKey, `XXX${expectedKey}`, 6);
      // left: XXX0:0 (ts: 6), XXX1:1 (ts: 6), XXX2:2 (ts: 6), XXX3:3 (ts: 6)
      // right: YY0:0 (ts: 0), YY1:1 (ts: 5), YY2:2 (ts: 10), YY3:3 (ts: 15)
    },
    () => {
      // push two items with null to the other stream as deletes. this should produce two item.
      inputTopic2.pipeInput(expectedKeys[0]!, null, 5);
      inputTopic2.pipeInput(expectedKeys[1]!, null, 7);
      // left: XXX0:0 (ts: 6), XXX1:1 (ts: 6), XXX2:2 (ts: 6), XXX3:3 (ts: 6)
      // right: YY2:2 (ts: 10), YY3:3 (ts: 15)
    },
    () => {
      // push all four items to the primary stream.
      for (const expectedKey of expectedKeys) inputTopic1.pipeInput(expectedKey, `XXXX${expectedKey}`, 13);
      // left: XXXX0:0 (ts: 13), XXXX1:1 (ts: 13), XXXX2:2 (ts: 13), XXXX3:3 (ts: 13)
      // right: YY2:2 (ts: 10), YY3:3 (ts: 15)
    },
    () => {
      // push four items to the primary stream with null.
      inputTopic1.pipeInput(expectedKeys[0]!, null, 0);
      inputTopic1.pipeInput(expectedKeys[1]!, null, 42);
      inputTopic1.pipeInput(expectedKeys[2]!, null, 5);
      inputTopic1.pipeInput(expectedKeys[3]!, null, 20);
      // left:
      // right: YY2:2 (ts: 10), YY3:3 (ts: 15)
    },
  ];
}

/** Kafka's `assertOutputKeyValueTimestamp` for each of `expected` in order, then `assertTrue(outputTopic.isEmpty())`. */
export function assertOutput(outputTopic: TestOutputTopic<number, string>, ...expected: Array<[number, string | null, number]>): void {
  expect(outputTopic.readRecordsToList().map((r) => [r.key, r.value, r.timestamp])).toEqual(expected);
  expect(outputTopic.isEmpty()).toBe(true);
}
