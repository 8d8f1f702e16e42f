// End-to-end tests: Debian's Chromium (playwright-core) against a real `paylink serve` on a
// real SQLite file. Run by scripts/test as
//   PAYLINK_BIN=target/debug/paylink PAYLINK_DIST=dist node tests/e2e/run.mjs
// Prints each test's name and outcome; exits 1 if any test fails.
//
// The widget is driven only through its public contract (issue 4): `name` = API field path,
// `<label for>`, `aria-invalid` + `aria-describedby`, `<button type="submit">`, installments in a
// `<table>`, the payment link an `<a href>` = the invoice url; texts only where the contract
// has none (buttons, section names), in pt-BR (the default language).
import { execFileSync } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { launchBrowser, startPaylink, startStatic, withTimeout } from "./harness.mjs";
import jsQR from "jsqr";

const BIN = process.env.PAYLINK_BIN;
const DIST = process.env.PAYLINK_DIST && resolve(process.env.PAYLINK_DIST);
const TEST_TIMEOUT = 90_000;
const WAIT = 15_000; // how long a condition may take to become true

// ---------------------------------------------------------------- a tiny runner

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

// ---------------------------------------------------------------- recording

/** Every request and response the browser made during the whole run (token check). */
const traffic = [];
/** Page HTML snapshots (token check). */
const snapshots = [];

/** A fresh browser context whose traffic is recorded; `api` lists its /api requests. */
// Runs a test's body on a fresh page; a failure carries the page's console problems.
async function withPage(body, options) {
  const s = await openPage(browser, options);
  try {
    await body(s);
  } catch (e) {
    e.problems = [...s.problems, ...s.refused];
    throw e;
  } finally {
    await s.close();
  }
}

// Logged in as the server's operator unless `login: false` (the context shares the cookie).
async function openPage(browser, { login = true, ...options } = {}) {
  const context = await browser.newContext({ locale: "pt-BR", ...options });
  if (login) {
    const r = await context.request.post(server.url + "/api/session", {
      headers: { Origin: server.url },
      data: { email: server.operator.email, password: server.operator.password },
    });
    if (r.status() !== 204) throw new Error(`operator login: ${r.status()} ${await r.text()}`);
  }
  const pending = [];
  const api = [];
  const problems = [];
  const refused = [];
  context.on("request", (req) => {
    const entry = { kind: "request", method: req.method(), url: req.url() };
    traffic.push(entry);
    if (new URL(req.url()).pathname.startsWith("/api/")) api.push(entry);
    pending.push(
      (async () => {
        entry.headers = await req.allHeaders().catch(() => req.headers());
        entry.body = req.postDataBuffer() ?? Buffer.alloc(0);
      })(),
    );
  });
  context.on("response", (res) => {
    const entry = { kind: "response", status: res.status(), url: res.url(), method: res.request().method() };
    traffic.push(entry);
    // Which resource a console's bare "status of 404" was about, should the test fail.
    if (entry.status >= 400) refused.push(`response ${entry.status}: ${entry.method} ${entry.url}`);
    pending.push(
      (async () => {
        entry.headers = await res.allHeaders().catch(() => res.headers());
        // Redirects have no body, nor do answers still in flight when a page closes
        // (the pages poll): those are marked so the scan does not count them as read.
        entry.body = await res.body().catch(() => {
          entry.unread = true;
          return Buffer.alloc(0);
        });
      })(),
    );
  });
  context.on("requestfailed", (req) => problems.push(`request failed: ${req.method()} ${req.url()} ${req.failure()?.errorText}`));
  const page = await context.newPage();
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console.${m.type()}: ${m.text()}`);
  });
  return {
    page,
    api,
    problems,
    refused,
    async snapshot(label) {
      snapshots.push({ label, url: page.url(), html: await page.content() });
    },
    async close() {
      await Promise.allSettled(pending);
      await context.close();
    },
  };
}

// ---------------------------------------------------------------- waiting and reading

/** Polls `fn` until it returns a truthy value (returned) or `ms` pass; `describe()` explains a timeout. */
async function until(fn, what, describe = async () => "", ms = WAIT) {
  const deadline = Date.now() + ms;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      const seen = await describe().catch(() => "");
      throw new Error(`timed out after ${ms} ms waiting for: ${what}${seen ? `\n    observed: ${seen}` : ""}${last ? `\n    last error: ${last.message}` : ""}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The control a user types into for the field at API path `name`: the element so named, or,
 * for a field whose value is kept in a hidden input (the customer picker's id), the visible
 * control beside it in the same `.field` (the one its label names).
 */
const byName = (page, name) =>
  page.locator(
    `[name="${name}"]:not([type="hidden"]), .field:has(> input[type="hidden"][name="${name}"]) :is(input:not([type="hidden"]), select, textarea)`,
  );

/** The value of the element named `name` itself: what the form's request carries. */
const namedValue = (page, name) => page.locator(`[name="${name}"]`).inputValue();

/** aria-invalid, aria-describedby and the text of the elements it points to, for the control named `name`. */
function fieldState(page, name) {
  return page.evaluate((name) => {
    const named = [...document.querySelectorAll(`[name="${CSS.escape(name)}"]`)];
    // A hidden value's field is read on the control beside it (see byName).
    const els = named.map((e) =>
      e.type === "hidden" ? e.closest(".field")?.querySelector('input:not([type="hidden"]), select, textarea') : e,
    ).filter(Boolean);
    if (els.length === 0) return { exists: false };
    const el = els[0];
    const describedby = el.getAttribute("aria-describedby");
    const ids = (describedby || "").split(/\s+/).filter(Boolean);
    const targets = ids.map((id) => document.getElementById(id));
    return {
      exists: true,
      count: els.length,
      value: el.value,
      invalid: el.getAttribute("aria-invalid"),
      describedby,
      missingTargets: ids.filter((_, i) => !targets[i]),
      message: targets.map((t) => (t ? t.textContent.trim() : "")).filter(Boolean).join(" "),
    };
  }, name);
}

/** Waits until the field named `name` is marked invalid with exactly `message` (or any message if null). */
async function expectFieldError(page, name, message) {
  let s;
  await until(
    async () => {
      s = await fieldState(page, name);
      return s.exists && s.invalid === "true" && s.missingTargets.length === 0 && s.message && (message == null || s.message === message);
    },
    `[name="${name}"] aria-invalid="true" and aria-describedby -> ${message == null ? "a message" : JSON.stringify(message)}`,
    async () => JSON.stringify(s),
  );
  return s;
}

/** Fields of every control currently marked aria-invalid="true" (its name, or the hidden input's beside it). */
const invalidNames = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[aria-invalid="true"]')].map(
      (e) =>
        e.getAttribute("name") ||
        e.closest(".field")?.querySelector('input[type="hidden"][name]')?.getAttribute("name") ||
        `<${e.tagName.toLowerCase()}#${e.id}>`,
    ),
  );

/** `R$ 1.234,56` (any spaces) -> 123456 */
function cents(text) {
  const m = /R\$\s*([\d.]+,\d{2})/.exec(text.replace(/\u00a0/g, " "));
  if (!m) throw new Error(`not a BRL amount: ${JSON.stringify(text)}`);
  return Number(m[1].replace(/\./g, "").replace(",", ""));
}

/**
 * Reads the installments table (the `<table>` named "Parcelas"): its body rows as
 * { number, due, amount } with the amount in cents. Columns are found by header text.
 */
async function readInstallments(page) {
  const table = page.getByRole("table", { name: /^(Parcelas|Installments)$/ });
  await table.waitFor({ timeout: WAIT });
  const rows = await table.evaluate((t) => {
    const heads = [...t.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    const col = (re) => heads.findIndex((h) => re.test(h));
    const iNo = col(/^(Parcela|Installment)$/);
    const iDue = col(/^(Vencimento|Due date)$/i);
    const iAmount = col(/^(Valor|Amount)$/);
    return [...t.querySelectorAll("tbody tr")].map((tr) => {
      const cells = [...tr.children].map((c) => c.textContent.trim());
      return { number: cells[iNo], due: cells[iDue], amountText: cells[iAmount] };
    });
  });
  return rows.map((r) => ({ ...r, amount: cents(r.amountText ?? "") }));
}

/** The JSON body of a recorded-or-awaited response. */
async function json(res) {
  return JSON.parse((await res.body()).toString("utf8"));
}

const isApi = (method, path) => (res) => {
  const u = new URL(res.url());
  return res.request().method() === method && u.pathname === path;
};

function assert(cond, message) {
  if (!cond) throw new Error(message);
}
function assertEqual(actual, expected, what) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

// ---------------------------------------------------------------- dates

// Dates relative to today in Brasília (UTC−03:00, the server's calendar), so the suite does
// not rot: the due dates a test types are always in the future.
const BRT_TODAY = new Date(Date.now() - 3 * 3600_000); // its UTC fields are Brasília's date
/** The `day`th of the month `months` after this one (in Brasília), as YYYY-MM-DD. */
const dayOfMonth = (months, day) =>
  new Date(Date.UTC(BRT_TODAY.getUTCFullYear(), BRT_TODAY.getUTCMonth() + months, day)).toISOString().slice(0, 10);
/** YYYY-MM-DD as Brazilians write it (dd/mm/aaaa), what the widget's date fields take in pt-BR. */
const brDate = (iso) => iso.split("-").reverse().join("/");
// A 3-installment invoice due on the 10th: the 10th of the next two months too.
const DUE = dayOfMonth(2, 10);
const DUES = [DUE, dayOfMonth(3, 10), dayOfMonth(4, 10)];
// An early-payment discount's last day: six days before DUE, still after today.
const UNTIL = dayOfMonth(2, 4);

// ---------------------------------------------------------------- the flows

const CUSTOMER = {
  fullName: "Maria da Silva",
  document: "52998224725",
  email: "maria@example.com",
  phone: "(11) 98765-4321", // as Brazilians write it: no +55
  "address.zipcode": "01310-100",
  "address.address": "Avenida Paulista",
  "address.number": "1000",
  "address.city": "São Paulo",
  "address.state": "SP",
};
const WEBHOOK_URL = "https://example.com/hooks/paylink-e2e";

/** Fills the customer form (fill() fires `input`, like typing a paste). */
async function fillCustomer(page, values) {
  for (const [name, value] of Object.entries(values)) {
    const el = byName(page, name);
    if ((await el.evaluate((e) => e.tagName)) === "SELECT") await el.selectOption(value);
    else await el.fill(value);
  }
}

const submitButton = (page, formName) => page.locator(`form:has([name="${formName}"]) button[type="submit"]`);

let server; // { url, token, secret, ... }
let browser;
// Two more origins: the merchant's shop (examples/merchant/) and a third site (a static host of
// dist/, and a stranger's page that forges messages). Both are `serve --allowed-origin`s.
let MERCHANT;
let THIRD;
const LINK = "curso-rust";

test("whole flow: invalid customer -> errors, no request; customer; 3-installment invoice; detail; payment link -> payer view", () =>
  withPage(async (s) => {
    const { page, api } = s;
    await page.goto(server.url + "/");
    await byName(page, "fullName").waitFor({ timeout: WAIT });

    // 1. An invalid customer: errors on those fields, nothing sent.
    await fillCustomer(page, { fullName: "Al", document: "52998224724" });
    assertEqual(await byName(page, "document").inputValue(), "529.982.247-24", "document mask while typing");
    await submitButton(page, "fullName").click();
    const nameErr = await expectFieldError(page, "fullName", "Use pelo menos 3 caracteres.");
    const docErr = await expectFieldError(page, "document", "CPF inválido: confira os dígitos.");
    assert(nameErr.describedby !== docErr.describedby, "fullName and document point to the same message element");
    assertEqual((await invalidNames(page)).sort(), ["document", "fullName"], "fields marked invalid");
    // Negative check: the submit handler sends synchronously when the form is valid, so a request
    // would already be on its way; give the network a moment to show one before asserting none.
    await page.waitForTimeout(300);
    // The navigation's "who is logged in" (GET /api/session) is not the form's.
    const fromForm = api.filter((r) => !r.url.endsWith("/api/session")).map((r) => `${r.method} ${r.url}`);
    assertEqual(fromForm, [], "requests to /api after an invalid submit");
    await s.snapshot("customer form with errors");

    // 2. A valid customer: 201, and the errors are gone.
    await fillCustomer(page, CUSTOMER);
    assertEqual(await byName(page, "document").inputValue(), "529.982.247-25", "document mask");
    const customerRes = page.waitForResponse(isApi("POST", "/api/customers"), { timeout: WAIT });
    await submitButton(page, "fullName").click();
    const cres = await customerRes;
    assertEqual(cres.status(), 201, "POST /api/customers status");
    // The recorder that saw no request above does see this one.
    assert(api.some((r) => r.method === "POST" && r.url.endsWith("/api/customers")), "the /api recorder missed POST /api/customers");
    const customer = await json(cres);
    const sent = JSON.parse(cres.request().postData());
    assertEqual(
      [sent.document, sent.phone, sent.address?.zipcode, sent.address?.state],
      ["52998224725", "11987654321", "01310100", "SP"],
      "normalised customer values sent",
    );
    assertEqual(customer.phone, "+5511987654321", "a bare Brazilian phone stored in E.164");

    // 3. The invoice form for that customer: 3 installments of R$ 100,00, PIX only,
    //    one notification and one webhook (which the payer view must not show).
    await until(async () => (await byName(page, "customerId").inputValue().catch(() => "")) === customer.fullName, "the customer picker shows the created customer's name", async () => byName(page, "customerId").inputValue().catch((e) => e.message));
    // The field named customerId (the form contract) holds what the request carries: her id.
    assertEqual(await namedValue(page, "customerId"), customer.id, "[name=customerId] holds the customer's id");
    await byName(page, "invoiceType").selectOption("INSTALLMENT");
    await byName(page, "installmentCount").fill("3");
    await byName(page, "dueDate").fill(brDate(DUE));
    await page.locator('input[type="checkbox"][name="paymentTypes"][value="PIX"]').check();
    await page.locator('input[type="checkbox"][name="paymentTypes"][value="BOLETO"]').uncheck();
    await byName(page, "price").fill("100,00");
    await byName(page, "description").fill("Curso de violão (e2e)");
    await page.getByRole("button", { name: /notifica/i }).click();
    await byName(page, "notifications[0].type").selectOption("SEND_INVOICE_REMINDER");
    await byName(page, "notifications[0].channel").selectOption("Email");
    await byName(page, "notifications[0].period").fill("5");
    await page.getByRole("button", { name: /webhook/i }).click();
    await byName(page, "webhooks[0].hookType").selectOption("PAYMENT_CONFIRMED");
    await byName(page, "webhooks[0].url").fill(WEBHOOK_URL);
    // Fine, interest and discount as merchants type them (decimal comma, dd/mm/aaaa).
    await byName(page, "fine.type").selectOption("PERCENTAGE");
    await byName(page, "fine.value").fill("2");
    await byName(page, "interest.value").fill("1,5");
    await byName(page, "discount.type").selectOption("FIXED");
    await byName(page, "discount.value").fill("5,00");
    await byName(page, "discount.untilDate").fill(brDate(UNTIL));

    const invoiceRes = page.waitForResponse(isApi("POST", "/api/invoices"), { timeout: WAIT });
    await submitButton(page, "customerId").click();
    const ires = await invoiceRes;
    const created = await json(ires);
    assertEqual(ires.status(), 200, `POST /api/invoices status (body ${JSON.stringify(created).slice(0, 300)})`);
    const isent = JSON.parse(ires.request().postData());
    assertEqual(
      [isent.customerId, isent.invoiceType, isent.installmentCount, isent.price, isent.dueDate, isent.paymentTypes],
      [customer.id, "INSTALLMENT", 3, 100, DUE, ["PIX"]],
      "invoice request",
    );
    const terms = (x) => [x.fine?.type, x.fine?.value, x.interest?.value, x.discount?.type, x.discount?.value, x.discount?.untilDate];
    const sentTerms = ["PERCENTAGE", 2, 1.5, "FIXED", 5, UNTIL];
    assertEqual(terms(isent), sentTerms, "fine, interest and discount sent");
    // They reached the service: its invoice detail carries them.
    const stored = await (await fetch(`${server.url}/invoices/applications/invoices/${created.id}`, { headers: { Authorization: `Basic ${server.token}` } })).json();
    assertEqual(terms(stored), sentTerms, "fine, interest and discount in the invoice detail");
    // …and the detail page states them.
    await page.waitForURL((u) => u.pathname === `/invoices/${created.id}`, { timeout: WAIT });
    await until(async () => {
      const facts = await page.locator("dl").first().innerText().catch(() => "");
      return facts.includes("2 %") && facts.includes("1,5 % ao mês") && facts.includes(`R$ 5,00 até ${brDate(UNTIL)}`);
    }, "the detail page states fine, interest and discount", async () => page.locator("dl").first().innerText().catch((e) => e.message));
    assert(/^https?:\/\//.test(created.url), `invoice url ${created.url}`);

    // 4. The detail view: 3 rows summing to R$ 100,00, settings shown, the payment link.
    await page.waitForURL((u) => u.pathname === `/invoices/${created.id}`, { timeout: WAIT });
    let rows = [];
    await until(async () => (rows = await readInstallments(page)).length === 3, "3 installment rows on the detail view", async () => JSON.stringify(rows));
    assertEqual(rows.map((r) => r.amount), [3334, 3333, 3333], "installment amounts (cents)");
    assertEqual(rows.reduce((a, r) => a + r.amount, 0), 10000, "sum of installments");
    assertEqual(rows.map((r) => r.due), DUES.map(brDate), "installment due dates");
    const notifRegion = page.getByRole("region", { name: /notificações configuradas/i });
    const sendsRegion = page.getByRole("region", { name: /envios de notificações/i });
    const hookRegion = page.getByRole("region", { name: /webhook/i });
    await until(async () => (await hookRegion.count()) === 1 && (await hookRegion.innerText()).includes(WEBHOOK_URL), "the detail view's webhooks section lists the webhook");
    assertEqual(await notifRegion.count(), 1, "the configured notifications' section on the detail view");
    assertEqual(await sendsRegion.count(), 1, "the notification sends' section on the detail view");

    const link = page.locator(`a[href="${created.url}"]`);
    await until(async () => (await link.count()) >= 1, `an <a href="${created.url}"> (the invoice url)`, async () =>
      JSON.stringify(await page.$$eval("a", (as) => as.map((a) => a.getAttribute("href")))),
    );
    await s.snapshot("invoice detail");

    // 5. Following the payment link opens the payer view: installments, no settings.
    await link.first().click();
    await page.waitForURL(created.url, { timeout: WAIT });
    assertEqual(new URL(page.url()).pathname, `/pay/${created.id}`, "payment link path");
    // The merchant sees the page the payer gets: the server's, with its islands.
    await page.locator("leptos-island").first().waitFor({ state: "attached", timeout: WAIT });
    await until(async () => (rows = await readInstallments(page)).length === 3, "3 installment rows on the payer view", async () => JSON.stringify(rows));
    assertEqual(rows.map((r) => r.amount), [3334, 3333, 3333], "payer view installment amounts");
    assertEqual(await page.getByRole("region", { name: /notifica/i }).count(), 0, "notification sections on the payer view");
    assertEqual(await page.getByRole("region", { name: /webhook/i }).count(), 0, "webhook sections on the payer view");
    const payerText = await page.locator("body").innerText();
    assert(!payerText.includes(WEBHOOK_URL), "the payer view shows the webhook url");
    assert(!/webhook/i.test(payerText), "the payer view mentions webhooks");
    assertEqual(await page.locator("input, select, textarea").count(), 0, "form controls on the payer view");
    // Before UNTIL the first installment costs R$ 33,34 − R$ 5,00, and the page says why.
    const dueToday = page.locator("[data-amount-due]");
    await dueToday.waitFor({ timeout: WAIT });
    const dueText = await dueToday.innerText();
    assert(dueText.includes("R$ 28,34") && dueText.includes("desconto de R$ 5,00"), `amount due today: ${dueText}`);
    await s.snapshot("payer view");
  }));

/** Presses Tab until the focused element matches `selector` (at most 40 times). */
async function tabTo(page, selector) {
  for (let i = 0; i < 40; i++) {
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
    await page.keyboard.press("Tab");
  }
  const at = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120));
  throw new Error(`keyboard: 40 Tabs did not reach ${selector} (focus is on ${at})`);
}

