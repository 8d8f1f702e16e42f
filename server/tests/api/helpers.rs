use std::net::SocketAddr;
use std::sync::Arc;

use paylink_server::domain::outbound::Outbound;
use paylink_server::domain::providers::{TwilioConfig, WhatsAppConfig};
use paylink_server::workers::notifications::SmtpConfig;
use paylink_server::{app, http::auth, proxy::ProxyConfig, store::Db, Options, Service};
use reqwest::{Client, Response, StatusCode};
use serde_json::{json, Value};

pub struct TestApp {
    pub addr: String,
    pub token: String,
    pub db: Db,
    /// What `--db` takes for this app's database: the SQLite file's path, or
    /// the PostgreSQL URL (with its own schema).
    pub db_target: String,
    /// Logged in as [`OPERATOR_EMAIL`]: its session cookie and this server's
    /// `Origin` go with every request, as a browser on the merchant's screens sends them.
    pub client: Client,
    pub _dir: tempfile::TempDir,
}

/// The operator every test server has (see [`TestApp::client`]).
pub const OPERATOR_EMAIL: &str = "operadora@loja.example";
pub const OPERATOR_PASSWORD: &str = "senha de teste bem longa";
/// The session cookie on plain-HTTP loopback (the `__Host-` name needs HTTPS).
pub const SESSION_COOKIE: &str = "paylink_session";

/// The environment variable that runs the suite on PostgreSQL: a server URL
/// (`postgres://user@127.0.0.1:54329/postgres`). Unset, tests use SQLite files.
pub const PG_ENV: &str = "PAYLINK_TEST_DATABASE_URL";

/// Whether the suite runs on PostgreSQL.
pub fn on_postgres() -> bool {
    std::env::var(PG_ENV).is_ok_and(|u| !u.is_empty())
}

/// A fresh, empty database for one test, as `--db` takes it: the file
/// `name` in `dir` on SQLite; on PostgreSQL a new schema of the server's
/// database, named at random and made the connection's `search_path` in the
/// returned URL. A schema isolates a test like a database would, at a
/// fraction of the cost (a database copies its template, megabytes each).
pub async fn test_database(dir: &std::path::Path, name: &str) -> String {
    if !on_postgres() {
        return dir.join(name).to_str().unwrap().to_string();
    }
    let server = std::env::var(PG_ENV).unwrap();
    let schema = format!("t{}", uuid::Uuid::new_v4().simple());
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(&server)
        .await
        .unwrap_or_else(|e| panic!("{PG_ENV}={server}: {e}"));
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    let sep = if server.contains('?') { '&' } else { '?' };
    format!("{server}{sep}options=-csearch_path%3D{schema}")
}

/// [`test_database`] with the schema in place, made by `paylink migrate` as an operator
/// would (every command but `serve` and `migrate` refuses a database that needs one).
pub async fn migrated_database(dir: &std::path::Path, name: &str) -> String {
    let target = test_database(dir, name).await;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_paylink"))
        .args(["migrate", "--db", &target])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "paylink migrate: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    target
}

/// An application's token on `db`, made by the CLI as an operator makes one (the last line
/// `paylink token create` prints).
pub fn cli_token(db: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_paylink"))
        .args(["token", "create", "--name", "loja", "--db", db])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    stdout.lines().last().unwrap().trim().to_string()
}

/// An `INVOICE_CREATED` webhook of [`cli_token`]'s application to `url` (plain HTTP allowed),
/// added by the CLI as an operator adds one; the signing secret it prints (its last line).
pub fn cli_webhook(db: &str, url: &str) -> String {
    let added = std::process::Command::new(env!("CARGO_BIN_EXE_paylink"))
        .args([
            "webhook",
            "add",
            "--token-name",
            "loja",
            "--hook-type",
            "INVOICE_CREATED",
        ])
        .args(["--url", url, "--allow-insecure", "--db", db])
        .output()
        .unwrap();
    assert!(added.status.success(), "{added:?}");
    let stdout = String::from_utf8(added.stdout).unwrap();
    stdout.lines().last().unwrap().trim().to_string()
}

/// The merchant's settings of a production server (`serve` refuses to start without them
/// outside `--sandbox`): a real-looking PIX key, name, city, CNPJ and boleto agreement.
pub const MERCHANT_SETTINGS: &[&str] = &[
    "--pix-key",
    "financeiro@loja.example",
    "--merchant-name",
    "Loja Exemplo Ltda",
    "--merchant-city",
    "Sao Paulo",
    "--merchant-document",
    "12.345.678/0001-95",
    "--boleto-bank",
    "001",
    "--boleto-agreement",
    "1234567",
    "--boleto-beneficiary-code",
    "1234-5 / 123456-7",
];

