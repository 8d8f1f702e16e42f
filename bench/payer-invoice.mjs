// The payer page the benches measure: one invoice on a running paylink (the e2e harness's
// `startPaylink`), 3 installments, PIX and boleto, a description, due in 60 days (a due date in
// the past is refused). Returns the invoice as the service answered it.
export async function samplePayerInvoice(paylink) {
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
  return api("/invoices/applications/invoices", {
    customerId: customer.id, externalId: "bench-pay", dueDate, paymentTypes: ["PIX", "BOLETO"],
    invoiceType: "INSTALLMENT", installmentCount: 3, price: 100, description: "Curso de violão",
  });
}
