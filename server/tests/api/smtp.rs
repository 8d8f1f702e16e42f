//! A fake SMTP server that behaves as a provider's submission port does (RFC 5321, 3207,
//! 4954): on `smtp://` it demands STARTTLS before AUTH or mail, on `smtps://` it speaks TLS
//! from the first byte (RFC 8314), and either way it takes a message only after AUTH PLAIN with
//! its one user. Its certificate is for 127.0.0.1, signed by a test CA (banksim's `Pki`, made
//! with rcgen) that the client must be told to trust (`--smtp-ca`). It records what arrives and
//! can answer MAIL FROM with scripted refusals (a 4xx outage, a 5xx rejection). A plain mode
//! (no TLS, no AUTH) stands for a relay on loopback (`?tls=none`).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use paylink_server::workers::notifications::SmtpConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};

pub const USER: &str = "cobranca@loja.example";
pub const PASSWORD: &str = "senha-do-provedor-123";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `smtp://`: plain until STARTTLS, which is required.
    StartTls,
    /// `smtps://`: TLS from the start.
    Implicit,
    /// `smtp://...?tls=none`: no TLS, no AUTH (a local relay).
    Plain,
}

/// One message as the server received it.
#[derive(Clone, Debug)]
pub struct Mail {
    pub from: String,
    pub to: Vec<String>,
    /// Headers and body, dot-unstuffed, CRLF line ends.
    pub data: String,
    /// Whether it came over TLS, and the user that logged in.
    pub tls: bool,
    pub user: Option<String>,
}

/// One MIME part: its headers (names lower-cased) and its body, transfer encoding undone.
#[derive(Clone, Debug)]
pub struct Part {
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Part {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn content_type(&self) -> String {
        self.header("content-type")
            .unwrap_or("text/plain")
            .split(';')
            .next()
            .unwrap()
            .trim()
            .to_ascii_lowercase()
    }

    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone())
            .unwrap()
            .replace("\r\n", "\n")
    }
}

/// Splits `raw` (headers, a blank line, the body) into its headers and decoded body.
fn parse_part(raw: &str) -> Part {
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((raw, ""));
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with([' ', '\t']) {
            if let Some(last) = headers.last_mut() {
                last.1.push(' ');
                last.1.push_str(line.trim());
            }
        } else if let Some((n, v)) = line.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let encoding = headers
        .iter()
        .find(|(n, _)| n == "content-transfer-encoding")
        .map(|(_, v)| v.to_ascii_lowercase())
        .unwrap_or_default();
    let body = match encoding.as_str() {
        "quoted-printable" => decode_quoted_printable(body),
        "base64" => base64::engine::general_purpose::STANDARD
            .decode(body.replace("\r\n", "").trim())
            .unwrap(),
        _ => body.as_bytes().to_vec(),
    };
    Part { headers, body }
}

