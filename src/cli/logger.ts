/**
 * The CLI's root logger: pino JSON lines on stdout, or readable colored lines
 * (pino-pretty) when stdout is a terminal.
 */
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';

/** Options of {@link createCliLogger}. */
export interface CliLoggerOptions {
  /** Default: stdout is a TTY. */
  pretty?: boolean;
  /** Default: process.stdout. */
  destination?: NodeJS.WritableStream;
  /** Called before every log line is written (the progress line clears itself there). */
  beforeWrite?: () => void;
}

/** Creates the CLI logger at `level`. */
export function createCliLogger(level: string, options: CliLoggerOptions = {}): Logger {
  const target = options.destination ?? process.stdout;
  const pretty = options.pretty ?? (target as { isTTY?: boolean }).isTTY === true;
  const hook = options.beforeWrite;
  const destination: NodeJS.WritableStream = hook
    ? new Writable({
        write(chunk: Buffer | string, _encoding, callback) {
          hook();
          target.write(chunk);
          callback();
        },
      })
    : target;
  const base = { app: 'sluice' };
  if (!pretty) return pino({ level, base }, destination as NodeJS.WritableStream & { write(s: string): boolean });
  return pino(
    { level, base },
    PinoPretty({
      colorize: (target as { isTTY?: boolean }).isTTY === true,
      sync: true,
      translateTime: 'HH:MM:ss.l',
      ignore: 'pid,hostname,app',
      destination,
    }),
  );
}