/// [`MERCHANT_SETTINGS`] that `args` do not give themselves; none for a sandbox or a test
/// that says what it offers (`--payment-types`).
pub fn merchant_settings_beside<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Vec<&'static str> {
    let given = |flag: &str| args.iter().any(|a| a.as_ref() == flag);
    if given("--sandbox") || given("--payment-types") {
        return Vec::new();
    }
    MERCHANT_SETTINGS
        .chunks(2)
        .filter(|pair| !given(pair[0]))
        .flatten()
        .copied()
        .collect()
}

/// A second, independent pool on a test database (what another process or a
/// restart sees), for checks in SQL.
pub async fn raw_pool(target: &str) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    let url = if on_postgres() {
        target.to_string()
    } else {
        format!("sqlite://{target}")
    };
    sqlx::AnyPool::connect(&url).await.unwrap()
}

/// A paylink server on a free port with a fresh database file and one application.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| None).await
}

/// Like [`spawn_app`]; `proxy` picks the proxy configuration from the app's own token.
pub async fn spawn_app_with(proxy: impl FnOnce(&str) -> Option<ProxyConfig>) -> TestApp {
    spawn(proxy, false, None, true).await
}

/// The notifier's channels: an SMTP server (`smtp::SmtpServer::config`), the generic HTTP
/// adapter, WhatsApp's Cloud API and Twilio (`providers.rs`'s fakes).
#[derive(Default)]
pub struct Channels {
    pub smtp: Option<SmtpConfig>,
    pub http_url: Option<String>,
    pub whatsapp: Option<WhatsAppConfig>,
    pub twilio: Option<TwilioConfig>,
}

/// A server whose notifier sends Email through `smtp` and WhatsApp/SMS to `http_url`; a
/// channel left out keeps its sends pending.
pub async fn spawn_app_with_channels(smtp: Option<SmtpConfig>, http_url: Option<&str>) -> TestApp {
    let channels = Channels {
        smtp,
        http_url: http_url.map(str::to_string),
        ..Default::default()
    };
    spawn(|_| None, true, Some(channels), true).await
}

/// A server whose notifier sends through `channels` (providers on loopback allowed), with
/// the providers' status callbacks mounted as `serve` mounts them.
pub async fn spawn_app_notifying(channels: Channels) -> TestApp {
    spawn(|_| None, true, Some(channels), true).await
}

/// A server whose notifier sends e-mail through `smtp`, with the proxy on its own service (so
/// the payer pages its messages link to open).
pub async fn spawn_app_mailing_with_pages(smtp: SmtpConfig) -> TestApp {
    let channels = Channels {
        smtp: Some(smtp),
        ..Default::default()
    };
    spawn_full(
        local_proxy,
        outbound(true),
        Some(channels),
        true,
        None,
        |_| {},
    )
    .await
}

/// A server whose webhooks may go to local receivers (http://127.0.0.1), with
/// its delivery worker running.
pub async fn spawn_app_insecure() -> TestApp {
    spawn(|_| None, true, None, true).await
}

/// The proxy on paylink's own service, not in sandbox mode (as in production).
pub async fn spawn_app_production() -> TestApp {
    spawn(local_proxy, false, None, false).await
}

pub fn local_proxy(token: &str) -> Option<ProxyConfig> {
    Some(ProxyConfig {
        token: token.to_string(),
        upstream: None,
        timeout: paylink_server::proxy::DEFAULT_UPSTREAM_TIMEOUT,
    })
}

async fn spawn(
    proxy: impl FnOnce(&str) -> Option<ProxyConfig>,
    insecure: bool,
    channels: Option<Channels>,
    sandbox: bool,
) -> TestApp {
    spawn_full(proxy, outbound(insecure), channels, sandbox, None, |_| {}).await
}

/// The production policy, or the escape hatch of tests whose receivers are
/// plain HTTP on 127.0.0.1 (`serve --allow-insecure-webhooks`).
fn outbound(insecure: bool) -> Outbound {
    if insecure {
        Outbound::allow_private()
    } else {
        Outbound::public_only()
    }
}

/// A server (sandbox, no proxy) whose webhooks follow `outbound`, with its
/// delivery worker running.
pub async fn spawn_app_outbound(outbound: Outbound) -> TestApp {
    spawn_full(|_| None, outbound, None, true, None, |_| {}).await
}

/// A second server on `first`'s database (as a second process would be), with
/// the same application and its own webhook delivery worker.
pub async fn spawn_second(first: &TestApp) -> TestApp {
    spawn_full(
        |_| None,
        Outbound::allow_private(),
        None,
        true,
        Some((&first.db_target, &first.token)),
        |_| {},
    )
    .await
}

