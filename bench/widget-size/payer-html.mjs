// Writes the HTML a payer's browser gets from the server for the pages the server renders: the
// payer page `/pay/{id}` of the invoice bench/first-render measures too (bench/payer-invoice.mjs),
// the link page `/l/{slug}` of a sample link (R$ 300,00 in up to 3 installments), and that link
// page's content alone (`?fragment=1`), which mount.js puts in a merchant's element. None is a
// file of dist/: each page's size is its answer plus the files it loads.
// Usage: PAYLINK_BIN=... PAYLINK_DIST=... node payer-html.mjs <dir>  (writes pay.html, link.html,
// link-fragment.html there)
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startPaylink } from "../../tests/e2e/harness.mjs";
import { samplePayerInvoice } from "../payer-invoice.mjs";

const out = process.argv[2];
if (!out) throw new Error("usage: node payer-html.mjs <dir>");
const paylink = await startPaylink({ bin: process.env.PAYLINK_BIN, dist: resolve(process.env.PAYLINK_DIST), name: "bench" });
try {
  const invoice = await samplePayerInvoice(paylink);
  execFileSync(process.env.PAYLINK_BIN, [
    "link", "create", "--name", "Curso de Rust", "--description", "Acesso por 12 meses", "--price", "300.00",
    "--payment-types", "PIX,BOLETO", "--invoice-type", "INSTALLMENT", "--max-installments", "3", "--slug", "bench-link",
    "--db", join(paylink.dir, "e2e.db"),
  ]);
  for (const [file, path] of [["pay.html", `/pay/${invoice.id}`], ["link.html", "/l/bench-link"], ["link-fragment.html", "/l/bench-link?fragment=1"]]) {
    const page = await fetch(paylink.url + path, { headers: { "Accept-Encoding": "identity" } });
    if (!page.ok) throw new Error(`GET ${path}: ${page.status}`);
    writeFileSync(join(out, file), await page.text());
  }
} finally {
  await paylink.stop();
}
