/**
 * Records an operator drops on purpose (a null key or value into an
 * aggregation), logged as Kafka Streams does ("Skipping record due to null key
 * or value", WARN) without flooding the log: the first drop of a node logs at
 * once, later ones at most once a minute with the count since the last line.
 * A late record into a windowed aggregation logs its own line at DEBUG.
 */
import type { Logger } from 'pino';

const INTERVAL_MS = 60_000;

interface NodeDrops {
  lastLoggedAt: number;
  unlogged: number;
}

/** Where the dropped record came from. */
export interface DropSite {
  taskId: string;
  processorNodeId: string;
  topic: string;
  partition: number;
  offset: number;
}

/** The drop log of one task. */
export class DropLog {
  private readonly byNode = new Map<string, NodeDrops>();

  constructor(
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Notes one dropped record; logs a WARN when due, or `debugLine` at DEBUG every time (late records, as Kafka logs them). */
  dropped(site: DropSite, reason: string, debugLine?: string): void {
    if (debugLine !== undefined) {
      this.logger.debug({ ...site, reason }, debugLine);
      return;
    }
    const now = this.clock();
    const drops = this.byNode.get(site.processorNodeId);
    if (drops !== undefined && now - drops.lastLoggedAt < INTERVAL_MS) {
      drops.unlogged++;
      return;
    }
    const count = (drops?.unlogged ?? 0) + 1;
    this.byNode.set(site.processorNodeId, { lastLoggedAt: now, unlogged: 0 });
    this.logger.warn(
      { ...site, reason, droppedSinceLastLog: count },
      `Skipping record due to ${reason} (processor '${site.processorNodeId}' of task ${site.taskId}, ` +
        `input ${site.topic}-${site.partition}@${site.offset}); ${count} record(s) since the last such line, counted in metric recordsSkipped`,
    );
  }
}
