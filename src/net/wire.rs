//! The protocol of a hosted match: what a peer and the host say to each other, and how it
//! travels. Every message is one frame: a 4-byte big-endian length, then that many bytes of
//! JSON. A frame to the host is at most [`MAX_TO_HOST`] bytes (a peer only ever says a few
//! words), one to a peer at most [`MAX_TO_PEER`] (the match record at the end); a longer
//! length is refused before any of its body is read. Once its first byte has arrived the rest must arrive within
//! [`FRAME_TIMEOUT`], so a sender that never finishes a frame holds nobody but itself.
//! The first frame each way names [`PROTOCOL`] (the version handshake): a peer's `Hello`,
//! the host's `Welcome` or `Refused`.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::games::report::Line;

/// The protocol's version: a peer speaking another is refused, named. (2: the match's
/// cards in the `Welcome` and after it, playtest notes.)
pub const PROTOCOL: u32 = 2;

/// The most bytes one frame's body holds, sent to the host.
pub const MAX_TO_HOST: usize = 64 << 10;

/// The most bytes one frame's body holds, sent to a peer (a match record is at most 8 MiB).
pub const MAX_TO_PEER: usize = 16 << 20;

/// The most bytes of log lines one `Log` message carries.
const LOG_CHUNK: usize = 256 << 10;

/// How long the rest of a frame may take once its first byte has arrived.
pub const FRAME_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a new connection has to say `Hello`.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// How long writing one frame may take (a peer that stops reading is dropped).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// How often a joined peer says it is there ([`ToHost::Heartbeat`]).
pub const HEARTBEAT: Duration = Duration::from_secs(1);

/// A seat whose peer has not been heard from for this long may be taken by someone who
/// joins with the code (a client killed or gone to sleep rejoins before QUIC notices).
pub const SILENT: Duration = Duration::from_secs(8);

/// How long the host waits between two frames of a joined peer (heartbeats come every
/// [`HEARTBEAT`]) before it counts the peer gone.
pub const IDLE: Duration = Duration::from_secs(30);

/// What a peer says to the host.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToHost {
    /// The first frame: the protocol, the join code's secret, a player or a spectator, and
    /// the engine version of every game the peer plays (the host checks its game's).
    Hello {
        protocol: u32,
        secret: String,
        watch: bool,
        engines: Vec<(String, u32)>,
    },
    /// Option `option` for `seat` at input `step`.
    Decide {
        seat: usize,
        step: usize,
        option: usize,
    },
    /// Still here.
    Heartbeat,
    /// A playtest note on the match's current step (at most
    /// [`crate::games::record::MAX_NOTE_LEN`] bytes).
    Note { text: String },
}

/// One line of the log as it travels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogLine {
    /// The input that set it off (0: setting the match up).
    pub step: usize,
    /// `heading`, `apart` or `item` ([`Line`]).
    pub kind: String,
    pub text: String,
}

impl LogLine {
    pub fn new(step: usize, kind: Line, text: &str) -> LogLine {
        let kind = match kind {
            Line::Heading => "heading",
            Line::Apart => "apart",
            Line::Item => "item",
        };
        LogLine {
            step,
            kind: kind.into(),
            text: text.into(),
        }
    }

    /// How the terminal sets it out.
    pub fn line(&self) -> Line {
        match self.kind.as_str() {
            "heading" => Line::Heading,
            "apart" => Line::Apart,
            _ => Line::Item,
        }
    }
}

