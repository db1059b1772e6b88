/**
 * The key of a foreign-key join's subscription store (Kafka's `CombinedKey`
 * and `CombinedKeySchema`): `{4 bytes foreign-key length}{foreign key}{primary key}`,
 * so a prefix scan on the foreign key's part finds every subscriber of it.
 */
import { SerializationError } from '../../../errors.js';
import type { Deserializer, Serializer } from '../../../serdes/serde.js';

/** A foreign key and the primary key subscribing to it. */
export interface CombinedKey<KO, K> {
  readonly foreignKey: KO;
  readonly primaryKey: K;
}

type SerdeOf<T> = Serializer<T> & Deserializer<T>;

/** Serializes combined keys; see the file comment. */
export class CombinedKeySchema<KO, K> {
  constructor(
    private readonly foreignKeySerde: SerdeOf<KO>,
    private readonly foreignKeyTopic: string,
    private readonly primaryKeySerde: SerdeOf<K>,
    private readonly primaryKeyTopic: string,
  ) {}

  /** The store key of `(foreignKey, primaryKey)`. */
  toBytes(foreignKey: KO, primaryKey: K): Buffer {
    const pk = this.primaryKeySerde.serialize(this.primaryKeyTopic, primaryKey);
    if (pk === null) throw new SerializationError(`The primary key serde of a foreign-key join serialized key ${String(primaryKey)} to null; primary keys need bytes`);
    return Buffer.concat([this.prefixBytes(foreignKey), pk]);
  }

  /** The key prefix of every subscription of `foreignKey`. */
  prefixBytes(foreignKey: KO): Buffer {
    const fk = this.foreignKeySerde.serialize(this.foreignKeyTopic, foreignKey);
    if (fk === null) throw new SerializationError(`The foreign key serde of a foreign-key join serialized key ${String(foreignKey)} to null; foreign keys need bytes`);
    const length = Buffer.alloc(4);
    length.writeInt32BE(fk.length);
    return Buffer.concat([length, fk]);
  }

  /** The combined key stored as `data`. */
  fromBytes(data: Buffer): CombinedKey<KO, K> {
    const fkLength = data.readInt32BE(0);
    return {
      foreignKey: this.foreignKeySerde.deserialize(this.foreignKeyTopic, data.subarray(4, 4 + fkLength)),
      primaryKey: this.primaryKeySerde.deserialize(this.primaryKeyTopic, data.subarray(4 + fkLength)),
    };
  }
}
