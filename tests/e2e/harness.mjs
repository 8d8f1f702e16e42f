// Shared by the end-to-end tests (tests/e2e/run.mjs) and the first-render benchmark
// (bench/first-render/measure.mjs): a real `paylink serve` on a temporary SQLite file,
// and Debian's Chromium driven by playwright-core (never a downloaded browser).
import { spawn, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { createInterface } from "node:readline";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.PAYLINK_CHROMIUM || "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-dev-shm-usage",
  // Chromium's own browser UI, not the page: every new window of the headless full browser
  // loads the omnibox popup as a WebUI renderer (chrome://omnibox-popup.top-chrome, a second
  // renderer process with three worker threads), which on two cores competes with the page
  // under test for CPU during its load. No real user's page load pays for it.
  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
];

export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

// Children to kill if this process ends early (exception, Ctrl-C): a server must never outlive a run.
const children = new Set();
function killAll() {
  for (const c of children) {
    try {
      c.kill("SIGKILL");
    } catch {}
  }
}
process.on("exit", killAll);
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => {
    killAll();
    process.exit(130);
  });
}

/** Resolves when `promise` does, rejects with `what` after `ms`. */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Creates an application token and an operator on a fresh database and starts `paylink serve` with it.
 * Returns { url, token, secret, operator: {email, name, password}, dir, logs(), stop(), login() }.
 * The token and the password are never printed. `login()` logs the operator in and returns
 * the headers (Cookie, Origin) of a merchant call made outside a browser.
 */
export async function startPaylink({ bin, dist, name = "e2e", args = [] }) {
  if (!bin) throw new Error("PAYLINK_BIN is not set (path of the built paylink binary)");
  if (!dist) throw new Error("PAYLINK_DIST is not set (the built widget, dist/)");
  const dir = mkdtempSync(join(tmpdir(), "paylink-e2e-"));
  const db = join(dir, "e2e.db");
  const tokenFile = join(dir, "token");

  // The schema first (only `migrate` and `serve` change it); `token create` prints the token as
  // its last line of stdout.
  execFileSync(bin, ["migrate", "--db", db], { stdio: ["ignore", "pipe", "pipe"] });
  const out = execFileSync(bin, ["token", "create", "--db", db, "--name", name], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const token = out.trim().split("\n").pop().trim();
  const decoded = Buffer.from(token, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (!token || colon < 1) throw new Error("paylink token create: last line is not Base64(appId:secret)");
  const secret = decoded.slice(colon + 1);
  writeFileSync(tokenFile, token + "\n", { mode: 0o600 });

  // The merchant's screens need an operator's session: one operator, its password on stdin.
  const operator = { email: `operador-${name}@e2e.example`, name: "Operador E2E", password: randomBytes(18).toString("base64url") };
  execFileSync(bin, ["operator", "add", "--email", operator.email, "--name", operator.name, "--db", db], {
    input: operator.password + "\n",
    stdio: ["pipe", "pipe", "pipe"],
  });

  const child = spawn(
    bin,
    // --sandbox, like the README's run command: the payer page offers "simulate payment".
    // --drain-delay 0: no load balancer reads /readyz here, and stop() kills after 5 s.
    ["serve", "--listen", "127.0.0.1:0", "--db", db, "--dist", dist, "--token-file", tokenFile, "--sandbox",
     "--drain-delay", "0", ...args],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, RUST_LOG: process.env.RUST_LOG || "warn" } },
  );
  children.add(child);
  const log = [];
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d) => log.push(d));
  let exited = null;
  const exit = new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      exited = { code, signal };
      children.delete(child);
      resolve();
    }),
  );

  const stop = async () => {
    if (!exited) {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exit;
      clearTimeout(killer);
    }
    if (!process.env.PAYLINK_E2E_KEEP) rmSync(dir, { recursive: true, force: true });
  };

  try {
    // First stdout line: `paylink listening on http://ADDR`; later lines are kept in the log.
    const lines = createInterface({ input: child.stdout });
    const first = await withTimeout(
      new Promise((resolve, reject) => {
        lines.once("line", resolve);
        child.once("exit", (code) => reject(new Error(`paylink serve exited (${code}) before listening`)));
      }),
      30000,
      "paylink serve's first line",
    );
    lines.on("line", (l) => log.push(l + "\n"));
    const m = /^paylink listening on (http:\/\/\S+)$/.exec(first.trim());
    if (!m) throw new Error(`unexpected first line from paylink serve: ${JSON.stringify(first)}`);
    const url = m[1].replace(/\/$/, "");

    // Ready once /healthz answers 200.
    const deadline = Date.now() + 15000;
    for (;;) {
      try {
        const r = await fetch(url + "/healthz");
        if (r.status === 200) break;
      } catch {}
      if (exited) throw new Error(`paylink serve exited: ${JSON.stringify(exited)}`);
      if (Date.now() > deadline) throw new Error("paylink serve: /healthz not 200 after 15 s");
      await new Promise((r) => setTimeout(r, 50));
    }
    const login = async () => {
      const r = await fetch(url + "/api/session", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: url },
        body: JSON.stringify({ email: operator.email, password: operator.password }),
      });
      if (r.status !== 204) throw new Error(`operator login: ${r.status} ${await r.text()}`);
      const cookie = r.headers.get("set-cookie").split(";")[0];
      return { Cookie: cookie, Origin: url };
    };
    return { url, token, secret, operator, dir, logs: () => log.join(""), stop, login };
  } catch (e) {
    await stop();
    e.message += `\n--- paylink serve output ---\n${log.join("")}`;
    throw e;
  }
}

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".wasm": "application/wasm" };

/**
 * A plain static file server on 127.0.0.1 (a second origin, as a merchant's site or a CDN is):
 * files under `root`, `pages` (path -> {type, body}, read on each request) served from memory
 * first, `rewrite()` ([from, to] pairs, asked on each request) applied to .html and .js (the
 * examples name paylink as http://127.0.0.1:8080, whose real address is known later),
 * `fallback` (e.g. "index.html") for unknown paths, like a static host configured for an SPA.
 * Listens on an ephemeral port; returns { port, close() }.
 */
export async function startStatic({ root, pages = {}, rewrite = () => [], fallback = null }) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (pages[path]) {
      res.writeHead(200, { "Content-Type": pages[path].type ?? "text/html; charset=utf-8", "Cache-Control": "no-store" });
      return res.end(pages[path].body);
    }
    let file = root && join(root, normalize(path === "/" ? "/index.html" : path));
    if (!file || !file.startsWith(root) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      if (!fallback) {
        res.writeHead(404, { "Content-Type": "text/plain" });
        return res.end("not found");
      }
      file = join(root, fallback);
    }
    let body = readFileSync(file);
    const ext = extname(file);
    if (ext === ".html" || ext === ".js") {
      let text = body.toString("utf8");
      for (const [from, to] of rewrite()) text = text.split(from).join(to);
      body = Buffer.from(text);
    }
    res.writeHead(200, { "Content-Type": TYPES[ext] ?? "application/octet-stream", "Cache-Control": "no-store" });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: server.address().port, close: () => new Promise((r) => server.close(r)) };
}
