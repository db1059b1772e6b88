/**
 * The CLI's root logger: pino JSON lines on stdout, or readable colored lines
 * (pino-pretty) when stdout is a terminal.
 */
import { pino, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';

/** Creates the CLI logger at `level`; `pretty` defaults to "stdout is a TTY". */
export function createCliLogger(level: string, options: { pretty?: boolean; destination?: NodeJS.WritableStream } = {}): Logger {
  const destination = options.destination ?? process.stdout;
  const pretty = options.pretty ?? (destination as { isTTY?: boolean }).isTTY === true;
  const base = { app: 'sluice' };
  if (!pretty) return pino({ level, base }, destination as NodeJS.WritableStream & { write(s: string): boolean });
  return pino(
    { level, base },
    PinoPretty({ colorize: true, sync: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,app', destination }),
  );
}
