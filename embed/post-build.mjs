// Trunk post_build hook (Trunk.toml), on the staging dir before it becomes dist/:
// 1. minifies wasm-bindgen's JS module with terser (60 -> 19 KB raw, -7.8 KB brotli on the page with
//    step 2, and less for the browser to parse before the wasm can start). Trunk's own minifier is off: it breaks
//    wasm-bindgen output (trunk-rs/trunk#761).
//    embed.js (for merchants' pages) is minified too, and the stylesheet (csso).
// 2. shortens the names the wasm imports from the glue, in both (embed/short-imports.mjs).
// 3. replaces trunk's loader in index.html with a classic copy of the glue, inline, and the
//    stylesheet's link with the stylesheet (so index.html keeps none of trunk's `integrity`
//    attributes: it references only the wasm, by its content-hashed name); in release builds the
//    wasm itself goes inline too, deflated (see `inlineWasm`). The page says so when the
//    widget cannot start (wasm not loaded or not valid, or a trap while mounting): its
//    "Carregando…" turns into an alert with a reload link, instead of a page that never changes.
// 4. writes mount.js. Merchants import `https://PAYLINK/mount.js`, whose name never changes, and
//    it imports the content-hashed module of this build, so a new release reaches them without
//    touching their page.
import { createHash } from "node:crypto";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { minify as minifyCss } from "csso";
import { minify } from "terser";
import zopfli from "@gfx/zopfli";
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
  if (found.length !== 1) throw new Error(`mount.js: expected one ${what} in ${dir}, found ${JSON.stringify(found)}`);
  return found[0];
};
const js = one(/^paylink-widget-[0-9a-f]+\.js$/, "widget module");
const wasm = one(/^paylink-widget-[0-9a-f]+_bg\.wasm$/, "wasm");
const css = one(/^main-[0-9a-f]+\.css$/, "stylesheet");

// index.html, read once here and written once at the end.
const indexPath = join(dir, "index.html");
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
  const embedPath = join(dir, "embed.js");
  const embed = await minify(readFileSync(embedPath, "utf8"), { compress: { passes: 2 }, mangle: true });
  if (!embed.code) throw new Error("minify embed.js: no output");
  writeFileSync(embedPath, embed.code);
}

