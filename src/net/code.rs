//! The join code: where the host listens, the SHA-256 fingerprint of its certificate (the
//! peer pins it: a connection to anyone else fails) and a random secret (a peer without it
//! is refused before any game data is sent). Written `dw1/ADDRESS/FINGERPRINT/SECRET`, the
//! last two in hexadecimal; a match hosted through a relay (`deckwright relay`, see
//! [`super::relay`]) has a `dw2/RELAY-ADDRESS/RELAY-FINGERPRINT/ROOM/FINGERPRINT/SECRET`
//! code: the relay's address and certificate, the room the relay gave the host, then the
//! host's own certificate and secret as before (the peer's TLS runs to the host through
//! the relay, which reads neither). A relay's own address line ([`RelayAddr`]) reads
//! `dwr1/ADDRESS/FINGERPRINT`.

use std::fmt;
use std::net::SocketAddr;
use std::str::FromStr;

/// What a peer needs to join a hosted match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JoinCode {
    /// Where to connect: the host, or the relay when `relay` is set.
    pub addr: SocketAddr,
    /// The SHA-256 of the host's certificate (pinned end to end, through a relay too).
    pub fingerprint: [u8; 32],
    pub secret: [u8; 16],
    /// The relay the host is reached through, if any.
    pub relay: Option<Relayed>,
}

/// How a match hosted through a relay is reached there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Relayed {
    /// The SHA-256 of the relay's certificate.
    pub fingerprint: [u8; 32],
    /// The room the relay gave the host.
    pub room: [u8; 16],
}

/// A relay's address line, as `deckwright relay` prints it and `host --relay` takes it:
/// `dwr1/ADDRESS/FINGERPRINT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelayAddr {
    pub addr: SocketAddr,
    /// The SHA-256 of the relay's certificate.
    pub fingerprint: [u8; 32],
}

/// Why a text is not a join code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "not a join code ({0}); a code reads dw1/ADDRESS/FINGERPRINT/SECRET or dw2/RELAY/RELAY-FINGERPRINT/ROOM/FINGERPRINT/SECRET"
)]
pub struct BadCode(pub &'static str);

/// Why a text is not a relay's address line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "not a relay's address ({0}); it reads dwr1/ADDRESS/FINGERPRINT, as deckwright relay prints it"
)]
pub struct BadRelay(pub &'static str);

impl fmt::Display for RelayAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "dwr1/{}/{}", self.addr, hex(&self.fingerprint))
    }
}

impl FromStr for RelayAddr {
    type Err = BadRelay;
    fn from_str(s: &str) -> Result<RelayAddr, BadRelay> {
        let mut parts = s.trim().split('/');
        if parts.next() != Some("dwr1") {
            return Err(BadRelay("it does not begin with dwr1/"));
        }
        let addr = parts
            .next()
            .and_then(|a| a.parse().ok())
            .ok_or(BadRelay("no relay address"))?;
        let fingerprint = parts
            .next()
            .and_then(unhex::<32>)
            .ok_or(BadRelay("no certificate fingerprint"))?;
        if parts.next().is_some() {
            return Err(BadRelay("more than three parts"));
        }
        Ok(RelayAddr { addr, fingerprint })
    }
}

impl JoinCode {
    /// The secret as the peer sends it.
    pub fn secret_text(&self) -> String {
        hex(&self.secret)
    }
}

impl fmt::Display for JoinCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.relay {
            None => write!(
                f,
                "dw1/{}/{}/{}",
                self.addr,
                hex(&self.fingerprint),
                hex(&self.secret)
            ),
            Some(r) => write!(
                f,
                "dw2/{}/{}/{}/{}/{}",
                self.addr,
                hex(&r.fingerprint),
                hex(&r.room),
                hex(&self.fingerprint),
                hex(&self.secret)
            ),
        }
    }
}

