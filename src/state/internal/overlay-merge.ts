/**
 * Reads of the persistent engine: the uncommitted-write overlay merged over
 * the committed entries of lmdb. Both inputs come in the same order (ascending
 * or descending); for an equal key the overlay wins, and an overlay tombstone
 * (`null`) hides the committed entry.
 */
import type { BytesEntry } from '../bytes-store-contract.js';
import type { SortedEntry } from './sorted-bytes-map.js';

/** Merges `overlay` over `committed`; `descending` says which order both come in. */
export function mergeOverlay(committed: Iterable<BytesEntry>, overlay: readonly SortedEntry<Buffer | null>[], descending: boolean): BytesEntry[] {
  const out: BytesEntry[] = [];
  const sign = descending ? -1 : 1;
  let o = 0;
  const emitOverlayBefore = (key: Buffer | undefined): void => {
    for (; o < overlay.length; o++) {
      const next = overlay[o] as SortedEntry<Buffer | null>;
      if (key !== undefined && sign * Buffer.compare(next.key, key) >= 0) return;
      if (next.value !== null) out.push({ key: next.key, value: next.value });
    }
  };
  for (const entry of committed) {
    emitOverlayBefore(entry.key);
    const next = overlay[o];
    if (next !== undefined && next.key.equals(entry.key)) {
      if (next.value !== null) out.push({ key: next.key, value: next.value });
      o++;
    } else {
      out.push(entry);
    }
  }
  emitOverlayBefore(undefined);
  return out;
}
