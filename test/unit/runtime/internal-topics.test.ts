import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminPort, NewTopic } from '../../../src/cluster/port.js';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import { KafkaErrorCode, KafkaProtocolError } from '../../../src/errors.js';
import { ensureInternalTopics } from '../../../src/runtime/internal/internal-topics.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';

const S = Serdes.String();
const logger = pino({ level: 'silent' });
const clusters: EmbeddedKafkaCluster[] = [];
afterEach(async () => {
  await Promise.all(clusters.splice(0).map((c) => c.close()));
});

function runtime() {
  const b = new StreamsBuilder();
  b.stream<string, string>(['a', 'b'], { keySerde: S, valueSerde: S }).groupBy((_k, v) => v, { name: 'g', keySerde: S }).count();
  return toRuntime(b.build(), { applicationId: 'app' });
}

/** An admin that sees the topic missing, then loses the creation race to another instance that created it with `theirs` partitions. */
function racingAdmin(admin: AdminPort, theirs: number): AdminPort & { created: Array<{ name: string; options: NewTopic | undefined }> } {
  let described = 0;
  const created: Array<{ name: string; options: NewTopic | undefined }> = [];
  return Object.assign(Object.create(admin) as AdminPort, {
    created,
    async describeTopic(name: string) {
      if (described++ === 0) throw new KafkaProtocolError(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      return admin.describeTopic(name);
    },
    async createTopic(name: string, options?: NewTopic) {
      created.push({ name, options });
      await admin.createTopic(name, { ...options, partitions: theirs });
      throw new KafkaProtocolError(KafkaErrorCode.TOPIC_ALREADY_EXISTS);
    },
  });
}

describe('ensureInternalTopics', () => {
  it('creates a missing repartition topic with the max upstream count and CreateTime timestamps', async () => {
    const cluster = new EmbeddedKafkaCluster();
    clusters.push(cluster);
    const counts = await ensureInternalTopics(cluster.admin(), runtime(), new Map([['a', 4], ['b', 4]]), logger);
    expect(counts).toEqual(new Map([['app-g-repartition', 4]]));
    const description = await cluster.describeTopic('app-g-repartition');
    expect(description.partitions).toBe(4);
    expect(description.config['message.timestamp.type']).toBe('CreateTime');
  });

  it('losing the creation race to another instance is fine when its count matches, an error naming both counts otherwise', async () => {
    const cluster = new EmbeddedKafkaCluster();
    clusters.push(cluster);
    const matching = racingAdmin(cluster.admin(), 4);
    await expect(ensureInternalTopics(matching, runtime(), new Map([['a', 4], ['b', 4]]), logger)).resolves.toEqual(new Map([['app-g-repartition', 4]]));
    expect(matching.created.map((c) => c.name)).toEqual(['app-g-repartition']);

    const other = new EmbeddedKafkaCluster();
    clusters.push(other);
    await expect(ensureInternalTopics(racingAdmin(other.admin(), 1), runtime(), new Map([['a', 4], ['b', 4]]), logger)).rejects.toMatchObject({
      code: 'INTERNAL_TOPIC_PARTITIONS_MISMATCH',
      message: expect.stringContaining("'app-g-repartition' exists with 1 partitions, but the topology needs 4"),
    });
  });
});
