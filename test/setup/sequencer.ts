/**
 * File order of a run: the longest files start first, so the long poles (the 3-node cluster
 * failover, the crash soaks) overlap everything else instead of starting last on one of the
 * two workers (longest-processing-time-first scheduling). Durations come from the checked-in
 * table (test/setup/file-times.json), so a clean clone, which has no vitest cache, gets the
 * same order.
 *
 * Order: 1. isolated files (broker suites, slow or module-mocking unit files), longest first;
 * 2. then the unit files that share one worker process (`isolate: false`), longest first:
 * vitest reuses a shared process only while the next queued file is also a shared one, so
 * they must come as one block.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { fileTimes, relativeFile, UNKNOWN_FILE_SECONDS } from './file-times.js';

export class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const times = fileTimes(root);
    const seconds = (spec: TestSpecification) => times[relativeFile(root, spec.moduleId)] ?? UNKNOWN_FILE_SECONDS;
    const shared = (spec: TestSpecification) => (spec.project.config.isolate === false ? 1 : 0);
    return [...files].sort((a, b) => shared(a) - shared(b) || seconds(b) - seconds(a) || (a.moduleId < b.moduleId ? -1 : 1));
  }
}