/// The local proxy (not sandbox) seen by a browser with no operator's session.
pub async fn spawn_app_anonymous() -> TestApp {
    let mut app = spawn_app_options(|_| {}).await;
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert("origin", app.addr.parse().unwrap());
    app.client = Client::builder().default_headers(headers).build().unwrap();
    app
}

/// The local proxy (not sandbox) with `serve` options changed by `configure`.
pub async fn spawn_app_options(configure: impl FnOnce(&mut Options)) -> TestApp {
    spawn_full(
        local_proxy,
        Outbound::public_only(),
        None,
        false,
        None,
        configure,
    )
    .await
}

/// The local proxy whose PIX goes through `bank` (`serve --pix-api-url`): its callback route
/// mounted for `bank`'s token, the merchant a company (`--merchant-document`). No worker runs:
/// tests drive them.
pub async fn spawn_app_pix(bank: paylink_server::bank::PixClient) -> TestApp {
    spawn_full_pix(
        local_proxy,
        Outbound::public_only(),
        None,
        false,
        None,
        |o| {
            o.payer.pix_api = true;
            o.payer.merchant_document = Some("11222333000181".into());
        },
        Some(bank),
    )
    .await
}

async fn spawn_full(
    proxy: impl FnOnce(&str) -> Option<ProxyConfig>,
    outbound: Outbound,
    channels: Option<Channels>,
    sandbox: bool,
    existing: Option<(&str, &str)>,
    configure: impl FnOnce(&mut Options),
) -> TestApp {
    spawn_full_pix(
        proxy, outbound, channels, sandbox, existing, configure, None,
    )
    .await
}

async fn spawn_full_pix(
    proxy: impl FnOnce(&str) -> Option<ProxyConfig>,
    outbound: Outbound,
    channels: Option<Channels>,
    sandbox: bool,
    existing: Option<(&str, &str)>,
    configure: impl FnOnce(&mut Options),
    pix: Option<paylink_server::bank::PixClient>,
) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let (db_target, db, token) = match existing {
        Some((target, token)) => (
            target.to_string(),
            Db::open(target).await.unwrap(),
            token.to_string(),
        ),
        None => {
            let target = test_database(dir.path(), "paylink.db").await;
            let db = Db::open(&target).await.unwrap();
            let (_, token) = auth::create_token(&db, "test-app").await.unwrap();
            (target, db, token)
        }
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = format!("http://{}", listener.local_addr().unwrap());
    // The workers run until the test's runtime ends (no shutdown signal).
    let never = tokio_util::sync::CancellationToken::new();
    tokio::spawn(
        paylink_server::workers::webhooks::Deliverer::new(db.clone(), outbound.clone())
            .run(never.clone()),
    );
    let mut provider_hooks = None;
    if let Some(c) = channels {
        let mut config = paylink_server::workers::notifications::NotifyConfig::new(
            &addr,
            c.smtp,
            c.http_url.as_deref(),
        )
        .unwrap();
        config.payer.sandbox = sandbox;
        config.whatsapp = c.whatsapp;
        config.twilio = c.twilio;
        config.outbound = outbound.clone();
        config.check_urls().unwrap();
        provider_hooks = paylink_server::http::provider_webhooks::ProviderHooks::of(
            &db,
            config.whatsapp.as_ref(),
            config.twilio.as_ref(),
            config.sms_callback_url(),
        );
        tokio::spawn(
            paylink_server::workers::notifications::Notifier::new(db.clone(), config).run(never),
        );
    }
    let mut options = Options {
        proxy: proxy(&token),
        payer: paylink_server::domain::payer::PayerConfig {
            sandbox,
            ..Default::default()
        },
        ..Default::default()
    };
    configure(&mut options);
    options.provider_hooks = provider_hooks;
    options.pix_webhook = pix.map(|bank| paylink_server::http::pix_webhook::PixWebhook {
        db: db.clone(),
        bank,
    });
    let state = Service {
        db: db.clone(),
        public_url: Arc::from(addr.as_str()),
        outbound: outbound.clone(),
        merchant: options.payer.merchant_setup(),
    };
    // As `serve` does: the rate limiter sees each client's address.
    let service = app(state, options).into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move { axum::serve(listener, service).await.unwrap() });
    let cookie = match existing {
        Some(_) => operator_session(&db, "operador2@loja.example").await,
        None => operator_session(&db, OPERATOR_EMAIL).await,
    };
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert("cookie", cookie.parse().unwrap());
    headers.insert("origin", addr.parse().unwrap());
    TestApp {
        client: Client::builder().default_headers(headers).build().unwrap(),
        addr,
        token,
        db,
        db_target,
        _dir: dir,
    }
}