/** Presses `key` on the focused select until its value is `value` (at most 40 times). */
async function keyToOption(page, key, value) {
  for (let i = 0; i < 40; i++) {
    if ((await page.evaluate(() => document.activeElement?.value)) === value) return;
    await page.keyboard.press(key);
  }
  throw new Error(`keyboard: ${key} did not reach option ${value}`);
}

test("keyboard only: customer form and installment invoice with Tab, typing and Enter", () =>
  withPage(async (s) => {
    const { page } = s;
    await page.goto(server.url + "/");
    await byName(page, "fullName").waitFor({ timeout: WAIT });

    await tabTo(page, '[name="fullName"]');
    await page.keyboard.type("Joana Teclado");
    await tabTo(page, '[name="document"]');
    await page.keyboard.type("11144477735");
    await tabTo(page, '[name="email"]');
    await page.keyboard.type("joana@example.com");
    await tabTo(page, '[name="phone"]');
    await page.keyboard.type("5521987654321");
    await tabTo(page, '[name="address.zipcode"]');
    await page.keyboard.type("20040020");
    await tabTo(page, '[name="address.state"]');
    await keyToOption(page, "ArrowDown", "RJ");
    // Masks applied while typing, key by key.
    assertEqual(
      [await byName(page, "document").inputValue(), await byName(page, "phone").inputValue(), await byName(page, "address.zipcode").inputValue()],
      ["111.444.777-35", "+55 (21) 98765-4321", "20040-020"],
      "masked values typed with the keyboard",
    );

    await tabTo(page, 'button[type="submit"]');
    const customerRes = page.waitForResponse(isApi("POST", "/api/customers"), { timeout: WAIT });
    await page.keyboard.press("Enter");
    const cres = await customerRes;
    assertEqual(cres.status(), 201, "POST /api/customers status");
    const customer = await json(cres);
    assertEqual(JSON.parse(cres.request().postData()).address?.state, "RJ", "state chosen with the keyboard");

    // The invoice form: Parcelada, 3 installments, R$ 100,00; the rest as prefilled.
    await byName(page, "customerId").waitFor({ timeout: WAIT });
    await tabTo(page, '[name="invoiceType"]');
    await keyToOption(page, "ArrowDown", "INSTALLMENT");
    await tabTo(page, '[name="installmentCount"]');
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("3");
    await tabTo(page, '[name="price"]');
    await page.keyboard.type("100,00");
    await tabTo(page, 'button[type="submit"]');
    const invoiceRes = page.waitForResponse(isApi("POST", "/api/invoices"), { timeout: WAIT });
    await page.keyboard.press("Enter");
    const ires = await invoiceRes;
    const created = await json(ires);
    assertEqual(ires.status(), 200, `POST /api/invoices status (body ${JSON.stringify(created).slice(0, 300)})`);
    assertEqual(created.customer?.id ?? JSON.parse(ires.request().postData()).customerId, customer.id, "invoice customer");
    await page.waitForURL((u) => u.pathname === `/invoices/${created.id}`, { timeout: WAIT });
    let rows = [];
    await until(async () => (rows = await readInstallments(page)).length === 3, "3 installment rows", async () => JSON.stringify(rows));
    assertEqual(rows.reduce((a, r) => a + r.amount, 0), 10000, "sum of installments");

    // The payment link is reachable and followed with the keyboard too.
    await tabTo(page, `a[href="${created.url}"]`);
    await page.keyboard.press("Enter");
    await page.waitForURL(created.url, { timeout: WAIT });
    await until(async () => (await readInstallments(page)).length === 3, "3 installment rows on the payer view");
    await s.snapshot("keyboard: payer view");
  }));

test("server-side error lands on its field: unknown customerId -> 422 errors.customerId on [name=customerId]", () =>
  withPage(async (s) => {
    const { page } = s;
    await page.goto(server.url + "/");
    // The merchant already has a customer id: go straight to the invoice form.
    await page.getByRole("button", { name: /Cliente já cadastrado/i }).click();
    const unknown = randomUUID();
    await byName(page, "customerId").fill(unknown);
    await byName(page, "price").fill("100,00");
    await byName(page, "dueDate").fill(brDate(DUE));

    const invoiceRes = page.waitForResponse(isApi("POST", "/api/invoices"), { timeout: WAIT });
    await submitButton(page, "customerId").click();
    const res = await invoiceRes;
    const body = await json(res);
    assertEqual(res.status(), 422, "POST /api/invoices status for an unknown customer");
    assertEqual(JSON.parse(res.request().postData()).customerId, unknown, "customerId sent");
    const msgs = body.errors?.customerId;
    assert(Array.isArray(msgs) && msgs.length > 0, `422 envelope has errors.customerId: ${JSON.stringify(body)}`);

    const st = await expectFieldError(page, "customerId", msgs.join(" "));
    assertEqual(await invalidNames(page), ["customerId"], "fields marked invalid");
    assertEqual(st.value, unknown, "the customerId typed is kept");
    assertEqual(await namedValue(page, "customerId"), unknown, "[name=customerId] holds the id typed");
    // Focus goes to the field the server rejected (its control, beside the hidden value).
    await until(() => page.evaluate(() => {
      const e = document.activeElement;
      const field = e?.getAttribute("name") || e?.closest(".field")?.querySelector('input[type="hidden"][name]')?.getAttribute("name");
      return field === "customerId";
    }), "focus on [name=customerId]", () =>
      page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120)),
    );
    await s.snapshot("invoice form with a server error");
  }));

test("contract: every control has its API path as name and a visible <label for>", () =>
  withPage(async (s) => {
    const { page } = s;
    await page.goto(server.url + "/");
    await byName(page, "fullName").waitFor({ timeout: WAIT });
    const check = () =>
      page.evaluate(() =>
        [...document.querySelectorAll("form input, form select, form textarea")]
          .map((el) => {
            // A field whose value is kept in a hidden input (the customer picker's id) is named
            // by that input and labelled on the control beside it in its .field.
            const field = el.closest(".field");
            if (el.type === "hidden") {
              const name = el.getAttribute("name");
              const control = field?.querySelector('input:not([type="hidden"]), select, textarea');
              return !name ? `<input type=hidden id=${el.id}> has no name` : !control ? `[name="${name}"] is hidden with no control beside it` : null;
            }
            const name = el.getAttribute("name") || field?.querySelector('input[type="hidden"][name]')?.getAttribute("name");
            const label = el.id && document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
            const visible = label && label.getClientRects().length > 0 && label.textContent.trim() !== "";
            return !name ? `<${el.tagName.toLowerCase()} id=${el.id}> has no name` : !visible ? `[name="${name}"] has no visible <label for>` : null;
          })
          .filter(Boolean),
      );
    assertEqual(await check(), [], "customer form controls without a name or visible label");
    const names = await page.$$eval("form [name]", (els) => els.map((e) => e.getAttribute("name")));
    for (const n of ["fullName", "document", "business", "email", "phone", "observations", "address.zipcode", "address.address", "address.number", "address.complement", "address.neighborhood", "address.city", "address.state"]) {
      assert(names.includes(n), `customer form has no [name="${n}"]`);
    }

    await page.getByRole("button", { name: /Cliente já cadastrado/i }).click();
    await byName(page, "customerId").waitFor({ timeout: WAIT });
    await byName(page, "invoiceType").selectOption("INSTALLMENT");
    await byName(page, "installmentCount").waitFor({ timeout: WAIT });
    await page.getByRole("button", { name: /notifica/i }).click();
    await page.getByRole("button", { name: /webhook/i }).click();
    await byName(page, "webhooks[0].url").waitFor({ timeout: WAIT });
    assertEqual(await check(), [], "invoice form controls without a name or visible label");
  }));

const AXE = join(dirname(fileURLToPath(import.meta.url)), "../../node_modules/axe-core/axe.min.js");

/** axe-core's WCAG 2.1 A/AA violations on the page as it is now, one line each. */
async function axeViolations(page, label) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
  });
  return violations.map((v) => `${label}: ${v.id} (${v.impact}) ${v.help} -> ${v.targets.join(", ")}`);
}

/** Creates a customer and a 3-installment invoice through the widget's proxy (which adds the token). */
async function createInvoiceViaProxy() {
  const session = await server.login();
  const post = async (path, body) => {
    const r = await fetch(server.url + path, { method: "POST", headers: { "Content-Type": "application/json", ...session }, body: JSON.stringify(body) });
    const j = await r.json();
    if (!r.ok) throw new Error(`POST ${path}: ${r.status} ${JSON.stringify(j)}`);
    return j;
  };
  const c = await post("/api/customers", { fullName: "Ana Acessível", document: "52998224725", email: "ana@example.com" });
  return post("/api/invoices", {
    customerId: c.id,
    externalId: "e2e-a11y",
    dueDate: DUE,
    paymentTypes: ["PIX", "BOLETO"],
    invoiceType: "INSTALLMENT",
    installmentCount: 3,
    price: 100,
    description: "Acessibilidade (e2e)",
    discount: { type: "FIXED", value: 5, untilDate: UNTIL },
    notifications: [{ type: "SEND_INVOICE_REMINDER", channel: "Email", period: 5 }],
    webhooks: [{ hookType: "PAYMENT_CONFIRMED", url: WEBHOOK_URL }],
  });
}

test("accessibility: axe-core finds no WCAG 2.1 A/AA violation on the forms (with errors), detail and payer view", () =>
  withPage(async (s) => {
    // axe is injected as an inline script, which the pages' CSP rightly forbids: let the test through.
    const { page } = s;
    const found = [];
    await page.goto(server.url + "/");
    await byName(page, "fullName").waitFor({ timeout: WAIT });
    found.push(...(await axeViolations(page, "customer form")));
    await byName(page, "fullName").fill("Al");
    await submitButton(page, "fullName").click();
    await expectFieldError(page, "fullName", null);
    found.push(...(await axeViolations(page, "customer form with errors")));

    await page.getByRole("button", { name: /Cliente já cadastrado/i }).click();
    await byName(page, "invoiceType").selectOption("INSTALLMENT");
    await byName(page, "price").fill("100,00");
    await page.getByRole("button", { name: /notifica/i }).click();
    await page.getByRole("button", { name: /webhook/i }).click();
    await byName(page, "webhooks[0].url").waitFor({ timeout: WAIT });
    await byName(page, "fine.value").fill("50");
    await submitButton(page, "customerId").click();
    await expectFieldError(page, "customerId", null);
    found.push(...(await axeViolations(page, "invoice form with errors")));

    const inv = await createInvoiceViaProxy();
    await page.goto(`${server.url}/invoices/${inv.id}`);
    await until(async () => (await readInstallments(page)).length === 3, "3 installment rows on the detail view");
    found.push(...(await axeViolations(page, "invoice detail")));
    await page.goto(inv.url);
    await until(async () => (await readInstallments(page)).length === 3, "3 installment rows on the payer view");
    found.push(...(await axeViolations(page, "payer view")));
    assertEqual(found, [], "axe-core violations");
  }, { bypassCSP: true }));

// ---------------------------------------------------------------- lists (issue 20)

/** The rows of the list's table: each row's cells' text, and its header cell's link. */
async function listRows(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("main table tbody tr")].map((tr) => ({
      cells: [...tr.children].map((c) => c.textContent.trim()),
      href: tr.querySelector("th a")?.getAttribute("href") ?? null,
    })),
  );
}

/** Waits until the list shows exactly the rows whose first cells are `firsts` (in that order). */
async function expectRows(page, firsts, what) {
  let rows;
  await until(
    async () => {
      rows = await listRows(page);
      return JSON.stringify(rows.map((r) => r.cells[0])) === JSON.stringify(firsts);
    },
    `${what}: rows ${JSON.stringify(firsts)}`,
    async () => JSON.stringify(rows),
  );
  return rows;
}

const seriousOnly = (found) => found.filter((f) => /\((serious|critical)\)/.test(f));

// The lists' two invoices, due in two and three months.
const LIST_DUE_A = dayOfMonth(2, 10);
const LIST_DUE_B = dayOfMonth(3, 20);