impl FromStr for JoinCode {
    type Err = BadCode;
    fn from_str(s: &str) -> Result<JoinCode, BadCode> {
        let mut parts = s.trim().split('/');
        let relayed = match parts.next() {
            Some("dw1") => false,
            Some("dw2") => true,
            _ => return Err(BadCode("it does not begin with dw1/ or dw2/")),
        };
        let addr = parts
            .next()
            .and_then(|a| a.parse().ok())
            .ok_or(BadCode("no host address"))?;
        let relay = if relayed {
            let fingerprint = parts
                .next()
                .and_then(unhex::<32>)
                .ok_or(BadCode("no relay certificate fingerprint"))?;
            let room = parts
                .next()
                .and_then(unhex::<16>)
                .ok_or(BadCode("no room"))?;
            Some(Relayed { fingerprint, room })
        } else {
            None
        };
        let fingerprint = parts
            .next()
            .and_then(unhex::<32>)
            .ok_or(BadCode("no certificate fingerprint"))?;
        let secret = parts
            .next()
            .and_then(unhex::<16>)
            .ok_or(BadCode("no secret"))?;
        if parts.next().is_some() {
            return Err(BadCode("a part too many"));
        }
        Ok(JoinCode {
            addr,
            fingerprint,
            secret,
            relay,
        })
    }
}

/// Bytes in lower-case hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex<const N: usize>(s: &str) -> Option<[u8; N]> {
    if s.len() != 2 * N || !s.is_ascii() {
        return None;
    }
    let mut out = [0u8; N];
    for (k, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * k..2 * k + 2], 16).ok()?;
    }
    Some(out)
}

/// Hexadecimal (either case) as bytes; `None` for anything else.
pub fn unhex_bytes(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..s.len() / 2)
        .map(|k| u8::from_str_radix(&s[2 * k..2 * k + 2], 16).ok())
        .collect()
}

/// Whether two secrets are equal, in time that does not depend on where they differ.
pub fn same_secret(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_reads_back() {
        for addr in ["127.0.0.1:4000", "[::1]:5000"] {
            let code = JoinCode {
                addr: addr.parse().unwrap(),
                fingerprint: [0xab; 32],
                secret: [7; 16],
                relay: None,
            };
            assert_eq!(code.to_string().parse::<JoinCode>(), Ok(code.clone()));
            let relayed = JoinCode {
                relay: Some(Relayed {
                    fingerprint: [0xcd; 32],
                    room: [9; 16],
                }),
                ..code
            };
            let text = relayed.to_string();
            assert!(text.starts_with("dw2/"));
            assert_eq!(text.parse::<JoinCode>(), Ok(relayed));
            let relay = RelayAddr {
                addr: addr.parse().unwrap(),
                fingerprint: [1; 32],
            };
            assert_eq!(relay.to_string().parse::<RelayAddr>(), Ok(relay));
        }
    }

    #[test]
    fn an_old_code_still_reads() {
        let old = format!("dw1/127.0.0.1:4000/{}/{}", "ab".repeat(32), "07".repeat(16));
        let code: JoinCode = old.parse().unwrap();
        assert_eq!(code.relay, None);
        assert_eq!(code.to_string(), old);
    }

    #[test]
    fn a_broken_code_is_named() {
        assert!("dw2/1.2.3.4:5/aa/bb".parse::<JoinCode>().is_err());
        assert!("dw1/1.2.3.4:5/aa/bb".parse::<JoinCode>().is_err());
        assert!("dw1/nowhere/".parse::<JoinCode>().is_err());
        let fp = "ab".repeat(32);
        let secret = "07".repeat(16);
        // A dw2 code without its room, and a relay line with a code's parts.
        assert!(
            format!("dw2/1.2.3.4:5/{fp}/{fp}/{secret}")
                .parse::<JoinCode>()
                .is_err()
        );
        assert!(
            format!("dwr1/1.2.3.4:5/{fp}/{secret}")
                .parse::<RelayAddr>()
                .is_err()
        );
    }

    #[test]
    fn secrets_compare() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abc", b"abd"));
        assert!(!same_secret(b"abc", b""));
    }
}
