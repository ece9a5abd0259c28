//! A relay (`deckwright relay`): lets a host that cannot be reached directly (behind a NAT,
//! no port forwarded) be joined through a machine that can. The host keeps one QUIC
//! connection open to the relay and is given a room; a peer connects to the relay, names the
//! room, and the relay opens a stream on the host's connection and splices the two streams
//! byte for byte. Inside the spliced stream the peer and the host speak TLS 1.3 end to end
//! (tokio-rustls), the peer pinning the host's certificate by the fingerprint in the join
//! code: the relay sees the room, the sizes and the times of what passes, never the secret,
//! the cards or the log, and cannot alter a byte without the TLS failing.
//!
//! The relay's own words are one frame each way at the start of a stream ([`ToRelay`],
//! [`FromRelay`], at most [`MAX_RELAY_FRAME`] bytes). It is bounded: [`MAX_ROOMS`] rooms,
//! [`MAX_ROOM_PEERS`] peers spliced into one room at once, [`MAX_RELAY_CONNECTIONS`]
//! connections, [`HELLO_TIMEOUT`] to say what a connection is for, and a peer that sends
//! nothing for [`IDLE`] (it heartbeats every second) is cut off.

use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::NetError;
use super::code::{JoinCode, RelayAddr, hex};
use super::tls::{Identity, SERVER_NAME, random, relay_client_config, relay_server_config};
use super::wire::{HELLO_TIMEOUT, IDLE, decode, encode, read_frame, write_bytes};

/// The relay's protocol version, named in the first frame of every stream.
pub const RELAY_PROTOCOL: u32 = 1;

/// The most bytes of one frame of the relay's own words.
pub const MAX_RELAY_FRAME: usize = 1024;

/// The most rooms (hosts) one relay keeps at once.
pub const MAX_ROOMS: usize = 256;

/// The most peers spliced into one room at once (the host's own bound on connections).
pub const MAX_ROOM_PEERS: usize = super::host::MAX_CONNECTIONS;

/// The most connections (hosts, peers, and those not yet said what they are for) at once.
pub const MAX_RELAY_CONNECTIONS: usize = 1024;

/// How many streams a host lets the relay open on its connection at once: one a peer.
pub const HOST_STREAMS: u32 = MAX_ROOM_PEERS as u32;

/// The first frame a host or a peer sends the relay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToRelay {
    /// A host asks for a room.
    Open { protocol: u32 },
    /// A peer asks to be spliced to the host of `room` (hexadecimal).
    Join { protocol: u32, room: String },
}

/// The relay's answer to [`ToRelay`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromRelay {
    /// The host's room (hexadecimal), kept while its connection lasts.
    Room { room: String },
    /// The peer is spliced to the host: what follows is the host's.
    Spliced,
    /// Refused, and why.
    Refused { reason: String },
}

/// A host's room: its connection, and how many peers are spliced into it.
struct Room {
    conn: quinn::Connection,
    peers: Arc<AtomicUsize>,
}

/// What every connection of a relay shares.
struct Shared {
    rooms: Mutex<HashMap<[u8; 16], Room>>,
    open: AtomicUsize,
    /// Every byte the relay forwards, appended as it passes (`--tap`: what a test or an
    /// audit reads to see what the relay could see).
    tap: Option<Mutex<std::fs::File>>,
}

/// A running relay.
pub struct Relay {
    rt: tokio::runtime::Runtime,
    endpoint: quinn::Endpoint,
    address: RelayAddr,
}