test("lists: invoices filtered by status and text, the filters in the URL survive a reload, pages by limit, a row opens the detail; customers searched and paged, one charged from the list; the nav only on the merchant's screens; axe", () =>
  withPage(async (s) => {
    const { page } = s;
    const tag = randomUUID().slice(0, 8);
    const a = await apiCreate(
      { fullName: `Alfa Conceição ${tag}`, document: "52998224725" },
      { externalId: `lst-a-${tag}`, dueDate: LIST_DUE_A, paymentTypes: ["PIX"], invoiceType: "SINGLE", installmentCount: 1, price: 150 },
    );
    const b = await apiCreate(
      { fullName: `Beta Lista ${tag}`, email: `beta-${tag}@example.com` },
      { externalId: `lst-b-${tag}`, dueDate: LIST_DUE_B, paymentTypes: ["PIX", "BOLETO"], invoiceType: "SINGLE", installmentCount: 1, price: 1234.5 },
    );
    // B is paid (sandbox), A stays open.
    const paid = await fetch(`${server.url}/api/pay/${b.id}/simulate`, { method: "POST" });
    assertEqual(paid.status, 200, "sandbox payment of B");
    const found = [];

    // The text filter, typed and sent: both invoices, newest first, and the URL carries it.
    await page.goto(server.url + "/invoices");
    await byName(page, "q").waitFor({ timeout: WAIT });
    const nav = page.getByRole("navigation", { name: "Navegação" });
    assertEqual(await nav.getByRole("link", { name: "Faturas" }).getAttribute("aria-current"), "page", "the nav marks Faturas");
    await byName(page, "q").fill(tag);
    await page.getByRole("button", { name: "Filtrar" }).click();
    await until(async () => new URL(page.url()).searchParams.get("q") === tag, "q in the URL");
    let rows = await expectRows(page, [`lst-b-${tag}`, `lst-a-${tag}`], "text filter");
    assertEqual(rows[0].cells.slice(1), [`Beta Lista ${tag}`, brDate(LIST_DUE_B), "R$ 1.234,50", "Paga"], "B's row");
    assertEqual(rows[1].cells.slice(1), [`Alfa Conceição ${tag}`, brDate(LIST_DUE_A), "R$ 150,00", "Em aberto"], "A's row");
    assertEqual(await page.locator("main table caption").count(), 1, "the table has a caption");
    assertEqual(await page.locator('main table thead th[scope="col"]').count(), 5, "column headers");
    assertEqual(await page.locator('main table tbody th[scope="row"]').count(), 2, "row headers");
    found.push(...(await axeViolations(page, "invoice list")));

    // Status filter: only the paid one; the URL carries both filters.
    await byName(page, "status").selectOption("paid");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await until(async () => {
      const q = new URL(page.url()).searchParams;
      return q.get("status") === "paid" && q.get("q") === tag;
    }, "status=paid and q in the URL");
    await expectRows(page, [`lst-b-${tag}`], "status=paid");
    const filtered = page.url();

    // The spreadsheet of these filters: every matching row, as a pt-BR spreadsheet reads it.
    const csvLink = page.getByRole("link", { name: "Baixar planilha (CSV)" });
    await csvLink.waitFor({ timeout: WAIT });
    const csv = await page.request.get(new URL(await csvLink.getAttribute("href"), server.url).href);
    assertEqual(csv.status(), 200, "the CSV export answers");
    assertEqual(csv.headers()["content-type"], "text/csv; charset=utf-8", "the CSV's type");
    const csvText = await csv.text();
    if (!csvText.includes(`lst-b-${tag};`) || csvText.includes(`lst-a-${tag}`) || !csvText.includes(";1234,50;"))
      throw new Error(`the CSV holds the filtered rows with decimal commas: ${csvText}`);

    // A reload (or a shared link) shows the same list and the same filters.
    await page.reload();
    await expectRows(page, [`lst-b-${tag}`], "status=paid after a reload");
    assertEqual(page.url(), filtered, "the URL after a reload");
    assertEqual(await byName(page, "status").inputValue(), "paid", "status select after a reload");
    assertEqual(await byName(page, "q").inputValue(), tag, "search field after a reload");
    await byName(page, "status").selectOption("open");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expectRows(page, [`lst-a-${tag}`], "status=open");

    // A refused filter: the 422's message is next to the control it names.
    await page.goto(`${server.url}/invoices?dueFrom=2027-05-01&dueTo=2027-01-01`);
    await expectFieldError(page, "dueTo", null);
    assertEqual((await fieldState(page, "dueFrom")).invalid, null, "dueFrom is fine");
    assertEqual((await fieldState(page, "dueFrom")).value, "01/05/2027", "the URL's date as dd/mm/aaaa");
    found.push(...(await axeViolations(page, "invoice list with a refused filter")));

    // Pages of one: the cursor goes in the URL; the next page has the older invoice.
    await page.goto(`${server.url}/invoices?q=${tag}&limit=1`);
    await expectRows(page, [`lst-b-${tag}`], "page 1 of limit=1");
    await page.getByRole("link", { name: "Próxima página" }).click();
    await until(async () => new URL(page.url()).searchParams.get("cursor"), "cursor in the URL");
    assertEqual(new URL(page.url()).searchParams.get("limit"), "1", "limit kept in the URL");
    rows = await expectRows(page, [`lst-a-${tag}`], "page 2 of limit=1");
    found.push(...(await axeViolations(page, "invoice list, page 2")));

    // The row's link opens the detail.
    assertEqual(rows[0].href, `/invoices/${a.id}`, "A's row links to its detail");
    await page.getByRole("link", { name: `lst-a-${tag}` }).click();
    await until(async () => new URL(page.url()).pathname === `/invoices/${a.id}`, "the detail's URL");
    await page.getByText(`Alfa Conceição ${tag}`).first().waitFor({ timeout: WAIT });

    // Nothing matches: an empty state, no table.
    await page.goto(`${server.url}/invoices?q=nada-${tag}`);
    await page.getByText("Nenhuma fatura encontrada.").waitFor({ timeout: WAIT });
    assertEqual(await page.locator("main table").count(), 0, "no table when empty");

    // Customers: searched by text, masked document, paged by limit.
    await page.goto(`${server.url}/customers?q=${tag}`);
    rows = await expectRows(page, [`Beta Lista ${tag}`, `Alfa Conceição ${tag}`], "customers searched");
    assertEqual(rows[1].cells.slice(1, 2), ["529.982.247-25"], "A's masked document");
    assertEqual(rows[0].cells[2], `beta-${tag}@example.com`, "B's e-mail");
    assertEqual(await page.getByRole("navigation", { name: "Navegação" }).getByRole("link", { name: "Clientes" }).getAttribute("aria-current"), "page", "the nav marks Clientes");
    found.push(...(await axeViolations(page, "customer list")));
    await page.goto(`${server.url}/customers?q=${tag}&limit=1`);
    await expectRows(page, [`Beta Lista ${tag}`], "customers page 1");
    await page.getByRole("link", { name: "Próxima página" }).click();
    await expectRows(page, [`Alfa Conceição ${tag}`], "customers page 2");
    await byName(page, "q").fill(`beta-${tag}`);
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expectRows(page, [`Beta Lista ${tag}`], "customers searched by e-mail");
    assert(!new URL(page.url()).searchParams.get("cursor"), "a new search starts at page 1");
    // Typed in capitals without the accents, the accented name is found.
    await byName(page, "q").fill(`ALFA CONCEICAO ${tag}`);
    await page.getByRole("button", { name: "Filtrar" }).click();
    await expectRows(page, [`Alfa Conceição ${tag}`], "customers searched without accents");

    // A returning customer is charged from the list: the invoice form opens for her (her id,
    // her name), and the new invoice is hers.
    await page.getByRole("button", { name: `Nova cobrança para Alfa Conceição ${tag}` }).click();
    await byName(page, "customerId").waitFor({ timeout: WAIT });
    assertEqual(new URL(page.url()).pathname, "/", "the invoice form's route");
    assertEqual(await byName(page, "customerId").inputValue(), `Alfa Conceição ${tag}`, "her name in the customer picker");
    assertEqual(await namedValue(page, "customerId"), a.customer.id, "her id in [name=customerId]");
    assertEqual((await page.locator("#invoice-form > p.note").textContent()).trim(), `Cobrança para Alfa Conceição ${tag}`, "her name above the form");
    await byName(page, "externalId").fill(`lst-c-${tag}`);
    await byName(page, "dueDate").fill(brDate(LIST_DUE_A));
    await byName(page, "price").fill("99,90");
    await page.locator("#f-paymentTypes-PIX").check();
    const chargeRes = page.waitForResponse(isApi("POST", "/api/invoices"), { timeout: WAIT });
    await page.locator('#invoice-form button[type="submit"]').click();
    const charged = await json(await chargeRes);
    assertEqual([charged.customer?.id, charged.price], [a.customer.id, 99.9], "the invoice is hers, R$ 99,90");
    await page.waitForURL(`**/invoices/${charged.id}`, { timeout: WAIT });
    await page.goto(`${server.url}/customers?q=${tag}`);
    await expectRows(page, [`Beta Lista ${tag}`, `Alfa Conceição ${tag}`], "customers again");

    // A mistyped address: the widget's own "not found" screen (a 404), with its way home.
    const missing = await page.goto(`${server.url}/dashboard`);
    assertEqual(missing.status(), 404, "the status of an address no page answers");
    await page.getByRole("heading", { name: "Página não encontrada." }).waitFor({ timeout: WAIT });
    assertEqual(await page.getByRole("link", { name: "Criar uma cobrança" }).getAttribute("href"), "/", "the way home");
    await page.goto(`${server.url}/customers?q=${tag}`);
    await expectRows(page, [`Beta Lista ${tag}`, `Alfa Conceição ${tag}`], "customers once more");

    // English from the language switch.
    await page.getByRole("button", { name: "EN" }).click();
    await page.getByRole("heading", { name: "Customers" }).waitFor({ timeout: WAIT });
    await page.getByRole("navigation", { name: "Navigation" }).getByRole("link", { name: "Invoices" }).click();
    await page.getByRole("heading", { name: "Invoices" }).waitFor({ timeout: WAIT });
    // The choice is remembered: a reload stays in English.
    await page.reload();
    await page.getByRole("heading", { name: "Invoices" }).waitFor({ timeout: WAIT });
    assertEqual(await page.evaluate(() => document.documentElement.lang), "en", "<html lang> after a reload");

    // The payers' pages carry no merchant navigation.
    await page.goto(`${server.url}/pay/${a.id}`);
    await page.locator("[data-pix-payload]").first().waitFor({ timeout: WAIT });
    assertEqual(await page.getByRole("navigation").count(), 0, "navigation on the payer page");
    await page.goto(`${server.url}/l/${LINK}`);
    await byName(page, "fullName").waitFor({ timeout: WAIT });
    assertEqual(await page.getByRole("navigation").count(), 0, "navigation on the link page");

    if (found.length) console.log("    axe (moderate/minor): " + found.join("\n      "));
    assertEqual(seriousOnly(found), [], "axe-core serious/critical violations");
    // axe is injected as an inline script, which the pages' CSP rightly forbids: let the test through.
  }, { bypassCSP: true }));

test("customer picker: an existing customer charged by typing part of her name, with the keyboard; axe with the list open", () =>
  withPage(async (s) => {
    const { page } = s;
    const tag = randomUUID().slice(0, 8);
    const a = await apiCreate(
      { fullName: `Gama Seleção ${tag}`, document: "52998224725", email: `gama-${tag}@example.com` },
      { externalId: `pick-a-${tag}`, dueDate: LIST_DUE_A, paymentTypes: ["PIX"], invoiceType: "SINGLE", installmentCount: 1, price: 10 },
    );
    await page.goto(server.url + "/");
    await page.getByRole("button", { name: /Cliente já cadastrado/i }).click();
    const combo = page.getByRole("combobox", { name: /Cliente/ });
    await combo.click();
    // Part of her name, without its accent: the list API's q finds her; name and masked CPF shown.
    const searched = page.waitForResponse((r) => r.url().includes("/api/customers?q=") && r.request().method() === "GET", { timeout: WAIT });
    await page.keyboard.type(`selecao ${tag}`);
    await searched;
    const option = page.getByRole("option", { name: new RegExp(`Gama Seleção ${tag}`) });
    await option.waitFor({ timeout: WAIT });
    assert((await option.textContent()).includes("529.982.247-25"), `her masked CPF: ${await option.textContent()}`);
    assertEqual(await combo.getAttribute("aria-expanded"), "true", "the list is open");
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      const found = await axeViolations(page, `customer picker at ${width}px`);
      assertEqual(found, [], `axe-core violations (any impact) at ${width}px`);
    }
    await page.keyboard.press("ArrowDown");
    assertEqual(await combo.getAttribute("aria-activedescendant"), "customer-option-0", "the first match active");
    await page.keyboard.press("Enter");
    assertEqual(await combo.getAttribute("aria-expanded"), "false", "the list closes");
    assertEqual(await combo.inputValue(), `Gama Seleção ${tag}`, "her name in the picker");
    await byName(page, "externalId").fill(`pick-b-${tag}`);
    await byName(page, "dueDate").fill(brDate(LIST_DUE_A));
    await byName(page, "price").fill("45,60");
    const chargeRes = page.waitForResponse(isApi("POST", "/api/invoices"), { timeout: WAIT });
    await page.locator('#invoice-form button[type="submit"]').click();
    const res = await chargeRes;
    const charged = await json(res);
    assertEqual(JSON.parse(res.request().postData()).customerId, a.customer.id, "her id sent");
    assertEqual([charged.customer?.id, charged.price], [a.customer.id, 45.6], "the invoice is hers, R$ 45,60");
    await page.waitForURL(`**/invoices/${charged.id}`, { timeout: WAIT });
  }, { bypassCSP: true }));

/** A webhook receiver on 127.0.0.1 that answers 500 (with a long Retry-After, so the worker's
 * own retry does not come first) until `fix()`, then 200; it keeps what arrived. */
