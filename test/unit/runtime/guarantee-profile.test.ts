import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { TxnSendOption } from '../../../src/eos/txn-send-option.js';
import { resolveConfig } from '../../../src/runtime/config.js';

// The processing guarantee is resolved once, in resolveConfig, into the profile every runtime part reads
// (src/runtime/internal/guarantee-profile.ts).
const base = { applicationId: 'orders', bootstrapServers: '127.0.0.1:9092' } as const;

describe('guarantee profile', () => {
  it.each(['exactly_once', 'exactly_once_v2', undefined] as const)('%s: transactions, read_committed everywhere, IGNORE_SEND_ERRORS, <applicationId>-<taskId>', (name) => {
    const config = resolveConfig({ ...base, ...(name ? { processingGuarantee: name } : {}) });
    const g = config.guarantee;
    expect(config.processingGuarantee).toBe('exactly_once');
    expect(g.guarantee).toBe('exactly_once');
    expect(g.exactlyOnce).toBe(true);
    expect(config.commitIntervalMs).toBe(100);
    expect(g.isolationLevel).toBe('read_committed');
    expect(g.globalIsolationLevel).toBe('read_committed');
    expect(config.consumerSettings.isolationLevel).toBe('read_committed');
    expect(g.sendOption).toBe(TxnSendOption.IGNORE_SEND_ERRORS);
    expect(g.transactionalIdOf('0_3')).toBe('orders-0_3');
  });

  it('at_least_once: no transactions, NONE, a 30 s commit interval, a read_uncommitted global reader', () => {
    const config = resolveConfig({ ...base, processingGuarantee: 'at_least_once' });
    const g = config.guarantee;
    expect(g.guarantee).toBe('at_least_once');
    expect(g.exactlyOnce).toBe(false);
    expect(config.commitIntervalMs).toBe(30_000);
    expect(g.isolationLevel).toBe('read_committed');
    expect(g.globalIsolationLevel).toBe('read_uncommitted');
    expect(g.sendOption).toBe(TxnSendOption.NONE);
    expect(g.transactionalIdOf('0_3')).toBeUndefined();
  });

  it("consumerConfig isolation.level=read_uncommitted: refused under both exactly_once names, taken under at_least_once", () => {
    for (const name of ['exactly_once', 'exactly_once_v2'] as const) {
      expect(() => resolveConfig({ ...base, processingGuarantee: name, consumerConfig: { 'isolation.level': 'read_uncommitted' } })).toThrow(ConfigError);
    }
    const alos = resolveConfig({ ...base, processingGuarantee: 'at_least_once', consumerConfig: { 'isolation.level': 'read_uncommitted' } });
    expect(alos.consumerSettings.isolationLevel).toBe('read_uncommitted');
  });

  it('no file of src/ but the profile compares the processing guarantee', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts')) files.push(path);
      }
    };
    walk('src');
    const comparing = files.filter((file) => {
      const text = readFileSync(file, 'utf8');
      return /[!=]==?\s*'(exactly_once(_v2)?|at_least_once)'|'(exactly_once(_v2)?|at_least_once)'\s*[!=]==?|processingGuarantee\s*[!=]==?/.test(text);
    });
    expect(comparing).toEqual([join('src', 'runtime', 'internal', 'guarantee-profile.ts')]);
  });
});