fn decode_quoted_printable(s: &str) -> Vec<u8> {
    let s = s.replace("=\r\n", "");
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'=' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("");
            if let Ok(byte) = u8::from_str_radix(hex, 16) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// The leaf parts of a message (multiparts opened, in order).
fn leaves(raw: &str, out: &mut Vec<Part>) {
    let part = parse_part(raw);
    let ct = part.header("content-type").unwrap_or("").to_string();
    if !ct.to_ascii_lowercase().starts_with("multipart/") {
        out.push(part);
        return;
    }
    let boundary = ct
        .split(';')
        .find_map(|p| p.trim().strip_prefix("boundary="))
        .expect("a multipart has a boundary")
        .trim_matches('"')
        .to_string();
    let (_, body) = raw.split_once("\r\n\r\n").unwrap();
    let delimiter = format!("--{boundary}");
    for chunk in body.split(&delimiter).skip(1) {
        if chunk.starts_with("--") {
            break;
        }
        let chunk = chunk.strip_prefix("\r\n").unwrap_or(chunk);
        let chunk = chunk.strip_suffix("\r\n").unwrap_or(chunk);
        leaves(chunk, out);
    }
}

impl Mail {
    pub fn header(&self, name: &str) -> Option<String> {
        parse_part(&self.data).header(name).map(str::to_string)
    }

    pub fn parts(&self) -> Vec<Part> {
        let mut out = Vec::new();
        leaves(&self.data, &mut out);
        out
    }

    fn part(&self, content_type: &str) -> Option<Part> {
        self.parts()
            .into_iter()
            .find(|p| p.content_type() == content_type && p.header("content-disposition").is_none())
    }

    /// The text/plain part.
    pub fn text(&self) -> String {
        self.part("text/plain").expect("a text part").text()
    }

    pub fn html(&self) -> String {
        self.part("text/html").expect("an HTML part").text()
    }

    /// The attachments: (file name, content type, bytes).
    pub fn attachments(&self) -> Vec<(String, String, Vec<u8>)> {
        self.parts()
            .into_iter()
            .filter_map(|p| {
                let d = p.header("content-disposition")?.to_string();
                let name = d
                    .split(';')
                    .find_map(|x| x.trim().strip_prefix("filename="))?
                    .trim_matches('"')
                    .to_string();
                Some((name, p.content_type(), p.body))
            })
            .collect()
    }
}

#[derive(Default)]
struct Shared {
    mails: Vec<Mail>,
    /// Replies to the next MAIL FROM commands instead of 250 (e.g. "451 4.3.0 try later").
    refusals: VecDeque<String>,
    /// Every command line received, AUTH's secret left out, with whether TLS was on.
    log: Vec<(bool, String)>,
}

#[derive(Clone)]
pub struct SmtpServer {
    pub mode: Mode,
    addr: std::net::SocketAddr,
    pub ca_pem: String,
    shared: Arc<Mutex<Shared>>,
}

impl SmtpServer {
    pub async fn start(mode: Mode) -> SmtpServer {
        let pki = paylink_banksim::Pki::generate().unwrap();
        let chain = CertificateDer::pem_slice_iter(pki.server_cert.as_bytes())
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        let key = PrivateKeyDer::from_pem_slice(pki.server_key.as_bytes()).unwrap();
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server = SmtpServer {
            mode,
            addr: listener.local_addr().unwrap(),
            ca_pem: pki.ca_cert,
            shared: Arc::default(),
        };
        let shared = server.shared.clone();
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let (shared, acceptor) = (shared.clone(), acceptor.clone());
                tokio::spawn(async move {
                    match mode {
                        Mode::Implicit => {
                            if let Ok(tls) = acceptor.accept(stream).await {
                                session(tls, true, mode, shared, true).await;
                            }
                        }
                        Mode::Plain => {
                            session(stream, false, mode, shared, true).await;
                        }
                        Mode::StartTls => {
                            if let Some(plain) =
                                session(stream, false, mode, shared.clone(), true).await
                            {
                                if let Ok(tls) = acceptor.accept(plain).await {
                                    session(tls, true, mode, shared, false).await;
                                }
                            }
                        }
                    }
                });
            }
        });
        server
    }

    /// The URL paylink is given.
    pub fn url(&self, user: Option<&str>) -> String {
        let user = user
            .map(|u| format!("{}@", u.replace('@', "%40")))
            .unwrap_or_default();
        match self.mode {
            Mode::StartTls => format!("smtp://{user}{}", self.addr),
            Mode::Implicit => format!("smtps://{user}{}", self.addr),
            Mode::Plain => format!("smtp://{user}{}?tls=none", self.addr),
        }
    }

    /// paylink's configuration for this server: its user and password, the test CA trusted.
    pub fn config(&self) -> SmtpConfig {
        let from = "paylink <paylink@loja.example>";
        match self.mode {
            Mode::Plain => SmtpConfig::new(&self.url(None), from, None, None).unwrap(),
            _ => SmtpConfig::new(
                &self.url(Some(USER)),
                from,
                Some(PASSWORD.into()),
                Some(self.ca_pem.as_bytes()),
            )
            .unwrap(),
        }
    }

    /// The next MAIL FROM commands are answered with these lines, in order.
    pub fn refuse_next(&self, replies: &[&str]) {
        self.shared
            .lock()
            .unwrap()
            .refusals
            .extend(replies.iter().map(|r| r.to_string()));
    }

    pub fn mails(&self) -> Vec<Mail> {
        self.shared.lock().unwrap().mails.clone()
    }

    pub fn log(&self) -> Vec<(bool, String)> {
        self.shared.lock().unwrap().log.clone()
    }

    pub async fn wait_for(&self, secs: u64, n: usize) -> Vec<Mail> {
        for _ in 0..secs * 20 {
            if self.mails().len() >= n {
                return self.mails();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!(
            "timed out waiting for {n} e-mails; got {:#?}, commands {:#?}",
            self.mails(),
            self.log()
        );
    }
}

/// One SMTP conversation on `stream` (`tls`: already encrypted). Returns the stream when the
/// client asked for STARTTLS and was told to go ahead; `None` when it ended.
async fn session<S: AsyncRead + AsyncWrite + Unpin>(
    stream: S,
    tls: bool,
    mode: Mode,
    shared: Arc<Mutex<Shared>>,
    greet: bool,
) -> Option<S> {
    let mut r = BufReader::new(stream);
    if greet {
        r.get_mut()
            .write_all(b"220 smtp.test ESMTP ready\r\n")
            .await
            .ok()?;
    }
    let (mut from, mut to) = (String::new(), Vec::new());
    let mut user: Option<String> = None;
    let address = |line: &str| {
        let start = line.find('<').map_or(0, |i| i + 1);
        let end = line.rfind('>').unwrap_or(line.len());
        line[start..end].to_string()
    };
    let needs_tls = mode == Mode::StartTls && !tls;
    let needs_auth = mode != Mode::Plain;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).await.unwrap_or(0) == 0 {
            return None;
        }
        let cmd = line.trim_end().to_ascii_uppercase();
        let logged = if cmd.starts_with("AUTH") {
            "AUTH ***".to_string()
        } else {
            line.trim_end().to_string()
        };
        shared.lock().unwrap().log.push((tls, logged));
        let reply: String = if cmd.starts_with("EHLO") {
            let mut ext = vec!["250-smtp.test", "250-8BITMIME"];
            if needs_tls {
                ext.push("250-STARTTLS");
            }
            if tls && needs_auth {
                ext.push("250-AUTH PLAIN");
            }
            ext.push("250 SMTPUTF8");
            ext.join("\r\n") + "\r\n"
        } else if cmd.starts_with("HELO") {
            "250 smtp.test\r\n".into()
        } else if cmd == "STARTTLS" {
            if needs_tls {
                r.get_mut()
                    .write_all(b"220 2.0.0 go ahead\r\n")
                    .await
                    .ok()?;
                return Some(r.into_inner());
            }
            "503 5.5.1 TLS already active\r\n".into()
        } else if cmd == "QUIT" {
            let _ = r.get_mut().write_all(b"221 2.0.0 bye\r\n").await;
            return None;
        } else if cmd == "RSET" || cmd == "NOOP" {
            "250 OK\r\n".into()
        } else if needs_tls {
            // RFC 3207: nothing else before STARTTLS.
            "530 5.7.0 Must issue a STARTTLS command first\r\n".into()
        } else if cmd.starts_with("AUTH PLAIN") {
            let given = line.trim_end()[10..].trim().to_string();
            let given = if given.is_empty() {
                r.get_mut().write_all(b"334 \r\n").await.ok()?;
                let mut l = String::new();
                r.read_line(&mut l).await.ok()?;
                l.trim_end().to_string()
            } else {
                given
            };
            let decoded = base64::engine::general_purpose::STANDARD
                .decode(given)
                .unwrap_or_default();
            let fields: Vec<&[u8]> = decoded.split(|b| *b == 0).collect();
            if fields.len() == 3 && fields[1] == USER.as_bytes() && fields[2] == PASSWORD.as_bytes()
            {
                user = Some(USER.into());
                "235 2.7.0 Authentication successful\r\n".into()
            } else {
                "535 5.7.8 Authentication credentials invalid\r\n".into()
            }
        } else if needs_auth && user.is_none() {
            "530 5.7.0 Authentication required\r\n".into()
        } else if cmd.starts_with("MAIL FROM:") {
            from = address(line.trim_end());
            to.clear();
            match shared.lock().unwrap().refusals.pop_front() {
                Some(refusal) => refusal + "\r\n",
                None => "250 2.1.0 OK\r\n".into(),
            }
        } else if cmd.starts_with("RCPT TO:") {
            to.push(address(line.trim_end()));
            "250 2.1.5 OK\r\n".into()
        } else if cmd == "DATA" {
            r.get_mut()
                .write_all(b"354 end with <CRLF>.<CRLF>\r\n")
                .await
                .ok()?;
            let mut data = String::new();
            loop {
                let mut l = String::new();
                if r.read_line(&mut l).await.unwrap_or(0) == 0 {
                    return None;
                }
                if l == ".\r\n" {
                    break;
                }
                data.push_str(l.strip_prefix('.').unwrap_or(&l));
            }
            shared.lock().unwrap().mails.push(Mail {
                from: from.clone(),
                to: to.clone(),
                data,
                tls,
                user: user.clone(),
            });
            "250 2.0.0 OK queued\r\n".into()
        } else {
            "502 5.5.2 not implemented\r\n".into()
        };
        r.get_mut().write_all(reply.as_bytes()).await.ok()?;
    }
}
