// Prints a size table for the .wasm, .js, .css, .html and .json files under a directory, then
// what a browser downloads for each way the widget is shown, against the brotli budget.
// paylink's page (index.html) carries the JS glue and the stylesheet inline and fetches the wasm
// file; a merchant's page that mounts the widget with mount.js fetches the glue, the wasm and the
// stylesheet as files. So the budget applies to each page load, and the sum of all files is
// printed only for reference. The payer page (`/pay/:id`) is pay.html, with the payer's bundle
// alone (`paylink-pay`). Two targets (issue 22): the payer page and any page load.
// Usage: node sizes.mjs <dir> <payer page brotli target in bytes> <any page load brotli target in bytes>
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync, brotliCompressSync, constants as z } from "node:zlib";

const [dir, payerArg, anyArg] = process.argv.slice(2);
const payerTarget = Number(payerArg);
const anyTarget = Number(anyArg);
const kb = (n) => (n / 1000).toFixed(1); // KB = 1000 bytes, as in the budget

const files = readdirSync(dir, { recursive: true })
  .filter((f) => /\.(wasm|js|css|html|json)$/.test(f))
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
const sum = (rs) => rs.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, br: t.br + r.br }), { raw: 0, gzip: 0, br: 0 });

const width = 48;
const line = (name, r) =>
  `${name.padEnd(width)}  ${kb(r.raw).padStart(9)}  ${kb(r.gzip).padStart(9)}  ${kb(r.br).padStart(9)}`;
console.log(`${"file".padEnd(width)}  ${"raw KB".padStart(9)}  ${"gzip-9 KB".padStart(9)}  ${"br-11 KB".padStart(9)}`);
for (const r of rows) console.log(line(r.name, r));
console.log(line("all files (reference: no page load takes all)", sum(rows)));

// Each way of showing the widget, by the files it downloads (by pattern, so hashed names match).
const one = (re) => {
  const found = rows.filter((r) => re.test(r.name));
  if (found.length !== 1) throw new Error(`expected one file matching ${re} in ${dir}, found ${found.length}`);
  return found[0];
};
const page = [one(/^index\.html$/), one(/^config\.json$/), one(/^paylink-widget-[0-9a-f]+_bg\.wasm$/)];
const payPage = [one(/^pay\.html$/), one(/^config\.json$/), one(/^paylink-pay-[0-9a-f]+_bg\.wasm$/)];
const loads = [
  ["paylink's page (/, /l/:slug, the merchant's screens)", page],
  ["payer page (/pay/:id: pay.html)", payPage],
  ["iframe on a merchant's page (embed.js)", [one(/^embed\.js$/), ...page]],
  ["direct mount on a merchant's page (mount.js)", [one(/^mount\.js$/), one(/^paylink-widget-[0-9a-f]+\.js$/), one(/^paylink-widget-[0-9a-f]+_bg\.wasm$/), one(/^main-[0-9a-f]+\.css$/)]],
];
console.log("\nper page load (what one browser downloads):");
for (const [name, rs] of loads) console.log(line(`  ${name}`, sum(rs)));
const verdict = (n, target) => (n <= target ? "met" : "MISSED");
const payer = sum(payPage).br;
console.log(`target: payer page (/pay/:id), brotli ${kb(payer)} KB, target <= ${kb(payerTarget)} KB: ${verdict(payer, payerTarget)}`);
const largest = Math.max(...loads.map(([, rs]) => sum(rs).br));
console.log(`target: any page load (the largest), brotli ${kb(largest)} KB, target <= ${kb(anyTarget)} KB: ${verdict(largest, anyTarget)}`);
