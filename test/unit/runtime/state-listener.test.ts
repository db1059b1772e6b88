/**
 * `KafkaStreams.setStateListener` (issue 29 item 13): Kafka's
 * `StateListener(newState, oldState)` over `state$`, allowed before `start()` only.
 */
import { describe, expect, it } from 'vitest';
import { IllegalStateError, KafkaStreams, Serdes, StreamsBuilder, type KafkaStreamsState } from '../../../src/index.js';
import { EmbeddedKafkaCluster } from '../../../src/testing.js';

const S = Serdes.String();

describe('KafkaStreams.setStateListener', () => {
  it('tells every change as (newState, oldState) from CREATED to NOT_RUNNING, and is refused after start', async () => {
    const cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in', { partitions: 1 });
    await cluster.createTopic('out', { partitions: 1 });
    const builder = new StreamsBuilder();
    builder.stream('in', { keySerde: S, valueSerde: S }).to('out', { keySerde: S, valueSerde: S });
    const app = new KafkaStreams(builder.build(), { applicationId: 'state-listener-app', cluster });
    const seen: Array<[KafkaStreamsState, KafkaStreamsState]> = [];
    app.setStateListener(() => seen.push(['ERROR', 'ERROR'])); // replaced by the next call
    app.setStateListener((newState, oldState) => seen.push([newState, oldState]));
    await app.start();
    expect(() => app.setStateListener(() => undefined)).toThrow(IllegalStateError);
    await app.close();
    await cluster.close();
    expect(seen[0]).toEqual(['REBALANCING', 'CREATED']);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![1], `change ${i}`).toBe(seen[i - 1]![0]);
    expect(seen.map(([n]) => n)).toContain('RUNNING');
    expect(seen.at(-1)).toEqual(['NOT_RUNNING', 'PENDING_SHUTDOWN']);
  });

  it('refuses a listener that is not a function', () => {
    const builder = new StreamsBuilder();
    builder.stream('in', { keySerde: S, valueSerde: S }).to('out');
    const app = new KafkaStreams(builder.build(), { applicationId: 'state-listener-bad', cluster: new EmbeddedKafkaCluster() });
    expect(() => app.setStateListener(undefined as never)).toThrow(/listener must be a function/);
  });
});
