/**
 * `sluice run --group-instance-id` (env SLUICE_GROUP_INSTANCE_ID): static group
 * membership of the worker, resolved over the environment, checked with an error
 * naming the flag or variable, listed in the help.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { resolveRunOptions } from '../../../src/cli/options.js';
import { runCli } from '../../../src/cli/program.js';

describe('--group-instance-id', () => {
  it('reads the flag over SLUICE_GROUP_INSTANCE_ID; none by default (dynamic membership)', () => {
    expect(resolveRunOptions('app.ts', {}, {}).groupInstanceId).toBeUndefined();
    expect(resolveRunOptions('app.ts', {}, { SLUICE_GROUP_INSTANCE_ID: 'pod-7' }).groupInstanceId).toBe('pod-7');
    expect(resolveRunOptions('app.ts', { groupInstanceId: 'worker-1' }, { SLUICE_GROUP_INSTANCE_ID: 'pod-7' }).groupInstanceId).toBe('worker-1');
  });

  it.each([
    // the runtime's text for the key groupInstanceId, then the flag or variable that set it
    [{ groupInstanceId: 'worker 1' }, {}, /^Config 'groupInstanceId' must be 1 to 249 letters, digits, '\.', '_' or '-', unique per instance .*got "worker 1" \(set by --group-instance-id\)$/],
    [{}, { SLUICE_GROUP_INSTANCE_ID: 'a/b' }, /must be 1 to 249 .*\(set by SLUICE_GROUP_INSTANCE_ID \(or --group-instance-id\)\)$/],
    [{ groupInstanceId: 'x'.repeat(250) }, {}, /'groupInstanceId' must be 1 to 249.*\(set by --group-instance-id\)$/],
  ])('rejects %o / %o with a ConfigError naming what to change', (flags, env, pattern) => {
    expect(() => resolveRunOptions('app.ts', flags, env)).toThrow(ConfigError);
    expect(() => resolveRunOptions('app.ts', flags, env)).toThrow(pattern);
  });

  it('is listed in `sluice run --help`', async () => {
    let out = '';
    const stdout = new Writable({ write: (chunk: Buffer, _e, cb) => ((out += chunk.toString()), cb()) });
    expect(await runCli(['run', '--help'], { stdout, stderr: stdout, env: {} })).toBe(0);
    expect(out).toContain('--group-instance-id <id>');
    expect(out).toContain('SLUICE_GROUP_INSTANCE_ID');
  });
});