// The loader. The page runs a classic copy of wasm-bindgen's module (see `classicGlue`) inline,
// at the end of <body>. In release builds the wasm is inline too, just before it: deflated
// (zopfli) and base64-encoded in a data block, which the glue decodes (`Uint8Array.fromBase64`),
// inflates (`DecompressionStream`), compiles and instantiates. No request for the wasm, so none of
// what one costs on the page's path: on this 2-core machine the preloaded wasm's response competed
// with the page's commit and parse, and was handed to the page's `fetch()` only after the parse,
// then compiled in tasks of its own. Inline, the first render came 4.6-7.9 ms sooner (A/B, two runs
// of 40, sides swapped; bench/README.md, "Eleventh session"); on a real network it also saves the
// round trip the wasm's request took after the page's first bytes. Why deflate and not plain
// base64: base64 moves repeated byte runs off their alignment, and the page's brotli then
// compresses the wasm 31 % worse (124.5 KB, over the size budget); deflated, it is 110 KB on
// the wire (brotli on the file would be 95 KB), and the page has 2.5 times less text to parse.
// A browser that cannot inflate raw deflate or a debug build (no data block) fetches the wasm file,
// which stays in dist/ for that and for mount.js. The stylesheet is inline in <head> (its file
// stays for mount.js too). When the widget cannot start (wasm not loaded or not valid, or a trap
// while mounting), the placeholder turns into an alert with a reload link instead of a page that
// never changes.
{
  const trunkLoader =
    /<script type="module">\s*import init, \* as bindings from '(\/[^']+\.js)';\s*const wasm = await init\(\{ module_or_path: '(\/[^']+\.wasm)' \}\);[\s\S]*?<\/script>/;
  const found = index.match(trunkLoader);
  if (!found) throw new Error("index.html: trunk's loader script has an unexpected shape; update embed/post-build.mjs");
  const failed =
    '<p>Não foi possível carregar o paylink. Verifique sua conexão e <a href="">recarregue a página</a>.</p>' +
    '<p lang="en">paylink could not load. Check your connection and <a href="">reload the page</a>.</p>';
  // The placeholder (hidden in index.html) shows after 300 ms if the widget has not replaced it
  // (a slow network: the timer runs while the parser waits for the rest of the page), and at
  // once as an alert when the widget cannot start.
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
  // The ES module's preload: the page no longer imports it (mount.js does, on merchants' pages).
  const modulePreload = /<link rel="modulepreload"[^>]*>/;
  if (!modulePreload.test(index)) throw new Error("index.html: no modulepreload link; update embed/post-build.mjs");
  index = index.replace(modulePreload, "");
  // The wasm's preload goes: the page has the wasm inline, or (debug builds, old browsers) the
  // glue fetches it.
  const wasmPreload = /<link rel="preload" href="([^"]+\.wasm)"[^>]*>/;
  const preload = index.match(wasmPreload);
  if (!preload || preload[1] !== found[2]) throw new Error("index.html: no preload link for the wasm; update embed/post-build.mjs");
  index = index.replace(wasmPreload, "");
  // The stylesheet inline, in place of its link (the file stays for mount.js): on this machine
  // every subresource the preload scanner starts delays the start of the parse, and on a real
  // network it saves a render-blocking round trip. CSP allows inline styles ('unsafe-inline' in
  // style-src).
  const cssText = readFileSync(join(dir, css), "utf8");
  if (/<\/style/i.test(cssText)) throw new Error(`${css} contains </style, cannot be inlined`);
  index = index.replace(stylesheet, () => `<script>{${placeholder}}</script>
    <style>${cssText}</style>`);
  // `//# allFunctionsCalledOnLoad` (V8's explicit compile hint, first line of a script) compiles
  // the glue's functions with the script, during the parse; otherwise each is compiled on its
  // first call, inside the wasm's `main`: 1.6 ms less `main` (performance marks in the Rust
  // code, 15 runs each).
  const data = release
    ? `<script type="application/x-paylink-wasm" id="paylink-wasm">${await inlineWasm(readFileSync(join(dir, wasm)))}</script>
    `
    : "";
  const bodyEnd = index.split("</body>");
  if (bodyEnd.length !== 2) throw new Error("index.html: expected one </body>; update embed/post-build.mjs");
  index = `${bodyEnd[0]}  ${data}<script>//# allFunctionsCalledOnLoad
${glue}</script>
  </body>${bodyEnd[1]}`;
}

/** The wasm for the page's data block: raw deflate (zopfli: 5 % smaller than zlib's level 9),
 * base64. Checked by inflating it back. */
async function inlineWasm(bytes) {
  const deflated = Buffer.from(await zopfli.deflateAsync(bytes, { numiterations: 15 }));
  if (!inflateRawSync(deflated).equals(bytes)) throw new Error("inline wasm: the deflated copy does not inflate to the wasm");
  return deflated.toString("base64");
}

/** wasm-bindgen's ES module `code` as a classic script that starts the widget: from the page's
 * inline wasm (`inlineWasm`) when there is one and the browser can inflate it, else from the
 * wasm file at `url`. */