async function startReceiver() {
  const got = [];
  let broken = true;
  const srv = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), answered: broken ? 500 : 200 });
      if (broken) res.writeHead(500, { "Retry-After": "3600" }).end("down");
      else res.writeHead(200).end("ok");
    });
  });
  await new Promise((r) => srv.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${srv.address().port}/hooks`,
    got,
    fix() { broken = false; },
    close: () => new Promise((r) => srv.close(r)),
  };
}

/** The Standard Webhooks check of one received request with `secret` (as docs/payments.md says). */
function signedWith(secret, r) {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const mac = createHmac("sha256", key).update(`${r.headers["webhook-id"]}.${r.headers["webhook-timestamp"]}.${r.body}`).digest("base64");
  return r.headers["webhook-signature"].split(" ").includes(`v1,${mac}`);
}

test("webhooks: added on the screen (a bad URL gets its field message; the secret shown once), a delivery the receiver refused (500) found by invoice and state and sent again once it is fixed, signed with that secret; axe at 1280 and 375 px", async () => {
  // A server of its own, whose webhooks may go to a receiver on 127.0.0.1 (as on a developer's machine).
  const own = await startPaylink({ bin: BIN, dist: DIST, name: "hooks", args: ["--allow-insecure-webhooks"] });
  const rx = await startReceiver();
  const context = await browser.newContext({ locale: "pt-BR", bypassCSP: true });
  const problems = [];
  try {
    const login = await context.request.post(own.url + "/api/session", {
      headers: { Origin: own.url },
      data: { email: own.operator.email, password: own.operator.password },
    });
    assertEqual(login.status(), 204, "operator login");
    const page = await context.newPage();
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(own.url + "/webhooks");
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor({ timeout: WAIT });

    // The add form: a URL that is not HTTPS gets its message on its field, nothing is sent.
    await byName(page, "hookType").selectOption("PAYMENT_CONFIRMED");
    await byName(page, "url").fill("http://loja.example/hooks");
    await page.locator('#webhook-add button[type="submit"]').click();
    const url = byName(page, "url");
    await until(async () => (await url.getAttribute("aria-invalid")) === "true", "the url field marked invalid");
    const described = await url.getAttribute("aria-describedby");
    assert((await page.locator(`#${described}`).innerText()).includes("HTTPS"), "the url's message");
    // Fixed and sent: the application's first webhook shows the signing secret, once.
    await url.fill("https://loja.example/hooks");
    const added = page.waitForResponse(isApi("POST", "/api/webhooks"), { timeout: WAIT });
    await page.locator('#webhook-add button[type="submit"]').click();
    assertEqual((await added).status(), 201, "webhook added");
    const secretBox = page.getByRole("region", { name: "Segredo de assinatura" });
    await secretBox.waitFor({ timeout: WAIT });
    assert((await secretBox.innerText()).includes("você não poderá vê-lo de novo"), "the secret box says it is shown once");
    const secret = await page.getByLabel(/Segredo de assinatura \(whsec_/).inputValue();
    assert(/^whsec_[A-Za-z0-9+/=]+$/.test(secret), `the secret: ${secret.slice(0, 6)}…`);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      const found = await axeViolations(page, `webhooks with the secret shown at ${width}px`);
      assertEqual(found, [], `axe-core violations at ${width}px`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "Já guardei o segredo" }).click();
    assertEqual(await secretBox.count(), 0, "the secret is gone from the screen");
    const listed = await (await context.request.get(own.url + "/api/webhooks")).text();
    assert(!listed.includes(secret) && listed.includes("https://loja.example/hooks"), "listed, without the secret");

    // The receiver's webhook (http on 127.0.0.1: through the API, as a developer would), then an
    // invoice whose INVOICE_CREATED it refuses.
    const auth = { "Content-Type": "application/json", Authorization: `Basic ${own.token}` };
    const hook = await fetch(own.url + "/invoices/applications/webhooks", {
      method: "POST", headers: auth, body: JSON.stringify({ hookType: "INVOICE_CREATED", url: rx.url }),
    });
    assertEqual(hook.status, 201, "the receiver's webhook");
    const post = async (path, body) => (await fetch(own.url + path, { method: "POST", headers: auth, body: JSON.stringify(body) })).json();
    const customer = await post("/invoices/applications/customers", { fullName: "Cliente Webhook" });
    const invoice = await post("/invoices/applications/invoices", {
      customerId: customer.id, externalId: "hook-1", dueDate: DUE, paymentTypes: ["PIX"], invoiceType: "SINGLE", installmentCount: 1, price: 10,
    });
    await until(() => rx.got.length === 1, "the receiver refused the event (500)");

    // Found on the screen by invoice and state (the filters go to the URL).
    await byName(page, "invoiceId").fill(invoice.id);
    await byName(page, "status").selectOption("pending");
    await page.locator('form[role="search"] button[type="submit"]').click();
    await page.waitForURL((u) => u.pathname === "/webhooks" && u.search === `?invoiceId=${invoice.id}&status=pending`, { timeout: WAIT });
    const row = page.locator(".deliveries table tbody tr");
    await until(async () => (await row.count()) === 1 && (await row.innerText()).includes("HTTP 500"), "the refused delivery, with its error",
      async () => (await page.locator(".deliveries").innerText()));
    const text = await row.innerText();
    assert(text.includes("hook-1") && text.includes("Aguardando"), `the row: ${text}`);
    assert(/\d\d\/\d\d\/\d{4} \d\d:\d\d/.test(text), `the next attempt as dd/mm/aaaa hh:mm: ${text}`);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      const found = await axeViolations(page, `webhooks with a failed delivery at ${width}px`);
      assertEqual(found, [], `axe-core violations at ${width}px`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // The receiver fixed; sent again from its row, not an hour later.
    rx.fix();
    const resent = page.waitForResponse((r) => r.request().method() === "POST" && /\/api\/deliveries\/[^/]+\/redeliver$/.test(new URL(r.url()).pathname), { timeout: WAIT });
    await row.getByRole("button", { name: /Reenviar/ }).click();
    assertEqual((await resent).status(), 202, "redelivered");
    await page.getByRole("status").filter({ hasText: "Entrega reenviada" }).waitFor({ timeout: WAIT });
    await until(() => rx.got.length === 2, "the event arrives again");
    assertEqual([rx.got[0].answered, rx.got[1].answered], [500, 200], "refused, then taken");
    assertEqual(rx.got[1].headers["webhook-id"], rx.got[0].headers["webhook-id"], "the same webhook-id");
    assert(signedWith(secret, rx.got[1]), "signed with the secret the screen showed");
    // The screen catches up on its own: the row is delivered, with no redeliver left.
    await page.goto(`${own.url}/webhooks?invoiceId=${invoice.id}`);
    await until(async () => (await row.count()) === 1 && (await row.innerText()).includes("Entregue"), "the delivery shown as delivered",
      async () => (await page.locator(".deliveries").innerText()));
    assertEqual(await row.getByRole("button").count(), 0, "nothing to send again");
    assertEqual(problems, [], "page errors");
  } finally {
    await context.close();
    await rx.close();
    await own.stop();
  }
});

test("operators: without a session every merchant call answers 401 and /login shows; logging in through the screen lands back; logout; the payer page needs no session", async () => {
  const inv = await apiCreate(
    { fullName: "Olga Operadora" },
    { externalId: "e2e-login", dueDate: dayOfMonth(3, 12), paymentTypes: ["PIX"], installmentCount: 1, price: 77.7 },
  );
  // Outside a browser: every merchant route of the proxy refuses, even from this origin.
  const json = { "Content-Type": "application/json", Origin: server.url };
  for (const [method, path, body] of [
    ["POST", "/api/customers", { fullName: "Maria" }],
    ["GET", "/api/customers", null],
    ["POST", "/api/invoices", {}],
    ["GET", "/api/invoices?status=open", null],
    ["GET", "/api/invoices.csv", null],
    ["GET", "/api/dashboard", null],
    ["GET", `/api/invoices/${inv.id}`, null],
    ["DELETE", `/api/invoices/${inv.id}`, null],
    ["POST", `/api/invoices/${inv.id}/installments/1/payments`, { amount: 77.7, paidOn: dayOfMonth(0, 1) }],
    ["POST", `/api/invoices/${inv.id}/resend`, null],
  ]) {
    const r = await fetch(server.url + path, { method, headers: json, body: body && JSON.stringify(body) });
    const text = await r.text();
    assertEqual(r.status, 401, `${method} ${path} without a session`);
    assertEqual(JSON.parse(text).code, 401, `${method} ${path}: the envelope`);
    assert(!text.includes("Olga"), `${method} ${path} leaks nothing`);
  }

  await withPage(async ({ page, api }) => {
    // A merchant screen without a session: its call answers 401 and the login screen shows.
    await page.goto(`${server.url}/invoices?status=open`);
    await until(async () => new URL(page.url()).pathname === "/login", "the login screen", async () => page.url());
    assertEqual(new URL(page.url()).searchParams.get("next"), "/invoices?status=open", "where to go back to");
    await page.getByRole("heading", { name: "Entrar" }).waitFor({ timeout: WAIT });
    assertEqual(await page.getByRole("navigation").count(), 0, "no merchant navigation before the login");
    // The form contract: names, labels, types.
    for (const [name, type] of [["email", "email"], ["password", "password"]]) {
      const input = byName(page, name);
      assertEqual(await input.getAttribute("type"), type, `${name}'s type`);
      const id = await input.getAttribute("id");
      assertEqual(await page.locator(`label[for="${id}"]`).count(), 1, `${name}'s label`);
    }
    // Empty: field errors, nothing sent.
    const before = api.length;
    await submitButton(page, "email").click();
    await until(async () => (await byName(page, "password").getAttribute("aria-invalid")) === "true", "password invalid");
    assertEqual(await byName(page, "email").getAttribute("aria-invalid"), "true", "email invalid");
    const described = await byName(page, "email").getAttribute("aria-describedby");
    assert((await page.locator(`[id="${described}"]`).textContent()).trim().length > 0, "email's message");
    assertEqual(api.slice(before).filter((e) => e.url.endsWith("/api/session") && e.method === "POST").length, 0, "nothing sent");
    // A wrong password: one clear message.
    await byName(page, "email").fill(server.operator.email);
    await byName(page, "password").fill("not the password at all");
    await submitButton(page, "email").click();
    const alert = page.getByRole("alert");
    await until(async () => /E-mail ou senha incorretos/.test((await alert.textContent()) ?? ""), "the wrong-login message");
    assertEqual(new URL(page.url()).pathname, "/login", "still on the login screen");
    assertEqual(seriousOnly(await axeViolations(page, "login screen with an error")), [], "axe-core serious/critical violations on /login");
    // In English too.
    await page.getByRole("button", { name: "EN", exact: true }).click();
    await page.getByRole("heading", { name: "Log in" }).waitFor({ timeout: WAIT });
    assertEqual((await page.locator(`label[for="${await byName(page, "password").getAttribute("id")}"]`).textContent()).replace("*", "").trim(), "Password", "English label");
    await page.getByRole("button", { name: "PT" }).click();
    await page.getByRole("heading", { name: "Entrar" }).waitFor({ timeout: WAIT });
    // The right one: back where the operator was, with the list and their name in the nav.
    await byName(page, "password").fill(server.operator.password);
    await submitButton(page, "email").click();
    await until(async () => new URL(page.url()).pathname === "/invoices", "back on the list", async () => page.url());
    assertEqual(new URL(page.url()).searchParams.get("status"), "open", "with its filter");
    const nav = page.getByRole("navigation", { name: "Navegação" });
    await until(async () => ((await nav.textContent()) ?? "").includes(server.operator.name), "the operator's name in the nav");
    await page.locator("main table").waitFor({ timeout: WAIT });
    const cookies = await page.context().cookies(server.url);
    const session = cookies.find((c) => c.name === "paylink_session");
    assert(session && session.httpOnly && session.sameSite === "Strict", `the session cookie: ${JSON.stringify(cookies.map((c) => c.name))}`);
    assertEqual(await page.evaluate(() => document.cookie.includes("paylink_session")), false, "HttpOnly: no script reads it");
    // Logout: the login screen again, and the session is over.
    await nav.getByRole("button", { name: "Sair" }).click();
    await until(async () => new URL(page.url()).pathname === "/login", "the login screen after logout");
    const status = await page.evaluate(async () => (await fetch("/api/invoices")).status);
    assertEqual(status, 401, "no session after logout");
    // axe is injected as an inline script, which the pages' CSP rightly forbids: let the test through.
  }, { login: false, bypassCSP: true });

  // The payer page and the payment link's page need no session, and ask for none: their first
  // render calls only the payer's endpoints (no GET /api/session, nothing merchant-only).
  await withPage(async ({ page, api }) => {
    const wasms = [];
    page.on("request", (r) => {
      if (r.url().endsWith(".wasm")) wasms.push(new URL(r.url()).pathname.replace(/[0-9a-f]{12,16}/, "HASH"));
    });
    await page.goto(`${server.url}/pay/${inv.id}`);
    await page.locator("[data-pix-payload]").first().waitFor({ timeout: WAIT });
    // Its islands load once the page is idle (their copy buttons then show).
    await page.getByRole("button", { name: "Copiar código PIX" }).waitFor({ timeout: WAIT });
    assertEqual(new URL(page.url()).pathname, `/pay/${inv.id}`, "no login for the payer");
    await page.goto(`${server.url}/l/${LINK}`);
    await byName(page, "fullName").waitFor({ timeout: WAIT });
    assertEqual(new URL(page.url()).pathname, `/l/${LINK}`, "no login on a payment link");
    assertEqual(api.filter((e) => e.url.includes("/api/session")).length, 0, "the payers' pages never ask for a session");
    const calls = api.map((e) => `${e.method} ${new URL(e.url).pathname}`);
    assert(calls.every((c) => /^(GET|POST) \/api\/(pay|links)\//.test(c)), `the payers' pages called: ${JSON.stringify(calls)}`);
    // Both are rendered by the server and load only their islands, never the merchant's app.
    assertEqual(wasms, ["/payer/paylink-payer-HASH_bg.wasm", "/link/paylink-payer-HASH_bg.wasm"], "wasm files the payer page and the link page loaded");
  }, { login: false });
});
// ---------------------------------------------------------------- actions and dashboard (issue 20)

/** Brasília's today, YYYY-MM-DD. */
const TODAY = dayOfMonth(0, BRT_TODAY.getUTCDate());

/** The cells' text of the installments table's row `n` (1-based). */
async function installmentRow(page, n) {
  return page.evaluate((n) => {
    const t = [...document.querySelectorAll("main table")].find((t) => /^(Parcelas|Installments)$/.test(t.querySelector("caption")?.textContent.trim()));
    const tr = t?.querySelectorAll("tbody tr")[n - 1];
    return tr ? [...tr.children].map((c) => c.textContent.trim()) : null;
  }, n);
}

/** The text of the actions' status line. */
const notice = (page) => page.locator("#action-notice").textContent().then((t) => t.trim());

test("invoice actions: record a payment (a bad amount gets a field message; then CONFIRMED), resend, Escape closes a confirm step, cancel (the payer page then says so); axe", () =>
  withPage(async (s) => {
    const { page } = s;
    const tag = randomUUID().slice(0, 8);
    const inv = await apiCreate(
      { fullName: `Ações ${tag}`, email: `acoes-${tag}@example.com` },
      {
        externalId: `act-${tag}`, dueDate: DUE, paymentTypes: ["PIX", "BOLETO"], invoiceType: "INSTALLMENT", installmentCount: 3, price: 3000,
        notifications: [{ type: "SEND_INVOICE_REMINDER", channel: "Email", period: 5 }],
      },
    );
    const found = [];
    await page.goto(`${server.url}/invoices/${inv.id}`);
    const pay1 = page.getByRole("button", { name: "Registrar pagamento da parcela 1" });
    await pay1.waitFor({ timeout: WAIT });
    assertEqual(await page.getByRole("button", { name: /Registrar pagamento da parcela/ }).count(), 3, "one payment button per open installment");

    // The payment step: prefilled with the installment's value and today; a bad amount is refused on its field.
    await pay1.click();
    await until(async () => (await fieldState(page, "amount")).value === "1.000,00", "the amount prefilled as R$ 1.000,00");
    assertEqual((await fieldState(page, "paidOn")).value, brDate(TODAY), "the date prefilled with today");
    await until(() => page.evaluate(() => document.activeElement?.getAttribute("name") === "amount"), "the focus on the amount", () =>
      page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120)),
    );
    found.push(...(await axeViolations(page, "payment step")));
    await byName(page, "amount").fill("12,345");
    const posts = () => s.api.filter((r) => r.method === "POST" && r.url.includes("/payments")).length;
    await page.getByRole("button", { name: "Confirmar pagamento" }).click();
    await expectFieldError(page, "amount", null);
    found.push(...(await axeViolations(page, "payment step with an error")));
    assertEqual(posts(), 0, "nothing sent with a bad amount");
    await byName(page, "amount").fill("1.000,00");
    await page.getByRole("button", { name: "Confirmar pagamento" }).click();
    await until(async () => (await notice(page)) === "Pagamento registrado: parcela 1.", "the payment's outcome", async () => notice(page));
    await until(async () => (await installmentRow(page, 1))?.includes("Pago"), "installment 1 CONFIRMED (Pago)", async () => JSON.stringify(await installmentRow(page, 1)));
    assertEqual((await installmentRow(page, 1)).slice(2, 4), ["R$ 1.000,00", "R$ 1.000,00"], "installment 1 paid in full");
    assertEqual(await page.getByRole("button", { name: "Registrar pagamento da parcela 1" }).count(), 0, "no payment button for a paid installment");
    assertEqual(posts(), 1, "one payment sent");
    const detail = await (await fetch(`${server.url}/api/invoices/${inv.id}`, { headers: await server.login() })).json();
    assertEqual([detail.installments[0]._status, detail.installments[0].pricePaid], ["CONFIRMED", 1000], "the service's installment 1");

    // Resend, confirmed.
    await page.getByRole("button", { name: "Reenviar notificação" }).click();
    await page.getByRole("button", { name: "Sim, reenviar" }).click();
    await until(async () => (await notice(page)) === "Notificação reenviada (1 envio).", "the resend's outcome", async () => notice(page));

    // Escape closes a confirm step without acting, the focus back on its button.
    await page.getByRole("button", { name: "Cancelar cobrança" }).click();
    await page.getByRole("button", { name: "Sim, cancelar cobrança" }).waitFor({ timeout: WAIT });
    found.push(...(await axeViolations(page, "cancel step")));
    await page.keyboard.press("Escape");
    await until(async () => (await page.locator("#action-step").count()) === 0, "the step closed by Escape");
    assertEqual(await page.evaluate(() => document.activeElement?.id), "act-cancel", "the focus back on Cancelar cobrança");
    assertEqual(s.api.filter((r) => r.method === "DELETE").length, 0, "nothing cancelled by Escape");

    // Cancel, confirmed: the detail says CANCELLED; the payer page says the charge was cancelled.
    await page.getByRole("button", { name: "Cancelar cobrança" }).click();
    await page.getByRole("button", { name: "Sim, cancelar cobrança" }).click();
    await until(async () => (await notice(page)) === "Cobrança cancelada.", "the cancel's outcome", async () => notice(page));
    await page.locator('[data-state="cancelled"]').waitFor({ timeout: WAIT });
    assertEqual(await page.getByRole("button", { name: "Cancelar cobrança" }).count(), 0, "no cancel on a cancelled invoice");
    found.push(...(await axeViolations(page, "cancelled invoice")));
    await page.reload();
    await page.locator('[data-state="cancelled"]').waitFor({ timeout: WAIT });
    await page.goto(inv.url);
    await page.getByText("Esta cobrança foi cancelada").first().waitFor({ timeout: WAIT });

    if (found.length) console.log("    axe (moderate/minor): " + found.join("\n      "));
    assertEqual(seriousOnly(found), [], "axe-core serious/critical violations");
    // axe is injected as an inline script, which the pages' CSP rightly forbids: let the test through.
  }, { bypassCSP: true }));

