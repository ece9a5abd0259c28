//! The join code: where the host listens, the SHA-256 fingerprint of its certificate (the
//! peer pins it: a connection to anyone else fails) and a random secret (a peer without it
//! is refused before any game data is sent). Written `dw1/ADDRESS/FINGERPRINT/SECRET`, the
//! last two in hexadecimal.

use std::fmt;
use std::net::SocketAddr;
use std::str::FromStr;

/// What a peer needs to join a hosted match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JoinCode {
    pub addr: SocketAddr,
    pub fingerprint: [u8; 32],
    pub secret: [u8; 16],
}

/// Why a text is not a join code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a join code ({0}); a code reads dw1/ADDRESS/FINGERPRINT/SECRET")]
pub struct BadCode(pub &'static str);

impl JoinCode {
    /// The secret as the peer sends it.
    pub fn secret_text(&self) -> String {
        hex(&self.secret)
    }
}

impl fmt::Display for JoinCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "dw1/{}/{}/{}",
            self.addr,
            hex(&self.fingerprint),
            hex(&self.secret)
        )
    }
}

impl FromStr for JoinCode {
    type Err = BadCode;
    fn from_str(s: &str) -> Result<JoinCode, BadCode> {
        let mut parts = s.trim().split('/');
        if parts.next() != Some("dw1") {
            return Err(BadCode("it does not begin with dw1/"));
        }
        let addr = parts
            .next()
            .and_then(|a| a.parse().ok())
            .ok_or(BadCode("no host address"))?;
        let fingerprint = parts
            .next()
            .and_then(unhex::<32>)
            .ok_or(BadCode("no certificate fingerprint"))?;
        let secret = parts
            .next()
            .and_then(unhex::<16>)
            .ok_or(BadCode("no secret"))?;
        if parts.next().is_some() {
            return Err(BadCode("more than four parts"));
        }
        Ok(JoinCode {
            addr,
            fingerprint,
            secret,
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
            };
            assert_eq!(code.to_string().parse::<JoinCode>(), Ok(code));
        }
    }

    #[test]
    fn a_broken_code_is_named() {
        assert!("dw2/1.2.3.4:5/aa/bb".parse::<JoinCode>().is_err());
        assert!("dw1/1.2.3.4:5/aa/bb".parse::<JoinCode>().is_err());
        assert!("dw1/nowhere/".parse::<JoinCode>().is_err());
    }

    #[test]
    fn secrets_compare() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abc", b"abd"));
        assert!(!same_secret(b"abc", b""));
    }
}
