// Trunk post_build hook of the payer islands (payer/Trunk.toml), on the staging dir: in a release
// build, wasm-bindgen's glue minified with terser and the wasm's imports' names shortened
// (embed/short-imports.mjs), as embed/post-build.mjs does for the widget. trunk's own
// payer/index.html is not used (the server renders the pages and loads the glue with leptos's
// island script), so nothing else changes. The glue's exports (`default`, `hydrate` and one
// function per island, which the island script calls by name) keep their names.
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
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

// The link page's build (payer/link.html) also writes what a merchant's page imports for a direct
// mount: mount.js (build_widget copies it to dist/mount.js, the name merchants use) and the
// stylesheet it loads, content-hashed. mount() puts the link page as the server renders it
// (`/l/{slug}?fragment=1`) in the merchant's element and hydrates its islands in place with this
// bundle, and the payer page that follows with the payer page's bundle, as its own page would
// (built before this one, into PAYLINK_PAYER_DIST, by default payer/Trunk.toml's dist): a
// merchant's page never loads the merchant's app.
if (/link\.html$/.test(process.env.TRUNK_HTML_FILE || "")) {
  const { createHash } = await import("node:crypto");
  const bundle = (where, files) => {
    const js = files.find((f) => /^paylink-payer-[0-9a-f]+\.js$/.test(f));
    const wasm = files.find((f) => /^paylink-payer-[0-9a-f]+_bg\.wasm$/.test(f));
    if (!js || !wasm) throw new Error(`link post-build: no glue or wasm in ${where}: ${JSON.stringify(files)}`);
    return { js, wasm };
  };
  const { js, wasm } = bundle(dir, readdirSync(dir));
  const payerDist = process.env.PAYLINK_PAYER_DIST || new URL("../target/trunk-payer", import.meta.url).pathname;
  const payer = bundle(`${payerDist} (build payer/index.html first)`, existsSync(payerDist) ? readdirSync(payerDist) : []);
  const style = readFileSync(new URL("../style/main.css", import.meta.url));
  const css = `paylink-${createHash("sha256").update(style).digest("hex").slice(0, 16)}.css`;
  writeFileSync(join(dir, css), style);
  writeFileSync(
    join(dir, "mount.js"),
    `// paylink direct mount: import { mount } from "<paylink>/mount.js"; see the README, "Embed paylink".
// Puts the payment link's page, as paylink's server renders it, in the element and hydrates its
// islands in place (the link page's own bundle); the payer page that follows replaces it the
// same way, with the payer page's bundle, loaded when it first has an island the link page's
// lacks. Written by payer/post-build.mjs.
import init, * as islands from "./link/${js}";

const origin = new URL(import.meta.url).origin;
let ready, payer;

// The payer page's bundle, once per page, hydrating as its own page's island script would.
const payerIslands = () =>
  (payer ||= import("./payer/${payer.js}").then(async (m) => {
    await m.default({ module_or_path: new URL("./payer/${payer.wasm}", import.meta.url) });
    m.hydrate();
    return m;
  }));

// What leptos's island script does on paylink's own pages, here for the element: each
// <leptos-island> hydrated by its exported function, the children of an island first given
// their parent's context. It follows leptos's src/hydration/island_script.js of the locked
// version (server/tests/mount_js.rs fails on another one):
// island_script.js sha256 ceb71195c4a8aad1f390f5798aa7163f8e976c49b6fc8414458f265b31e9293d
const childrenCallbacks = [];
async function hydrateIslands(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return;
  const tag = node.tagName.toLowerCase();
  if (tag === "leptos-island") {
    const name = node.dataset.component;
    const hydrate = islands[name] || (await payerIslands())[name];
    if (hydrate) {
      childrenCallbacks.at(-1)?.();
      await hydrate(node);
    } else {
      console.warn(\`paylink: no island \${node.dataset.component}\`);
    }
  }
  if (tag === "leptos-children") childrenCallbacks.push(node.$$on_hydrate);
  for (const child of node.children) await hydrateIslands(child);
  if (tag === "leptos-children") childrenCallbacks.pop();
}

// The element is aria-busy from the request for a page until its islands are hydrated: a
// screen reader waits for it, and so may a merchant's test (before that, a button is the
// server's form and would post it the way it does without JavaScript).
async function show(element, path, lang) {
  element.setAttribute("aria-busy", "true");
  try {
    const url = new URL(path, origin);
    url.searchParams.set("fragment", "1");
    url.searchParams.set("lang", lang);
    // A page that says why (an unknown link: 404) is shown as well.
    const html = await (await fetch(url, { credentials: "omit" })).text();
    await ready;
    element.innerHTML = html;
    // The page's own paths are paylink's, not the merchant's: a form posted (or a link followed)
    // before its island hydrates goes to paylink, as it does on paylink's own page.
    for (const node of element.querySelectorAll("form, a[href], img[src]")) {
      const attr = node.tagName === "FORM" ? "action" : node.tagName === "A" ? "href" : "src";
      const value = node.getAttribute(attr) ?? "";
      if (value.startsWith("#") || /^[a-z][a-z0-9+.-]*:/i.test(value)) continue;
      node.setAttribute(attr, new URL(value || path, origin).href);
    }
    await hydrateIslands(element);
  } finally {
    element.removeAttribute("aria-busy");
  }
}

export async function mount(element, options = {}) {
  if (!(element instanceof HTMLElement)) throw new TypeError("paylink mount: element must be an HTMLElement");
  if (!options.link) throw new TypeError("paylink mount: options.link is missing");
  // The stylesheet and the wasm once per page, in parallel with the page's content.
  ready ||= Promise.all([
    init({ module_or_path: new URL("./link/${wasm}", import.meta.url) }).then(() => islands.hydrate()),
    new Promise((resolve) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = new URL("./link/${css}", import.meta.url).href;
      link.onload = link.onerror = resolve;
      document.head.append(link);
    }),
  ]);
  element.dataset.paylinkMount = "";
  element.dataset.paylinkProxy = options.proxy || origin;
  element.dataset.paylinkOptions = JSON.stringify(options);
  const lang = /^en/i.test(options.locale || "") ? "en" : "pt-BR";
  // The islands ask for the next page (the payer page after the link's form).
  element.addEventListener("paylink-navigate", (e) => show(element, e.detail, lang));
  await show(element, \`/l/\${encodeURIComponent(options.link)}\`, lang);
}
`,
  );
}
