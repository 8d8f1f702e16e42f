// A/B of two widget builds (or two servers) on the first-render clock of measure.mjs, for
// changes smaller than the run-to-run drift of this machine: each round loads the static form,
// then A and B in alternating order, each from its own `paylink serve`, so both see the same
// machine at nearly the same moment. Prints each side's median, its ratio to the static form,
// and the median and mean of the per-round difference B - A with how often B was faster.
// Usage: node bench/first-render/ab.mjs [runs] A B
//   A and B are dist directories (built by `build_widget --dist DIR`), or `BIN:DIST` to compare
//   server binaries too; BIN defaults to PAYLINK_BIN, else target/server/paylink.
// A difference is only worth reporting when it keeps its sign with A and B swapped.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launchBrowser, startPaylink } from "../../tests/e2e/harness.mjs";
import { measure, median } from "./clock.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const runs = /^\d+$/.test(args[0] ?? "") ? Number(args.shift()) : 30;
if (args.length !== 2) {
  console.error("usage: node bench/first-render/ab.mjs [runs] A B (dist dirs, or BIN:DIST)");
  process.exit(2);
}
const WARMUP = 2;
const defaultBin = process.env.PAYLINK_BIN || resolve(here, "../../target/server/paylink");
const sides = args.map((spec) => {
  const [bin, dist] = spec.includes(":") ? spec.split(":") : [defaultBin, spec];
  return { spec, bin, dist: resolve(dist), ms: [], main: [] };
});

const html = readFileSync(join(here, "static-form.html"));
const staticServer = createServer((req, res) => {
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": html.length, "Cache-Control": "no-store" });
  res.end(html);
});
await new Promise((r) => staticServer.listen(0, "127.0.0.1", r));
const staticUrl = `http://127.0.0.1:${staticServer.address().port}/`;

const servers = [];
let browser;
try {
  for (const s of sides) servers.push(await startPaylink({ bin: s.bin, dist: s.dist, name: "ab" }));
  browser = await launchBrowser();
  // The customer form is a merchant's screen: an operator's session on each server.
  const sessions = await Promise.all(servers.map((s) => s.login()));
  const staticMs = [];
  const diffs = [];
  for (let i = 0; i < WARMUP + runs; i++) {
    const s = await measure(browser, staticUrl, "52998224725");
    const order = i % 2 ? [1, 0] : [0, 1];
    const got = [];
    for (const k of order) got[k] = await measure(browser, servers[k].url + "/", "529.982.247-25", undefined, sessions[k]);
    if (i < WARMUP) continue;
    staticMs.push(s.ms);
    got.forEach((w, k) => {
      sides[k].ms.push(w.ms);
      sides[k].main.push(w.ms - w.instantiated);
    });
    diffs.push(got[1].ms - got[0].ms);
  }
  const st = median(staticMs);
  console.log(`first render A/B, ${runs} rounds (Chromium ${browser.version()}); static form ${st.toFixed(1)} ms`);
  for (const [name, s] of [["A", sides[0]], ["B", sides[1]]]) {
    const m = median(s.ms);
    console.log(`${name} ${m.toFixed(1).padStart(6)} ms  ratio ${(m / st).toFixed(2)}  main ${median(s.main).toFixed(1)} ms  ${s.spec}`);
  }
  const mean = diffs.reduce((a, b) => a + b, 0) / diffs.length;
  console.log(
    `B - A: median ${median(diffs).toFixed(1)} ms, mean ${mean.toFixed(1)} ms; B faster in ${diffs.filter((d) => d < 0).length} of ${diffs.length} rounds`,
  );
} finally {
  await browser?.close().catch(() => {});
  for (const s of servers) await s.stop();
  staticServer.close();
}
