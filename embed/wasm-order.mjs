// Names every function of a wasm module after its body: length first, then its first bytes.
// `wasm-opt --reorder-functions-by-name` then places functions of the same size and shape
// side by side (Leptos' monomorphised builders, drop glue), which brotli compresses better
// (-2 KB of 135 on the widget) than the linker's order; `--strip-debug` drops these names.
// The code itself is untouched: binaryen renumbers calls, exports keep their names. Custom
// sections are dropped on the way.

/** Unsigned LEB128 at `o`: [value, next offset]. */
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

/** `wasm` (a Buffer) with its name section replaced by body-derived function names. */
export function orderForBrotli(wasm) {
  if (wasm.readUInt32LE(0) !== 0x6d736100) throw new Error("not a wasm module");
  const sections = [];
  for (let p = 8; p < wasm.length; ) {
    const id = wasm[p];
    const [size, start] = leb(wasm, p + 1);
    sections.push({ id, from: p, start, end: start + size });
    p = start + size;
  }
  // Function indices count imported functions first.
  let imported = 0;
  const bodies = [];
  for (const { id, start } of sections) {
    if (id === 2) {
      let [count, o] = leb(wasm, start);
      for (let i = 0; i < count; i++) {
        let len;
        [len, o] = leb(wasm, o);
        o += len; // module
        [len, o] = leb(wasm, o);
        o += len; // field
        const kind = wasm[o++];
        if (kind === 0) {
          imported++;
          [, o] = leb(wasm, o); // type index
        } else if (kind === 1) {
          o++; // table: reftype, limits
          const flags = wasm[o++];
          [, o] = leb(wasm, o);
          if (flags & 1) [, o] = leb(wasm, o);
        } else if (kind === 2) {
          const flags = wasm[o++]; // memory limits
          [, o] = leb(wasm, o);
          if (flags & 1) [, o] = leb(wasm, o);
        } else if (kind === 3) {
          o += 2; // global: valtype, mutability
        } else if (kind === 4) {
          o++; // tag: attribute, type index
          [, o] = leb(wasm, o);
        } else {
          throw new Error(`unknown import kind ${kind}`);
        }
      }
    } else if (id === 10) {
      let [count, o] = leb(wasm, start);
      for (let i = 0; i < count; i++) {
        let len;
        [len, o] = leb(wasm, o);
        bodies.push(wasm.subarray(o, o + len));
        o += len;
      }
    }
  }
  // Unique names (the index breaks ties), sorted as strings by wasm-opt.
  const names = bodies.map((body, i) => {
    const index = imported + i;
    const key = String(body.length).padStart(7, "0") + body.subarray(0, 32).toString("hex");
    return Buffer.concat([uleb(index), str(`${key}_${index}`)]);
  });
  const functionNames = Buffer.concat([uleb(names.length), ...names]);
  const nameSection = Buffer.concat([str("name"), Buffer.from([1]), uleb(functionNames.length), functionNames]);
  // Every custom section goes (the old names, `producers`, `target_features`, Leptos'
  // `__wasm_split_unstable`): the browser reads none of them.
  const kept = sections.filter(({ id }) => id !== 0).map(({ from, end }) => wasm.subarray(from, end));
  return Buffer.concat([wasm.subarray(0, 8), ...kept, Buffer.from([0]), uleb(nameSection.length), nameSection]);
}
