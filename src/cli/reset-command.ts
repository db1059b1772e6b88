/**
 * `sluice reset`: Kafka's application reset tool (StreamsResetter,
 * `kafka-streams-application-reset.sh`) for a sluice app, so it reprocesses its input:
 * 1. refuse while the group (the application id) has active members, as Kafka;
 * 2. move the group's committed offsets of the `--input-topics` (default `--to-earliest`;
 *    missing topics are skipped with a line);
 * 3. delete the app's internal topics (`<applicationId>-…-changelog`, `-repartition`, the
 *    foreign-key subscription topics: Kafka's inferred internal topics);
 * 4. with `--state-dir`, delete the local state `<stateDir>/<applicationId>` (`KafkaStreams.cleanUp()`);
 * 5. print "Done.".
 * Every step prints what it does; `--dry-run` prints what it would do and changes nothing.
 */
import type { AdminPort } from '../cluster/port.js';
import { StreamsError } from '../errors.js';
import { cleanLocalState, localStateDir } from '../runtime/local-state.js';
import { internalTopicsOf, planOffsets, type PartitionRange, type ResetTarget } from './reset-plan.js';

/** What `sluice reset` does. */
export interface ResetOptions {
  applicationId: string;
  inputTopics: string[];
  target: ResetTarget;
  dryRun: boolean;
  /** Root of the state directories; the local state is left alone without it. */
  stateDir?: string | undefined;
}

/** Runs the reset against `admin`, writing its report to `out`. Throws GROUP_ACTIVE (nothing changed) while members are active. */
export async function resetApplication(options: ResetOptions, admin: AdminPort, out: (line: string) => void): Promise<void> {
  const { applicationId, dryRun } = options;
  if (dryRun) out('----Dry run displays the actions which will be performed when running Streams Reset Tool----');
  // 1.
  const group = await admin.describeGroup?.(applicationId);
  if (group && group.members.length > 0) {
    const members = group.members.map((m) => `${m.memberId} (client ${m.clientId})`).join(', ');
    throw new StreamsError(
      `Consumer group '${applicationId}' is still active and has following members: [${members}]. ` +
        'Make sure to stop all running application instances before running the reset tool (a crashed instance leaves the group when its session times out).',
      { code: 'GROUP_ACTIVE', kind: 'fatal' },
    );
  }
  // 2.
  const topics = await admin.listTopics();
  const missing = options.inputTopics.filter((t) => !topics.includes(t));
  if (missing.length > 0) {
    out('Following input topics are not found, skipping them');
    for (const t of missing) out(`Topic: ${t}`);
  }
  const inputs = options.inputTopics.filter((t) => topics.includes(t));
  if (inputs.length === 0) out('No input topics specified. Skipping seek.');
  else {
    out(`Following input topics offsets will be reset to (for consumer group ${applicationId})`);
    for (const topic of inputs) await resetTopic(admin, applicationId, topic, options.target, dryRun, out);
  }
  // 3.
  const internal = internalTopicsOf(applicationId, topics, options.inputTopics);
  out(`Deleting inferred internal topics [${internal.join(', ')}]`);
  if (!dryRun) for (const topic of internal) await admin.deleteTopic(topic);
  // 4.
  if (options.stateDir !== undefined) {
    out(`Removing local state directory ${localStateDir(applicationId, options.stateDir)}`);
    if (!dryRun) cleanLocalState(applicationId, options.stateDir);
  }
  // 5.
  out('Done.');
}

/** Plans (and, unless a dry run, commits) the new offsets of one input topic. */
async function resetTopic(admin: AdminPort, groupId: string, topic: string, target: ResetTarget, dryRun: boolean, out: (line: string) => void): Promise<void> {
  const end = await admin.endOffsets(topic);
  const start = (await admin.startOffsets?.(topic)) ?? end.map(() => 0);
  const committed = await admin.committedOffsets(groupId, topic);
  const forTime = target.kind === 'datetime' ? await admin.offsetsForTime?.(topic, target.timestamp) : undefined;
  const ranges: PartitionRange[] = end.map((e, partition) => ({
    topic,
    partition,
    beginning: start[partition] ?? 0,
    end: e,
    committed: (committed[partition] ?? -1) >= 0 ? committed[partition] : undefined,
    offsetForTime: forTime === undefined || (forTime[partition] ?? -1) < 0 ? undefined : forTime[partition],
  }));
  const planned = planOffsets(target, ranges);
  for (const p of planned) {
    if (p.note) out(p.note);
    out(`Topic: ${p.topic} Partition: ${p.partition} Offset: ${p.offset}`);
  }
  if (dryRun) return;
  if (!admin.setCommittedOffsets) throw new StreamsError('this cluster adapter cannot set committed offsets (AdminPort.setCommittedOffsets)', { code: 'UNSUPPORTED', kind: 'fatal' });
  await admin.setCommittedOffsets(groupId, topic, new Map(planned.map((p) => [p.partition, p.offset])));
}
