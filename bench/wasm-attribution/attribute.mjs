// Reads twiggy's `top -f csv` of a wasm whose function names were kept (bench/wasm-attribution/run)
// and prints what each crate costs and the heaviest functions, in raw bytes of the code and data
// sections (brotli compresses the whole file, so it cannot be split per function), beside the
// shipped wasm's raw and brotli size. A function belongs to the first crate its demangled name
// paths through, except that core/alloc/std code made generic over another crate's type
// (`core::ptr::drop_in_place<tachys::…>`, `alloc::vec::Vec<paylink_model::…>`) counts to that
// crate: it is there because that crate uses it.
// Usage: node attribute.mjs NAME TOP.csv NAMED.wasm SHIPPED.wasm
import { readFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

const [name, csvPath, namedPath, shippedPath] = process.argv.slice(2);
const STD = new Set(["core", "alloc", "std", "compiler_builtins", "dlmalloc"]);
const TOP = Number(process.env.ATTRIBUTION_TOP || 25);
const ALL = process.env.ATTRIBUTION_ALL === "1"; // every crate, however small

/** Splits one CSV line (twiggy quotes names holding commas). */
function cells(line) {
  const out = [];
  let cur = "", quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (cur += '"'), i++;
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") out.push(cur), (cur = "");
    else cur += c;
  }
  out.push(cur);
  return out;
}

const lines = readFileSync(csvPath, "utf8").split("\n").filter(Boolean);
const head = cells(lines[0]);
const col = (re) => head.findIndex((h) => re.test(h));
const [iName, iSize] = [col(/^Name$/i), col(/^ShallowSize$/i)];
const items = lines.slice(1).map((l) => {
  const c = cells(l);
  return { name: c[iName], size: Number(c[iSize]) };
});

/** The crate an item is counted to, or a bucket for what is not a function. */
function crateOf(n) {
  // The names kept for this bench, and sections wasm-bindgen or wasm-opt remove.
  if (/subsection|custom section|^"?name"?$/i.test(n)) return null;
  if (/^data\[\d+\]$|^data segment/.test(n)) return "(data segments: strings, tables)";
  if (/^(import|export|type|table|elem|global|memory|start|code\[|section headers|wasm magic)/i.test(n) || /header/i.test(n))
    return "(wasm structure: types, imports, exports, tables)";
  // An island's entry, which wasm-bindgen exports as `Name_<hash>` (its props read and its view
  // built, inlined): the crate that declares the islands.
  if (/^[A-Z][A-Za-z0-9]*_\d{6,}( externref shim)?$/.test(n)) return "paylink_payer";
  // wasm-streams' exports (`intounderlyingsource_pull`…), which gloo-net's bodies bring.
  if (/^intounderlying/.test(n)) return "wasm_streams";
  // A v0 symbol twiggy left mangled (`_RNvXs…Cs<hash>_5alloc…`): its crates are `Cs…_<len><name>`.
  if (/^_R/.test(n)) {
    const mangled = [...n.matchAll(/C(?:s[0-9A-Za-z]*_)?(\d+)/g)]
      .map((m) => n.substr(m.index + m[0].length, Number(m[1])))
      .filter((c) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(c));
    if (mangled.length) return STD.has(mangled[0]) && mangled.find((r) => !STD.has(r)) ? mangled.find((r) => !STD.has(r)) : mangled[0];
  }
  // Legacy (`core::fmt::write`) and v0 (`core[432004b8d7e345e6]::fmt::write`) demangled paths.
  const roots = [...n.matchAll(/(?:^|[<(&*\s,;\[{])([A-Za-z_][A-Za-z0-9_]*)(?:\[[0-9a-f]+\])?::/g)].map((m) => m[1]);
  if (roots.length === 0) return "(no path: exports, allocator, builtins)";
  const own = roots.find((r) => !STD.has(r));
  return STD.has(roots[0]) && own ? own : roots[0];
}

const clean = (n) => n.replace(/::h[0-9a-f]{16}/g, "").replace(/\[[0-9a-f]{8,16}\]/g, "");
const crates = new Map();
let total = 0;
const fns = [];
for (const it of items) {
  const c = crateOf(it.name);
  if (c === null) continue;
  total += it.size;
  crates.set(c, (crates.get(c) || 0) + it.size);
  if (!c.startsWith("(")) fns.push({ ...it, crate: c });
}

const shipped = readFileSync(shippedPath);
const br = brotliCompressSync(shipped, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const named = readFileSync(namedPath).length;
const kb = (b) => (b / 1000).toFixed(1);
console.log(`\n== ${name}: shipped wasm ${kb(shipped.length)} KB raw, ${kb(br)} KB brotli; attributed ${kb(total)} KB raw (the named copy: ${kb(named)} KB with its names)`);
console.log(`\n| crate | KB raw | share |\n|---|---:|---:|`);
for (const [c, s] of [...crates].sort((a, b) => b[1] - a[1])) {
  if (!ALL && s / total < 0.005) continue;
  console.log(`| ${c} | ${kb(s)} | ${((100 * s) / total).toFixed(1)} % |`);
}
const small = [...crates].filter(([, s]) => s / total < 0.005);
if (!ALL && small.length) console.log(`| ${small.length} crates under 0.5 % each | ${kb(small.reduce((a, [, s]) => a + s, 0))} | |`);
console.log(`\nheaviest ${TOP} functions (bytes raw, shallow):`);
for (const f of fns.sort((a, b) => b.size - a.size).slice(0, TOP)) {
  const n = clean(f.name);
  console.log(`${String(f.size).padStart(7)}  ${n.length > 150 ? n.slice(0, 147) + "…" : n}`);
}
