/**
 * `windowedBy(SlidingWindows)`: to be built (issue "Windows, time and suppression").
 */
import { TopologyError } from '../../errors.js';
import type { SlidingWindows } from '../sliding-windows.js';
import type { TimeWindowedKStream } from '../windowed-kstream.js';
import type { GroupedStreamParts } from './grouped-parts.js';

/** The windowed stream of `parts` by `windows`. */
export function slidingWindowedStream<K, V>(_parts: GroupedStreamParts<K, V>, _windows: SlidingWindows): TimeWindowedKStream<K, V> {
  throw new TopologyError('windowedBy(SlidingWindows) is not built yet');
}