/// What the host says to a peer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToPeer {
    /// The answer to a `Hello` let in: the game, its engine, the peer's seat (none for a
    /// spectator) and who sits at each seat (`host`, `remote` or a policy).
    Welcome {
        protocol: u32,
        game: String,
        title: String,
        engine: u32,
        seat: Option<usize>,
        seats: Vec<String>,
        /// The match's card set, committed to: a commitment per card, sorted
        /// ([`crate::net::cards::commitment`]).
        cards: Vec<String>,
        /// The digest of the whole set ([`crate::net::cards::set_digest`]).
        card_set: String,
    },
    /// A card of the set, once this peer's view names it (the rest before `End`): its file,
    /// the salt of its commitment and its picture's bytes, both in hexadecimal.
    Card {
        text: String,
        salt: String,
        art: Option<String>,
    },
    /// A playtest note someone at the table wrote, at input `step`.
    Note {
        step: usize,
        by: String,
        text: String,
    },
    /// Not let in (or put out): why. The host closes the connection after it.
    Refused { reason: String },
    /// Log lines `from` on (their index in the whole log).
    Log { from: usize, lines: Vec<LogLine> },
    /// The peer's seat decides at input `step`: the question and its options.
    Ask {
        seat: usize,
        step: usize,
        question: String,
        options: Vec<String>,
    },
    /// A decision the host refused, and why: nothing changed.
    Rejected {
        step: usize,
        option: usize,
        reason: String,
    },
    /// The match is over: its result in words, the `play --json` document and the match
    /// record (TOML), which replays with `deckwright replay`.
    End {
        result: String,
        report: serde_json::Value,
        record: String,
    },
}

/// Why a frame was not read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error("the connection closed")]
    Closed,
    #[error("timed out")]
    Timeout,
    #[error("a frame of {0} bytes is over the {1}-byte bound")]
    TooLarge(usize, usize),
    #[error("not a message: {0}")]
    Malformed(String),
    #[error("{0}")]
    Io(String),
}

impl From<std::io::Error> for WireError {
    fn from(e: std::io::Error) -> Self {
        match e.kind() {
            std::io::ErrorKind::UnexpectedEof => WireError::Closed,
            _ => WireError::Io(e.to_string()),
        }
    }
}

/// Reads one frame's body: its first byte waited for up to `idle` (forever when `None`),
/// the rest within [`FRAME_TIMEOUT`], a length over `max` refused unread.
pub async fn read_frame<R: AsyncRead + Unpin>(
    r: &mut R,
    idle: Option<Duration>,
    max: usize,
) -> Result<Vec<u8>, WireError> {
    let mut first = [0u8; 1];
    match idle {
        Some(d) => tokio::time::timeout(d, r.read_exact(&mut first))
            .await
            .map_err(|_| WireError::Timeout)??,
        None => r.read_exact(&mut first).await?,
    };
    tokio::time::timeout(FRAME_TIMEOUT, async {
        let mut rest = [0u8; 3];
        r.read_exact(&mut rest).await?;
        let len = u32::from_be_bytes([first[0], rest[0], rest[1], rest[2]]) as usize;
        if len > max {
            return Err(WireError::TooLarge(len, max));
        }
        let mut body = vec![0u8; len];
        r.read_exact(&mut body).await?;
        Ok(body)
    })
    .await
    .map_err(|_| WireError::Timeout)?
}

/// Reads one message ([`read_frame`], then its JSON).
pub async fn read_msg<R: AsyncRead + Unpin, T: for<'de> Deserialize<'de>>(
    r: &mut R,
    idle: Option<Duration>,
    max: usize,
) -> Result<T, WireError> {
    decode(&read_frame(r, idle, max).await?)
}

/// A frame's body as a message.
pub fn decode<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, WireError> {
    serde_json::from_slice(body).map_err(|e| WireError::Malformed(e.to_string()))
}

/// A message as one frame (length and body); a body over `max` is an error.
pub fn encode<T: Serialize>(msg: &T, max: usize) -> Result<Vec<u8>, WireError> {
    let body = serde_json::to_vec(msg).map_err(|e| WireError::Malformed(e.to_string()))?;
    if body.len() > max {
        return Err(WireError::TooLarge(body.len(), max));
    }
    let mut frame = Vec::with_capacity(4 + body.len());
    frame.extend_from_slice(&(body.len() as u32).to_be_bytes());
    frame.extend_from_slice(&body);
    Ok(frame)
}

