/**
 * The window specifications of windowed aggregations (Kafka's `Windows<W>`):
 * fixed-size windows, each record falling into the windows `windowsFor` its
 * timestamp returns. `TimeWindows` (tumbling, hopping) and `UnlimitedWindows`
 * extend it; `SlidingWindows` and `SessionWindows` are their own kinds, as in
 * Kafka. Times are epoch milliseconds; stream time decides when a window
 * closes: at `window end + gracePeriodMs()`.
 */
import type { TimeWindow } from '../state/window-types.js';

/** A fixed-size window specification (Kafka's `Windows<TimeWindow>`). */
export abstract class Windows {
  /** The windows containing `timestamp`, keyed by their start (Kafka's `windowsFor`). */
  abstract windowsFor(timestamp: number): Map<number, TimeWindow>;
  /** The size of each window, in milliseconds. */
  abstract size(): number;
  /** How long after its end a window still accepts late records, in milliseconds. */
  abstract gracePeriodMs(): number;
}
