/**
 * Kafka's `WindowedStreamPartitioner`: a windowed key goes to the partition
 * of its inner key (`murmur2(serializeBaseKey) % partitions`), so every
 * window of a key lands where the key itself would, whatever the window.
 * Sinks use it when the key serde is one of `WindowedSerdes`' and no
 * partitioner is given (Kafka's `StreamSinkNode`).
 */
import type { StreamPartitioner } from '../../processors/processor.js';
import { isWindowedSerde } from '../../state/windowed-serdes.js';
import type { Windowed } from '../../state/window-types.js';
import { partitionFor } from '../../records/partitioner.js';

/** The windowed partitioner of `keySerde`, or undefined when it is no windowed serde. */
export function windowedStreamPartitioner(keySerde: unknown): StreamPartitioner<Windowed<unknown>, unknown> | undefined {
  if (!isWindowedSerde(keySerde)) return undefined;
  return (topic, windowedKey, _value, numPartitions) => {
    // for a windowed key, the key bytes are never null
    const keyBytes = keySerde.serializeBaseKey(topic, windowedKey);
    return keyBytes === null ? undefined : partitionFor(keyBytes, numPartitions);
  };
}
