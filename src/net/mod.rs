//! Playing a match over the network (`deckwright host`, `deckwright join`): the host runs
//! the match's [`crate::games::session::Session`] and is its authority; peers join with a
//! code, send decisions, and are sent the questions of their seat and the log as that seat
//! sees it (a spectator: what every seat may see; see `Game::hidden`), the match record only
//! at the end.
//!
//! - `wire`: the versioned protocol, its messages and bounded frames;
//! - `code`: the join code (address, certificate fingerprint, secret);
//! - `tls`: QUIC over TLS 1.3 (quinn, rustls with `ring`), a self-signed certificate
//!   pinned by its fingerprint;
//! - `cards`: the match's cards and their art, sent with it and checked on arrival;
//! - `host`: the authority and its connections (direct, or streams through a relay: the
//!   same code serves both); `client`: a peer's connection;
//! - `relay`: `deckwright relay`, which splices a peer's stream to a host's outbound
//!   connection; peer and host run TLS 1.3 end to end inside it, so it reads nothing.
//!
//! tokio is used here only, inside each side's own small runtime: the game core stays
//! synchronous and the faces call plain functions.

pub mod cards;
pub mod client;
pub mod code;
pub mod host;
pub mod relay;
pub mod tls;
pub mod wire;

/// Why a connection could not be made or went away.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    #[error("{0}")]
    Io(String),
    #[error("cannot set up the transport: {0}")]
    Tls(String),
    #[error("cannot connect: {0}")]
    Connect(String),
    /// The host refused this peer (wrong secret, version mismatch, match full, ...).
    #[error("refused: {0}")]
    Refused(String),
    #[error("the connection closed: {0}")]
    Closed(String),
}

impl From<tls::TlsError> for NetError {
    fn from(e: tls::TlsError) -> Self {
        NetError::Tls(e.0)
    }
}
