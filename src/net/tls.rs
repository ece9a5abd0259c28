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

/// The application protocol both sides name in the TLS handshake (the host's, directly or
/// end to end through a relay).
const ALPN: &[u8] = b"deckwright/1";

/// The application protocol a relay and its hosts and peers name.
const RELAY_ALPN: &[u8] = b"deckwright-relay/1";

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

/// The transport's bounds; `streams`: how many bidirectional streams the other side may
/// have open at once.
fn transport(streams: u32) -> Arc<quinn::TransportConfig> {
    let mut t = quinn::TransportConfig::default();
    t.max_idle_timeout(Some(IDLE.try_into().expect("a small duration")));
    t.keep_alive_interval(Some(Duration::from_secs(2)));
    t.max_concurrent_bidi_streams(streams.into());
    t.max_concurrent_uni_streams(0u32.into());
    // Nothing travels as a datagram.
    t.datagram_receive_buffer_size(None);
    Arc::new(t)
}

/// The host's QUIC configuration: a peer opens one stream; the host opens none.
pub fn server_config(id: &Identity) -> Result<quinn::ServerConfig, TlsError> {
    quic_server(tls_server(id, ALPN)?, 1)
}

/// A relay's QUIC configuration: a host and a peer each open one stream there.
pub fn relay_server_config(id: &Identity) -> Result<quinn::ServerConfig, TlsError> {
    quic_server(tls_server(id, RELAY_ALPN)?, 1)
}

fn quic_server(tls: rustls::ServerConfig, streams: u32) -> Result<quinn::ServerConfig, TlsError> {
    let quic = QuicServerConfig::try_from(tls).map_err(|e| TlsError(e.to_string()))?;
    let mut cfg = quinn::ServerConfig::with_crypto(Arc::new(quic));
    cfg.transport_config(transport(streams));
    cfg.max_incoming(64);
    Ok(cfg)
}

/// The host's TLS 1.3 (its certificate), for QUIC or for a stream through a relay.
fn tls_server(id: &Identity, alpn: &[u8]) -> Result<rustls::ServerConfig, TlsError> {
    let mut tls = rustls::ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| TlsError(e.to_string()))?
        .with_no_client_auth()
        .with_single_cert(
            vec![id.cert.clone()],
            PrivateKeyDer::Pkcs8(id.key.clone_key()),
        )
        .map_err(|e| TlsError(e.to_string()))?;
    tls.alpn_protocols = vec![alpn.to_vec()];
    Ok(tls)
}

/// The host's TLS 1.3 for a peer's stream spliced through a relay.
pub fn stream_server(id: &Identity) -> Result<Arc<rustls::ServerConfig>, TlsError> {
    Ok(Arc::new(tls_server(id, ALPN)?))
}

/// A peer's QUIC configuration: only the certificate `fingerprint` names is accepted.
pub fn client_config(fingerprint: [u8; 32]) -> Result<quinn::ClientConfig, TlsError> {
    quic_client(tls_client(fingerprint, ALPN)?, 0)
}

/// The QUIC configuration of a host or peer reaching a relay (its certificate pinned by
/// `fingerprint`): a host lets the relay open up to `streams` streams (one a relayed
/// peer), a peer none.
pub fn relay_client_config(
    fingerprint: [u8; 32],
    streams: u32,
) -> Result<quinn::ClientConfig, TlsError> {
    quic_client(tls_client(fingerprint, RELAY_ALPN)?, streams)
}

/// A peer's TLS 1.3 to a host through a relay: the host's certificate pinned end to end.
pub fn stream_client(fingerprint: [u8; 32]) -> Result<Arc<rustls::ClientConfig>, TlsError> {
    Ok(Arc::new(tls_client(fingerprint, ALPN)?))
}

fn quic_client(tls: rustls::ClientConfig, streams: u32) -> Result<quinn::ClientConfig, TlsError> {
    let quic = QuicClientConfig::try_from(tls).map_err(|e| TlsError(e.to_string()))?;
    let mut cfg = quinn::ClientConfig::new(Arc::new(quic));
    cfg.transport_config(transport(streams));
    Ok(cfg)
}

/// TLS 1.3 that accepts only the certificate `fingerprint` names.
fn tls_client(fingerprint: [u8; 32], alpn: &[u8]) -> Result<rustls::ClientConfig, TlsError> {
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
    tls.alpn_protocols = vec![alpn.to_vec()];
    Ok(tls)
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
