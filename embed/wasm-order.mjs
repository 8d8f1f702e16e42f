// Names every function of a wasm module after its body: length first, then its first bytes.
// `wasm-opt --reorder-functions-by-name` then places functions of the same size and shape
// side by side (Leptos' monomorphised builders, drop glue), which brotli compresses better
// (-2 KB of 135 on the widget) than the linker's order; `--strip-debug` drops these names.
// The code itself is untouched: binaryen renumbers calls, exports keep their names. Custom
// sections are dropped on the way.
import { entries, leb, section, sections, str, uleb } from "./wasm-bytes.mjs";

/** `wasm` (a Buffer) with its name section replaced by body-derived function names. */
export function orderForBrotli(wasm) {
  const all = sections(wasm);
  // Function indices count imported functions first.
  let imported = 0;
  const bodies = [];
  for (const s of all) {
    if (s.id === 2) {
      imported = entries(wasm, s).filter((e) => e.kind === 0).length;
    } else if (s.id === 10) {
      let [count, o] = leb(wasm, s.start);
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
  const nameSection = Buffer.concat([str("name"), section(1, functionNames)]);
  // Every custom section goes (the old names, `producers`, `target_features`, Leptos'
  // `__wasm_split_unstable`): the browser reads none of them.
  const kept = all.filter(({ id }) => id !== 0).map(({ from, end }) => wasm.subarray(from, end));
  return Buffer.concat([wasm.subarray(0, 8), ...kept, section(0, nameSection)]);
}
