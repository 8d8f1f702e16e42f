// First render: time from navigation start to an interactive customer form, in headless
// Chromium, for the widget (served by a real `paylink serve`) and for a plain static HTML form
// with the same fields (static-form.html, served by a tiny node http server), in the same run.
// Usage: PAYLINK_BIN=... PAYLINK_DIST=... node measure.mjs [runs]
//
// The clock: `performance.now()` in the page (0 = navigation start, so it includes the HTML
// request, the wasm download, compile and first render) at the first moment `[name="fullName"]`
// exists and is enabled, seen by a MutationObserver installed before any page script runs.
// The widget renders client-side, so that element only exists once the wasm has run and its
// event handlers are attached; after the clock stops (untimed), typing a CPF into
// `[name="document"]` must give the mask `529.982.247-25`, proving the form is live.
// Every run uses a fresh browser context with the HTTP cache disabled.
import { createServer } from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launchBrowser, startPaylink } from "../../tests/e2e/harness.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const RUNS = Number(process.argv[2] || 20);
const WARMUP = 2;

// Installed in every page before its own scripts: records when the form becomes interactive.
function readyProbe() {
  let resolve;
  window.__firstRenderDone = new Promise((r) => (resolve = r));
  const ready = () => {
    if (window.__firstRender !== undefined) return;
    const el = document.querySelector('[name="fullName"]');
    if (el && !el.disabled) resolve((window.__firstRender = performance.now()));
  };
  new MutationObserver(ready).observe(document, { childList: true, subtree: true, attributes: true });
  document.addEventListener("DOMContentLoaded", ready);
  // For the breakdown: when the wasm module's compile starts and ends, and when it is
  // instantiated (wasm-bindgen's loader then runs `main`, which renders). Which API compiled it
  // tells whether the compile streamed (index.html compiles it with `compileStreaming` in a script
  // of its own, then the glue instantiates the module).
  // `start` (when given) is set at the call, each of `ends` when its promise settles; the first
  // call of any of these APIs sets each mark.
  const wrap = (api, start, ends) => {
    const orig = WebAssembly[api];
    WebAssembly[api] = function (...args) {
      window.__wasmApis = [...(window.__wasmApis ?? []), api];
      if (start) window[start] ??= performance.now();
      return orig.apply(this, args).then((r) => {
        for (const m of ends) window[m] ??= performance.now();
        return r;
      });
    };
  };
  wrap("compileStreaming", "__compileStart", ["__compiled"]);
  wrap("compile", "__compileStart", ["__compiled"]);
  wrap("instantiateStreaming", "__compileStart", ["__compiled", "__wasmInstantiated"]);
  wrap("instantiate", null, ["__wasmInstantiated"]);
}

