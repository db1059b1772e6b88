/**
 * Bridges kafkajs' logger to pino. kafkajs logs every error answer of a request
 * at ERROR ("Response Produce(key: 0, version: 8)") and every failed send again
 * (namespace `Producer`); sluice reports those through rejected promises, so
 * they are logged at debug here. Its warning about bounded retries of an
 * idempotent producer is expected (the bound is deliberate, see
 * `raw-producer.ts`) and logged at debug too. Every field kafkajs logs goes
 * through `hideSecrets` (a password, private key or token it might ever log
 * shows as `[hidden]`).
 */
import kafkajs, { type logCreator } from 'kafkajs';
import type { Logger } from '../../../internal/logger.js';
import { hideSecrets } from '../connection-security.js';

const { logLevel } = kafkajs;

/** A kafkajs `logCreator` writing to a pino child logger `{ component: 'kafkajs', namespace }`. */
export function pinoLogCreator(logger: Logger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, ...extra } = log;
      const bindings = hideSecrets({ namespace, ...extra }) as Record<string, unknown>;
      const text = String(message);
      if (isExpectedNoise(namespace, level, text)) logger.debug(bindings, text);
      else if (level === logLevel.ERROR) logger.error(bindings, text);
      else if (level === logLevel.WARN) logger.warn(bindings, text);
      else if (level === logLevel.INFO) logger.debug(bindings, text);
      else logger.trace(bindings, text);
    };
}

/** The kafkajs log level matching a pino level (kafkajs filters before calling the creator). */
export function kafkaJsLevelFor(logger: Logger): kafkajs.logLevel {
  switch (logger.level) {
    case 'trace':
    case 'debug':
      return logLevel.DEBUG;
    case 'info':
    case 'warn':
      return logLevel.WARN;
    case 'silent':
      return logLevel.NOTHING;
    default:
      return logLevel.ERROR;
  }
}

function isExpectedNoise(namespace: string, level: number, text: string): boolean {
  if (level === logLevel.ERROR && (text.startsWith('Response ') || namespace === 'Producer')) return true;
  return level === logLevel.WARN && text.startsWith('Limiting retries for the idempotent producer');
}
