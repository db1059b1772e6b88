/**
 * KStream–KStream windowed joins. TODO(issue 16, stream-stream joins).
 */
import { TopologyError } from '../../errors.js';
import type { KStream } from '../kstream.js';

/** Which records a join keeps. */
export type StreamJoinKind = 'inner' | 'left' | 'outer';

/** `stream.join/leftJoin/outerJoin(other, joiner, windows, streamJoined?)`; args as the KStream overloads take them. */
export function streamStreamJoin<K, V>(_stream: KStream<K, V>, kind: StreamJoinKind, _other: KStream<K, unknown>, _args: unknown[]): KStream<K, unknown> {
  throw new TopologyError(`KStream-KStream ${kind} join is not implemented yet`);
}