function classicGlue(code, url) {
  const exports = code.match(/\bexport\s*\{([^}]*)\};?/);
  if (!exports) throw new Error("glue: no `export {…}` list; has wasm-bindgen's output changed shape?");
  const exported = (want) =>
    exports[1]
      .split(",")
      .map((e) => e.trim().split(/\s+as\s+/))
      .find(([local, name]) => (name ?? local) === want)?.[0];
  const init = exported("default");
  const initSync = exported("initSync");
  if (!init || !initSync) throw new Error("glue: no default export (wasm-bindgen's init) or no initSync");
  let body = code.replace(exports[0], "");
  // `export class …` / `export function …` / `export const …` become plain declarations.
  body = body.replace(/(^|[;}\s])export\s+(?=(?:async\s+)?(?:function|class|const|let|var)\b)/g, "$1");
  // Only init's default URL uses it, and the wasm's URL is given.
  body = body.replaceAll("import.meta.url", "document.baseURI");
  if (/\bexport\b[\s{]|\bimport\s*[\s{*("']|import\.meta/.test(body.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""')))
    throw new Error("glue: an import or export is left; has wasm-bindgen's output changed shape?");
  // The inline wasm is compiled and instantiated synchronously once inflated (no task between
  // the compile and `main`); a browser that refuses a synchronous compile this large on the
  // main thread (a RangeError, older Chromium) gets the asynchronous one. Any failure, a sync
  // one included, ends in the page's alert. The data block is removed once read (its text is
  // ~150 KB of DOM).
  // In a block of its own: its names cannot clash with the minified glue's.
  const start = `{
const data = document.getElementById("paylink-wasm");
// "deflate-raw" came to DecompressionStream after "deflate" (Chromium 103, Firefox 113, Safari
// 16.4); a browser without it fetches the file.
const inflater = () => {
  try {
    return new DecompressionStream("deflate-raw");
  } catch {
    return null;
  }
};
new Promise((resolve) => {
  const inflate = data && typeof DecompressionStream === "function" ? inflater() : null;
  if (!inflate) return resolve(${init}({ module_or_path: ${JSON.stringify(url)} }));
  const text = data.textContent;
  data.remove();
  const deflated = typeof Uint8Array.fromBase64 === "function" ? Uint8Array.fromBase64(text) : Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const w = inflate.writable.getWriter();
  // A bad stream fails the read below; these two would only repeat it, unhandled.
  w.write(deflated).catch(() => {});
  w.close().catch(() => {});
  // Read by hand: \`new Response(readable).arrayBuffer()\` took ~7 ms here, in tasks of its own;
  // the reader's promises settle in microtasks (~1.5 ms).
  const reader = inflate.readable.getReader();
  const chunks = [];
  const read = () =>
    reader.read().then(({ done, value }) => {
      if (!done) return chunks.push(value), read();
      const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      chunks.reduce((at, c) => (bytes.set(c, at), at + c.length), 0);
      return bytes;
    });
  resolve(read().then((bytes) => {
    let module;
    try {
      module = new WebAssembly.Module(bytes);
    } catch (e) {
      if (e instanceof RangeError) return ${init}({ module_or_path: WebAssembly.compile(bytes) });
      throw e;
    }
    ${initSync}({ module });
  }));
}).catch((e) => { window.paylinkFailed(); throw e; });
}
`;
  return `(()=>{${body}\n${start}})();\n`;
}
writeFileSync(indexPath, index);

writeFileSync(
  join(dir, "mount.js"),
  `// paylink direct mount: import { mount } from "<paylink>/mount.js"; see the README, "Embed paylink".
import init, { mount as mountWidget } from "./${js}";

const css = new URL("./${css}", import.meta.url).href;
let ready;

export async function mount(element, options = {}) {
  if (!(element instanceof HTMLElement)) throw new TypeError("paylink mount: element must be an HTMLElement");
  // The stylesheet first (no unstyled flash), loaded once per page, in parallel with the wasm.
  ready ||= Promise.all([
    // By name: wasm-bindgen's default is the unhashed name, which trunk does not keep.
    init({ module_or_path: new URL("./${wasm}", import.meta.url) }),
    new Promise((resolve) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = css;
      link.onload = link.onerror = resolve;
      document.head.append(link);
    }),
  ]);
  await ready;
  // The proxy defaults to the origin this file comes from.
  mountWidget(element, { proxy: new URL(import.meta.url).origin, ...options });
}
`,
);
