// Prints a size table for the .wasm, .js, .css and .html files under a directory (index.html
// carries the page's inline copy of the JS glue).
// Usage: node sizes.mjs <dir> <brotli budget in bytes>
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync, brotliCompressSync, constants as z } from "node:zlib";

const [dir, budgetArg] = process.argv.slice(2);
const budget = Number(budgetArg);
const kb = (n) => (n / 1000).toFixed(1); // KB = 1000 bytes, as in the budget

const files = readdirSync(dir, { recursive: true })
  .filter((f) => /\.(wasm|js|css|html)$/.test(f))
  .sort();

const rows = files.map((f) => {
  const buf = readFileSync(join(dir, f));
  return {
    name: relative(dir, join(dir, f)),
    raw: buf.length,
    gzip: gzipSync(buf, { level: 9 }).length,
    // Same settings as `brotli -q 11` (the CLI's default window is 24 bits).
    br: brotliCompressSync(buf, {
      params: {
        [z.BROTLI_PARAM_QUALITY]: 11,
        [z.BROTLI_PARAM_LGWIN]: 24,
        [z.BROTLI_PARAM_SIZE_HINT]: buf.length,
      },
    }).length,
  };
});
const total = rows.reduce(
  (t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, br: t.br + r.br }),
  { raw: 0, gzip: 0, br: 0 },
);

const width = Math.max(5, ...rows.map((r) => r.name.length));
const line = (name, r) =>
  `${name.padEnd(width)}  ${kb(r.raw).padStart(9)}  ${kb(r.gzip).padStart(9)}  ${kb(r.br).padStart(9)}`;
console.log(`${"file".padEnd(width)}  ${"raw KB".padStart(9)}  ${"gzip-9 KB".padStart(9)}  ${"br-11 KB".padStart(9)}`);
for (const r of rows) console.log(line(r.name, r));
console.log(line("total", total));
const verdict = total.br <= budget ? "PASS" : "OVER";
console.log(`budget: brotli total ${kb(total.br)} KB of ${kb(budget)} KB: ${verdict}`);
