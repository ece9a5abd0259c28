//! The transport's keys: the host's self-signed certificate (made fresh for each hosted
//! match by rcgen), QUIC over TLS 1.3 with rustls' `ring` provider, and the peer's pin: it
//! accepts only the certificate whose SHA-256 fingerprint the join code carries.

use std::sync::Arc;
use std::time::Duration;

use quinn::crypto::rustls::{QuicClientConfig, QuicServerConfig};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};

use super::code::same_secret;
use super::wire::IDLE;

/// The name the certificate is made for and the peer asks for.
pub const SERVER_NAME: &str = "deckwright";

/// The application protocol both sides name in the TLS handshake.
const ALPN: &[u8] = b"deckwright/1";

/// The host's certificate and key.
pub struct Identity {
    cert: CertificateDer<'static>,
    key: PrivatePkcs8KeyDer<'static>,
    /// The SHA-256 of the certificate (DER).
    pub fingerprint: [u8; 32],
}

/// Why the transport could not be set up.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct TlsError(pub String);

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    let d = ring::digest::digest(&ring::digest::SHA256, bytes);
    let mut out = [0u8; 32];
    out.copy_from_slice(d.as_ref());
    out
}

/// `n` random bytes from the system's source.
pub fn random<const N: usize>() -> Result<[u8; N], TlsError> {
    use ring::rand::SecureRandom;
    let mut out = [0u8; N];
    ring::rand::SystemRandom::new()
        .fill(&mut out)
        .map_err(|_| TlsError("no random numbers from the system".into()))?;
    Ok(out)
}

impl Identity {
    /// A fresh self-signed certificate.
    pub fn new() -> Result<Identity, TlsError> {
        let ck = rcgen::generate_simple_self_signed(vec![SERVER_NAME.to_string()])
            .map_err(|e| TlsError(format!("cannot make a certificate: {e}")))?;
        let cert = ck.cert.der().clone();
        let key = PrivatePkcs8KeyDer::from(ck.signing_key.serialize_der());
        Ok(Identity {
            fingerprint: sha256(&cert),
            cert,
            key,
        })
    }
}

fn transport(host: bool) -> Arc<quinn::TransportConfig> {
    let mut t = quinn::TransportConfig::default();
    t.max_idle_timeout(Some(IDLE.try_into().expect("a small duration")));
    t.keep_alive_interval(Some(Duration::from_secs(2)));
    // A peer opens one stream; the host opens none.
    t.max_concurrent_bidi_streams(if host { 1u32 } else { 0 }.into());
    t.max_concurrent_uni_streams(0u32.into());
    // Nothing travels as a datagram.
    t.datagram_receive_buffer_size(None);
    Arc::new(t)
}

/// The host's QUIC configuration.
pub fn server_config(id: &Identity) -> Result<quinn::ServerConfig, TlsError> {
    let mut tls = rustls::ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| TlsError(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(
            vec![id.cert.clone()],
            PrivateKeyDer::Pkcs8(id.key.clone_key()),
        )
        .map_err(|e| TlsError(e.to_string()))?;
    tls.alpn_protocols = vec![ALPN.to_vec()];
    let quic = QuicServerConfig::try_from(tls).map_err(|e| TlsError(e.to_string()))?;
    let mut cfg = quinn::ServerConfig::with_crypto(Arc::new(quic));
    cfg.transport_config(transport(true));
    cfg.max_incoming(64);
    Ok(cfg)
}

/// A peer's QUIC configuration: only the certificate `fingerprint` names is accepted.
pub fn client_config(fingerprint: [u8; 32]) -> Result<quinn::ClientConfig, TlsError> {
    let provider = provider();
    let mut tls = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| TlsError(e.to_string()))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(Pinned {
            fingerprint,
            provider,
        }))
        .with_no_client_auth();
    tls.alpn_protocols = vec![ALPN.to_vec()];
    let quic = QuicClientConfig::try_from(tls).map_err(|e| TlsError(e.to_string()))?;
    let mut cfg = quinn::ClientConfig::new(Arc::new(quic));
    cfg.transport_config(transport(false));
    Ok(cfg)
}

/// Accepts the one certificate whose fingerprint the join code carries, and checks the
/// handshake is signed by its key.
#[derive(Debug)]
struct Pinned {
    fingerprint: [u8; 32],
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if same_secret(&sha256(end_entity), &self.fingerprint) {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(
                "the host's certificate is not the one the join code names".into(),
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        _message: &[u8],
        _cert: &CertificateDer<'_>,
        _dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Err(rustls::Error::General("TLS 1.2 is not spoken here".into()))
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}
