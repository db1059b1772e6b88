/**
 * `windowedBy(SessionWindows)`: to be built (issue "Windows, time and suppression").
 */
import { TopologyError } from '../../errors.js';
import type { SessionWindows } from '../session-windows.js';
import type { SessionWindowedKStream } from '../windowed-kstream.js';
import type { GroupedStreamParts } from './grouped-parts.js';

/** The windowed stream of `parts` by `windows`. */
export function sessionWindowedStream<K, V>(_parts: GroupedStreamParts<K, V>, _windows: SessionWindows): SessionWindowedKStream<K, V> {
  throw new TopologyError('windowedBy(SessionWindows) is not built yet');
}
