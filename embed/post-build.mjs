// Trunk post_build hook (Trunk.toml), on the staging dir before it becomes dist/:
// 1. minifies wasm-bindgen's JS module with terser (60 -> 19 KB raw, -7.8 KB brotli on the page with
//    step 2, and less for the browser to parse before the wasm can start). Trunk's own minifier is off: it breaks
//    wasm-bindgen output (trunk-rs/trunk#761).
//    embed.js (for merchants' pages) is minified too, and the stylesheet (csso).
// 2. shortens the names the wasm imports from the glue, in both (embed/short-imports.mjs).
// 3. replaces trunk's loader in index.html with a classic copy of the glue, inline, and the
//    stylesheet's link with the stylesheet (so index.html keeps none of trunk's `integrity`
//    attributes: it references only the wasm, by its content-hashed name, which it preloads and
//    fetches). The page says so when the widget cannot start (wasm not loaded or not valid, or a trap while mounting): its
//    "Carregando…" turns into an alert with a reload link, instead of a page that never changes.
// (A merchant's page mounts the link page, not this app: its mount.js is written by
// payer/post-build.mjs.)
import { createHash } from "node:crypto";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { minify as minifyCss } from "csso";
import { minify } from "terser";
import { shortenImports } from "./short-imports.mjs";

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) throw new Error("TRUNK_STAGING_DIR is not set: run me as a trunk hook");
// Measuring (bench/README.md): PAYLINK_RAW_COPY=DIR keeps trunk's output as it was before this
// hook; PAYLINK_POST_BUILD_SKIP=minify,short leaves those steps out.
if (process.env.PAYLINK_RAW_COPY) cpSync(dir, process.env.PAYLINK_RAW_COPY, { recursive: true });
const skip = new Set((process.env.PAYLINK_POST_BUILD_SKIP || "").split(",").filter(Boolean));
const files = readdirSync(dir);
const one = (re, what) => {
  const found = files.filter((f) => re.test(f));
  if (found.length !== 1) throw new Error(`post-build: expected one ${what} in ${dir}, found ${JSON.stringify(found)}`);
  return found[0];
};
// The widget's page (the payer pages' islands have their own trunk config, payer/Trunk.toml).
const page = one(/^index\.html$/, "page");
const bin = "paylink-widget";
const js = one(new RegExp(`^${bin}-[0-9a-f]+\\.js$`), "widget module");
const wasm = one(new RegExp(`^${bin}-[0-9a-f]+_bg\\.wasm$`), "wasm");
const css = one(/^main-[0-9a-f]+\.css$/, "stylesheet");

// The page, read once here and written once at the end.
const indexPath = join(dir, page);
let index = readFileSync(indexPath, "utf8");

// A debug build keeps readable glue and fetches its (large) wasm instead of carrying it inline.
const release = process.env.TRUNK_PROFILE === "release";
if (release) {
  const sri = (bytes) => "sha384-" + createHash("sha384").update(bytes).digest("base64");
  const jsPath = join(dir, js);
  const wasmPath = join(dir, wasm);
  const cssPath = join(dir, css);
  const jsBefore = readFileSync(jsPath, "utf8");
  const wasmBefore = readFileSync(wasmPath);
  const cssBefore = readFileSync(cssPath, "utf8");
  for (const [bytes, name] of [[jsBefore, js], [wasmBefore, wasm], [cssBefore, css]]) {
    if (!index.includes(sri(bytes))) throw new Error(`index.html has no integrity ${sri(bytes)} for ${name}`);
  }

  const out = skip.has("minify") ? { code: jsBefore } : await minify(jsBefore, { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true });
  if (!out.code) throw new Error(`minify ${js}: no output`);

  // The imports' short names, in the wasm and the minified glue together (-6.2 KB brotli on the
  // page, bench/README.md). It checks what it relies on: a glue whose imports it cannot find
  // stops the build.
  if (skip.has("short")) {
    writeFileSync(jsPath, out.code);
  } else {
    const short = shortenImports(wasmBefore, out.code);
    if (short.renamed === 0) throw new Error("no wasm import could be renamed: has wasm-bindgen's glue changed shape?");
    writeFileSync(wasmPath, short.wasm);
    writeFileSync(jsPath, short.js);
  }

  // The stylesheet without comments and spaces (-0.6 KB brotli). csso's `restructure` (merging
  // and moving rules) stays off: rule order matters in a cascade.
  const cssAfter = minifyCss(cssBefore, { restructure: false }).css;
  if (!cssAfter) throw new Error(`minify ${css}: no output`);
  writeFileSync(cssPath, cssAfter);

  // embed.js, the classic script merchants' pages load (3.5 -> 1.8 KB raw); its source stays
  // readable in embed/embed.js.
  if (page === "index.html") {
    const embedPath = join(dir, "embed.js");
    const embed = await minify(readFileSync(embedPath, "utf8"), { compress: { passes: 2 }, mangle: true });
    if (!embed.code) throw new Error("minify embed.js: no output");
    writeFileSync(embedPath, embed.code);
  }
}

