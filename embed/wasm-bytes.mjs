// Reading and writing the parts of a wasm module's binary format that the post-build step
// short-imports.mjs touches: LEB128 numbers, names, sections, imports, exports.

/** Unsigned LEB128 at `o`: [value, next offset]. */
export function leb(buf, o) {
  let value = 0;
  let scale = 1;
  let byte;
  do {
    byte = buf[o++];
    value += (byte & 0x7f) * scale;
    scale *= 128;
  } while (byte & 0x80);
  return [value, o];
}

/** `n` as unsigned LEB128. */
export function uleb(n) {
  const out = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out);
}

/** A name: its UTF-8 length, then its bytes. */
export function str(s) {
  const b = Buffer.from(s);
  return Buffer.concat([uleb(b.length), b]);
}

/** A section with id `id` and contents `body`. */
export function section(id, body) {
  return Buffer.concat([Buffer.from([id]), uleb(body.length), body]);
}

/** The module's sections in order: `{id, from, start, end}` (`from` includes the header). */
export function sections(wasm) {
  if (wasm.readUInt32LE(0) !== 0x6d736100) throw new Error("not a wasm module");
  const out = [];
  for (let p = 8; p < wasm.length; ) {
    const id = wasm[p];
    const [size, start] = leb(wasm, p + 1);
    out.push({ id, from: p, start, end: start + size });
    p = start + size;
  }
  return out;
}

/** The end of the descriptor of an import of `kind` whose descriptor starts at `o`. */
function descriptorEnd(wasm, kind, o) {
  switch (kind) {
    case 0: // function: type index
      return leb(wasm, o)[1];
    case 1: {
      // table: reftype, limits
      o++;
      const flags = wasm[o++];
      o = leb(wasm, o)[1];
      return flags & 1 ? leb(wasm, o)[1] : o;
    }
    case 2: {
      // memory: limits
      const flags = wasm[o++];
      o = leb(wasm, o)[1];
      return flags & 1 ? leb(wasm, o)[1] : o;
    }
    case 3: // global: valtype, mutability
      return o + 2;
    case 4: // tag: attribute, type index
      return leb(wasm, o + 1)[1];
    default:
      throw new Error(`unknown import kind ${kind}`);
  }
}

/** The entries of an import (2) or export (7) section: `{module?, field, kind, descriptor}`,
 * `descriptor` being the bytes after the name(s), kind byte included. */
export function entries(wasm, { id, start }) {
  let [count, o] = leb(wasm, start);
  const out = [];
  const name = () => {
    const [len, at] = leb(wasm, o);
    o = at + len;
    return wasm.subarray(at, o).toString();
  };
  for (let i = 0; i < count; i++) {
    const module = id === 2 ? name() : undefined;
    const field = name();
    const from = o;
    const kind = wasm[o++];
    o = id === 2 ? descriptorEnd(wasm, kind, o) : leb(wasm, o)[1];
    out.push({ module, field, kind, descriptor: wasm.subarray(from, o) });
  }
  return out;
}
