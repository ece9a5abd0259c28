//! A peer's side: [`Link`] is one connection to a host (QUIC, the host's certificate pinned
//! by the join code's fingerprint) with one stream each way, driven by its own small tokio
//! runtime so the caller stays synchronous: messages arrive in an inbox, frames are sent
//! through a queue. [`Link::join`] says `Hello` and waits for the host's answer.

use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc as tmpsc;

use super::NetError;
use super::cards::Arrival;
use super::code::JoinCode;
use super::tls::{SERVER_NAME, client_config, stream_client};
use super::wire::{
    HEARTBEAT, MAX_TO_HOST, MAX_TO_PEER, PROTOCOL, ToHost, ToPeer, decode, encode, read_frame,
    write_bytes,
};
use crate::games::registry;

/// How long connecting (and the host's answer to `Hello`) may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);

/// The host's `Welcome`.
#[derive(Debug, Clone)]
pub struct Welcome {
    pub game: String,
    pub title: String,
    pub engine: u32,
    /// The seat this peer plays (none: a spectator).
    pub seat: Option<usize>,
    /// Who sits at each seat (`host`, `remote` or a policy).
    pub seats: Vec<String>,
    /// The match's cards, as they are to arrive (checked one by one as they do).
    pub cards: Arrival,
}

/// Sends messages on a [`Link`] from another thread.
#[derive(Clone)]
pub struct Sender(tmpsc::UnboundedSender<Vec<u8>>);

impl Sender {
    /// Sends a message.
    pub fn send(&self, msg: &ToHost) -> Result<(), NetError> {
        let frame = encode(msg, MAX_TO_HOST).map_err(|e| NetError::Closed(e.to_string()))?;
        self.0
            .send(frame)
            .map_err(|_| NetError::Closed("the connection closed".into()))
    }
}

/// One connection to a host.
pub struct Link {
    rt: tokio::runtime::Runtime,
    endpoint: quinn::Endpoint,
    conn: quinn::Connection,
    out: tmpsc::UnboundedSender<Vec<u8>>,
    inbox: mpsc::Receiver<Result<ToPeer, String>>,
    /// Every frame body read from the host, in order (what this peer was told).
    heard: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl Link {
    /// Connects to the host the code names (its certificate checked against the code's
    /// fingerprint) and opens the stream; nothing is said yet. Through a relay (a `dw2/`
    /// code): connects to the relay, which splices a stream to the host's room, and runs
    /// TLS 1.3 with the host inside it, the host's certificate pinned the same way.
    pub fn open(code: &JoinCode) -> Result<Link, NetError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("deckwright-net")
            .enable_all()
            .build()
            .map_err(|e| NetError::Io(e.to_string()))?;
        if code.relay.is_some() {
            let tls = tokio_rustls::TlsConnector::from(stream_client(code.fingerprint)?);
            let code = code.clone();
            let (endpoint, conn, stream) = rt.block_on(async move {
                let (endpoint, conn, send, recv) =
                    super::relay::join_room(&code, CONNECT_TIMEOUT).await?;
                let name = rustls::pki_types::ServerName::try_from(SERVER_NAME)
                    .map_err(|e| NetError::Tls(e.to_string()))?;
                let stream = tokio::time::timeout(
                    CONNECT_TIMEOUT,
                    tls.connect(name, tokio::io::join(recv, send)),
                )
                .await
                .map_err(|_| NetError::Connect("no TLS handshake with the host".into()))?
                .map_err(|e| NetError::Connect(format!("the host, through the relay: {e}")))?;
                Ok::<_, NetError>((endpoint, conn, stream))
            })?;
            let (recv, send) = tokio::io::split(stream);
            return Ok(Link::run(rt, endpoint, conn, send, recv));
        }
        let config = client_config(code.fingerprint)?;
        let addr = code.addr;
        let (endpoint, conn, send, recv) = rt.block_on(async move {
            let bind = if addr.is_ipv6() {
                "[::]:0"
            } else {
                "0.0.0.0:0"
            };
            let mut endpoint = quinn::Endpoint::client(bind.parse().expect("an address"))
                .map_err(|e| NetError::Io(e.to_string()))?;
            endpoint.set_default_client_config(config);
            let connecting = endpoint
                .connect(addr, SERVER_NAME)
                .map_err(|e| NetError::Connect(e.to_string()))?;
            let conn = tokio::time::timeout(CONNECT_TIMEOUT, connecting)
                .await
                .map_err(|_| NetError::Connect(format!("no answer from {addr}")))?
                .map_err(|e| NetError::Connect(format!("{addr}: {e}")))?;
            let (send, recv) = conn
                .open_bi()
                .await
                .map_err(|e| NetError::Connect(e.to_string()))?;
            Ok::<_, NetError>((endpoint, conn, send, recv))
        })?;
        Ok(Link::run(rt, endpoint, conn, send, recv))
    }

