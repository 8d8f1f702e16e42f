//! `paylink precompress DIR` and `paylink healthcheck [URL]`: what a release
//! and an image need from the binary itself. `scripts/release` compresses the
//! built widget once, at release time (a deployed `dist/` may be read-only,
//! as the image's is, and `serve` then finds every `.br`/`.gz` up to date);
//! the image's `HEALTHCHECK` asks `/healthz` with no curl in the base.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::common::Failure;

#[derive(clap::Subcommand)]
pub enum ReleaseCommand {
    /// Write `.br` and `.gz` beside every asset of a built widget, its
    /// subfolders included (`payer/`, `link/`); up-to-date ones are kept.
    Precompress {
        /// The built widget (`dist/`).
        dir: PathBuf,
    },
    /// Exit 0 when the server answers `GET /healthz` with 200, 1 otherwise
    /// (the image's HEALTHCHECK).
    Healthcheck {
        /// Default: `/healthz` on `PAYLINK_LISTEN` (loopback when it listens on
        /// every address), else on 127.0.0.1:8080.
        url: Option<String>,
        /// Give up after this long: 5s, 500ms.
        #[arg(long, default_value = "5s", value_parser = crate::cli::common::parse_duration)]
        timeout: Duration,
    },
}

pub async fn cli(command: ReleaseCommand) -> Result<(), Failure> {
    match command {
        ReleaseCommand::Precompress { dir } => {
            if !dir.is_dir() {
                return Err(Failure::Usage(format!(
                    "{} is not a directory",
                    dir.display()
                )));
            }
            let written = tokio::task::spawn_blocking(move || precompress_tree(&dir))
                .await
                .map_err(|e| format!("precompression failed: {e}"))??;
            println!("{written} compressed files written");
            Ok(())
        }
        ReleaseCommand::Healthcheck { url, timeout } => {
            let url = match url {
                Some(url) => url,
                None => {
                    let listen = std::env::var("PAYLINK_LISTEN")
                        .unwrap_or_else(|_| "127.0.0.1:8080".to_string());
                    healthz_url(&listen)?
                }
            };
            let client = reqwest::Client::builder()
                .timeout(timeout)
                .build()
                .map_err(|e| format!("cannot make an HTTP client: {e}"))?;
            let res = client
                .get(&url)
                .send()
                .await
                .map_err(|e| format!("{url}: {}", chain(&e)))?;
            if res.status() == reqwest::StatusCode::OK {
                println!("{url}: {}", res.status());
                Ok(())
            } else {
                Err(Failure::Runtime(format!("{url}: {}", res.status())))
            }
        }
    }
}

/// An error and its causes, `a: b: c` (reqwest's own says only "error sending request").
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

/// `crate::web::precompress` on `dir` and every folder under it.
fn precompress_tree(dir: &Path) -> Result<usize, super::Failure> {
    let mut written = 0;
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        written += crate::web::precompress(&d).map_err(|e| {
            super::Failure::Runtime(format!("cannot precompress {}: {e}", d.display()))
        })?;
        for entry in std::fs::read_dir(&d)
            .map_err(|e| super::Failure::Runtime(format!("{}: {e}", d.display())))?
        {
            let path = entry
                .map_err(|e| super::Failure::Runtime(format!("{}: {e}", d.display())))?
                .path();
            if path.is_dir() {
                dirs.push(path);
            }
        }
    }
    Ok(written)
}

/// `http://ADDR/healthz` for a listen address; an unspecified one (`0.0.0.0`,
/// `[::]`) is asked on loopback, where the server also answers.
fn healthz_url(listen: &str) -> Result<String, super::Failure> {
    let mut addr: SocketAddr = listen.trim().parse().map_err(|e| {
        super::Failure::Usage(format!(
            "PAYLINK_LISTEN={listen:?} is not an address (HOST:PORT): {e}"
        ))
    })?;
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => addr.set_ip(Ipv4Addr::LOCALHOST.into()),
        IpAddr::V6(ip) if ip.is_unspecified() => addr.set_ip(Ipv6Addr::LOCALHOST.into()),
        _ => {}
    }
    Ok(format!("http://{addr}/healthz"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_health_url_is_on_loopback_when_listening_everywhere() {
        let url = |l: &str| super::healthz_url(l).unwrap();
        assert_eq!(url("0.0.0.0:8080"), "http://127.0.0.1:8080/healthz");
        assert_eq!(url("[::]:9000"), "http://[::1]:9000/healthz");
        assert_eq!(url("10.0.0.5:80"), "http://10.0.0.5:80/healthz");
        assert!(super::healthz_url("localhost").is_err());
    }

    #[test]
    fn precompresses_subfolders_and_keeps_what_is_up_to_date() {
        let dir = tempfile::tempdir().unwrap();
        let js = "console.log('paylink');\n".repeat(100);
        std::fs::write(dir.path().join("index.html"), "<!doctype html>".repeat(50)).unwrap();
        std::fs::create_dir(dir.path().join("payer")).unwrap();
        std::fs::write(dir.path().join("payer/islands.js"), &js).unwrap();
        assert_eq!(super::precompress_tree(dir.path()).unwrap(), 4);
        let br = std::fs::read(dir.path().join("payer/islands.js.br")).unwrap();
        let mut out = Vec::new();
        brotli::BrotliDecompress(&mut &br[..], &mut out).unwrap();
        assert_eq!(out, js.as_bytes());
        assert_eq!(super::precompress_tree(dir.path()).unwrap(), 0);
    }
}