const PT_MONTHS = ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"];
/** R$ 1.234,56 of cents, as the widget writes it. */
const brl = (c) => `R$ ${Math.floor(c / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${String(c % 100).padStart(2, "0")}`;

test("dashboard: the month's totals move by what the test received and left open, 12 months in the table and the chart; axe", () =>
  withPage(async (s) => {
    const { page } = s;
    const tag = randomUUID().slice(0, 8);
    const dash = async () => {
      const r = await fetch(`${server.url}/api/dashboard`, { headers: await server.login() });
      assertEqual(r.status, 200, "GET /api/dashboard");
      return r.json();
    };
    const toCents = (reais) => Math.round(reais * 100);
    const before = await dash();
    // Due today: open this month. One paid by the (sandbox) bank, one by hand.
    const single = (ext, price) => ({ externalId: `${ext}-${tag}`, dueDate: TODAY, paymentTypes: ["PIX"], invoiceType: "SINGLE", installmentCount: 1, price });
    await apiCreate({ fullName: `Painel A ${tag}` }, single("dash-open", 123.45));
    const paid = await apiCreate({ fullName: `Painel B ${tag}` }, single("dash-paid", 200));
    const byHand = await apiCreate({ fullName: `Painel C ${tag}` }, single("dash-hand", 60));
    assertEqual((await fetch(`${server.url}/api/pay/${paid.id}/simulate`, { method: "POST" })).status, 200, "sandbox payment");
    const manual = await fetch(`${server.url}/api/invoices/${byHand.id}/installments/1/payments`, {
      method: "POST", headers: { "Content-Type": "application/json", ...(await server.login()) }, body: JSON.stringify({ amount: 50.5, paidOn: TODAY }),
    });
    assertEqual(manual.status, 200, "manual payment");

    const want = {
      received: toCents(before.received) + 20000 + 5050,
      open: toCents(before.open) + 12345,
      overdue: toCents(before.overdue),
    };
    await page.goto(`${server.url}/painel`);
    const total = (k) => page.locator(`[data-total="${k}"]`).textContent().then((t) => t.replace(/\u00a0/g, " ").trim());
    await page.locator('[data-total="received"]').waitFor({ timeout: WAIT });
    assertEqual([await total("received"), await total("open"), await total("overdue")], [brl(want.received), brl(want.open), brl(want.overdue)], "received, open, overdue");
    assertEqual(await page.getByRole("navigation", { name: "Navegação" }).getByRole("link", { name: "Painel" }).getAttribute("aria-current"), "page", "the nav marks Painel");

    // The table of the 12 months, this one last with what came in this month.
    const table = page.getByRole("table", { name: "Recebido por mês" });
    const rows = await table.evaluate((t) => [...t.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent.trim())));
    assertEqual(rows.length, 12, "12 months");
    const month = `${PT_MONTHS[BRT_TODAY.getUTCMonth()]}/${BRT_TODAY.getUTCFullYear()}`;
    assertEqual(rows[11], [month, brl(want.received)], "this month's row");
    assert(rows[0][0] !== month && /^[a-z]{3}\/\d{4}$/.test(rows[0][0]), `the first month: ${rows[0][0]}`);
    const svg = page.locator("svg.chart");
    assertEqual(await svg.getAttribute("role"), "img", "the chart is a picture");
    assertEqual(await svg.locator("rect.bar").count(), 12, "12 bars");
    const found = await axeViolations(page, "dashboard");
    if (found.length) console.log("    axe (moderate/minor): " + found.join("\n      "));
    assertEqual(seriousOnly(found), [], "axe-core serious/critical violations");
  }, { bypassCSP: true }));

/** Every file under `dir`, decompressed when it is .gz or .br. */
function distFiles(dir) {
  const out = [];
  for (const f of readdirSync(dir, { recursive: true })) {
    const p = join(dir, f);
    if (!statSync(p).isFile()) continue;
    let buf = readFileSync(p);
    if (p.endsWith(".gz")) buf = gunzipSync(buf);
    else if (p.endsWith(".br")) buf = brotliDecompressSync(buf);
    out.push({ where: `dist/${relative(dir, p)}`, buf });
  }
  return out;
}

test("the token never appears: every request and response of the run, the pages' HTML, dist/", async () => {
  // A fresh look at the pages that exist without the flow above, so this test stands alone too.
  const s = await openPage(browser);
  try {
    for (const path of ["/", `/invoices/${randomUUID()}`, `/pay/${randomUUID()}`]) {
      await s.page.goto(server.url + path);
      await s.page.locator("main").waitFor({ timeout: WAIT });
      await s.snapshot(path);
    }
  } finally {
    await s.close();
  }

  const needles = [...new Set([server.token, server.secret, encodeURIComponent(server.token), encodeURIComponent(server.secret)])];
  const haystacks = [];
  for (const t of traffic) {
    const label = `${t.kind} ${t.method} ${t.url}`;
    haystacks.push({ where: `${label} (url)`, buf: Buffer.from(t.url) });
    haystacks.push({ where: `${label} (headers)`, buf: Buffer.from(JSON.stringify(t.headers ?? {})) });
    haystacks.push({ where: `${label} (body)`, buf: t.body ?? Buffer.alloc(0) });
  }
  for (const sn of snapshots) haystacks.push({ where: `page HTML: ${sn.label} (${sn.url})`, buf: Buffer.from(sn.html) });
  const dist = distFiles(DIST);
  haystacks.push(...dist);

  const found = [];
  for (const h of haystacks) {
    for (const n of needles) if (h.buf.includes(n)) found.push(`${n === server.token ? "token" : "secret"} in ${h.where}`);
  }
  // Say where, without printing the token into the log.
  const redact = (text) => needles.reduce((t, n) => t.split(n).join("<redacted>"), text);
  found.splice(0, found.length, ...found.map(redact));
  assertEqual(found, [], "places where the token or its secret appear");

  // The check must have looked at something: the widget's assets, the API calls and their bodies.
  const responses = traffic.filter((t) => t.kind === "response");
  const apiCalls = responses.filter((t) => new URL(t.url).pathname.startsWith("/api/"));
  // paylink's page fetches its wasm file.
  assert(responses.some((t) => t.url.endsWith("_bg.wasm") && t.body?.length > 0), "no response with the widget's wasm was recorded");
  // The page's JS glue is inline in its HTML (the served index.html, not the DOM snapshots).
  assert(responses.some((t) => t.body?.includes("module_or_path")), "no response with the page's JS glue was recorded");
  // 204 No Content (the payer page's view count) has no body by definition.
  const withBody = apiCalls.filter((t) => t.status !== 204 && !t.unread);
  assert(withBody.length >= 3 && withBody.every((t) => t.body?.length > 0), `too few /api responses with a body were recorded (${withBody.length})`);
  assert(dist.some((f) => f.where.endsWith("index.html")), "dist/ has no index.html");
  console.log(`    checked ${traffic.length} requests/responses, ${snapshots.length} page snapshots, ${dist.length} files in dist/`);
});

// ---------------------------------------------------------------- the payer page

/** An independent BR Code reader: EMV TLV fields, and the CRC16-CCITT of field 63 checked. */
function decodeBrCode(payload) {
  const fields = {};
  let i = 0;
  while (i < payload.length) {
    const id = payload.slice(i, i + 2);
    const len = Number(payload.slice(i + 2, i + 4));
    fields[id] = payload.slice(i + 4, i + 4 + len);
    i += 4 + len;
  }
  let crc = 0xffff;
  for (const byte of Buffer.from(payload.slice(0, -4), "ascii")) {
    crc ^= byte << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  assertEqual(fields["63"], crc.toString(16).toUpperCase().padStart(4, "0"), "BR Code CRC16");
  return fields;
}

/** FEBRABAN modulo 10 of a linha digitável field, written here independently of the model. */
function mod10(digits) {
  let sum = 0;
  [...digits].reverse().forEach((d, i) => {
    const p = Number(d) * (i % 2 === 0 ? 2 : 1);
    sum += Math.floor(p / 10) + (p % 10);
  });
  return (10 - (sum % 10)) % 10;
}

/** Creates a customer and an invoice straight through the API (the merchant's server would). */
async function apiCreate(customer, invoice) {
  const post = async (path, body) => {
    const res = await fetch(server.url + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Basic ${server.token}` },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const c = await post("/invoices/applications/customers", customer);
  return post("/invoices/applications/invoices", { customerId: c.id, ...invoice });
}

test("payer page: PIX and boleto codes decode and cross-check, sandbox payment turns it paid, a hostile name stays text", async () => {
  const s = await openPage(browser);
  const { page } = s;
  const hostile = "<img src=x onerror=alert(1)>";
  let dialogs = 0;
  page.on("dialog", (d) => {
    dialogs += 1;
    d.dismiss().catch(() => {});
  });
  try {
    const inv = await apiCreate(
      { fullName: hostile },
      { externalId: "e2e-pay", dueDate: DUE, paymentTypes: ["PIX", "BOLETO"], invoiceType: "INSTALLMENT", installmentCount: 3, price: 100 },
    );
    const wasms = [];
    page.on("request", (r) => {
      if (r.url().endsWith(".wasm")) wasms.push(new URL(r.url()).pathname.replace(/[0-9a-f]{12,16}/, "HASH"));
    });
    await page.goto(inv.url.replace(/^https?:\/\/[^/]+/, server.url));
    const pix = page.locator("[data-pix-payload]");
    const line = page.locator("[data-boleto-line]");
    await pix.first().waitFor({ timeout: WAIT });
    // The page is the server's HTML; its islands (the copy buttons, the live status) hydrate
    // once it is idle, from their own small bundle: none of the merchant's screens.
    const copyPix = page.getByRole("button", { name: "Copiar código PIX" });
    await copyPix.waitFor({ timeout: WAIT });
    assertEqual(wasms, ["/payer/paylink-payer-HASH_bg.wasm"], "wasm files the payer page loaded");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await copyPix.click();
    await page.getByRole("status").filter({ hasText: "Copiado." }).first().waitFor({ timeout: WAIT });
    assertEqual(await page.evaluate(() => navigator.clipboard.readText()), (await pix.textContent()).trim(), "the copied PIX code");
    assertEqual(await pix.count(), 1, "one PIX code (the next open installment)");
    assertEqual(await line.count(), 1, "one boleto line (the next open installment)");

    const f = decodeBrCode((await pix.textContent()).trim());
    assertEqual([f["00"], f["53"], f["54"], f["58"]], ["01", "986", "33.34", "BR"], "BR Code fields");
    assert(f["26"].startsWith("0014br.gov.bcb.pix"), `merchant account GUI: ${f["26"]}`);
    assert(f["59"].length > 0 && f["60"].length > 0, "merchant name and city");

    const digits = (await line.textContent()).replace(/\D/g, "");
    assertEqual(digits.length, 47, "linha digitável length");
    for (const [from, to] of [[0, 9], [10, 20], [21, 31]]) {
      assertEqual(Number(digits[to]), mod10(digits.slice(from, to)), `check digit of field ${digits.slice(from, to)}`);
    }
    assertEqual(digits.slice(37), "0000003334", "boleto value of installment 1 (R$ 33,34)");

    // The printable boleto: a download link answering a PDF, and a print view in a new tab.
    const pdfLink = page.getByRole("link", { name: "Baixar boleto (PDF)" });
    await pdfLink.waitFor({ timeout: WAIT });
    const pdfUrl = new URL(await pdfLink.getAttribute("href"), page.url());
    assertEqual(pdfUrl.pathname, `/api/pay/${inv.id}/installments/1/boleto.pdf`, "boleto PDF link");
    const pdfRes = await page.request.get(pdfUrl.href);
    assertEqual([pdfRes.status(), (pdfRes.headers()["content-type"] || "").split(";")[0]], [200, "application/pdf"], "boleto PDF answer");
    assertEqual((await pdfRes.body()).subarray(0, 5).toString("latin1"), "%PDF-", "boleto PDF body");
    const printLink = page.getByRole("link", { name: "Imprimir" });
    const printUrl = new URL(await printLink.getAttribute("href"), page.url());
    assertEqual([printUrl.pathname, printUrl.search, await printLink.getAttribute("target")], [pdfUrl.pathname, "?print=1", "_blank"], "boleto print link");

    // The hostile name is shown as text, never as markup.
    await page.getByText(hostile, { exact: true }).waitFor({ timeout: WAIT });
    assertEqual(await page.locator('img[src="x"]').count(), 0, "an <img> injected by the customer's name");

    // Sandbox: "simulate payment" pays installment 1; the page moves on to installment 2.
    await page.getByRole("button", { name: /Simular pagamento/ }).click();
    await until(async () => (await pix.textContent().catch(() => "")).includes("540533.33"), "the PIX code now charges installment 2 (R$ 33,33)");
    const detail = await (await fetch(`${server.url}/invoices/applications/invoices/${inv.id}`, { headers: { Authorization: `Basic ${server.token}` } })).json();
    assertEqual(detail.installments.map((i) => i._status), ["CONFIRMED", "WAITING_PAYMENT", "WAITING_PAYMENT"], "statuses after the sandbox payment");
    assert(detail.installments[0].viewsCount >= 1, "the page view was counted");
    assertEqual(dialogs, 0, "dialogs opened (script ran)");
    assertEqual(s.problems.filter((p) => !p.startsWith("request failed")), [], "console warnings (hydration) and errors on the payer page");
    await s.snapshot("payer page after a sandbox payment");
  } finally {
    await s.close();
  }
});

/** Reads a QR code drawn as SVG the way a phone's camera would: rasterized in a browser, decoded by jsQR. */
async function scanQr(browserPage, svg) {
  const size = 480;
  const rgba = await browserPage.evaluate(async ({ svg, size }) => {
    const img = new Image();
    img.src = "data:image/svg+xml;base64," + btoa(svg);
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = size;
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, size, size);
    ctx.drawImage(img, 24, 24, size - 48, size - 48);
    return Array.from(ctx.getImageData(0, 0, size, size).data);
  }, { svg, size });
  const code = jsQR(Uint8ClampedArray.from(rgba), size, size);
  assert(code, "the QR code could not be read");
  return code.data;
}

test("payer page without JavaScript: the server's HTML has every code, its QR scans to the copia e cola (CRC checked), the language switch and the sandbox payment work", async () => {
  const s = await openPage(browser, { login: false, javaScriptEnabled: false });
  const reader = await openPage(browser, { login: false });
  const { page } = s;
  try {
    const inv = await apiCreate(
      { fullName: "Sem Script" },
      { externalId: "e2e-nojs", dueDate: DUE, paymentTypes: ["PIX", "BOLETO"], invoiceType: "INSTALLMENT", installmentCount: 2, price: 50 },
    );
    // What a `curl` of the page gets: the QR's SVG and the copia e cola, with no script run.
    const html = await (await fetch(`${server.url}/pay/${inv.id}`)).text();
    const svg = /class="qr">([\s\S]*?)<\/div>/.exec(html)?.[1];
    assert(svg && svg.includes("<svg"), "the QR code's SVG is in the server's HTML");
    const scanned = await scanQr(reader.page, svg);
    const f = decodeBrCode(scanned);
    assertEqual([f["53"], f["54"], f["58"]], ["986", "25.00", "BR"], "the scanned BR Code's fields");

    await page.goto(`${server.url}/pay/${inv.id}`);
    const pix = page.locator("[data-pix-payload]");
    await pix.waitFor({ timeout: WAIT });
    assertEqual((await pix.textContent()).trim(), scanned, "the copia e cola is what the QR code says");
    assert(await page.locator("[data-boleto-line]").isVisible(), "the boleto line");
    assert(await page.getByRole("link", { name: "Baixar boleto (PDF)" }).isVisible(), "the boleto PDF link");
    assertEqual(await page.getByRole("button", { name: "Copiar código PIX" }).count(), 0, "a copy button that could not work");

    await page.getByRole("link", { name: "EN" }).click();
    await page.getByRole("heading", { name: "Payment", exact: true }).waitFor({ timeout: WAIT });
    await page.getByRole("link", { name: "PT" }).click();
    await page.getByRole("heading", { name: "Pagamento", exact: true }).waitFor({ timeout: WAIT });

    await page.getByRole("button", { name: /Simular pagamento/ }).click();
    await until(async () => (await pix.textContent().catch(() => "")).includes("540525.00") && /\/pay\//.test(page.url()), "the page shows installment 2 after the form's payment");
    assert((await page.locator("main").textContent()).includes("Parcela 2 ·"), "installment 2 is the one to pay");
    const detail = await (await fetch(`${server.url}/invoices/applications/invoices/${inv.id}`, { headers: { Authorization: `Basic ${server.token}` } })).json();
    assertEqual(detail.installments.map((i) => i._status), ["CONFIRMED", "WAITING_PAYMENT"], "statuses after the form's payment");
    assertEqual(s.problems.filter((p) => !p.startsWith("request failed")), [], "console problems");
  } finally {
    await s.close();
    await reader.close();
  }
});

test("receipt without JavaScript: a paid installment's page shows its receipt (the payer's CPF masked), whose PDF downloads and reads back; its code checks at /r/{code}, a forged one is a 404 that says nothing", async () => {
  const s = await openPage(browser, { login: false, javaScriptEnabled: false, acceptDownloads: true });
  const { page } = s;
  try {
    const inv = await apiCreate(
      { fullName: "Maria Comprovante", document: "529.982.247-25" },
      { externalId: "e2e-receipt", dueDate: DUE, paymentTypes: ["PIX", "BOLETO"], invoiceType: "SINGLE", installmentCount: 1, price: 1000 },
    );
    await page.goto(`${server.url}/pay/${inv.id}`);
    assertEqual(await page.locator("[data-receipt]").count(), 0, "no receipt before the payment");
    // The sandbox's payment, as the page's own form posts it (no script needed).
    await page.getByRole("button", { name: /Simular pagamento/ }).click();
    const receipt = page.locator("[data-receipt]");
    await receipt.waitFor({ timeout: WAIT });
    const shown = await receipt.textContent();
    for (const text of ["Comprovante de pagamento", "***.982.247-**", "R$ 1.000,00", "Pix"]) {
      assert(shown.includes(text), `${text} on the page's receipt: ${shown}`);
    }
    assert(!(await page.content()).includes("529.982.247-25"), "the payer's CPF in full on the page");
    const code = /[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/.exec(shown)?.[0];
    assert(code, `a verification code on the receipt: ${shown}`);

    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: WAIT }),
      page.getByRole("link", { name: "Baixar comprovante (PDF)" }).click(),
    ]);
    assertEqual(download.suggestedFilename(), "comprovante-e2e-receipt-1.pdf", "the receipt's file name");
    const text = execFileSync("pdftotext", ["-layout", await download.path(), "-"], { encoding: "utf8" });
    for (const printed of ["Comprovante de pagamento", "R$ 1.000,00", "***.982.247-**", code, `${server.url}/r/${code}`]) {
      assert(text.includes(printed), `${printed} in the PDF's text:\n${text}`);
    }

    await page.goto(`${server.url}/r/${code}`);
    await page.getByRole("heading", { name: "Comprovante autêntico" }).waitFor({ timeout: WAIT });
    assert((await page.locator("main").textContent()).includes("R$ 1.000,00"), "the amount on the verification page");
    const forged = await page.goto(`${server.url}/r/${code.slice(0, -1)}${code.endsWith("7") ? "8" : "7"}`);
    assertEqual(forged.status(), 404, "a tampered code");
    await page.getByRole("heading", { name: "Comprovante não encontrado" }).waitFor({ timeout: WAIT });
    assert(!(await page.content()).includes("Maria"), "the 404 page names nobody");
    assertEqual(s.problems.filter((p) => !p.startsWith("request failed") && !p.includes("404")), [], "console problems");
  } finally {
    await s.close();
  }
});

