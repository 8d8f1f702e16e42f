// Prints a size table for the .wasm, .js, .css, .html and .json files under a directory, then
// what a browser downloads for each way the widget is shown, against the brotli budget.
// paylink's page (index.html) carries the JS glue and the stylesheet inline and fetches the wasm
// file; a merchant's page that mounts the widget with mount.js fetches the glue, the wasm and the
// stylesheet as files. So the budget applies to each page load, and the sum of all files is
// printed only for reference. The payer pages are the server's HTML (sample answers, stylesheet
// inline) and their islands' glue and wasm: the payer page's under payer/, the link page's under
// link/; a direct mount fetches mount.js, the link page's content (`?fragment=1`), its islands and
// their stylesheet. Targets: issue 40's.
// Usage: node sizes.mjs <dir> <pages dir: pay.html, link.html, link-fragment.html (payer-html.mjs)>
//        [<the merchant's app built at another revision> <that revision's name>]
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync, brotliCompressSync, constants as z } from "node:zlib";

const [dir, pagesDir, beforeDir, beforeRev] = process.argv.slice(2);
const kb = (n) => (n / 1000).toFixed(1); // KB = 1000 bytes, as in the budget

const files = readdirSync(dir, { recursive: true })
  .filter((f) => /\.(wasm|js|css|html|json)$/.test(f))
  .sort();

const sized = (name, buf) => ({
    name,
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
});
const rows = files.map((f) => sized(relative(dir, join(dir, f)), readFileSync(join(dir, f))));
const answer = (what, file) => sized(`${what} (the server's HTML, sample)`, readFileSync(join(pagesDir, file)));
const payAnswer = answer("/pay/{id}", "pay.html");
const linkAnswer = answer("/l/{slug}", "link.html");
const fragmentAnswer = answer("/l/{slug}?fragment=1", "link-fragment.html");
const sum = (rs) => rs.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, br: t.br + r.br }), { raw: 0, gzip: 0, br: 0 });

const width = 48;
const line = (name, r) =>
  `${name.padEnd(width)}  ${kb(r.raw).padStart(9)}  ${kb(r.gzip).padStart(9)}  ${kb(r.br).padStart(9)}`;
console.log(`${"file".padEnd(width)}  ${"raw KB".padStart(9)}  ${"gzip-9 KB".padStart(9)}  ${"br-11 KB".padStart(9)}`);
for (const r of [...rows, payAnswer, linkAnswer, fragmentAnswer]) console.log(line(r.name, r));
console.log(line("all files (reference: no page load takes all)", sum(rows)));

// Each way of showing the widget, by the files it downloads (by pattern, so hashed names match).
const one = (re) => {
  const found = rows.filter((r) => re.test(r.name));
  if (found.length !== 1) throw new Error(`expected one file matching ${re} in ${dir}, found ${found.length}`);
  return found[0];
};
// The merchant's app's files, which `run --payer-only` on a dist/ without them does not build.
const maybe = (re) => (rows.some((r) => re.test(r.name)) ? one(re) : null);
const page = [maybe(/^index\.html$/), maybe(/^config\.json$/), maybe(/^paylink-widget-[0-9a-f]+_bg\.wasm$/)];
const payPage = [payAnswer, one(/^payer\/paylink-payer-[0-9a-f]+\.js$/), one(/^payer\/paylink-payer-[0-9a-f]+_bg\.wasm$/)];
const linkIslands = [one(/^link\/paylink-payer-[0-9a-f]+\.js$/), one(/^link\/paylink-payer-[0-9a-f]+_bg\.wasm$/)];
const linkPage = [linkAnswer, ...linkIslands];
const frame = [maybe(/^embed\.js$/), ...linkPage];
const mount = [one(/^mount\.js$/), fragmentAnswer, ...linkIslands, one(/^link\/paylink-[0-9a-f]+\.css$/)];
// A payer going from the link page to the payer page, as a browser with its cache does: a file
// the second page loads under a name the first already loaded (the same content hash) is free.
const journey = [...linkPage, ...payPage.filter((r) => !linkPage.some((l) => l.name === r.name))];
// [what, files, target KB, moonshot KB] (issue 40); null: reported only.
const loads = [
  ["payer page (/pay/:id, server-rendered + islands)", payPage, 80, 60],
  ["link page (/l/:slug, server-rendered + islands)", linkPage, 130, 90],
  ["iframe on a merchant's page (embed.js)", frame, 130, 90],
  ["direct mount on a merchant's page (mount.js)", mount, 150, 110],
  ["journey: link page, then payer page (cached files free)", journey, 150, 100],
  ["merchant's app (/, the merchant's screens)", page, null, null],
];
console.log("\nper page load (what one browser downloads), brotli against issue 40's targets:");
for (const [name, rs, target, moon] of loads) {
  if (rs.includes(null)) {
    console.log(`  ${name}: not built (the merchant's app's files are not in ${dir})`);
    continue;
  }
  const br = sum(rs).br;
  const verdict = target == null ? "reported" : br <= moon * 1000 ? "moonshot met" : br <= target * 1000 ? "met" : "MISSED";
  const goal = target == null ? "" : `  target <= ${target} KB (moonshot ${moon}): ${verdict}`;
  console.log(`${line(`  ${name}`, sum(rs))}${goal}`);
}

// The merchant's app as another revision built it (`run --before REV`), beside today's.
if (beforeDir) {
  const merchant = (d) => {
    const names = readdirSync(d).filter((f) => /^(index\.html|config\.json|paylink-widget-[0-9a-f]+_bg\.wasm)$/.test(f));
    if (names.length !== 3) throw new Error(`expected index.html, config.json and one widget wasm in ${d}`);
    return sum(names.map((f) => sized(f, readFileSync(join(d, f)))));
  };
  const [was, now] = [merchant(beforeDir), merchant(dir)];
  console.log(`\nthe merchant's app before and after (brotli):`);
  console.log(line(`  at ${beforeRev}`, was));
  console.log(line("  now", now));
  console.log(`  change: ${(now.br - was.br >= 0 ? "+" : "") + kb(now.br - was.br)} KB brotli`);
}
