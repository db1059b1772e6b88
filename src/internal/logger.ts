/**
 * pino logging. Every component logs through a child logger carrying
 * `{ component, taskId? }`. Silent under vitest unless LOG_LEVEL is set.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

/** The default root logger: level from LOG_LEVEL, `silent` in tests, `info` otherwise. */
export function defaultLogger(): Logger {
  const level = process.env.LOG_LEVEL ?? (process.env.VITEST ? 'silent' : 'info');
  return pino({ level, base: { app: 'sluice' } });
}

let root: Logger | undefined;

/** A child logger for a component, from `parent` or the default root logger. */
export function componentLogger(component: string, parent?: Logger, bindings: Record<string, unknown> = {}): Logger {
  root ??= defaultLogger();
  return (parent ?? root).child({ component, ...bindings });
}

/**
 * Replaces the default root logger used by {@link componentLogger} when no
 * parent is given (the `sluice` CLI installs its configured logger this way, so
 * handlers and components created by an app module log through it too).
 */
export function setRootLogger(logger: Logger): void {
  root = logger;
}
