//! The local bank's certificates and its HTTPS listener with mutual TLS: a test CA (rcgen), a
//! server certificate for 127.0.0.1 and localhost, and a client certificate for paylink, as PEM,
//! and the loop that accepts only clients whose certificate that CA signed (as a bank's API Pix
//! does).

use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_util::sync::CancellationToken;

/// A CA and the two certificates it signed, each as PEM.
#[derive(Clone, Debug)]
pub struct Pki {
    pub ca_cert: String,
    pub server_cert: String,
    pub server_key: String,
    pub client_cert: String,
    pub client_key: String,
}

/// The file names [`Pki::write`] and [`Pki::read`] use in a directory.
pub const FILES: [&str; 5] = [
    "ca.pem",
    "server.pem",
    "server-key.pem",
    "client.pem",
    "client-key.pem",
];

impl Pki {
    /// A new CA, a server certificate for `127.0.0.1`/`localhost` and a client certificate.
    pub fn generate() -> Result<Pki, String> {
        use rcgen::{
            BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose,
            IsCa, KeyPair, KeyUsagePurpose,
        };
        let e = |e: rcgen::Error| format!("cannot make the test certificates: {e}");
        let mut ca = CertificateParams::new(Vec::<String>::new()).map_err(e)?;
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.distinguished_name
            .push(DnType::CommonName, "paylink bank-sim test CA");
        ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate().map_err(e)?).map_err(e)?;

        let leaf = |names: Vec<String>, cn: &str, usage: ExtendedKeyUsagePurpose| {
            let mut p = CertificateParams::new(names).map_err(e)?;
            p.distinguished_name.push(DnType::CommonName, cn);
            p.extended_key_usages = vec![usage];
            let key = KeyPair::generate().map_err(e)?;
            let cert = p.signed_by(&key, &ca).map_err(e)?;
            Ok::<_, String>((cert.pem(), key.serialize_pem()))
        };
        let (server_cert, server_key) = leaf(
            vec!["127.0.0.1".into(), "localhost".into()],
            "bank-sim",
            ExtendedKeyUsagePurpose::ServerAuth,
        )?;
        let (client_cert, client_key) = leaf(
            vec!["paylink.client".into()],
            "paylink",
            ExtendedKeyUsagePurpose::ClientAuth,
        )?;
        Ok(Pki {
            ca_cert: ca.pem(),
            server_cert,
            server_key,
            client_cert,
            client_key,
        })
    }

    pub fn write(&self, dir: &Path) -> Result<(), String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let texts = [
            &self.ca_cert,
            &self.server_cert,
            &self.server_key,
            &self.client_cert,
            &self.client_key,
        ];
        for (name, text) in FILES.iter().zip(texts) {
            let path = dir.join(name);
            std::fs::write(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    }

    /// The files a previous [`Pki::write`] left, so a demo's paylink keeps trusting the bank.
    pub fn read(dir: &Path) -> Result<Pki, String> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
        };
        Ok(Pki {
            ca_cert: read(FILES[0])?,
            server_cert: read(FILES[1])?,
            server_key: read(FILES[2])?,
            client_cert: read(FILES[3])?,
            client_key: read(FILES[4])?,
        })
    }

    /// The server side: this server certificate, and only clients the CA signed.
    pub fn server_config(&self) -> Result<Arc<rustls::ServerConfig>, String> {
        let e = |e: &dyn std::fmt::Display| format!("bad bank-sim certificates: {e}");
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut roots = rustls::RootCertStore::empty();
        let ca = CertificateDer::from_pem_slice(self.ca_cert.as_bytes()).map_err(|x| e(&x))?;
        roots.add(ca).map_err(|x| e(&x))?;
        let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
            Arc::new(roots),
            provider.clone(),
        )
        .build()
        .map_err(|x| e(&x))?;
        let chain = CertificateDer::pem_slice_iter(self.server_cert.as_bytes())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|x| e(&x))?;
        let key = PrivateKeyDer::from_pem_slice(self.server_key.as_bytes()).map_err(|x| e(&x))?;
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|x| e(&x))?
            .with_client_cert_verifier(verifier)
            .with_single_cert(chain, key)
            .map_err(|x| e(&x))?;
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Arc::new(config))
    }
}

/// Serves `router` over HTTPS on `listener` until `stop`: a client without a certificate from
/// the CA fails the handshake and never reaches a handler.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Arc<rustls::ServerConfig>,
    router: axum::Router,
    stop: CancellationToken,
) {
    let acceptor = tokio_rustls::TlsAcceptor::from(config);
    loop {
        let tcp = tokio::select! {
            _ = stop.cancelled() => return,
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                Err(e) => {
                    tracing::warn!(error = %e, "bank-sim: accept failed");
                    continue;
                }
            },
        };
        let (acceptor, router, stop) = (acceptor.clone(), router.clone(), stop.clone());
        tokio::spawn(async move {
            let tls = match acceptor.accept(tcp).await {
                Ok(tls) => tls,
                Err(e) => {
                    tracing::info!(error = %e, "bank-sim: TLS handshake refused");
                    return;
                }
            };
            let service = hyper_util::service::TowerToHyperService::new(router);
            let conn = hyper::server::conn::http1::Builder::new()
                .serve_connection(hyper_util::rt::TokioIo::new(tls), service);
            tokio::select! {
                _ = conn => {}
                _ = stop.cancelled() => {}
            }
        });
    }
}