/// An operator (`email`, [`OPERATOR_PASSWORD`]) and an open session of
/// theirs, as a `Cookie` header value. The session is stored directly, not
/// logged in over HTTP, so the login throttles of a test start untouched.
pub async fn operator_session(db: &Db, email: &str) -> String {
    use paylink_server::domain::operators;
    let Ok(op) = operators::add_operator(db, email, "Operadora Teste", OPERATOR_PASSWORD).await
    else {
        panic!("cannot add the test operator {email}");
    };
    let id = uuid::Uuid::new_v4().simple().to_string();
    paylink_server::store::operators::insert_session(
        db,
        &operators::session_hash(&id),
        &op.id,
        paylink_server::domain::now_ms(),
    )
    .await
    .unwrap();
    format!("{SESSION_COOKIE}={id}")
}

impl TestApp {
    /// See [`raw_pool`].
    /// A request to the service's own API with the application's token.
    pub async fn authed(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.client
            .request(method, self.url(path))
            .header("Authorization", format!("Basic {}", self.token))
    }

    pub async fn raw_pool(&self) -> sqlx::AnyPool {
        raw_pool(&self.db_target).await
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.addr)
    }

    /// A second application on the same server, for tenancy tests.
    pub async fn other_token(&self) -> String {
        auth::create_token(&self.db, "other-app").await.unwrap().1
    }

    /// GET without a token, as a browser asks the proxy or the pages.
    pub async fn get(&self, path: &str) -> Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    /// POST of a JSON body without a token, as the widget sends it to the proxy.
    pub async fn post(&self, path: &str, body: &Value) -> Response {
        self.client
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .unwrap()
    }

    /// POST without a body or a token (the payer page's view and simulate calls).
    pub async fn post_empty(&self, path: &str) -> Response {
        self.client.post(self.url(path)).send().await.unwrap()
    }

    pub async fn post_as(&self, token: &str, path: &str, body: &Value) -> Response {
        self.client
            .post(self.url(path))
            .header("Authorization", format!("Basic {token}"))
            .json(body)
            .send()
            .await
            .unwrap()
    }

    pub async fn post_customer(&self, body: &Value) -> Response {
        self.post_as(&self.token, "/invoices/applications/customers", body)
            .await
    }

    pub async fn post_invoice(&self, body: &Value) -> Response {
        self.post_as(&self.token, "/invoices/applications/invoices", body)
            .await
    }

    pub async fn get_invoice_as(&self, token: &str, id: &str) -> Response {
        self.client
            .get(self.url(&format!("/invoices/applications/invoices/{id}")))
            .header("Authorization", format!("Basic {token}"))
            .send()
            .await
            .unwrap()
    }

    pub async fn get_invoice(&self, id: &str) -> Response {
        self.get_invoice_as(&self.token, id).await
    }

    /// Cancels invoice `id` through the service (`DELETE`, with the token).
    pub async fn cancel_invoice(&self, id: &str) -> Response {
        self.authed(
            reqwest::Method::DELETE,
            &format!("/invoices/applications/invoices/{id}"),
        )
        .await
        .send()
        .await
        .unwrap()
    }

    /// Creates a valid customer and returns its id.
    pub async fn customer_id(&self) -> String {
        let res = self
            .post_customer(&json!({ "fullName": "Maria da Silva" }))
            .await;
        assert_eq!(res.status(), StatusCode::CREATED);
        body(res).await["id"].as_str().unwrap().to_string()
    }
}

pub async fn body(res: Response) -> Value {
    let text = res.text().await.unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Asserts an error envelope: `code` equals the HTTP status, a message is
/// present, and returns the `errors` map (or Null).
pub async fn envelope(res: Response, status: StatusCode) -> Value {
    assert_eq!(res.status(), status);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json"),
        "envelope must be JSON"
    );
    let v = body(res).await;
    assert_eq!(v["code"], status.as_u16(), "{v}");
    assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    v.get("errors").cloned().unwrap_or(Value::Null)
}

/// Dates invoice `id` as made at noon (UTC) on `day`, so that a payment of it
/// recorded by hand that day is not before its creation.
pub async fn made_on(app: &TestApp, id: &str, day: paylink_model::Date) {
    sqlx::query("UPDATE invoices SET created_at = $1 WHERE id = $2")
        .bind(format!("{day}T12:00:00.000Z"))
        .bind(id)
        .execute(&app.raw_pool().await)
        .await
        .unwrap();
}

