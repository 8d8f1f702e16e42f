// Shortens the names of the functions the wasm imports from wasm-bindgen's JS glue
// (`__wbg_setAttribute_f75317b2b5cabfb4` -> `$1b`), in the wasm's import section and in the glue's
// imports object alike. Those names carry a 16-digit hash each, which no compressor can shrink, and
// they appear twice: -2.5 KB brotli of wasm and -1.7 KB of JS. A name is only changed where the
// glue has it exactly once, as a key of the imports object; anything else keeps its name.
// The same for the glue's uses of the wasm's exported functions (wasm-bindgen's closure shims
// have 150-character names), where every use in the glue is a property access (`x.name`).

function leb(buf, o) {
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

function uleb(n) {
  const out = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out);
}

const str = (s) => {
  const b = Buffer.from(s);
  return Buffer.concat([uleb(b.length), b]);
};

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** `name` as a whole JS identifier. */
const word = (name) => new RegExp(`(?<![\\w$])${escape(name)}(?![\\w$])`, "g");

/** Skips one import descriptor (after the kind byte); returns the offset after it. */
function skipDescriptor(wasm, kind, o) {
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

/** `{wasm, js, renamed}`: both with the short names. */
export function shortenImports(wasm, js) {
  if (wasm.readUInt32LE(0) !== 0x6d736100) throw new Error("not a wasm module");
  let next = 0;
  const fresh = () => {
    for (;;) {
      const name = "$" + (next++).toString(36);
      if (!word(name).test(js)) return name;
    }
  };
  const parts = [wasm.subarray(0, 8)];
  let renamed = 0;
  for (let p = 8; p < wasm.length; ) {
    const id = wasm[p];
    const [size, start] = leb(wasm, p + 1);
    const end = start + size;
    if (id === 7) {
      let [count, o] = leb(wasm, start);
      const entries = [uleb(count)];
      for (let i = 0; i < count; i++) {
        let len;
        [len, o] = leb(wasm, o);
        const field = wasm.subarray(o, o + len).toString();
        o += len;
        const descriptor = o;
        const kind = wasm[o++];
        o = leb(wasm, o)[1];
        let name = field;
        const uses = js.match(word(field))?.length ?? 0;
        const access = new RegExp(`(?<=\\.)${escape(field)}(?![\\w$])`, "g");
        const accesses = js.match(access)?.length ?? 0;
        if (kind === 0 && field.length > 8 && uses > 0 && uses === accesses) {
          name = fresh();
          js = js.replace(access, name);
          renamed++;
        }
        entries.push(str(name), wasm.subarray(descriptor, o));
      }
      const body = Buffer.concat(entries);
      parts.push(Buffer.from([7]), uleb(body.length), body);
      p = end;
      continue;
    }
    if (id !== 2) {
      parts.push(wasm.subarray(p, end));
      p = end;
      continue;
    }
    let [count, o] = leb(wasm, start);
    const entries = [uleb(count)];
    for (let i = 0; i < count; i++) {
      let len;
      [len, o] = leb(wasm, o);
      const module = wasm.subarray(o, o + len).toString();
      o += len;
      [len, o] = leb(wasm, o);
      const field = wasm.subarray(o, o + len).toString();
      o += len;
      const descriptor = o;
      const kind = wasm[o++];
      o = skipDescriptor(wasm, kind, o);
      let name = field;
      const uses = js.match(word(field)) ?? [];
      const key = new RegExp(`(?<=[{,])${escape(field)}(?=:)`);
      if (kind === 0 && uses.length === 1 && key.test(js)) {
        name = fresh();
        js = js.replace(key, name);
        renamed++;
      }
      entries.push(str(module), str(name), wasm.subarray(descriptor, o));
    }
    const body = Buffer.concat(entries);
    parts.push(Buffer.from([2]), uleb(body.length), body);
    p = end;
  }
  return { wasm: Buffer.concat(parts), js, renamed };
}
