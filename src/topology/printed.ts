/**
 * Kafka Streams' `Printed`: how `KStream.print` writes each record. Only
 * `toSysOut()` (standard output); `toFile` is not yet.
 */
import { requireFunction, requireNonNull } from './internal/checks.js';

/** Options of {@link KStream.print}: a label, a key-value mapper and a processor name. */
export class Printed<K, V> {
  readonly #label: string | undefined;
  readonly #mapper: (key: K, value: V) => string;
  readonly #processorName: string | undefined;

  private constructor(label: string | undefined, mapper: (key: K, value: V) => string, processorName: string | undefined) {
    this.#label = label;
    this.#mapper = mapper;
    this.#processorName = processorName;
  }

  /** Prints to standard output, one line per record: `[label]: key, value` (Kafka's format). */
  static toSysOut<K, V>(): Printed<K, V> {
    return new Printed<K, V>(undefined, (key, value) => `${String(key)}, ${String(value)}`, undefined);
  }

  /** The label in front of each line (default: the processor's name, as Kafka). */
  withLabel(label: string): Printed<K, V> {
    requireNonNull(label, 'label');
    return new Printed(label, this.#mapper, this.#processorName);
  }

  /** The text printed for a record after the label (default `key, value`). */
  withKeyValueMapper(mapper: (key: K, value: V) => string): Printed<K, V> {
    requireFunction(mapper, 'mapper');
    return new Printed(this.#label, mapper, this.#processorName);
  }

  /** The name of the print processor (Kafka's `withName`; default `KSTREAM-PRINTER-<n>`). */
  withName(processorName: string): Printed<K, V> {
    requireNonNull(processorName, 'processorName');
    return new Printed(this.#label, this.#mapper, processorName);
  }

  /** @internal The line for a record, printed by the processor `nodeName`. */
  line(nodeName: string, key: K, value: V): string {
    return `[${this.#label ?? nodeName}]: ${this.#mapper(key, value)}\n`;
  }

  /** @internal The processor name given with `withName`. */
  get processorName(): string | undefined {
    return this.#processorName;
  }
}
