/**
 * SQLite's variable-length integers (as FTS5's records hold them): big-endian 7 bits a byte while the top bit
 * is set; a 9th byte is whole. At most `count` of them are read.
 */
export function readVarints(bytes: Uint8Array, count = Infinity): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < bytes.length && out.length < count) {
    let value = 0;
    for (let n = 0; ; n++) {
      const byte = bytes[i++] ?? 0;
      if (n === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0 || i >= bytes.length) break;
    }
    out.push(value);
  }
  return out;
}