impl Relay {
    /// Listens on `listen` (port 0: any free port) with a fresh certificate; with `tap`,
    /// every byte it forwards is appended to that file.
    pub fn start(listen: SocketAddr, tap: Option<&Path>) -> Result<Relay, NetError> {
        let id = Identity::new()?;
        let tap = match tap {
            None => None,
            Some(p) => Some(Mutex::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|e| NetError::Io(format!("cannot open {}: {e}", p.display())))?,
            )),
        };
        let rt = runtime()?;
        let endpoint = {
            let _in = rt.enter();
            quinn::Endpoint::server(relay_server_config(&id)?, listen)
                .map_err(|e| NetError::Io(format!("cannot listen on {listen}: {e}")))?
        };
        let local = endpoint
            .local_addr()
            .map_err(|e| NetError::Io(e.to_string()))?;
        let shared = Arc::new(Shared {
            rooms: Mutex::new(HashMap::new()),
            open: AtomicUsize::new(0),
            tap,
        });
        rt.spawn(accept(endpoint.clone(), shared));
        Ok(Relay {
            rt,
            endpoint,
            address: RelayAddr {
                addr: super::host::advertised(local),
                fingerprint: id.fingerprint,
            },
        })
    }

    /// The relay's address line, for `deckwright host --relay`.
    pub fn address(&self) -> RelayAddr {
        self.address
    }

    /// Relays until the process ends.
    pub fn run(self) {
        self.rt.block_on(std::future::pending::<()>());
    }

    /// Stops relaying (every room closes).
    pub fn close(self) {
        self.endpoint.close(0u32.into(), b"the relay stops");
        self.rt.shutdown_timeout(Duration::from_secs(1));
    }
}

/// A small runtime of the relay's, or of a host's or peer's connection.
fn runtime() -> Result<tokio::runtime::Runtime, NetError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("deckwright-net")
        .enable_all()
        .build()
        .map_err(|e| NetError::Io(e.to_string()))
}

async fn accept(endpoint: quinn::Endpoint, shared: Arc<Shared>) {
    while let Some(incoming) = endpoint.accept().await {
        if shared.open.load(Ordering::Relaxed) >= MAX_RELAY_CONNECTIONS {
            incoming.refuse();
            continue;
        }
        shared.open.fetch_add(1, Ordering::Relaxed);
        let shared = shared.clone();
        tokio::spawn(async move {
            serve(incoming, &shared).await;
            shared.open.fetch_sub(1, Ordering::Relaxed);
        });
    }
}

/// Writes the relay's answer.
async fn answer<W: AsyncWrite + Unpin>(send: &mut W, msg: &FromRelay) -> Result<(), NetError> {
    let frame = encode(msg, MAX_RELAY_FRAME).map_err(|e| NetError::Io(e.to_string()))?;
    write_bytes(send, &frame)
        .await
        .map_err(|e| NetError::Closed(e.to_string()))
}

/// Answers `Refused` and closes the connection.
async fn refuse(conn: &quinn::Connection, mut send: quinn::SendStream, reason: &str) {
    let _ = answer(
        &mut send,
        &FromRelay::Refused {
            reason: reason.to_string(),
        },
    )
    .await;
    let _ = send.finish();
    let _ = tokio::time::timeout(Duration::from_secs(2), send.stopped()).await;
    conn.close(1u32.into(), reason.as_bytes());
}

/// One connection to the relay: a host's (its room lasts while it does) or a peer's (spliced
/// to its room's host).
async fn serve(incoming: quinn::Incoming, shared: &Shared) {
    let Ok(Ok(conn)) = tokio::time::timeout(HELLO_TIMEOUT, incoming).await else {
        return;
    };
    let Ok(Ok((mut send, mut recv))) = tokio::time::timeout(HELLO_TIMEOUT, conn.accept_bi()).await
    else {
        conn.close(1u32.into(), b"no stream opened");
        return;
    };
    let first = match read_frame(&mut recv, Some(HELLO_TIMEOUT), MAX_RELAY_FRAME).await {
        Ok(body) => decode::<ToRelay>(&body).map_err(|_| "not a relay's hello".to_string()),
        Err(e) => Err(format!("no hello: {e}")),
    };
    match first {
        Err(why) => refuse(&conn, send, &why).await,
        Ok(ToRelay::Open { protocol }) | Ok(ToRelay::Join { protocol, .. })
            if protocol != RELAY_PROTOCOL =>
        {
            let why = format!(
                "relay protocol mismatch: the relay speaks {RELAY_PROTOCOL}, this program {protocol}"
            );
            refuse(&conn, send, &why).await
        }
        Ok(ToRelay::Open { .. }) => {
            let room = match open_room(shared, &conn) {
                Ok(room) => room,
                Err(why) => return refuse(&conn, send, &why).await,
            };
            let said = answer(&mut send, &FromRelay::Room { room: hex(&room) }).await;
            if said.is_ok() {
                // The room lasts as long as the host's connection.
                conn.closed().await;
            }
            if let Ok(mut rooms) = shared.rooms.lock() {
                rooms.remove(&room);
            }
            drop((send, recv));
        }
        Ok(ToRelay::Join { room, .. }) => {
            let (host, peers) = match find_room(shared, &room) {
                Ok(found) => found,
                Err(why) => return refuse(&conn, send, &why).await,
            };
            let Ok((to_host, from_host)) = host.open_bi().await else {
                return refuse(&conn, send, "the host's connection closed").await;
            };
            if answer(&mut send, &FromRelay::Spliced).await.is_ok() {
                splice(recv, send, from_host, to_host, shared).await;
            }
            peers.fetch_sub(1, Ordering::Relaxed);
            conn.close(0u32.into(), b"spliced stream ended");
        }
    }
}