async function measure(browser, url, expectDocument) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await page.addInitScript(readyProbe);
    await page.goto(url, { waitUntil: "commit" });
    // Waits with one raw CDP evaluate of the probe's promise. Playwright's waitForFunction would
    // first inject its selector engine (~10 ms of parse on the page's main thread, right while the
    // widget's scripts want it) and poll; the static form, parsed before that lands, did not pay it.
    const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", {
      expression: "window.__firstRenderDone",
      awaitPromise: true,
      returnByValue: true,
      timeout: 30000,
    });
    if (exceptionDetails || typeof result.value !== "number") throw new Error(`${url}: no first render (${JSON.stringify(exceptionDetails ?? result)})`);
    const ms = result.value;
    // Where the widget's time goes (none of it for the static form): when the HTML (which carries the
    // JS glue inline) and the .wasm finished downloading, when the wasm's compile started and ended,
    // when it was instantiated; the rest, up to `ms`, is the Rust `main` building the form. A .wasm
    // fetched twice means the preload was not reused.
    const b = await page.evaluate(() => {
      const res = performance.getEntriesByType("resource");
      const end = (ext) => res.find((r) => r.name.endsWith(ext))?.responseEnd ?? null;
      return {
        html: performance.getEntriesByType("navigation")[0]?.responseEnd ?? null,
        wasm: end(".wasm"),
        wasmFetches: res.filter((r) => r.name.endsWith(".wasm")).length,
        wasmApi: (window.__wasmApis ?? []).join(" + ") || null,
        compileStart: window.__compileStart ?? null,
        compiled: window.__compiled ?? null,
        instantiated: window.__wasmInstantiated ?? null,
      };
    });
    // Untimed: the form really is live.
    await page.locator('[name="document"]').fill("52998224725");
    const value = await page.locator('[name="document"]').inputValue();
    if (value !== expectDocument) throw new Error(`${url}: [name="document"] reads ${JSON.stringify(value)}, expected ${JSON.stringify(expectDocument)}`);
    return { ms, ...b };
  } finally {
    await context.close();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function main() {
  const html = readFileSync(join(here, "static-form.html"));
  // The floor of any client-side rendering here: the same form, but inserted by a deferred JS
  // module (no wasm, no framework) into a page shaped like the widget's (its stylesheet, a
  // module script, an empty mount point), with the same CPF mask for the liveness check.
  const formMarkup = html.toString().match(/<main>[\s\S]*<\/main>/)[0];
  const dist = resolve(process.env.PAYLINK_DIST);
  const cssName = readdirSync(dist).find((f) => /^main-[0-9a-f]+\.css$/.test(f));
  const routes = {
    "/": ["text/html; charset=utf-8", html],
    "/js": [
      "text/html; charset=utf-8",
      `<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8" /><title>paylink (form by JS)</title>` +
        `<link rel="stylesheet" href="/style.css" /><script type="module" src="/js-form.js"></script></head>` +
        `<body><div id="paylink-app"></div></body></html>`,
    ],
    "/style.css": ["text/css", cssName ? readFileSync(join(dist, cssName)) : ""],
    "/js-form.js": [
      "text/javascript",
      `document.getElementById("paylink-app").innerHTML = ${JSON.stringify(formMarkup)};
const doc = document.querySelector('[name="document"]');
doc.addEventListener("input", () => {
  const d = doc.value.replace(/\\D/g, "");
  if (d.length === 11) doc.value = d.replace(/(\\d{3})(\\d{3})(\\d{3})(\\d{2})/, "$1.$2.$3-$4");
});`,
    ],
  };
  const staticServer = createServer((req, res) => {
    const [type, body] = routes[req.url] ?? ["text/plain", "not found"];
    const buf = Buffer.from(body);
    res.writeHead(routes[req.url] ? 200 : 404, { "Content-Type": type, "Content-Length": buf.length, "Cache-Control": "no-store" });
    res.end(buf);
  });
  await new Promise((r) => staticServer.listen(0, "127.0.0.1", r));
  const staticUrl = `http://127.0.0.1:${staticServer.address().port}/`;

  let paylink, browser;
  try {
    paylink = await startPaylink({ bin: process.env.PAYLINK_BIN, dist: resolve(process.env.PAYLINK_DIST), name: "bench" });
    browser = await launchBrowser();
    const widgetUrl = paylink.url + "/";
    const times = { static: [], jsForm: [], widget: [], html: [], wasm: [], compileStart: [], compiled: [], instantiated: [] };
    const notes = new Set();
    for (let i = 0; i < WARMUP + RUNS; i++) {
      // Interleaved, so drift in machine load hits both alike.
      const s = await measure(browser, staticUrl, "52998224725");
      const j = await measure(browser, staticUrl + "js", "529.982.247-25");
      const w = await measure(browser, widgetUrl, "529.982.247-25");
      if (i >= WARMUP) {
        times.static.push(s.ms);
        times.jsForm.push(j.ms);
        times.widget.push(w.ms);
        for (const k of ["html", "wasm", "compileStart", "compiled", "instantiated"]) times[k].push(w[k]);
        notes.add(`WebAssembly.${w.wasmApi}, .wasm fetched ${w.wasmFetches}x`);
      }
    }
    const ms = (x) => x.toFixed(1).padStart(8);
    const row = (name, xs) => console.log(`${name.padEnd(12)}${ms(median(xs))}${ms(Math.min(...xs))}${ms(Math.max(...xs))}`);
    console.log(`first render: navigation start -> interactive customer form, ms (${RUNS} runs, Chromium ${browser.version()})`);
    console.log(`${"".padEnd(12)}${"median".padStart(8)}${"min".padStart(8)}${"max".padStart(8)}`);
    row("static-form", times.static);
    row("js-form", times.jsForm);
    row("widget", times.widget);
    const steps = [
      ["  html in", "html"],
      ["  .wasm in", "wasm"],
      ["  compile", "compileStart"],
      ["  compiled", "compiled"],
      ["  instance", "instantiated"],
    ];
    for (const [name, k] of steps) if (times[k].every((x) => x != null)) row(name, times[k]);
    // The same as per-run steps (medians of each run's difference), less noisy than the
    // differences of the medians above when the machine is loaded.
    const gaps = [
      ["  .wasm in -> compile", "wasm", "compileStart"],
      ["  compile", "compileStart", "compiled"],
      ["  compiled -> instance", "compiled", "instantiated"],
      ["  main (render)", "instantiated", "widget"],
    ];
    for (const [name, a, b] of gaps) {
      if (![...times[a], ...times[b]].every((x) => x != null)) continue;
      const xs = times[a].map((x, i) => times[b][i] - x);
      console.log(`${name.padEnd(24)}${median(xs).toFixed(1).padStart(8)}`);
    }
    console.log(`widget loader: ${[...notes].join("; ")}`);
    console.log(`ratio       ${(median(times.widget) / median(times.static)).toFixed(2).padStart(8)}   (widget / static, target <= 2)`);
    console.log(`floor       ${(median(times.jsForm) / median(times.static)).toFixed(2).padStart(8)}   (js-form / static: the same form inserted by a plain JS module, no wasm)`);
  } finally {
    await browser?.close().catch(() => {});
    await paylink?.stop();
    staticServer.close();
  }
}

await main();