// The loader. The page runs a classic copy of wasm-bindgen's module (see `classicGlue`) inline,
// at the end of <body>, which fetches the wasm file (content-hashed, served precompressed as
// brotli or gzip, cached for a year) and compiles it while it streams in
// (`WebAssembly.instantiateStreaming`, wasm-bindgen's own loader). A preload link in <head>
// starts that download as soon as the head is parsed. The wasm was inline in the page (deflated,
// base64) while it was small; at 873 KB raw a separate file is 50 KB less to download and the
// page no longer decodes and inflates it before the compile starts (bench/README.md). The
// stylesheet is inline in <head>. When the widget cannot start
// (wasm not loaded or not valid, or a trap while mounting), the placeholder turns into an alert
// with a reload link instead of a page that never changes.
{
  const trunkLoader =
    /<script type="module">\s*import init, \* as bindings from '(\/[^']+\.js)';\s*const wasm = await init\(\{ module_or_path: '(\/[^']+\.wasm)' \}\);[\s\S]*?<\/script>/;
  const found = index.match(trunkLoader);
  if (!found) throw new Error("index.html: trunk's loader script has an unexpected shape; update embed/post-build.mjs");
  const failed =
    '<p>Não foi possível carregar o paylink. Verifique sua conexão e <a href="">recarregue a página</a>.</p>' +
    '<p lang="en">paylink could not load. Check your connection and <a href="">reload the page</a>.</p>';
  // The placeholder (hidden in index.html) shows after 300 ms if the widget has not replaced it
  // (a slow network), and at once as an alert when the widget cannot start.
  const placeholder = `const boot = () => document.querySelector("#paylink-app > .paylink-boot");
setTimeout(() => boot()?.removeAttribute("hidden"), 300);
window.paylinkFailed = () => {
  const b = boot();
  if (b) {
    b.setAttribute("role", "alert");
    b.innerHTML = ${JSON.stringify(failed)};
    b.removeAttribute("hidden");
  }
};
`;
  const glue = classicGlue(readFileSync(join(dir, js), "utf8"), found[2]);
  // Inline in HTML, `</script` or `<!--` inside the code would end or change the script element.
  if (/<\/script|<!--/i.test(glue)) throw new Error("glue: contains </script or <!--, cannot be inlined");
  // The stylesheet's link is where the page's head goes (see below).
  const stylesheet = new RegExp(`<link rel="stylesheet" href="/${css.replaceAll(".", "\\.")}"[^>]*>`);
  const linkAt = index.search(stylesheet);
  if (linkAt < 0 || linkAt > index.search(trunkLoader)) throw new Error(`index.html: no stylesheet link for ${css} before trunk's loader; update embed/post-build.mjs`);
  index = index.replace(trunkLoader, "");
  // The ES module's preload: the page no longer imports it (the glue is inline).
  const modulePreload = /<link rel="modulepreload"[^>]*>/;
  if (!modulePreload.test(index)) throw new Error("index.html: no modulepreload link; update embed/post-build.mjs");
  index = index.replace(modulePreload, "");
  // trunk's preload of the wasm carries the integrity of the wasm before short-imports rewrote
  // it: a browser would discard the preloaded bytes and fetch again. The same link without it
  // (as="fetch" + crossorigin: what wasm-bindgen's `fetch()` asks for, so the browser hands it
  // the preloaded response).
  const wasmPreload = /<link rel="preload" href="([^"]+\.wasm)"[^>]*>/;
  const preload = index.match(wasmPreload);
  if (!preload || preload[1] !== found[2]) throw new Error("index.html: no preload link for the wasm; update embed/post-build.mjs");
  index = index.replace(wasmPreload, "");
  // The stylesheet inline, in place of its link: on a real network
  // it saves a render-blocking round trip. CSP allows inline styles ('unsafe-inline' in style-src).
  const cssText = readFileSync(join(dir, css), "utf8");
  if (/<\/style/i.test(cssText)) throw new Error(`${css} contains </style, cannot be inlined`);
  index = index.replace(stylesheet, () => `<link rel="preload" href="${found[2]}" as="fetch" type="application/wasm" crossorigin>
    <script>{${placeholder}}</script>
    <style>${cssText}</style>`);
  // `//# allFunctionsCalledOnLoad` (V8's explicit compile hint, first line of a script) compiles
  // the glue's functions with the script, during the parse; otherwise each is compiled on its
  // first call, inside the wasm's `main`: 1.6 ms less `main` (performance marks in the Rust
  // code, 15 runs each).
  const bodyEnd = index.split("</body>");
  if (bodyEnd.length !== 2) throw new Error("index.html: expected one </body>; update embed/post-build.mjs");
  index = `${bodyEnd[0]}  <script>//# allFunctionsCalledOnLoad
${glue}</script>
  </body>${bodyEnd[1]}`;
}

/** wasm-bindgen's ES module `code` as a classic script that starts the widget from the wasm file
 * at `url`. */
function classicGlue(code, url) {
  const exports = code.match(/\bexport\s*\{([^}]*)\};?/);
  if (!exports) throw new Error("glue: no `export {…}` list; has wasm-bindgen's output changed shape?");
  const exported = (want) =>
    exports[1]
      .split(",")
      .map((e) => e.trim().split(/\s+as\s+/))
      .find(([local, name]) => (name ?? local) === want)?.[0];
  const init = exported("default");
  if (!init) throw new Error("glue: no default export (wasm-bindgen's init)");
  let body = code.replace(exports[0], "");
  // `export class …` / `export function …` / `export const …` become plain declarations.
  body = body.replace(/(^|[;}\s])export\s+(?=(?:async\s+)?(?:function|class|const|let|var)\b)/g, "$1");
  // Only init's default URL uses it, and the wasm's URL is given.
  body = body.replaceAll("import.meta.url", "document.baseURI");
  if (/\bexport\b[\s{]|\bimport\s*[\s{*("']|import\.meta/.test(body.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""')))
    throw new Error("glue: an import or export is left; has wasm-bindgen's output changed shape?");
  // wasm-bindgen's init fetches the file and compiles it streaming (or, served with another
  // type than application/wasm, from its bytes). Any failure, a trap in `start` included, ends
  // in the page's alert.
  return `(()=>{${body}\n${init}({ module_or_path: ${JSON.stringify(url)} }).catch((e) => { window.paylinkFailed(); throw e; });\n})();\n`;
}
writeFileSync(indexPath, index);
