/**
 * Topic configs with Kafka 4 defaults, and their validation.
 *
 * Defaults (Kafka 4.0): `max.message.bytes` 1048588, `cleanup.policy` delete,
 * `message.timestamp.type` CreateTime, `message.timestamp.before.max.ms`
 * Long.MAX_VALUE (KIP-937), `message.timestamp.after.max.ms` 3600000 (1 hour;
 * KIP-1030 changed it from Long.MAX_VALUE in 4.0).
 */
import { KafkaErrorCode, type KafkaProtocolError } from '../../../errors.js';
import { brokerError } from './broker-error.js';
import { isCompressionType, type CompressionType } from '../../../records/compression.js';

/** Long.MAX_VALUE as Kafka prints it. */
export const LONG_MAX = '9223372036854775807';

/** Effective defaults of a Kafka 4 broker for the configs the embedded cluster uses. */
export const TOPIC_CONFIG_DEFAULTS: Readonly<Record<string, string>> = {
  'cleanup.policy': 'delete',
  'max.message.bytes': '1048588',
  'message.timestamp.type': 'CreateTime',
  'message.timestamp.before.max.ms': LONG_MAX,
  'message.timestamp.after.max.ms': '3600000',
  'retention.ms': '604800000',
  'min.insync.replicas': '1',
  'compression.type': 'producer',
};

/** The configs validation reads, parsed. */
export interface ParsedTopicConfig {
  compacted: boolean;
  maxMessageBytes: number;
  logAppendTime: boolean;
  timestampBeforeMaxMs: number;
  /** The config as written (exact for Long.MAX_VALUE, used in messages). */
  timestampBeforeMaxMsText: string;
  timestampAfterMaxMs: number;
  /** Legacy `message.format.version` when set explicitly (seed 001's magic rule). */
  messageFormatVersion: string | undefined;
  /** `compression.type`: `'producer'` keeps the producer's codec, else the codec every batch is stored in (`uncompressed` is `'none'`). */
  compression: CompressionType | 'producer';
}

/** The values Kafka accepts for a topic's `compression.type`. */
const TOPIC_COMPRESSION_TYPES = ['uncompressed', 'zstd', 'lz4', 'snappy', 'gzip', 'producer'];

const NON_NEGATIVE_LONGS = ['message.timestamp.before.max.ms', 'message.timestamp.after.max.ms', 'retention.ms'];

function invalid(name: string, value: string, why: string): KafkaProtocolError {
  return brokerError(KafkaErrorCode.INVALID_CONFIG, `Invalid value ${value} for configuration ${name}: ${why}`);
}

/** Validates explicit configs; rejects with INVALID_CONFIG naming the key. */
export function validateTopicConfig(config: Record<string, string>): void {
  for (const [name, value] of Object.entries(config)) {
    if (name === 'cleanup.policy') {
      const parts = value.split(',').map((s) => s.trim());
      if (!parts.every((p) => p === 'delete' || p === 'compact')) throw invalid(name, value, 'String must be one of: compact, delete');
    } else if (name === 'message.timestamp.type') {
      if (value !== 'CreateTime' && value !== 'LogAppendTime') throw invalid(name, value, 'String must be one of: CreateTime, LogAppendTime');
    } else if (name === 'compression.type') {
      if (!TOPIC_COMPRESSION_TYPES.includes(value)) throw invalid(name, value, `String must be one of: ${TOPIC_COMPRESSION_TYPES.join(', ')}`);
    } else if (name === 'max.message.bytes') {
      if (!/^\d+$/.test(value)) throw invalid(name, value, 'Value must be a non-negative integer');
    } else if (NON_NEGATIVE_LONGS.includes(name)) {
      if (!/^\d+$/.test(value) && value !== '-1') throw invalid(name, value, 'Value must be a non-negative long');
    }
  }
}

/** Effective configs: defaults overlaid with explicit ones. */
export function effectiveConfig(explicit: Record<string, string>): Record<string, string> {
  return { ...TOPIC_CONFIG_DEFAULTS, ...explicit };
}

/** Parses the configs produce validation needs. */
export function parseTopicConfig(effective: Record<string, string>): ParsedTopicConfig {
  const num = (k: string): number => Number(effective[k] ?? TOPIC_CONFIG_DEFAULTS[k]);
  return {
    compacted: (effective['cleanup.policy'] ?? 'delete').split(',').map((s) => s.trim()).includes('compact'),
    maxMessageBytes: num('max.message.bytes'),
    logAppendTime: effective['message.timestamp.type'] === 'LogAppendTime',
    timestampBeforeMaxMs: num('message.timestamp.before.max.ms'),
    timestampBeforeMaxMsText: effective['message.timestamp.before.max.ms'] ?? LONG_MAX,
    timestampAfterMaxMs: num('message.timestamp.after.max.ms'),
    messageFormatVersion: effective['message.format.version'],
    compression: compressionOf(effective['compression.type'] ?? 'producer'),
  };
}

function compressionOf(value: string): CompressionType | 'producer' {
  if (value === 'uncompressed') return 'none';
  return isCompressionType(value) && value !== 'none' ? value : 'producer';
}
