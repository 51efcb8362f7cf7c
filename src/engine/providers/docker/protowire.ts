// Just enough of the protobuf wire format for BuildKit's session and status messages: a handful of
// string, bytes and varint fields. Hand-written so decoding the build log needs no .proto files on
// disk (the bundle has none) and no code generator.

type Field = { no: number; varint?: bigint; bytes?: Buffer };

function readVarint(buf: Buffer, at: number): [bigint, number] {
  let value = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length; i++) {
    const b = buf[i]!;
    value |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [value, i + 1];
    shift += 7n;
  }
  throw new Error("truncated protobuf varint");
}

/** The fields of one message, in wire order (repeated fields appear once per element). */
export function decodeFields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let i = 0;
  while (i < buf.length) {
    const [key, next] = readVarint(buf, i);
    i = next;
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [v, n] = readVarint(buf, i);
      out.push({ no, varint: v });
      i = n;
    } else if (wire === 2) {
      const [len, n] = readVarint(buf, i);
      const end = n + Number(len);
      if (end > buf.length) throw new Error("truncated protobuf field");
      out.push({ no, bytes: buf.subarray(n, end) });
      i = end;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
  return out;
}

export function str(fields: Field[], fieldNumber: number): string {
  return fields.find((f) => f.no === fieldNumber)?.bytes?.toString("utf8") ?? "";
}

export function has(fields: Field[], fieldNumber: number): boolean {
  return fields.some((f) => f.no === fieldNumber);
}

export function bool(fields: Field[], fieldNumber: number): boolean {
  return (fields.find((f) => f.no === fieldNumber)?.varint ?? 0n) !== 0n;
}

export function num(fields: Field[], fieldNumber: number): number {
  return Number(fields.find((f) => f.no === fieldNumber)?.varint ?? 0n);
}

export function all(fields: Field[], fieldNumber: number): Buffer[] {
  return fields.filter((f) => f.no === fieldNumber && f.bytes).map((f) => f.bytes!);
}

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}

/** Encodes length-delimited fields (strings, bytes) and varints, in the order given. */
export function encodeFields(fields: [no: number, value: string | Buffer | number][]): Buffer {
  const parts: Buffer[] = [];
  for (const [no, value] of fields) {
    if (typeof value === "number") {
      parts.push(varint(no << 3), varint(value));
      continue;
    }
    const bytes = typeof value === "string" ? Buffer.from(value, "utf8") : value;
    parts.push(varint((no << 3) | 2), varint(bytes.length), bytes);
  }
  return Buffer.concat(parts);
}
