// Prints the HTML a payer's browser gets for `/pay/{id}` (rendered by the server) of the same
// invoice bench/first-render uses: 3 installments, PIX and boleto, a description. The payer page
// is no file of dist/: its size is this answer plus the islands' files it loads.
// Usage: PAYLINK_BIN=... PAYLINK_DIST=... node payer-html.mjs > pay.html
import { resolve } from "node:path";
import { startPaylink } from "../../tests/e2e/harness.mjs";

const paylink = await startPaylink({ bin: process.env.PAYLINK_BIN, dist: resolve(process.env.PAYLINK_DIST), name: "bench" });
try {
  const api = async (path, body) => {
    const r = await fetch(paylink.url + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Basic ${paylink.token}` },
      body: JSON.stringify(body),
    });
    const j = await r.json();
    if (!r.ok) throw new Error(`POST ${path}: ${r.status} ${JSON.stringify(j)}`);
    return j;
  };
  const customer = await api("/invoices/applications/customers", { fullName: "Maria da Silva", document: "52998224725", email: "maria@example.com" });
  const dueDate = new Date(Date.now() + 60 * 86400e3).toISOString().slice(0, 10);
  const invoice = await api("/invoices/applications/invoices", {
    customerId: customer.id, externalId: "bench-pay", dueDate, paymentTypes: ["PIX", "BOLETO"],
    invoiceType: "INSTALLMENT", installmentCount: 3, price: 100, description: "Curso de violão",
  });
  const page = await fetch(`${paylink.url}/pay/${invoice.id}`, { headers: { "Accept-Encoding": "identity" } });
  if (!page.ok) throw new Error(`GET /pay/{id}: ${page.status}`);
  process.stdout.write(await page.text());
} finally {
  await paylink.stop();
}