test("page of charges without JavaScript: a link the merchant made lists the customer's open charges before the paid one, each opening its payer page; EN; revoked, the same link is a 404 page", async () => {
  const s = await openPage(browser, { login: false, javaScriptEnabled: false });
  const { page } = s;
  const auth = { Authorization: `Basic ${server.token}` };
  try {
    const first = await apiCreate(
      { fullName: "Cobranças Sem Script" },
      { externalId: "e2e-c-1", description: "Mensalidade paga", dueDate: DUE, paymentTypes: ["PIX"], installmentCount: 1, price: 40 },
    );
    const customerId = first.customer.id;
    const paid = await fetch(`${server.url}/api/pay/${first.id}/simulate`, { method: "POST", headers: { Origin: server.url } });
    assertEqual(paid.status, 200, "the sandbox payment of the first charge");
    const post = async (body) => {
      const res = await fetch(`${server.url}/invoices/applications/invoices`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...auth },
        body: JSON.stringify({ customerId, ...body }),
      });
      assertEqual(res.status, 200, "an invoice of the same customer");
      return res.json();
    };
    const open = await post({ externalId: "e2e-c-2", description: "Mensalidade aberta", dueDate: DUE, paymentTypes: ["PIX"], installmentCount: 1, price: 60 });
    const res = await fetch(`${server.url}/invoices/applications/customers/${customerId}/charges-link`, { method: "POST", headers: auth });
    assertEqual(res.status, 201, "the charges link");
    const { url } = await res.json();

    await page.goto(url);
    await page.getByRole("heading", { name: "Suas cobranças" }).waitFor({ timeout: WAIT });
    const hrefs = await page.locator("li.charge a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    assertEqual(hrefs, [`/pay/${open.id}`, `/pay/${first.id}`], "open first, then paid");
    const main = await page.locator("main").textContent();
    assert(main.includes("R$ 60,00") && main.includes("Pago"), `amount due and the paid one: ${main}`);
    assertEqual(await page.locator("script").count(), 0, "no script at all");

    await page.getByRole("link", { name: "EN", exact: true }).click();
    await page.getByRole("heading", { name: "Your charges" }).waitFor({ timeout: WAIT });
    await page.getByRole("link", { name: "PT", exact: true }).click();
    await page.getByRole("link", { name: "Mensalidade aberta" }).click();
    await page.waitForURL(`${server.url}/pay/${open.id}`, { timeout: WAIT });
    await page.locator("[data-pix-payload]").waitFor({ timeout: WAIT });

    const revoked = await fetch(`${server.url}/invoices/applications/customers/${customerId}/charges-link`, { method: "DELETE", headers: auth });
    assertEqual(revoked.status, 204, "revoked");
    const gone = await page.goto(url);
    assertEqual(gone.status(), 404, "a revoked link");
    await page.getByRole("heading", { name: "Página indisponível" }).waitFor({ timeout: WAIT });
    assert(!(await page.content()).includes("Mensalidade"), "nothing of the charges on the 404 page");
    const problems = s.problems.filter((p) => !p.startsWith("request failed") && !p.includes("status of 404"));
    assertEqual(problems, [], "console problems");
  } finally {
    await s.close();
  }
});

test("link page without JavaScript: the server's form comes back with its errors on their fields, then creates the invoice and opens the payer page, whose QR scans", async () => {
  const s = await openPage(browser, { login: false, javaScriptEnabled: false });
  const reader = await openPage(browser, { login: false });
  const { page } = s;
  try {
    await page.goto(`${server.url}/l/${LINK}`);
    await page.getByRole("heading", { name: "Curso de Rust" }).waitFor({ timeout: WAIT });
    // A bad document and no name: the form again, what was typed kept, each message on its field.
    await byName(page, "document").fill("123.456.789-00");
    await submitButton(page, "fullName").click();
    await page.waitForURL(`${server.url}/l/${LINK}`);
    await expectFieldError(page, "fullName", null);
    await expectFieldError(page, "document", null);
    assertEqual(await byName(page, "document").inputValue(), "123.456.789-00", "what was typed stays");
    assert(await page.getByRole("alert").isVisible(), "the form's alert");

    // Fixed: 2 installments, PIX only.
    await fillLinkForm(page, 2, ["PIX"]);
    await submitButton(page, "fullName").click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/, { timeout: WAIT });
    const pix = page.locator("[data-pix-payload]");
    await pix.waitFor({ timeout: WAIT });
    assertEqual(await page.locator("[data-boleto-line]").count(), 0, "no boleto line when only PIX was chosen");
    const svg = await page.locator(".qr").innerHTML();
    const f = decodeBrCode(await scanQr(reader.page, svg));
    assertEqual([f["53"], f["54"]], ["986", "150.00"], "the first of 2 installments of R$ 300,00, scanned");
    // The refused form is a 422 page, which the browser logs as such.
    const problems = s.problems.filter((p) => !p.startsWith("request failed") && !p.includes("status of 422"));
    assertEqual(problems, [], "console problems");
  } finally {
    await s.close();
    await reader.close();
  }
});

test("link page with JavaScript: the server's form hydrates without a warning, validates as the payer types and pays through the link", () =>
  withPage(async (s) => {
    const { page } = s;
    await page.goto(`${server.url}/l/${LINK}`);
    // Hydrated: leaving a required field empty marks it at once, with no request.
    const name = byName(page, "fullName");
    await until(async () => {
      await name.focus();
      await byName(page, "document").focus();
      return (await name.getAttribute("aria-invalid")) === "true";
    }, "a blurred empty name is marked by the island");
    // Masks while typing, from the model.
    await byName(page, "document").pressSequentially("52998224725");
    assertEqual(await byName(page, "document").inputValue(), "529.982.247-25", "CPF masked while typing");
    // The preview follows the installment count.
    await byName(page, "installmentCount").selectOption("2");
    assertEqual(await page.locator("section.preview tbody tr").count(), 2, "preview rows for 2 installments");
    await fillLinkForm(page, 3, ["PIX", "BOLETO"]);
    await submitButton(page, "fullName").click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/, { timeout: WAIT });
    await checkCodes(page, 10000);
    assertEqual(s.problems.filter((p) => !p.startsWith("request failed")), [], "console problems (hydration warnings among them)");
  }, { login: false }));

test("link page: what the browser leaves to the server (each installment at least R$ 5,00; a forged amount below the minimum) comes back from the server on its field, with and without JavaScript", async () => {
  // The payer states the amount: R$ 6,00 in 3 installments passes the payer's own choices,
  // which the island checks, but not the invoice's rule, which only the server runs.
  const slug = "valor-livre";
  execFileSync(BIN, [
    "link", "create", "--name", "Doação", "--description", "Valor livre", "--price-by-customer",
    "--payment-types", "PIX", "--invoice-type", "INSTALLMENT", "--max-installments", "3", "--slug", slug,
    "--db", join(server.dir, "e2e.db"), "--public-url", server.url,
  ]);
  const fill = async (page, price, count) => {
    await fillCustomer(page, CUSTOMER);
    await byName(page, "price").fill(price);
    await byName(page, "installmentCount").selectOption(count);
  };
  const noJs = await openPage(browser, { login: false, javaScriptEnabled: false });
  try {
    const { page } = noJs;
    await page.goto(`${server.url}/l/${slug}`);
    await fill(page, "6,00", "3");
    await submitButton(page, "fullName").click();
    await page.waitForURL(`${server.url}/l/${slug}`);
    await expectFieldError(page, "installmentCount", null);
    assertEqual(await invalidNames(page), ["installmentCount"], "only the installment count is marked");
  } finally {
    await noJs.close();
  }
  await withPage(async (s) => {
    const { page } = s;
    await page.goto(`${server.url}/l/${slug}`);
    const name = byName(page, "fullName");
    await until(async () => {
      await name.focus();
      await byName(page, "document").focus();
      return (await name.getAttribute("aria-invalid")) === "true";
    }, "the island hydrated");
    await fill(page, "6,00", "3");
    const refused = page.waitForResponse(isApi("POST", `/api/links/${slug}/invoices`), { timeout: WAIT });
    await submitButton(page, "fullName").click();
    const res = await refused;
    assertEqual(res.status(), 422, "the server refuses the invoice");
    assertEqual(Object.keys(res.request().postDataJSON()).sort(), ["customerId", "installmentCount", "paymentTypes", "price"], "the island sends only the payer's fields");
    const message = (await res.json()).errors.installmentCount.join(" ");
    await expectFieldError(page, "installmentCount", message);
    // A forged request: the amount the island checked, rewritten below the minimum on its way.
    await page.route(`**/api/links/${slug}/invoices`, (route) =>
      route.continue({ postData: JSON.stringify({ ...route.request().postDataJSON(), price: 1.0, installmentCount: 1 }) }));
    await byName(page, "installmentCount").selectOption("1");
    const forged = page.waitForResponse(isApi("POST", `/api/links/${slug}/invoices`), { timeout: WAIT });
    await submitButton(page, "fullName").click();
    const f = await forged;
    assertEqual(f.status(), 422, "the server refuses the forged amount");
    await expectFieldError(page, "price", (await f.json()).errors.price.join(" "));
    assertEqual(s.problems.filter((p) => !p.startsWith("request failed") && !p.includes("status of 422")), [], "console problems");
  }, { login: false });
});

test("live: the detail and the payer page turn to paid after `paylink simulate pay`, without a reload", async () => {
  const a = await openPage(browser);
  const b = await openPage(browser);
  try {
    const inv = await apiCreate(
      { fullName: "Joana Live" },
      { externalId: "e2e-live", dueDate: dayOfMonth(3, 10), paymentTypes: ["PIX"], installmentCount: 1, price: 42.5, redirectTo: `${server.url}/?from=paylink` },
    );
    await a.page.goto(`${server.url}/invoices/${inv.id}`);
    await b.page.goto(`${server.url}/pay/${inv.id}`);
    await b.page.locator("[data-pix-payload]").waitFor({ timeout: WAIT });
    await readInstallments(a.page);
    // A mark that a reload would wipe out.
    for (const p of [a.page, b.page]) await p.evaluate(() => (window.__stillHere = true));
    // What a host page listens to.
    await b.page.evaluate(() => {
      window.__paid = [];
      document.addEventListener("paylink:paid", (e) => window.__paid.push(e.detail));
    });

    // The payment arrives from outside the browser: the CLI, on the server's database.
    execFileSync(BIN, ["simulate", "pay", inv.id, "--db", join(server.dir, "e2e.db")]);

    await b.page.getByText(/Todas as parcelas estão pagas/).waitFor({ timeout: WAIT });
    assertEqual(await b.page.locator("[data-pix-payload]").isVisible(), false, "PIX code shown after payment");
    const statusCell = a.page.getByRole("table", { name: /^Parcelas$/ }).locator("tbody tr").first();
    await until(async () => /Pago/.test(await statusCell.textContent()), "the detail's installment shows Pago", async () => statusCell.textContent());
    for (const p of [a.page, b.page]) assertEqual(await p.evaluate(() => window.__stillHere === true), true, "no reload happened");
    assertEqual(await b.page.evaluate(() => window.__paid), [{ invoiceId: inv.id, installment: 1, allPaid: true }], "paylink:paid events");
    // Then the payer goes back to the merchant's site (redirectTo).
    await b.page.waitForURL(/from=paylink/, { timeout: WAIT });
  } finally {
    await a.close();
    await b.close();
  }
});


// ---------------------------------------------------------------- payment links, embedded

/** The merchant page's paylink:* events so far (examples/merchant/shop.js records them). */
const shopEvents = (page) => page.evaluate(() => window.paylinkEvents ?? []);

/** Waits for a paylink:* event of `type` on the merchant page and returns its record. */
async function shopEvent(page, type) {
  let seen = [];
  return until(
    async () => (seen = await shopEvents(page)).find((e) => e.type === type),
    `a ${type} event on the merchant page`,
    async () => JSON.stringify(seen),
  );
}

/** The Frame of the payment link's iframe. */
async function linkFrame(page) {
  return until(() => page.frames().find((f) => new URL(f.url()).origin === server.url && f !== page.mainFrame()), "the paylink iframe");
}

/** The iframe's height and its document's: fitted when the frame is as tall as the widget and nothing scrolls inside. */
async function frameFit(page, frame) {
  const outer = await page.locator("iframe").first().evaluate((e) => e.getBoundingClientRect().height);
  const inner = await frame.evaluate(() => ({
    widget: document.querySelector(".paylink-widget").getBoundingClientRect().height,
    scrollHeight: document.documentElement.scrollHeight,
    clientHeight: document.documentElement.clientHeight,
  }));
  return { outer, ...inner, fitted: inner.scrollHeight <= inner.clientHeight && Math.abs(outer - Math.ceil(inner.widget)) <= 1 };
}

async function waitFitted(page, frame, what, extra = () => true) {
  let fit;
  await until(async () => (fit = await frameFit(page, frame)).fitted && extra(fit), what, async () => JSON.stringify(fit));
  return fit;
}

