// Trunk post_build hook of the payer islands (payer/Trunk.toml), on the staging dir: in a release
// build, wasm-bindgen's glue minified with terser and the wasm's imports' names shortened
// (embed/short-imports.mjs), as embed/post-build.mjs does for the widget. trunk's own
// payer/index.html is not used (the server renders the pages and loads the glue with leptos's
// island script), so nothing else changes. The glue's exports (`default`, `hydrate` and one
// function per island, which the island script calls by name) keep their names.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { minify } from "terser";
import { shortenImports } from "../embed/short-imports.mjs";

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error("TRUNK_STAGING_DIR is not set: run me as a trunk hook");
if (process.env.TRUNK_PROFILE === "release") {
  const files = readdirSync(dir);
  const one = (re) => {
    const found = files.filter((f) => re.test(f));
    if (found.length !== 1) throw new Error(`payer post-build: expected one ${re} in ${dir}, found ${JSON.stringify(found)}`);
    return join(dir, found[0]);
  };
  const jsPath = one(/^paylink-payer-[0-9a-f]+\.js$/);
  const wasmPath = one(/^paylink-payer-[0-9a-f]+_bg\.wasm$/);
  const out = await minify(readFileSync(jsPath, "utf8"), { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true });
  if (!out.code) throw new Error("minify the payer glue: no output");
  const short = shortenImports(readFileSync(wasmPath), out.code);
  if (short.renamed === 0) throw new Error("no wasm import could be renamed: has wasm-bindgen's glue changed shape?");
  writeFileSync(wasmPath, short.wasm);
  writeFileSync(jsPath, short.js);
}