    /// Starts the stream's writer (from the queue) and reader (to the inbox).
    fn run<R, W>(
        rt: tokio::runtime::Runtime,
        endpoint: quinn::Endpoint,
        conn: quinn::Connection,
        mut send: W,
        mut recv: R,
    ) -> Link
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (out, mut queue) = tmpsc::unbounded_channel::<Vec<u8>>();
        rt.spawn(async move {
            while let Some(bytes) = queue.recv().await {
                if write_bytes(&mut send, &bytes).await.is_err() {
                    break;
                }
            }
            let _ = send.shutdown().await;
        });
        let (tx, inbox) = mpsc::channel();
        let c = conn.clone();
        let heard = Arc::new(Mutex::new(Vec::new()));
        let kept = heard.clone();
        rt.spawn(async move {
            loop {
                let msg = read_frame(&mut recv, None, MAX_TO_PEER)
                    .await
                    .and_then(|body| {
                        let m = decode::<ToPeer>(&body);
                        if let Ok(mut k) = kept.lock() {
                            k.push(body);
                        }
                        m
                    });
                match msg {
                    Ok(m) => {
                        if tx.send(Ok(m)).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let why = match c.close_reason() {
                            Some(quinn::ConnectionError::ApplicationClosed(a)) => {
                                String::from_utf8_lossy(&a.reason).into_owned()
                            }
                            Some(other) => other.to_string(),
                            None => e.to_string(),
                        };
                        let _ = tx.send(Err(why));
                        break;
                    }
                }
            }
        });
        Link {
            rt,
            endpoint,
            conn,
            out,
            inbox,
            heard,
        }
    }

    /// Connects, says `Hello` (the code's secret, this program's engine versions) and
    /// waits for the host's answer: its `Welcome`, or why it refused.
    pub fn join(code: &JoinCode, watch: bool) -> Result<(Link, Welcome), NetError> {
        let link = Link::open(code)?;
        link.send(&ToHost::Hello {
            protocol: PROTOCOL,
            secret: code.secret_text(),
            watch,
            engines: registry::GAMES
                .iter()
                .map(|g| (g.name.to_string(), g.engine))
                .collect(),
        })?;
        match link.recv(Some(CONNECT_TIMEOUT))? {
            Some(ToPeer::Welcome {
                protocol,
                game,
                title,
                engine,
                seat,
                seats,
                cards,
                card_set,
            }) => {
                if protocol != PROTOCOL {
                    return Err(NetError::Refused(format!(
                        "protocol version mismatch: the host speaks {protocol}, this program {PROTOCOL}"
                    )));
                }
                let cards = Arrival::new(cards, card_set)
                    .map_err(|e| NetError::Refused(format!("the host's cards: {e}")))?;
                link.heartbeat();
                Ok((
                    link,
                    Welcome {
                        game,
                        title,
                        engine,
                        seat,
                        seats,
                        cards,
                    },
                ))
            }
            Some(ToPeer::Refused { reason }) => Err(NetError::Refused(reason)),
            Some(_) => Err(NetError::Closed("the host did not answer the hello".into())),
            None => Err(NetError::Closed("no answer from the host".into())),
        }
    }

    /// Sends a heartbeat every [`HEARTBEAT`] while the connection lasts.
    fn heartbeat(&self) {
        let out = self.out.clone();
        let beat = encode(&ToHost::Heartbeat, MAX_TO_HOST).expect("a small message");
        self.rt.spawn(async move {
            loop {
                tokio::time::sleep(HEARTBEAT).await;
                if out.send(beat.clone()).is_err() {
                    break;
                }
            }
        });
    }

    /// A sender of messages that another thread may keep (a terminal's notes).
    pub fn sender(&self) -> Sender {
        Sender(self.out.clone())
    }

    /// Sends a message.
    pub fn send(&self, msg: &ToHost) -> Result<(), NetError> {
        let frame = encode(msg, MAX_TO_HOST).map_err(|e| NetError::Closed(e.to_string()))?;
        self.send_raw(frame)
    }

    /// Sends bytes as they are (a test's hostile peer).
    pub fn send_raw(&self, bytes: Vec<u8>) -> Result<(), NetError> {
        self.out
            .send(bytes)
            .map_err(|_| NetError::Closed("the connection closed".into()))
    }

    /// The next message: waits up to `timeout` (forever when `None`); `Ok(None)` when none
    /// came in time, an error when the connection closed (with the host's reason).
    pub fn recv(&self, timeout: Option<Duration>) -> Result<Option<ToPeer>, NetError> {
        let got = match timeout {
            Some(t) => match self.inbox.recv_timeout(t) {
                Ok(m) => m,
                Err(mpsc::RecvTimeoutError::Timeout) => return Ok(None),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(NetError::Closed("the connection closed".into()));
                }
            },
            None => self
                .inbox
                .recv()
                .map_err(|_| NetError::Closed("the connection closed".into()))?,
        };
        got.map(Some).map_err(NetError::Closed)
    }

    /// Every frame body the host has sent so far, as it arrived (JSON bytes, read before
    /// they are decoded): what a test searches for facts this peer may not see.
    pub fn heard(&self) -> Vec<Vec<u8>> {
        self.heard.lock().map(|h| h.clone()).unwrap_or_default()
    }

    /// Closes the connection (what was sent is delivered first, within a second).
    pub fn close(self) {
        let Link {
            rt,
            endpoint,
            conn,
            out,
            ..
        } = self;
        drop(out);
        rt.block_on(async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            conn.close(0u32.into(), b"bye");
            let _ = tokio::time::timeout(Duration::from_secs(1), endpoint.wait_idle()).await;
        });
        rt.shutdown_timeout(Duration::from_secs(1));
    }
}
