// The first-render clock, shared by measure.mjs (the benchmark) and ab.mjs (an A/B of two
// builds): the probe every page gets before its own scripts, one measured page load, the median.
// Installed in every page before its own scripts: records when the form becomes interactive.
export function readyProbe(selector = '[name="fullName"]') {
  let resolve;
  window.__firstRenderDone = new Promise((r) => (resolve = r));
  const ready = () => {
    if (window.__firstRender !== undefined) return;
    const el = document.querySelector(selector);
    if (el && !el.disabled && el.textContent !== null && (el.matches("input, select, textarea") || el.textContent.trim() !== ""))
      resolve((window.__firstRender = performance.now()));
  };
  new MutationObserver(ready).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
  document.addEventListener("DOMContentLoaded", ready);
  // For the breakdown: when the wasm module's compile starts and ends, and when it is
  // instantiated (wasm-bindgen's loader then runs `main`, which renders). Which API compiled it
  // tells which path the page took: `instantiateStreaming` for the wasm file (or `instantiate`
  // when the host's content type is not `application/wasm`); the constructors for a wasm that
  // the page carried itself (as an earlier build did, inline).
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
  // The constructors, through a Proxy: `instanceof WebAssembly.Module` still holds.
  const wrapNew = (api, start, end) => {
    WebAssembly[api] = new Proxy(WebAssembly[api], {
      construct(target, args, newTarget) {
        window.__wasmApis = [...(window.__wasmApis ?? []), api];
        if (start) window[start] ??= performance.now();
        const made = Reflect.construct(target, args, newTarget);
        window[end] ??= performance.now();
        return made;
      },
    });
  };
  wrapNew("Module", "__compileStart", "__compiled");
  wrapNew("Instance", null, "__wasmInstantiated");
  wrap("compileStreaming", "__compileStart", ["__compiled"]);
  wrap("compile", "__compileStart", ["__compiled"]);
  wrap("instantiateStreaming", "__compileStart", ["__compiled", "__wasmInstantiated"]);
  wrap("instantiate", null, ["__wasmInstantiated"]);
}

/** A slow phone on a weak connection, through the DevTools protocol: CPU 4× slower, 1.6 Mbit/s
 * down, 750 kbit/s up, 150 ms round trip. */
async function throttle(cdp) {
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 });
}

/** `expectDocument`: the customer form's liveness check (the CPF mask); `probe`: the selector
 * whose element ends the clock (the form's first field by default; the payer page's PIX code);
 * `login`: an operator's session (`{ Cookie }` from the harness's `login()`), which the merchant's
 * screens need (without one the widget turns to its login screen); `phone`: a slow phone on a
 * weak connection, set through the DevTools protocol (CPU 4× slower, 1.6 Mbit/s down, 750 kbit/s
 * up, 150 ms round trip). */
export async function measure(browser, url, expectDocument, probe, login, phone = false) {
  const context = await browser.newContext();
  try {
    if (login) {
      const [name, ...value] = login.Cookie.split("=");
      await context.addCookies([{ name, value: value.join("="), url }]);
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    if (phone) await throttle(cdp);
    await page.addInitScript(readyProbe, probe);
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
    // JS glue) and the .wasm file finished downloading,
    // when the wasm's compile started and ended, when it was instantiated; the rest, up to `ms`,
    // is the Rust `main` building the form.
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
    if (expectDocument) {
      await page.locator('[name="document"]').fill("52998224725");
      const value = await page.locator('[name="document"]').inputValue();
      if (value !== expectDocument) throw new Error(`${url}: [name="document"] reads ${JSON.stringify(value)}, expected ${JSON.stringify(expectDocument)}`);
    }
    return { ms, ...b };
  } finally {
    await context.close();
  }
}

/** Installed in every page before its own scripts: records when typing a CPF into
 * `[name="document"]` gives its mask (`529.982.247-25`): the form is live, not only drawn. From
 * the moment the field exists it types every 4 ms (and puts back what it typed), so the clock
 * stops within 4 ms of the page's handlers running. */
export function liveProbe() {
  let resolve;
  window.__firstRenderDone = new Promise((r) => (resolve = r));
  const tick = () => {
    const el = document.querySelector('[name="document"]');
    if (el) {
      el.value = "52998224725";
      el.dispatchEvent(new Event("input", { bubbles: true }));
      if (el.value === "529.982.247-25") {
        window.__firstRender = performance.now();
        el.value = "";
        el.dispatchEvent(new Event("input", { bubbles: true }));
        return resolve(window.__firstRender);
      }
    }
    setTimeout(tick, 4);
  };
  tick();
}

/** The time `liveProbe` saw on one fresh load of `url` (`phone`: as in `measure`). */
export async function measureLive(browser, url, phone = false) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    if (phone) await throttle(cdp);
    await page.addInitScript(liveProbe);
    await page.goto(url, { waitUntil: "commit" });
    const { result, exceptionDetails } = await cdp.send("Runtime.evaluate", {
      expression: "window.__firstRenderDone",
      awaitPromise: true,
      returnByValue: true,
      timeout: 30000,
    });
    if (exceptionDetails || typeof result.value !== "number") throw new Error(`${url}: never live (${JSON.stringify(exceptionDetails ?? result)})`);
    return result.value;
  } finally {
    await context.close();
  }
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
