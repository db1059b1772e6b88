/**
 * Small helpers shared by the built-in handlers: naming a handler or an error,
 * the coordinates of a failing record, and a best-effort byte rendering of a
 * value that has no serialized form.
 */
import type { ErrorHandlerContext } from '../types.js';

/** A readable name for a handler object: its `name`, else its class name, else `fallback`. */
export function handlerName(handler: unknown, fallback: string): string {
  if (handler !== null && typeof handler === 'object') {
    const own = (handler as { name?: unknown }).name;
    if (typeof own === 'string' && own !== '') return own;
    const ctor = (handler as { constructor?: { name?: string } }).constructor?.name;
    if (ctor && ctor !== 'Object') return ctor;
  }
  return fallback;
}

/** The class name of an error (`RecordTooLargeError`, `TypeError`, ...). */
export function errorClassName(error: unknown): string {
  if (error instanceof Error) return error.name && error.name !== 'Error' ? error.name : error.constructor.name;
  return typeof error;
}

/** The message of an error, or its string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `topic orders partition 1 offset 42, node KSTREAM-SINK-0000000003, task 0_1`. */
export function coordinates(context: ErrorHandlerContext): string {
  return `topic ${context.topic} partition ${context.partition} offset ${context.offset}, node ${context.processorNodeId}, task ${context.taskId}`;
}

/** Log fields for a failing record. */
export function logFields(context: ErrorHandlerContext, error: unknown): Record<string, unknown> {
  return {
    topic: context.topic,
    partition: context.partition,
    offset: context.offset,
    processorNodeId: context.processorNodeId,
    taskId: context.taskId,
    errorClass: errorClassName(error),
    errorMessage: errorMessage(error),
  };
}

/**
 * Bytes for a value that has no serialized form: Buffers as they are, strings
 * as UTF-8, `null`/`undefined` as `null`, anything else as JSON (falling back
 * to `String(value)` when JSON fails, e.g. on cycles or BigInt).
 */
export function renderBytes(value: unknown): Buffer | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return Buffer.from(json, 'utf8');
  } catch {
    // fall through
  }
  return Buffer.from(String(value), 'utf8');
}
