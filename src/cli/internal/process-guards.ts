/**
 * What keeps a `sluice run` worker from dying by accident: instead of Node's
 * default (a stack trace and an exit without closing the app), each of these
 * asks the worker to close the app gracefully:
 * - SIGINT, SIGTERM and SIGHUP (a closed terminal or a supervisor's hang-up): a requested stop;
 * - an unhandled promise rejection or an uncaught exception: a failure;
 * - stdout or stderr closed under the worker (EPIPE, e.g. `sluice run ... | head`): a failure
 *   for stdout (the log has nowhere to go), silently ignored for stderr.
 * Errors of the output streams stay handled after {@link ProcessGuards.dispose},
 * since the logger may still write while the process exits.
 */
import { StreamsError } from '../../errors.js';

/** The signals the worker treats as a stop request. */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** What the guards report. */
export interface GuardEvents {
  /** A stop signal arrived. */
  onSignal(signal: NodeJS.Signals): void;
  /** Something that would have killed the process happened. */
  onFatal(error: Error): void;
}

/** Installed guards. */
export interface ProcessGuards {
  dispose(): void;
}

function describe(reason: unknown): string {
  return reason instanceof Error ? `${reason.name}: ${reason.message.split('\n')[0]}` : String(reason);
}

/** Installs the stream guards on `stdout` / `stderr`, and with `processEvents` the signal and crash guards on `process`. */
export function installProcessGuards(
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  events: GuardEvents,
  processEvents: boolean,
): ProcessGuards {
  let stdoutBroken = false;
  io.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (stdoutBroken) return;
    stdoutBroken = true;
    events.onFatal(
      new StreamsError(`stdout was closed (${error.code ?? error.message}): the log has nowhere to go, so the app is closed`, {
        code: 'STDOUT_CLOSED',
        kind: 'fatal',
        cause: error,
      }),
    );
  });
  io.stderr.on('error', () => undefined);
  if (!processEvents) return { dispose: () => undefined };

  const onSignal = (signal: NodeJS.Signals): void => events.onSignal(signal);
  const onRejection = (reason: unknown): void =>
    events.onFatal(
      new StreamsError(`unhandled promise rejection (${describe(reason)}); the app is closed. A processor or callback returned a rejecting promise nobody awaited`, {
        code: 'UNHANDLED_REJECTION',
        kind: 'fatal',
        cause: reason,
      }),
    );
  const onException = (error: unknown): void =>
    events.onFatal(new StreamsError(`uncaught exception (${describe(error)}); the app is closed`, { code: 'UNCAUGHT_EXCEPTION', kind: 'fatal', cause: error }));
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    dispose() {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
    },
  };
}