/// A fresh room for the host on `conn`; why not, when the relay is full.
fn open_room(shared: &Shared, conn: &quinn::Connection) -> Result<[u8; 16], String> {
    let room = random::<16>().map_err(|e| e.0)?;
    let mut rooms = shared
        .rooms
        .lock()
        .map_err(|_| "the relay is broken".to_string())?;
    if rooms.len() >= MAX_ROOMS {
        return Err(format!("the relay keeps {MAX_ROOMS} rooms already"));
    }
    rooms.insert(
        room,
        Room {
            conn: conn.clone(),
            peers: Arc::new(AtomicUsize::new(0)),
        },
    );
    Ok(room)
}

/// The host's connection of `room`, its count of peers taken one more; why not.
fn find_room(shared: &Shared, room: &str) -> Result<(quinn::Connection, Arc<AtomicUsize>), String> {
    let key = super::code::unhex_bytes(room)
        .and_then(|b| <[u8; 16]>::try_from(b).ok())
        .ok_or("no such room")?;
    let rooms = shared
        .rooms
        .lock()
        .map_err(|_| "the relay is broken".to_string())?;
    let found = rooms
        .get(&key)
        .ok_or("no such room (has the host stopped?)")?;
    if found.peers.fetch_add(1, Ordering::Relaxed) >= MAX_ROOM_PEERS {
        found.peers.fetch_sub(1, Ordering::Relaxed);
        return Err(format!("the room has {MAX_ROOM_PEERS} peers already"));
    }
    Ok((found.conn.clone(), found.peers.clone()))
}

/// Copies the peer's stream to the host's and back until either ends: the peer's side ends
/// when it closes or sends nothing for [`IDLE`] (it heartbeats every second); the host's
/// side when the host ends its stream (what it sent then reaches the peer first).
async fn splice(
    peer_recv: quinn::RecvStream,
    mut peer_send: quinn::SendStream,
    host_recv: quinn::RecvStream,
    host_send: quinn::SendStream,
    shared: &Shared,
) {
    let host_ended = {
        let mut up = std::pin::pin!(pump(peer_recv, host_send, Some(IDLE), shared));
        let mut down = std::pin::pin!(pump(host_recv, &mut peer_send, None, shared));
        std::future::poll_fn(|cx| {
            if down.as_mut().poll(cx).is_ready() {
                Poll::Ready(true)
            } else if up.as_mut().poll(cx).is_ready() {
                Poll::Ready(false)
            } else {
                Poll::Pending
            }
        })
        .await
    };
    if host_ended {
        let _ = peer_send.finish();
        let _ = tokio::time::timeout(Duration::from_secs(5), peer_send.stopped()).await;
    }
}