/// Today in Brasília, the day the server compares due dates with.
pub fn today() -> paylink_model::Date {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    paylink_model::date::brasilia_today_from_millis(ms).unwrap()
}

/// `n` days from today in Brasília, `YYYY-MM-DD`: tests date their invoices
/// from today so that the suite never creates a charge due in the past.
pub fn days_from_today(n: i64) -> String {
    today().add_days(n).unwrap().to_string()
}

/// 31 January of next year: always ahead, and the plan's month-end clamping
/// (31 Jan → 28/29 Feb → 31 Mar) shows on it.
pub fn next_jan_31() -> paylink_model::Date {
    paylink_model::Date::new(today().year() + 1, 1, 31).unwrap()
}

/// The due dates of the plan of [`invoice_body`]: 31 Jan, the last day of
/// February and 31 Mar of next year, as `YYYY-MM-DD`.
pub fn invoice_body_dues() -> [String; 3] {
    let first = next_jan_31();
    [0, 1, 2].map(|m| first.add_months(m).unwrap().to_string())
}

/// A valid invoice request of 3 installments for `customer_id`, due from
/// [`next_jan_31`] on.
pub fn invoice_body(customer_id: &str) -> Value {
    json!({
        "customerId": customer_id,
        "externalId": "order-42",
        "dueDate": next_jan_31().to_string(),
        "paymentTypes": ["PIX", "BOLETO"],
        "installmentCount": 3,
        "invoiceType": "INSTALLMENT",
        "price": 100.00,
        "description": "Curso de violão — 3x",
        "redirectTo": "https://loja.example.com/obrigado",
        "notifications": [
            { "type": "SEND_INVOICE_REMINDER", "channel": "Email", "period": 5 },
            { "type": "INVOICE_RESEND", "channel": "SMS", "period": 7 },
            { "type": "INVOICE_CONFIRM_PAYMENT", "channel": "WhatsApp" },
            { "type": "INVOICE_GENERATED", "channel": "Email" }
        ],
        "webhooks": [
            { "hookType": "PAYMENT_CONFIRMED", "url": "https://loja.example.com/hooks/paylink" }
        ]
    })
}

/// Merges `patch` into a JSON object (null removes the key).
pub fn with(mut base: Value, patch: Value) -> Value {
    for (k, v) in patch.as_object().unwrap() {
        if v.is_null() {
            base.as_object_mut().unwrap().remove(k);
        } else {
            base[k] = v.clone();
        }
    }
    base
}

/// A child process (a `paylink serve`, a Prometheus) killed and reaped when dropped, passed
/// or not: a failing assertion leaves nothing running behind the suite. It derefs to the
/// [`std::process::Child`], for the tests that signal or wait on it themselves.
pub struct Running(pub std::process::Child);

impl std::ops::Deref for Running {
    type Target = std::process::Child;
    fn deref(&self) -> &std::process::Child {
        &self.0
    }
}

impl std::ops::DerefMut for Running {
    fn deref_mut(&mut self) -> &mut std::process::Child {
        &mut self.0
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// `paylink serve --listen 127.0.0.1:0 ARGS` as a separate process (the real
/// binary), and the address it prints once it listens. Without a drain delay
/// unless ARGS give one: no load balancer waits for its `/readyz`, and each
/// SIGTERM would cost the test the default 5 s.
pub fn serve_binary<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (Running, String) {
    serve_binary_logging(args, std::process::Stdio::null())
}

/// [`serve_binary`] with its log (stderr) sent to `log`.
pub fn serve_binary_logging<S: AsRef<std::ffi::OsStr>>(
    args: &[S],
    log: impl Into<std::process::Stdio>,
) -> (Running, String) {
    serve_binary_at(env!("CARGO_BIN_EXE_paylink"), args, log)
}

/// [`serve_binary_logging`] of the `paylink` binary at `bin` (another build of it).
pub fn serve_binary_at<S: AsRef<std::ffi::OsStr>>(
    bin: &str,
    args: &[S],
    log: impl Into<std::process::Stdio>,
) -> (Running, String) {
    use std::io::{BufRead, BufReader};
    let merchant = merchant_settings_beside(args);
    let mut child = std::process::Command::new(bin)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(merchant)
        .args(args)
        .args(
            (!args.iter().any(|a| a.as_ref() == "--drain-delay"))
                .then_some(["--drain-delay", "0"])
                .into_iter()
                .flatten(),
        )
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::piped())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("paylink listening on ")
        .unwrap_or_else(|| panic!("serve printed {line:?}"))
        .to_string();
    (Running(child), addr)
}
