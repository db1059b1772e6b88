/** Issue 28 item 13: a value a store's serde cannot read is reported as the store's, not a topic's. */
import { describe, expect, it } from 'vitest';
import { InMemoryKeyValueBytesStore } from '../../../src/state/in-memory/in-memory-key-value-bytes-store.js';
import { MeteredKeyValueStore } from '../../../src/state/metered-key-value-store.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { b, storeContext, tempStateDir } from './helpers.js';

describe('store values that cannot be deserialized', () => {
  it('get names the store (was: for topic s)', () => {
    const { dir, cleanup } = tempStateDir();
    try {
      const inner = new InMemoryKeyValueBytesStore('s');
      const store = new MeteredKeyValueStore(inner, Serdes.String(), Serdes.Long());
      store.init(storeContext(dir));
      inner.put(b('k'), b('bad'));
      expect(() => store.get('k')).toThrow(/^Failed to deserialize a value of store 's' with serde .*Long serde: expected 8 bytes, got 3/);
      expect(() => store.get('k')).not.toThrow(/topic/);
      store.close();
    } finally {
      cleanup();
    }
  });
});
