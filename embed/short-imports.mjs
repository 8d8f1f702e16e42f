// Shortens the names of the functions the wasm imports from wasm-bindgen's JS glue
// (`__wbg_setAttribute_f75317b2b5cabfb4` -> `$1b`), in the wasm's import section and in the glue's
// imports object alike. Those names carry a 16-digit hash each, which no compressor can shrink, and
// they appear twice: -2.5 KB brotli of wasm and -1.7 KB of JS. A name is only changed where the
// glue has it exactly once, as a key of the imports object; anything else keeps its name.
// The same for the glue's uses of the wasm's exported functions (wasm-bindgen's closure shims
// have 150-character names), where every use in the glue is a property access (`x.name`).
import { entries, section, sections, str, uleb } from "./wasm-bytes.mjs";

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** `name` as a whole JS identifier. */
const word = (name) => new RegExp(`(?<![\\w$])${escape(name)}(?![\\w$])`, "g");

/** `{wasm, js, renamed}`: both with the short names. */
export function shortenImports(wasm, js) {
  let next = 0;
  const fresh = () => {
    for (;;) {
      const name = "$" + (next++).toString(36);
      if (!word(name).test(js)) return name;
    }
  };
  // The glue's one key in its imports object (`{…,name:function…`).
  const importKey = (field) => {
    const key = new RegExp(`(?<=[{,])${escape(field)}(?=:)`);
    return (js.match(word(field)) ?? []).length === 1 && key.test(js) ? key : null;
  };
  // Every use of an export in the glue is a property access (`x.name`).
  const exportAccess = (field) => {
    const access = new RegExp(`(?<=\\.)${escape(field)}(?![\\w$])`, "g");
    const uses = js.match(word(field))?.length ?? 0;
    return field.length > 8 && uses > 0 && uses === (js.match(access)?.length ?? 0) ? access : null;
  };
  let renamed = 0;
  const parts = [wasm.subarray(0, 8)];
  for (const s of sections(wasm)) {
    if (s.id !== 2 && s.id !== 7) {
      parts.push(wasm.subarray(s.from, s.end));
      continue;
    }
    const list = entries(wasm, s);
    const body = [uleb(list.length)];
    for (const { module, field, kind, descriptor } of list) {
      const uses = kind === 0 ? (s.id === 2 ? importKey : exportAccess)(field) : null;
      let name = field;
      if (uses) {
        name = fresh();
        js = js.replace(uses, name);
        renamed++;
      }
      if (module !== undefined) body.push(str(module));
      body.push(str(name), descriptor);
    }
    parts.push(section(s.id, Buffer.concat(body)));
  }
  return { wasm: Buffer.concat(parts), js, renamed };
}