/** The payer's side of the link page, in `root` (a page or a frame): the customer, installments, PIX + boleto. */
async function fillLinkForm(root, installments, types = ["PIX", "BOLETO"]) {
  await fillCustomer(root, CUSTOMER);
  await byName(root, "installmentCount").selectOption(String(installments));
  for (const t of ["PIX", "BOLETO"]) {
    const box = root.locator(`input[type="checkbox"][name="paymentTypes"][value="${t}"]`);
    if (types.includes(t)) await box.check();
    else await box.uncheck();
  }
}

/** Checks the payer page's PIX and boleto codes in `root` for an installment of `cents`. */
async function checkCodes(root, cents) {
  const pix = root.locator("[data-pix-payload]");
  await pix.first().waitFor({ timeout: WAIT });
  const f = decodeBrCode((await pix.textContent()).trim());
  assertEqual([f["00"], f["53"], f["54"], f["58"]], ["01", "986", (cents / 100).toFixed(2), "BR"], "BR Code fields");
  assertEqual(await root.locator(".qr svg").count(), 1, "a QR code drawn for the PIX code");
  const line = root.locator("[data-boleto-line]");
  if ((await line.count()) > 0) {
    const digits = (await line.textContent()).replace(/\D/g, "");
    assertEqual(digits.length, 47, "linha digitável length");
    for (const [from, to] of [[0, 9], [10, 20], [21, 31]]) {
      assertEqual(Number(digits[to]), mod10(digits.slice(from, to)), `check digit of field ${digits.slice(from, to)}`);
    }
    assertEqual(digits.slice(37), String(cents).padStart(10, "0"), "boleto value");
  }
}

test("payment links screen: a link made on the screen (its live errors first) is shared (URL, snippets, a QR that scans) and paid through on its page; the list counts it; axe at 1280 and 375 px", () =>
  withPage(async (s) => {
    const { page } = s;
    const tag = randomUUID().slice(0, 8);
    const slug = `curso-e2e-${tag}`;
    const name = `Curso E2E ${tag}`;
    await page.goto(server.url + "/links");
    await page.getByRole("heading", { name: "Links de pagamento", level: 1 }).waitFor({ timeout: WAIT });
    assertEqual(await page.getByRole("navigation", { name: "Navegação" }).getByRole("link", { name: "Links de pagamento" }).getAttribute("aria-current"), "page", "the nav marks the links screen");
    // The model's rules as the merchant types: a name left empty, an amount below R$ 5,00.
    await byName(page, "name").focus();
    await byName(page, "slug").focus();
    await expectFieldError(page, "name", "Campo obrigatório.");
    await byName(page, "price").fill("4,99");
    await byName(page, "description").focus();
    await expectFieldError(page, "price", "O valor mínimo é R$ 5,00.");
    const before = s.api.filter((r) => r.method === "POST").length;
    await page.locator('#link-form button[type="submit"]').click();
    assertEqual(s.api.filter((r) => r.method === "POST").length, before, "nothing sent with errors");
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      const found = await axeViolations(page, `links screen with errors at ${width}px`);
      assertEqual(found, [], `axe-core violations (any impact) at ${width}px (form with errors)`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await byName(page, "name").fill(name);
    await byName(page, "slug").fill(slug);
    await byName(page, "description").fill("Acesso por 12 meses");
    await byName(page, "price").fill("200,00");
    await byName(page, "invoiceType").selectOption("INSTALLMENT");
    await byName(page, "maxInstallments").fill("2");
    const created = page.waitForResponse(isApi("POST", "/api/payment-links"), { timeout: WAIT });
    await page.locator('#link-form button[type="submit"]').click();
    const res = await created;
    assertEqual(res.status(), 201, "the link is created");
    const url = `${server.url}/l/${slug}`;
    assertEqual((await json(res)).url, url, "its page");
    await page.getByRole("status").filter({ hasText: `Link ${name} criado.` }).waitFor({ timeout: WAIT });

    // Shared: the URL copied, both snippets on screen, a QR code that scans to the URL.
    const title = page.locator("#share-title");
    await title.waitFor({ timeout: WAIT });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copiar endereço" }).click();
    await page.getByRole("status").filter({ hasText: "Copiado." }).first().waitFor({ timeout: WAIT });
    assertEqual(await page.evaluate(() => navigator.clipboard.readText()), url, "the copied URL");
    const iframe = await page.getByLabel("Na sua página, em um quadro (embed.js)").inputValue();
    assertEqual(iframe, `<script src="${server.url}/embed.js" data-paylink-link="${slug}" async></script>`, "the iframe snippet");
    const mount = await page.getByLabel("Na sua página, sem quadro (mount())").inputValue();
    assert(mount.includes(`import { mount } from "${server.url}/mount.js";`) && mount.includes(`link: "${slug}"`), `the mount() snippet: ${mount}`);
    const svg = await page.locator(".link-qr svg").evaluate((e) => e.outerHTML);
    assertEqual(await scanQr(page, svg), url, "the QR code scans to the link");
    // Printing shows the QR code and the URL only.
    await page.emulateMedia({ media: "print" });
    const printed = await page.evaluate(() => {
      const out = [];
      const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const el = n.parentElement;
        const text = n.textContent.trim();
        if (text && el && getComputedStyle(el).visibility === "visible" && el.getClientRects().length > 0) out.push(text);
      }
      return out;
    });
    assertEqual(printed, [name, url], "what prints: the link's name and URL (and its QR code)");
    assert(await page.locator(".link-qr svg").evaluate((e) => getComputedStyle(e).visibility === "visible"), "the QR code prints");
    await page.emulateMedia({ media: "screen" });
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      const found = await axeViolations(page, `links screen with a link shared at ${width}px`);
      assertEqual(found, [], `axe-core violations (any impact) at ${width}px`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // A payer pays through it: the link page's form, the payer page, the sandbox payment.
    await page.goto(url);
    // Typed once its island has hydrated (it would otherwise draw its empty values over the typing).
    await until(async () => {
      await byName(page, "fullName").focus();
      await byName(page, "document").focus();
      return (await byName(page, "fullName").getAttribute("aria-invalid")) === "true";
    }, "the link page's form hydrated");
    await fillLinkForm(page, 2, ["PIX"]);
    await submitButton(page, "fullName").click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/, { timeout: WAIT });
    await checkCodes(page, 10000);
    const paid = page.waitForResponse((r) => r.url().includes("/simulate") && r.request().method() === "POST", { timeout: WAIT });
    await page.getByRole("button", { name: /Simular pagamento/ }).click();
    assert((await paid).status() < 400, "the sandbox payment");
    // With a second installment to go, the payer page reloads itself; navigating before that
    // reload has landed would race it (the goto below was sometimes interrupted by it).
    await until(async () => (await page.locator("main").textContent().catch(() => "")).includes("Parcela 2 ·"), "the payer page shows installment 2 after the payment");

    // The list counts the invoice and what was paid on it.
    await page.goto(server.url + "/links");
    const row = page.locator("table tbody tr", { hasText: `/l/${slug}` });
    await row.waitFor({ timeout: WAIT });
    const cells = async () => (await row.locator("th, td").allTextContents()).map((t) => t.trim());
    await until(async () => (await cells())[5] === "R$ 100,00", "R$ 100,00 paid", async () => JSON.stringify(await cells()));
    assertEqual((await cells()).slice(1, 6), ["R$ 200,00", "Parcelado em até 2x", "Sim", "1", "R$ 100,00"], "the link's row");
    // Deactivated, its page is gone; reactivated, it is back.
    await row.getByRole("button", { name: `Desativar o link ${name}` }).click();
    await page.getByRole("status").filter({ hasText: `Link ${name} desativado.` }).waitFor({ timeout: WAIT });
    assertEqual((await fetch(`${server.url}/api/links/${slug}`)).status, 404, "a deactivated link's page");
    await row.getByRole("button", { name: `Reativar o link ${name}` }).click();
    await page.getByRole("status").filter({ hasText: `Link ${name} reativado.` }).waitFor({ timeout: WAIT });
    assertEqual((await fetch(`${server.url}/api/links/${slug}`)).status, 200, "reactivated");
    // axe is injected as an inline script, which the pages' CSP rightly forbids: let the test through.
  }, { bypassCSP: true }));

