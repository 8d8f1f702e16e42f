// Prints the HTML a payer's browser gets for `/pay/{id}` (rendered by the server) of the
// invoice bench/first-render measures too (bench/payer-invoice.mjs). The payer page
// is no file of dist/: its size is this answer plus the islands' files it loads.
// Usage: PAYLINK_BIN=... PAYLINK_DIST=... node payer-html.mjs > payer-page.html
import { resolve } from "node:path";
import { startPaylink } from "../../tests/e2e/harness.mjs";
import { samplePayerInvoice } from "../payer-invoice.mjs";

const paylink = await startPaylink({ bin: process.env.PAYLINK_BIN, dist: resolve(process.env.PAYLINK_DIST), name: "bench" });
try {
  const invoice = await samplePayerInvoice(paylink);
  const page = await fetch(`${paylink.url}/pay/${invoice.id}`, { headers: { "Accept-Encoding": "identity" } });
  if (!page.ok) throw new Error(`GET /pay/{id}: ${page.status}`);
  process.stdout.write(await page.text());
} finally {
  await paylink.stop();
}