/// Copies `from` to `to` until `from` ends (or is silent for `idle`), then ends `to`.
async fn pump<R, W>(mut from: R, mut to: W, idle: Option<Duration>, shared: &Shared)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut buf = vec![0u8; 16 << 10];
    loop {
        let read = match idle {
            Some(d) => match tokio::time::timeout(d, from.read(&mut buf)).await {
                Ok(r) => r,
                Err(_) => break,
            },
            None => from.read(&mut buf).await,
        };
        let n = match read {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if let Some(tap) = &shared.tap
            && let Ok(mut f) = tap.lock()
        {
            let _ = f.write_all(&buf[..n]);
        }
        if write_bytes(&mut to, &buf[..n]).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}

/// A client endpoint to reach `addr` from.
fn client_endpoint(addr: SocketAddr) -> Result<quinn::Endpoint, NetError> {
    let bind = if addr.is_ipv6() {
        "[::]:0"
    } else {
        "0.0.0.0:0"
    };
    quinn::Endpoint::client(bind.parse().expect("an address"))
        .map_err(|e| NetError::Io(e.to_string()))
}

/// Connects to the relay at `addr` (its certificate pinned) and opens the one stream, says
/// `hello` on it and reads the relay's answer.
async fn reach(
    addr: SocketAddr,
    config: quinn::ClientConfig,
    hello: &ToRelay,
    timeout: Duration,
) -> Result<
    (
        quinn::Endpoint,
        quinn::Connection,
        quinn::SendStream,
        quinn::RecvStream,
        FromRelay,
    ),
    NetError,
> {
    let mut endpoint = client_endpoint(addr)?;
    endpoint.set_default_client_config(config);
    let connecting = endpoint
        .connect(addr, SERVER_NAME)
        .map_err(|e| NetError::Connect(e.to_string()))?;
    let conn = tokio::time::timeout(timeout, connecting)
        .await
        .map_err(|_| NetError::Connect(format!("no answer from the relay at {addr}")))?
        .map_err(|e| NetError::Connect(format!("the relay at {addr}: {e}")))?;
    let (mut send, mut recv) = conn
        .open_bi()
        .await
        .map_err(|e| NetError::Connect(e.to_string()))?;
    let frame = encode(hello, MAX_RELAY_FRAME).map_err(|e| NetError::Io(e.to_string()))?;
    write_bytes(&mut send, &frame)
        .await
        .map_err(|e| NetError::Connect(e.to_string()))?;
    let answer = read_frame(&mut recv, Some(timeout), MAX_RELAY_FRAME)
        .await
        .map_err(|e| NetError::Connect(format!("the relay did not answer: {e}")))?;
    let answer = decode::<FromRelay>(&answer)
        .map_err(|e| NetError::Connect(format!("the relay's answer: {e}")))?;
    Ok((endpoint, conn, send, recv, answer))
}

/// A host's room at a relay: the connection the relay opens a stream on for each peer, and
/// the room it named.
pub(super) struct HostRoom {
    pub endpoint: quinn::Endpoint,
    pub conn: quinn::Connection,
    pub room: [u8; 16],
    /// The stream the room was asked on (kept open while the host is).
    pub control: (quinn::SendStream, quinn::RecvStream),
}

/// Asks the relay for a room (in the host's runtime).
pub(super) async fn open_host_room(relay: RelayAddr) -> Result<HostRoom, NetError> {
    let config = relay_client_config(relay.fingerprint, HOST_STREAMS)?;
    let (endpoint, conn, send, recv, answer) = reach(
        relay.addr,
        config,
        &ToRelay::Open {
            protocol: RELAY_PROTOCOL,
        },
        HELLO_TIMEOUT,
    )
    .await?;
    match answer {
        FromRelay::Room { room } => {
            let room = super::code::unhex_bytes(&room)
                .and_then(|b| <[u8; 16]>::try_from(b).ok())
                .ok_or_else(|| NetError::Connect("the relay named no room".into()))?;
            Ok(HostRoom {
                endpoint,
                conn,
                room,
                control: (send, recv),
            })
        }
        FromRelay::Refused { reason } => Err(NetError::Refused(format!("by the relay: {reason}"))),
        FromRelay::Spliced => Err(NetError::Connect("the relay answered out of turn".into())),
    }
}

/// A peer's stream to the host of the code's room, spliced by the relay (the TLS to the
/// host is not begun yet).
pub(super) async fn join_room(
    code: &JoinCode,
    timeout: Duration,
) -> Result<
    (
        quinn::Endpoint,
        quinn::Connection,
        quinn::SendStream,
        quinn::RecvStream,
    ),
    NetError,
> {
    let relay = code
        .relay
        .ok_or_else(|| NetError::Connect("the code names no relay".into()))?;
    let config = relay_client_config(relay.fingerprint, 0)?;
    let (endpoint, conn, send, recv, answer) = reach(
        code.addr,
        config,
        &ToRelay::Join {
            protocol: RELAY_PROTOCOL,
            room: hex(&relay.room),
        },
        timeout,
    )
    .await?;
    match answer {
        FromRelay::Spliced => Ok((endpoint, conn, send, recv)),
        FromRelay::Refused { reason } => Err(NetError::Refused(format!("by the relay: {reason}"))),
        FromRelay::Room { .. } => Err(NetError::Connect("the relay answered out of turn".into())),
    }
}
