/**
 * The offset arithmetic of `sluice reset` (Kafka's StreamsResetter,
 * kafka-streams-application-reset.sh), as a pure function: given each input
 * partition's log range (and committed offset, and the answer of an
 * offsets-for-time lookup), where the group's committed offset goes.
 * As Kafka's `checkOffsetRange`: a wanted offset at or above the end becomes
 * the end, one at or below the beginning becomes the beginning.
 */
import { ConfigError } from '../errors.js';

/** Where to move the input topics' committed offsets (one of the reset options). */
export type ResetTarget =
  | { kind: 'earliest' }
  | { kind: 'latest' }
  | { kind: 'offset'; offset: number }
  | { kind: 'shift'; by: number }
  | { kind: 'datetime'; timestamp: number }
  | { kind: 'plan'; offsets: ReadonlyMap<string, number> };

/** What is known of one input partition. */
export interface PartitionRange {
  topic: string;
  partition: number;
  /** The log start offset. */
  beginning: number;
  /** The log end offset (next offset to be written). */
  end: number;
  /** The group's committed offset, if any (the base of `shift`; without it, the beginning, as Kafka's consumer under earliest). */
  committed?: number | undefined;
  /** For `datetime`: the first offset with a timestamp at or after it; undefined when there is none. */
  offsetForTime?: number | undefined;
}

/** The planned offset of one partition, with Kafka's remark when it was moved into range. */
export interface PlannedOffset {
  topic: string;
  partition: number;
  offset: number;
  note?: string;
}

/** The key of a partition in a `plan` target: `topic:partition`. */
export const planKey = (topic: string, partition: number): string => `${topic}:${partition}`;

/** Kafka's `checkOffsetRange` for one partition. */
function inRange(offset: number, range: PartitionRange): { offset: number; note?: string } {
  if (offset >= range.end) return offset === range.end ? { offset } : { offset: range.end, note: `New offset (${offset}) is higher than latest offset. Value will be set to ${range.end}` };
  if (offset > range.beginning) return { offset };
  return offset === range.beginning ? { offset } : { offset: range.beginning, note: `New offset (${offset}) is lower than earliest offset. Value will be set to ${range.beginning}` };
}

/** Plans the new committed offset of every partition in `ranges` for `target`. */
export function planOffsets(target: ResetTarget, ranges: readonly PartitionRange[]): PlannedOffset[] {
  return ranges.map((range) => {
    const at = { topic: range.topic, partition: range.partition };
    switch (target.kind) {
      case 'earliest':
        return { ...at, offset: range.beginning };
      case 'latest':
        return { ...at, offset: range.end };
      case 'offset':
        return { ...at, ...inRange(target.offset, range) };
      case 'shift':
        return { ...at, ...inRange((range.committed ?? range.beginning) + target.by, range) };
      case 'datetime':
        return range.offsetForTime === undefined
          ? { ...at, offset: range.end, note: `Partition ${range.partition} from topic ${range.topic} is empty, without a committed record. Falling back to latest known offset.` }
          : { ...at, offset: range.offsetForTime };
      case 'plan': {
        const wanted = target.offsets.get(planKey(range.topic, range.partition));
        if (wanted === undefined) throw new ConfigError(`--from-file has no offset for ${range.topic} partition ${range.partition}: add a line ${range.topic},${range.partition},<offset>`);
        return { ...at, ...inRange(wanted, range) };
      }
    }
  });
}

/**
 * Kafka's `Utils.getDateTime`: ISO 8601 `yyyy-MM-ddTHH:mm:ss.SSS` with an optional zone
 * (`Z`, `+01:00`); without one it is UTC. Throws a ConfigError naming `--to-datetime`.
 */
export function parseDateTime(text: string): number {
  const [, time] = text.split('T');
  if (time === undefined) throw new ConfigError(`--to-datetime '${text}': not ISO 8601 (it has no 'T'); write e.g. 2026-01-31T12:00:00.000 (UTC) or 2026-01-31T12:00:00.000+01:00`);
  const zoned = /[+\-Z]/.test(time) ? text : `${text}Z`;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}(:?\d{2})?)$/.test(zoned) ? Date.parse(zoned) : Number.NaN;
  if (Number.isNaN(ms)) throw new ConfigError(`--to-datetime '${text}': not a date-time; write e.g. 2026-01-31T12:00:00.000 (UTC) or 2026-01-31T12:00:00.000+01:00`);
  return ms;
}

/** Java's `Duration.parse` for `PnDTnHnMn.nS` (e.g. `P1DT2H`, `PT30M`, `-PT5S`); milliseconds. Throws a ConfigError naming `--by-duration`. */
export function parseIsoDuration(text: string): number {
  const m = /^([-+]?)P(?:([-+]?\d+)D)?(?:T(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?\d+(?:[.,]\d{1,9})?)S)?)?$/i.exec(text);
  if (!m || (m[2] ?? m[3] ?? m[4] ?? m[5]) === undefined || /T$/i.test(text)) {
    throw new ConfigError(`--by-duration '${text}': not an ISO 8601 duration PnDTnHnMn.nS; write e.g. P1DT2H (1 day 2 hours) or PT30M`);
  }
  const n = (s: string | undefined): number => (s === undefined ? 0 : Number(s.replace(',', '.')));
  const ms = ((n(m[2]) * 24 + n(m[3])) * 60 + n(m[4])) * 60_000 + Math.round(n(m[5]) * 1000);
  return m[1] === '-' ? -ms : ms;
}

/** Kafka's `--from-file` reset plan: lines `TOPIC,PARTITION,OFFSET`. */
export function parseResetPlan(csv: string): Map<string, number> {
  const lines = csv.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) throw new ConfigError('--from-file: the reset plan is empty; write lines TOPIC,PARTITION,OFFSET');
  const plan = new Map<string, number>();
  for (const line of lines) {
    const [topic, partition, offset, ...rest] = line.split(',');
    if (topic === undefined || partition === undefined || offset === undefined || rest.length > 0 || !/^\d+$/.test(partition) || !/^-?\d+$/.test(offset)) {
      throw new ConfigError(`--from-file: line '${line}' does not follow the format TOPIC,PARTITION,OFFSET`);
    }
    plan.set(planKey(topic, Number(partition)), Number(offset));
  }
  return plan;
}

/**
 * Kafka's `StreamsResetter.matchesInternalTopicFormat`: the suffixes of the topics
 * Kafka Streams (and sluice) create for an application.
 */
export function matchesInternalTopicFormat(topic: string): boolean {
  return (
    topic.endsWith('-changelog') ||
    topic.endsWith('-repartition') ||
    topic.endsWith('-subscription-registration-topic') ||
    topic.endsWith('-subscription-response-topic') ||
    /^.+-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-\d+-topic$/.test(topic) ||
    /^.+-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-\d+-topic$/.test(topic)
  );
}

/** The internal topics of `applicationId` among `topics` (Kafka's `isInferredInternalTopic`): prefixed `<applicationId>-`, an internal suffix, not an input topic. */
export function internalTopicsOf(applicationId: string, topics: readonly string[], inputTopics: readonly string[]): string[] {
  return topics.filter((t) => t.startsWith(`${applicationId}-`) && matchesInternalTopicFormat(t) && !inputTopics.includes(t)).sort();
}
