/**
 * `windowedBy(Windows)`: to be built (issue "Windows, time and suppression").
 */
import { TopologyError } from '../../errors.js';
import type { Windows } from '../windows.js';
import type { TimeWindowedKStream } from '../windowed-kstream.js';
import type { GroupedStreamParts } from './grouped-parts.js';

/** The windowed stream of `parts` by `windows`. */
export function timeWindowedStream<K, V>(_parts: GroupedStreamParts<K, V>, _windows: Windows): TimeWindowedKStream<K, V> {
  throw new TopologyError('windowedBy(Windows) is not built yet');
}