/// Writes bytes (a frame) within [`WRITE_TIMEOUT`], flushed (a TLS stream through a relay
/// holds what is written until then).
pub async fn write_bytes<W: AsyncWrite + Unpin>(w: &mut W, bytes: &[u8]) -> Result<(), WireError> {
    tokio::time::timeout(WRITE_TIMEOUT, async {
        w.write_all(bytes).await?;
        w.flush().await
    })
    .await
    .map_err(|_| WireError::Timeout)??;
    Ok(())
}

/// The log lines `lines` (the whole log's from `from` on) as `Log` messages, each well
/// under the frame bound.
pub fn log_messages(from: usize, lines: &[LogLine]) -> Vec<ToPeer> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut bytes = 0;
    for (k, l) in lines.iter().enumerate() {
        let size = l.text.len() + 64;
        if k > start && bytes + size > LOG_CHUNK {
            out.push(ToPeer::Log {
                from: from + start,
                lines: lines[start..k].to_vec(),
            });
            start = k;
            bytes = 0;
        }
        bytes += size;
    }
    if start < lines.len() {
        out.push(ToPeer::Log {
            from: from + start,
            lines: lines[start..].to_vec(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn a_message_travels_in_one_frame() {
        run(async {
            let (mut a, mut b) = tokio::io::duplex(1 << 16);
            let msg = ToHost::Decide {
                seat: 1,
                step: 7,
                option: 2,
            };
            write_bytes(&mut a, &encode(&msg, MAX_TO_HOST).unwrap())
                .await
                .unwrap();
            let got: ToHost = read_msg(&mut b, Some(Duration::from_secs(5)), MAX_TO_HOST)
                .await
                .unwrap();
            assert_eq!(got, msg);
        });
    }

    #[test]
    fn an_oversized_length_is_refused_before_its_body() {
        run(async {
            let (mut a, mut b) = tokio::io::duplex(64);
            a.write_all(&u32::MAX.to_be_bytes()).await.unwrap();
            let got = read_frame(&mut b, None, MAX_TO_HOST).await;
            assert_eq!(
                got,
                Err(WireError::TooLarge(u32::MAX as usize, MAX_TO_HOST))
            );
        });
    }

    #[test]
    fn garbage_is_not_a_message() {
        run(async {
            let (mut a, mut b) = tokio::io::duplex(64);
            a.write_all(&[0, 0, 0, 3, b'x', b'y', b'z']).await.unwrap();
            let got: Result<ToHost, _> = read_msg(&mut b, None, MAX_TO_HOST).await;
            assert!(matches!(got, Err(WireError::Malformed(_))), "{got:?}");
        });
    }

    #[test]
    fn an_unfinished_frame_times_out() {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .unwrap()
            .block_on(async {
                let (mut a, mut b) = tokio::io::duplex(64);
                a.write_all(&[0, 0, 0, 9, b'{']).await.unwrap();
                let got = read_frame(&mut b, None, MAX_TO_HOST).await;
                assert_eq!(got, Err(WireError::Timeout));
                drop(a);
            });
    }

    #[test]
    fn a_long_log_is_cut_into_bounded_frames() {
        let lines: Vec<LogLine> = (0..20_000)
            .map(|k| LogLine::new(k, Line::Item, &"x".repeat(100)))
            .collect();
        let msgs = log_messages(5, &lines);
        assert!(msgs.len() > 1);
        let mut next = 5;
        for m in &msgs {
            assert!(encode(m, MAX_TO_PEER).unwrap().len() <= LOG_CHUNK + 4096);
            let ToPeer::Log { from, lines } = m else {
                panic!()
            };
            assert_eq!(*from, next);
            next += lines.len();
        }
        assert_eq!(next, 5 + 20_000);
    }
}