test("embed.js: a merchant page on another origin gets the link in an iframe that fits its content; the payer pays; the page hears every event", () =>
  withPage(async (s) => {
    const { page } = s;
    // Every height the frame ever has, from the moment embed.js adds it.
    await page.addInitScript(() => {
      window.__frameHeights = [];
      new MutationObserver(() => {
        const f = document.querySelector("iframe");
        if (f && !f.__watched) {
          f.__watched = true;
          window.__frameHeights.push(f.getBoundingClientRect().height);
          new ResizeObserver(() => window.__frameHeights.push(f.getBoundingClientRect().height)).observe(f);
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${MERCHANT}/index.html`);
    const iframe = page.locator("iframe");
    await iframe.waitFor({ timeout: WAIT });
    assertEqual([await iframe.getAttribute("title"), await iframe.getAttribute("lang")], ["Pagamento", "pt-BR"], "iframe title and lang");
    const src = new URL(await iframe.getAttribute("src"));
    assertEqual([src.origin, src.pathname, src.searchParams.get("parent")], [server.url, `/l/${LINK}`, MERCHANT], "iframe src");

    const ready = await shopEvent(page, "paylink:ready");
    assertEqual(ready.detail, { link: LINK }, "paylink:ready detail");
    const frame = await linkFrame(page);
    await frame.getByRole("heading", { name: "Curso de Rust" }).waitFor({ timeout: WAIT });
    const first = await waitFitted(page, frame, "the frame fits the link form");
    // The theme from data-paylink-theme-* reached the widget.
    assertEqual(await frame.evaluate(() => getComputedStyle(document.querySelector(".paylink-widget")).getPropertyValue("--paylink-primary").trim()), "#8a3b12", "theme primary");

    // Errors make the form taller: the frame follows, still without an inner scrollbar.
    await submitButton(frame, "fullName").click();
    await expectFieldError(frame, "fullName", null);
    const withErrors = await waitFitted(page, frame, "the frame grows with the error messages", (f) => f.outer > first.outer);

    // The payer fills it in: 3 installments of R$ 100,00, PIX and boleto.
    await fillLinkForm(frame, 3);
    const preview = await frame.getByRole("table").locator("tbody tr").allTextContents();
    assertEqual(preview.length, 3, "installment preview rows");
    const customerRes = page.waitForResponse(isApi("POST", `/api/links/${LINK}/customers`), { timeout: WAIT });
    const invoiceRes = page.waitForResponse(isApi("POST", `/api/links/${LINK}/invoices`), { timeout: WAIT });
    await submitButton(frame, "fullName").click();
    // Together: a failed wait must not leave the other one's rejection unhandled.
    const [cres, ires] = await Promise.all([customerRes, invoiceRes]);
    assertEqual([cres.status(), ires.status()], [201, 200], "POST customers and invoices through the link");
    // What was created, as the merchant's page heard it (the frame goes on to the payer page at
    // once, and a response's body is gone with the page that asked).
    const customer = (await shopEvent(page, "paylink:customer-created")).detail;
    const created = (await shopEvent(page, "paylink:invoice-created")).detail;
    const sent = JSON.parse(ires.request().postData());
    assertEqual([sent.customerId, sent.installmentCount, sent.paymentTypes], [customer.id, 3, ["PIX", "BOLETO"]], "invoice request from the iframe");

    // The payer page, in the frame: a scannable PIX code and a valid boleto line for R$ 100,00.
    await checkCodes(frame, 10000);
    assertEqual(new URL(frame.url()).pathname, `/pay/${created.id}`, "the frame moved to the payer page");
    // The server's HTML has the codes at once; the theme rides in the fragment, which only the
    // page's island reads, once it has hydrated.
    const primary = () => frame.evaluate(() => getComputedStyle(document.querySelector(".paylink-widget")).getPropertyValue("--paylink-primary").trim());
    await until(async () => (await primary()) === "#8a3b12", "the theme on the payer page too", async () => JSON.stringify(await primary()));
    assertEqual(new URL(page.url()).pathname, "/index.html", "the merchant page stayed");
    await waitFitted(page, frame, "the frame fits the payer page", (f) => f.outer !== withErrors.outer);

    // Sandbox payment of installment 1: paylink:paid reaches the merchant page.
    await frame.getByRole("button", { name: /Simular pagamento/ }).click();
    await shopEvent(page, "paylink:paid");
    const events = await shopEvents(page);
    assertEqual(
      events.map((e) => [e.type, e.detail]),
      [
        ["paylink:ready", { link: LINK }],
        ["paylink:customer-created", { id: customer.id }],
        ["paylink:invoice-created", { id: created.id, url: created.url, externalId: created.externalId }],
        ["paylink:paid", { invoiceId: created.id, installment: 1, allPaid: false }],
      ],
      "events on the merchant page, in order",
    );
    assert(created.externalId, "the invoice has an externalId");
    // The skeleton: from the start, never the 2 px or 150 px frame of an empty iframe.
    const heights = await page.evaluate(() => window.__frameHeights);
    assert(heights.length > 2 && Math.min(...heights) >= 300, `frame heights while loading and after: ${JSON.stringify(heights)}`);
  }));

test("direct mount: mount.js in a merchant page with the README's CSP; the widget calls the proxy cross-origin; events on the element", () =>
  withPage(async (s) => {
    const { page } = s;
    await page.goto(`${MERCHANT}/mount.html`);
    const ready = await shopEvent(page, "paylink:ready");
    assertEqual([ready.target, ready.detail], ["checkout", { link: LINK }], "paylink:ready, dispatched on the mount element");
    const root = page.locator("#checkout .paylink-widget");
    await root.getByRole("heading", { name: "Curso de Rust" }).waitFor({ timeout: WAIT });
    // Options: prefill, theme; and the merchant's own styles are untouched.
    assertEqual(await byName(page, "email").inputValue(), "cliente@example.com", "prefilled e-mail");
    assertEqual(await root.evaluate((e) => getComputedStyle(e).getPropertyValue("--paylink-primary").trim()), "#8a3b12", "theme primary");
    assertEqual(
      await page.evaluate(() => [getComputedStyle(document.querySelector("main > h1")).fontFamily, getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).margin]),
      ["Georgia, serif", "rgb(255, 250, 242)", "0px"],
      "the merchant's own styles",
    );

    await fillLinkForm(page, 2, ["PIX"]);
    const customerRes = page.waitForResponse(isApi("POST", `/api/links/${LINK}/customers`), { timeout: WAIT });
    const invoiceRes = page.waitForResponse(isApi("POST", `/api/links/${LINK}/invoices`), { timeout: WAIT });
    await submitButton(page, "fullName").click();
    const [cres, ires] = await Promise.all([customerRes, invoiceRes]);
    assertEqual(new URL(cres.url()).origin, server.url, "the proxy is called on paylink's origin");
    assertEqual((await cres.request().allHeaders()).origin, MERCHANT, "cross-origin request from the merchant page");
    assertEqual([cres.status(), (await cres.allHeaders())["access-control-allow-origin"]], [201, MERCHANT], "CORS answer for an allowed origin");
    const created = await json(ires);
    assertEqual(ires.status(), 200, `POST invoices (${JSON.stringify(created).slice(0, 300)})`);
    const inv = await shopEvent(page, "paylink:invoice-created");
    assertEqual([inv.target, inv.detail], ["checkout", { id: created.id, url: created.url, externalId: created.externalId }], "paylink:invoice-created");

    // The payer page inside the element; the merchant's URL and history are untouched.
    await checkCodes(page, 15000);
    assertEqual(await page.locator("[data-boleto-line]").count(), 0, "no boleto line when only PIX was chosen");
    assertEqual(new URL(page.url()).pathname, "/mount.html", "the merchant's URL");
    // Its plain forms (what a click does before hydration) post to paylink, not to the merchant.
    const actions = await page.locator("#checkout form").evaluateAll((fs) => fs.map((f) => new URL(f.action).origin));
    assert(actions.length > 0 && actions.every((o) => o === server.url), `the payer page's form actions: ${actions}`);
    // The payer page's islands come with its own bundle, loaded now: mount.js keeps the element
    // aria-busy until they are hydrated (a click before would post the server's plain form).
    await page.locator("#checkout:not([aria-busy])").waitFor({ timeout: WAIT });
    await page.getByRole("button", { name: /Simular pagamento/ }).click();
    const paid = await shopEvent(page, "paylink:paid");
    assertEqual([paid.target, paid.detail], ["checkout", { invoiceId: created.id, installment: 1, allPaid: false }], "paylink:paid");
    // The README's CSP was enough: nothing was refused.
    assertEqual(s.problems.filter((p) => /Content Security Policy|Refused/i.test(p)), [], "CSP violations");
  }));

test("no idle time: a frame the browser never gives an idle period (a cross-origin iframe until the payer clicks into it) still hydrates, fits and says it is ready", () =>
  withPage(async (s) => {
    const { page } = s;
    // In every frame: an idle callback comes only when asked with a timeout, as a starved frame's does.
    await page.addInitScript(() => {
      window.requestIdleCallback = (cb, o) =>
        o && o.timeout ? setTimeout(() => cb({ didTimeout: true, timeRemaining: () => 0 }), o.timeout) : 0;
    });
    await page.goto(`${MERCHANT}/index.html`);
    await shopEvent(page, "paylink:ready");
    const frame = await linkFrame(page);
    await frame.getByRole("heading", { name: "Curso de Rust" }).waitFor({ timeout: WAIT });
    await waitFitted(page, frame, "the frame fits the link form");
  }));

test("foreign origin: forged messages to the merchant page and to the widget are ignored; the real parent's are not", () =>
  withPage(async (s) => {
    const { page } = s;
    await page.goto(`${MERCHANT}/index.html`);
    await shopEvent(page, "paylink:ready");
    const frame = await linkFrame(page);
    const label = frame.locator('label[for="f-fullName"]');
    await label.waitFor({ timeout: WAIT });
    const fit = await waitFitted(page, frame, "the frame fits the link form");
    const before = (await shopEvents(page)).length;

    // A stranger's page (third origin) inside the merchant page forges both directions; the
    // merchant page's own window forges one too (right origin, but not the widget's frame).
    await page.evaluate((src) => {
      const f = document.createElement("iframe");
      f.src = src;
      f.id = "stranger";
      document.body.append(f);
      window.postMessage({ source: "paylink", type: "paylink:paid", detail: { invoiceId: "forged-here" } }, "*");
    }, `${THIRD}/stranger.html`);
    const stranger = await until(() => page.frames().find((f) => f.url().startsWith(THIRD)), "the stranger's frame");
    await until(() => stranger.evaluate(() => document.title === "sent"), "the stranger's messages were sent");
    await page.waitForTimeout(500);
    assertEqual((await shopEvents(page)).slice(before), [], "events after forged messages");
    assertEqual(Math.round((await frameFit(page, frame)).outer), Math.round(fit.outer), "frame height after a forged resize");
    assertEqual([await frame.evaluate(() => document.documentElement.lang), (await label.textContent()).trim()], ["pt-BR", "Nome completo *"], "widget language after a forged options message");

    // The same message from the real parent, through embed.js, is obeyed.
    await page.evaluate(() => document.querySelector("iframe:not(#stranger)").parentElement.paylinkOptions({ locale: "en" }));
    await until(async () => (await label.textContent()).trim() === "Full name *", "the widget switched to English on its parent's message", async () => label.textContent());
  }));

test("a tampered invoice through the link is refused with a 422 envelope (price, terms), the honest one is accepted", async () => {
  const headers = { "Content-Type": "application/json", Origin: MERCHANT };
  const post = async (path, body) => {
    const r = await fetch(server.url + path, { method: "POST", headers, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() };
  };
  const link = await (await fetch(`${server.url}/api/links/${LINK}`)).json();
  assertEqual([link.price, link.maxInstallments, link.invoiceType], [300, 3, "INSTALLMENT"], "the link as served");
  const c = await post(`/api/links/${LINK}/customers`, { fullName: "Paula Preço", document: "52998224725" });
  assertEqual(c.status, 201, `customer through the link: ${JSON.stringify(c.body)}`);
  const honest = { customerId: c.body.id, paymentTypes: ["PIX"], installmentCount: 3, price: 300 };
  for (const [what, change, field] of [
    ["a lower price", { price: 1.0 }, "price"],
    ["more installments", { installmentCount: 12 }, "installmentCount"],
    ["another due date", { dueDate: "2099-01-01" }, "dueDate"],
  ]) {
    const r = await post(`/api/links/${LINK}/invoices`, { ...honest, ...change });
    assertEqual([r.status, r.body.code], [422, 422], `${what}: status and envelope code`);
    assert(Array.isArray(r.body.errors?.[field]) && r.body.errors[field].length > 0, `${what}: errors.${field} in ${JSON.stringify(r.body)}`);
  }
  const ok = await post(`/api/links/${LINK}/invoices`, honest);
  assertEqual(ok.status, 200, `the honest request: ${JSON.stringify(ok.body).slice(0, 300)}`);
});

test("static host: dist/ served from another origin finds its proxy in config.json", () =>
  withPage(async (s) => {
    const { page } = s;
    // The merchant's app asks the proxy for the operator's session at once: on another origin
    // (no session cookie there) the proxy named by config.json answers 401, and the login shows.
    const session = page.waitForResponse((r) => r.url() === `${server.url}/api/session`, { timeout: WAIT });
    await page.goto(`${THIRD}/`);
    assertEqual((await session).status(), 401, "GET /api/session on the proxy named by config.json");
    await page.getByRole("heading", { name: "Entrar" }).waitFor({ timeout: WAIT });
  }, { login: false }));

/** paylink's page cannot start (`repair` undoes what broke it): an alert says so and there is no
 * form; once repaired, the alert's reload link brings the form back. */
async function expectAlertThenRecovery(page, what, repair) {
  await page.goto(`${server.url}/`);
  const alert = page.getByRole("alert");
  await alert.waitFor({ timeout: WAIT });
  const said = await alert.textContent();
  assert(said.includes("Não foi possível carregar o paylink"), `${what}: the alert reads ${JSON.stringify(said)}`);
  assertEqual(await page.locator('[name="fullName"]').count(), 0, `${what}: no form`);
  await repair();
  await alert.getByRole("link", { name: "recarregue a página" }).click();
  await page.locator('[name="fullName"]').waitFor({ timeout: WAIT });
  assertEqual(await page.getByRole("alert").count(), 0, `${what} back: the alert is gone after the reload`);
}

test("start-up: the page's glue is inline and fetches one content-hashed wasm file (preloaded, brotli, a year of cache), compiled while it streams in; \"Carregando…\" until it is in; when it cannot load or is not valid, an alert says so and its reload link recovers; served with another type it still starts", () =>
  withPage(async (s) => {
    const { page } = s;
    // Which WebAssembly API compiled the module: streaming is the point of the separate file.
    await page.addInitScript(() => {
      window.__wasmApis = [];
      for (const api of ["instantiateStreaming", "compileStreaming", "instantiate", "compile"]) {
        const orig = WebAssembly[api];
        WebAssembly[api] = function (...args) {
          window.__wasmApis.push(api);
          return orig.apply(this, args);
        };
      }
    });
    const wasmResponses = [];
    page.on("response", (r) => {
      if (new URL(r.url()).pathname.endsWith(".wasm")) wasmResponses.push(r);
    });
    const pageRes = await page.goto(`${server.url}/`);
    await page.locator('[name="fullName"]').waitFor({ timeout: WAIT });
    assertEqual(await page.locator(".paylink-boot").count(), 0, "placeholders left once the widget is mounted");
    // One request for the wasm: the preload's response is the one the glue's fetch uses.
    assertEqual(wasmResponses.map((r) => new URL(r.url()).pathname.replace(/[0-9a-f]{12,16}/, "HASH")), ["/paylink-widget-HASH_bg.wasm"], "wasm files requested by paylink's page");
    const wasm = await wasmResponses[0].allHeaders();
    assertEqual(
      [wasm["content-type"], wasm["content-encoding"], wasm["cache-control"]],
      ["application/wasm", "br", "public, max-age=31536000, immutable"],
      "the wasm's type, encoding and cache",
    );
    assertEqual(await page.evaluate(() => window.__wasmApis), ["instantiateStreaming"], "WebAssembly APIs the page called");
    // The page has no script file of its own (the glue is inline), and its CSP allows no inline script but its own.
    const scripts = await page.evaluate(() => [...document.scripts].map((e) => e.src).filter(Boolean));
    assertEqual(scripts, [], "script files loaded by the page");
    const scriptSrc = (await pageRes.allHeaders())["content-security-policy"].split(";").find((d) => d.trim().startsWith("script-src"));
    assert(/'sha256-/.test(scriptSrc) && !scriptSrc.includes("unsafe-inline"), `the page's script-src: ${scriptSrc}`);
    // The widget translates itself: browsers are asked not to machine-translate the page.
    assertEqual(
      await page.evaluate(() => [document.documentElement.translate, document.querySelector(".paylink-widget").translate]),
      [false, false],
      "translate of <html> and of the widget's root",
    );

    const pattern = /_bg\.wasm$/;
    // On a slow network the placeholder's text shows, and the form replaces it once the wasm is in.
    await page.route(pattern, async (r) => {
      await new Promise((done) => setTimeout(done, 1500));
      await r.continue();
    });
    await page.goto(`${server.url}/`);
    await page.getByRole("status").filter({ hasText: "Carregando…" }).waitFor({ timeout: WAIT });
    await page.locator('[name="fullName"]').waitFor({ timeout: WAIT });
    assertEqual(await page.locator(".paylink-boot").count(), 0, "placeholders left once the slow widget is mounted");
    await page.unroute(pattern);

    for (const [what, answer] of [
      ["the wasm blocked", (r) => r.abort()],
      // A proxy or a truncated download can hand over something that is not a wasm module.
      ["a wasm that is not valid", (r) => r.fulfill({ status: 200, contentType: "application/wasm", body: Buffer.from("not a wasm module") })],
      ["the wasm missing", (r) => r.fulfill({ status: 404, contentType: "text/plain", body: "not found" })],
    ]) {
      await page.route(pattern, answer);
      await expectAlertThenRecovery(page, what, () => page.unroute(pattern));
    }

    // A static host that serves the wasm with another type (which compileStreaming refuses):
    // the page compiles it without streaming, and the widget starts all the same.
    await page.route(pattern, async (r) => {
      const res = await r.fetch();
      const headers = Object.fromEntries(Object.entries(res.headers()).filter(([k]) => !["content-type", "content-encoding", "content-length"].includes(k)));
      await r.fulfill({ status: res.status(), headers: { ...headers, "content-type": "application/octet-stream" }, body: await res.body() });
    });
    await page.goto(`${server.url}/`);
    await page.locator('[name="fullName"]').waitFor({ timeout: WAIT });
    await page.locator('[name="document"]').fill("52998224725");
    assertEqual(await page.locator('[name="document"]').inputValue(), "529.982.247-25", "the CPF mask, with the wasm served as application/octet-stream");
    await page.unroute(pattern);
  }));

test("paylink:error: an unknown link is critical (not_found); a refused creation is not (rate_limited), and the payer sees why", () =>
  withPage(async (s) => {
    const { page } = s;
    await page.goto(`${MERCHANT}/unknown-link.html`);
    const err = await shopEvent(page, "paylink:error");
    assertEqual([err.detail.severity, err.detail.cause], ["critical", "not_found"], "paylink:error for an unknown link");
    assert(typeof err.detail.message === "string" && err.detail.message.length > 0, `message: ${JSON.stringify(err.detail)}`);
    const frame = await linkFrame(page);
    await until(
      async () => (await frame.locator('[role="alert"]').textContent().catch(() => "")).trim() === err.detail.message,
      "the widget shows the same message",
      () => frame.evaluate(() => document.body.innerHTML.slice(0, 500)),
    );
    await waitFitted(page, frame, "the frame fits the error");

    // The proxy's budget is spent (a 429 envelope, as the rate limiter answers).
    const message = "Muitas requisições: tente de novo em 60 s.";
    await page.route(`${server.url}/api/links/${LINK}/invoices`, (route) =>
      route.fulfill({ status: 429, contentType: "application/json", headers: { "Access-Control-Allow-Origin": MERCHANT, "Retry-After": "60" }, body: JSON.stringify({ code: 429, message }) }),
    );
    await page.goto(`${MERCHANT}/mount.html`);
    await shopEvent(page, "paylink:ready");
    await fillLinkForm(page, 1, ["PIX"]);
    await submitButton(page, "fullName").click();
    const refused = await shopEvent(page, "paylink:error");
    assertEqual(refused.detail, { severity: "non_critical", cause: "rate_limited", message }, "paylink:error for a refused creation");
    await until(async () => (await page.getByRole("alert").textContent().catch(() => "")).includes(message), "the envelope's message in the form's alert");
  }));

test("accessibility: axe-core finds no WCAG 2.1 A/AA violation on the link page (with errors) and the directly mounted widget", () =>
  withPage(async (s) => {
    const { page } = s;
    const found = [];
    await page.goto(`${server.url}/l/${LINK}`);
    await byName(page, "fullName").waitFor({ timeout: WAIT });
    found.push(...(await axeViolations(page, "link page")));
    await submitButton(page, "fullName").click();
    await expectFieldError(page, "fullName", null);
    found.push(...(await axeViolations(page, "link page with errors")));
    await page.goto(`${MERCHANT}/mount.html`);
    await byName(page, "fullName").waitFor({ timeout: WAIT });
    found.push(...(await axeViolations(page, "mounted link page")));
    assertEqual(found, [], "axe-core violations");
  }, { bypassCSP: true }));

// ---------------------------------------------------------------- main

const closers = [];

async function main() {
  let failed = 0;
  let passed = 0;
  try {
    const here = dirname(fileURLToPath(import.meta.url));
    // Ports first: paylink must know the other origins before it starts.
    let paylinkUrl = "";
    const merchantPages = {};
    const merchant = await startStatic({ root: resolve(here, "../../examples/merchant"), pages: merchantPages, rewrite: () => [["http://127.0.0.1:8080", paylinkUrl]] });
    const thirdPages = {
      "/config.json": { type: "application/json", body: "{}" },
        // A stranger's page: forges widget events to its parent and options to the widget.
        "/stranger.html": {
          body: `<!DOCTYPE html><title>stranger</title><script>
            parent.postMessage({ source: "paylink", type: "paylink:paid", detail: { invoiceId: "forged" } }, "*");
            parent.postMessage({ source: "paylink", type: "resize", height: 3 }, "*");
            parent.frames[0].postMessage({ source: "paylink", type: "options", options: { locale: "en" } }, "*");
            document.title = "sent";
          </script>`,
      },
    };
    const third = await startStatic({ root: DIST, fallback: "index.html", pages: thirdPages });
    closers.push(merchant.close, third.close);
    MERCHANT = `http://localhost:${merchant.port}`;
    THIRD = `http://localhost:${third.port}`;
    server = await startPaylink({ bin: BIN, dist: DIST, args: ["--allowed-origin", MERCHANT, "--allowed-origin", THIRD] });
    paylinkUrl = server.url;
    thirdPages["/config.json"].body = JSON.stringify({ proxy: server.url });
    merchantPages["/unknown-link.html"] = {
      body: `<!DOCTYPE html><html lang="pt-BR"><title>unknown link</title><script src="shop.js"></script>
        <script src="${server.url}/embed.js" data-paylink-link="no-such-link" async></script><ol id="events"></ol></html>`,
    };
    execFileSync(BIN, [
      "link", "create", "--name", "Curso de Rust", "--description", "Acesso por 12 meses", "--price", "300.00",
      "--payment-types", "PIX,BOLETO", "--invoice-type", "INSTALLMENT", "--max-installments", "3", "--slug", LINK,
      "--db", join(server.dir, "e2e.db"), "--public-url", server.url,
    ]);
    browser = await launchBrowser();
    console.log(`paylink e2e: ${server.url}, Chromium ${browser.version()}`);
    // PAYLINK_E2E_ONLY=regex runs only the tests whose name matches (while working on them).
    const only = process.env.PAYLINK_E2E_ONLY ? new RegExp(process.env.PAYLINK_E2E_ONLY, "i") : null;
    for (const t of tests.filter((t) => !only || only.test(t.name))) {
      const start = Date.now();
      try {
        await withTimeout(t.fn(), TEST_TIMEOUT, t.name);
        passed++;
        console.log(`ok     ${t.name} (${Date.now() - start} ms)`);
      } catch (e) {
        failed++;
        console.log(`FAILED ${t.name} (${Date.now() - start} ms)`);
        console.log("    " + String(e?.stack ?? e).split("\n").join("\n    "));
        if (e?.problems?.length) console.log("    browser reported:\n      " + e.problems.slice(0, 20).join("\n      "));
      }
    }
  } catch (e) {
    failed++;
    console.log(`FAILED setting up: ${e?.stack ?? e}`);
  } finally {
    await browser?.close().catch(() => {});
    if (failed && server) console.log(`--- paylink serve log ---\n${server.logs().slice(-4000)}`);
    await server?.stop();
    for (const close of closers) await close();
  }
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

await main();
