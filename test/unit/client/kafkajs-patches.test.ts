import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { patchKafkaJs, sluiceKafkaJs, VERIFIED_KAFKAJS_VERSION } from '../../../src/cluster/kafkajs/internal/patches.js';
import { privatePackage } from '../../../src/cluster/kafkajs/internal/private-module.js';

const require = createRequire(import.meta.url);
type ProduceDefinitions = { versions: string[]; protocol: (o: { version: number }) => unknown };

describe('kafkajs patches: contained in sluice’s private copy', () => {
  it('patches the private copy and leaves the process-wide kafkajs (ESM import and require) untouched', () => {
    const sharedProduce = require('kafkajs/src/protocol/requests/produce/index.js') as ProduceDefinitions;
    const sharedFetch = require('kafkajs/src/protocol/requests/fetch/index.js') as { protocol: unknown };
    const before = { versions: [...sharedProduce.versions], protocol: sharedProduce.protocol, fetch: sharedFetch.protocol };
    const sluice = sluiceKafkaJs();
    expect(sluice.version).toBe(VERIFIED_KAFKAJS_VERSION);
    expect(sluice.internals.load<ProduceDefinitions>('protocol/requests/produce/index.js').versions).toContain('8');
    // the shared copy: same module objects, same functions, no v8
    expect(require('kafkajs')).toBe(kafkajs);
    expect(sluice.kafkajs).not.toBe(kafkajs);
    expect(sluice.kafkajs.Kafka).not.toBe(kafkajs.Kafka);
    expect(sharedProduce.versions).toEqual(before.versions);
    expect(sharedProduce.versions).not.toContain('8');
    expect(sharedProduce.protocol).toBe(before.protocol);
    expect(sharedFetch.protocol).toBe(before.fetch);
    expect(Object.getOwnPropertySymbols(sharedProduce)).toEqual([]);
  });

  it('a plain Node ESM program importing kafkajs before and after making sluice clients gets the unpatched module', () => {
    const script = fileURLToPath(new URL('./fixtures/esm-user.mts', import.meta.url));
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({ sameModule: true, sharedVersions: ['0', '1', '2', '3', '4', '5', '6', '7'], symbols: 0 });
  });

  it('the private copy is self-contained: lazily required modules and error classes come from the copy too', () => {
    const { internals, kafkajs: copy } = sluiceKafkaJs();
    const produce = internals.load<{ protocol: (o: { version: number }) => (a: object) => { response: unknown } }>('protocol/requests/produce/index.js');
    const response = produce.protocol({ version: 7 })({ acks: -1, timeout: 1, topicData: [] }).response;
    expect(response).toBe(internals.load('protocol/requests/produce/v7/response.js'));
    expect(response).not.toBe(require('kafkajs/src/protocol/requests/produce/v7/response.js'));
    expect(copy.KafkaJSProtocolError).toBe(internals.load<{ KafkaJSProtocolError: unknown }>('errors.js').KafkaJSProtocolError);
    expect(copy.KafkaJSProtocolError).not.toBe(kafkajs.KafkaJSProtocolError);
  });

  it('refuses another kafkajs version, naming the version found and the one verified, and patches nothing', () => {
    const copy = privatePackage('kafkajs', import.meta.url);
    const error = (() => {
      try {
        patchKafkaJs({ packageJson: { version: '2.3.0' }, load: copy.load });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toMatchObject({ code: 'UNSUPPORTED_KAFKAJS' });
    expect((error as Error).message).toContain('found kafkajs 2.3.0');
    expect((error as Error).message).toContain(`verified on kafkajs ${VERIFIED_KAFKAJS_VERSION}`);
    expect(copy.load<ProduceDefinitions>('src/protocol/requests/produce/index.js').versions).not.toContain('8');
  });

  it('refuses internals of another shape (a changed arity, a missing function), naming each, and patches nothing', () => {
    const copy = privatePackage('kafkajs', import.meta.url);
    const produce = copy.load<ProduceDefinitions & { protocol: unknown }>('src/protocol/requests/produce/index.js');
    (produce as { protocol: unknown }).protocol = (a: unknown, b: unknown) => [a, b];
    const errors = copy.load<Record<string, unknown>>('src/errors.js');
    delete errors.KafkaJSProtocolError;
    expect(() => patchKafkaJs(copy)).toThrow(
      /found kafkajs 2\.2\.4 with other internals: .*produce\/index\.js\.protocol takes 2 arguments, expected 1; errors\.js\.KafkaJSProtocolError is not a function/,
    );
    expect(produce.versions).not.toContain('8');
    expect(copy.load<{ protocol: { name: string } }>('src/protocol/requests/fetch/index.js').protocol.name).toBe('protocol');
  });
});
