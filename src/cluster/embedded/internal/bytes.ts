/**
 * Byte writer/reader with Kafka's fixed-width big-endian integers and
 * zig-zag varints (protobuf style), as used by the v2 record format.
 */

/** Thrown when a buffer ends before a field is complete. */
export class BufferUnderflowError extends Error {}

/** Appends fields to a growing list of chunks. */
export class ByteWriter {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }
  private push(b: Buffer): this {
    this.chunks.push(b);
    this.size += b.length;
    return this;
  }
  int8(v: number): this {
    const b = Buffer.alloc(1);
    b.writeInt8(v);
    return this.push(b);
  }
  int16(v: number): this {
    const b = Buffer.alloc(2);
    b.writeInt16BE(v);
    return this.push(b);
  }
  int32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v);
    return this.push(b);
  }
  uint32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(v >>> 0);
    return this.push(b);
  }
  int64(v: number | bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(BigInt(v));
    return this.push(b);
  }
  /** Zig-zag varint/varlong (values up to 2^52 in magnitude). */
  varint(v: number): this {
    let z = v >= 0 ? v * 2 : -v * 2 - 1;
    const out: number[] = [];
    while (z >= 0x80) {
      out.push((z % 0x80) | 0x80);
      z = Math.floor(z / 0x80);
    }
    out.push(z);
    return this.push(Buffer.from(out));
  }
  bytes(b: Buffer): this {
    return this.push(b);
  }
  /** varint length (-1 for null) followed by the bytes. */
  varBytes(b: Buffer | null): this {
    if (b === null) return this.varint(-1);
    return this.varint(b.length).push(b);
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

/** Reads fields from a buffer; every read past the end throws {@link BufferUnderflowError}. */
export class ByteReader {
  offset = 0;
  constructor(private readonly buf: Buffer, private readonly end = buf.length) {}

  get remaining(): number {
    return this.end - this.offset;
  }
  private need(n: number): number {
    if (n < 0 || this.offset + n > this.end) throw new BufferUnderflowError(`need ${n} bytes at ${this.offset}, buffer ends at ${this.end}`);
    const at = this.offset;
    this.offset += n;
    return at;
  }
  int8(): number {
    return this.buf.readInt8(this.need(1));
  }
  int16(): number {
    return this.buf.readInt16BE(this.need(2));
  }
  int32(): number {
    return this.buf.readInt32BE(this.need(4));
  }
  uint32(): number {
    return this.buf.readUInt32BE(this.need(4));
  }
  int64(): number {
    return Number(this.buf.readBigInt64BE(this.need(8)));
  }
  varint(): number {
    let z = 0;
    let mult = 1;
    for (let i = 0; i < 10; i++) {
      const byte = this.buf.readUInt8(this.need(1));
      z += (byte & 0x7f) * mult;
      if ((byte & 0x80) === 0) return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
      mult *= 0x80;
    }
    throw new BufferUnderflowError('varint longer than 10 bytes');
  }
  bytes(n: number): Buffer {
    const at = this.need(n);
    return this.buf.subarray(at, at + n);
  }
  varBytes(): Buffer | null {
    const n = this.varint();
    return n < 0 ? null : Buffer.from(this.bytes(n));
  }
}
