//! The host of a networked match: the authority. It runs the match's [`Session`] on its own
//! thread (the game core stays synchronous); the connections run on a small tokio runtime
//! and tell it what arrives through a channel. A peer is let in only after its `Hello`
//! names this protocol, the join code's secret and the game's engine version; each remote
//! seat is held by one peer at a time (a seat whose peer fell silent for [`SILENT`] goes to
//! whoever joins next with the code: a rejoin), spectators watch. Every decision that
//! arrives is checked by [`Session::decide_as`] for the seat its connection holds: an
//! illegal, stale, repeated or out-of-turn one is refused with the reason and changes
//! nothing. Chance and the computer's seats are played here only.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc as tmpsc, oneshot};

use super::NetError;
use super::cards::CardSet;
use super::code::{JoinCode, RelayAddr, Relayed, hex, same_secret};
use super::tls::{Identity, random, server_config, stream_server};
use super::wire::{
    self, HELLO_TIMEOUT, IDLE, LogLine, MAX_TO_HOST, MAX_TO_PEER, PROTOCOL, SILENT, ToHost, ToPeer,
    WRITE_TIMEOUT, encode, log_messages, read_frame, read_msg, write_bytes,
};
use crate::games::ai::Policy;
use crate::games::game::Turn;
use crate::games::record::{MAX_NOTES, Note};
use crate::games::session::{Seat, Session};

/// The most spectators one match lets in.
pub const MAX_WATCHERS: usize = 16;

/// The most connections open at once (players, spectators, and peers not yet let in).
pub const MAX_CONNECTIONS: usize = 64;

/// The most notes one connection may write (each is saved with the record).
pub const MAX_PEER_NOTES: usize = 200;

/// How long the host waits, at the end, for its peers to take the match's end.
const END_WAIT: Duration = Duration::from_secs(10);

/// Who plays a seat of a hosted match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sitter {
    /// The person at the host's terminal.
    Terminal,
    /// A person (or a policy) who joins with the code.
    Remote,
    /// The computer, on the host.
    Computer(Policy),
}

impl Sitter {
    /// `host`, `remote`, or a policy's name.
    pub fn parse(s: &str) -> Option<Sitter> {
        match s {
            "host" => Some(Sitter::Terminal),
            "remote" => Some(Sitter::Remote),
            p => Policy::parse(p).map(Sitter::Computer),
        }
    }

    pub fn name(&self) -> String {
        match self {
            Sitter::Terminal => "host".into(),
            Sitter::Remote => "remote".into(),
            Sitter::Computer(p) => p.seat_view().name(),
        }
    }

    /// The session's seat: a person's for the terminal and a remote peer; the computer's
    /// policy decides from its seat's own view ([`Policy::seat_view`]: `greedy` and `mcts`
    /// become `seat-greedy` and `seat-mcts`), so a hosted computer never reads a fact hidden
    /// from its seat.
    pub fn seat(&self) -> Seat {
        match self {
            Sitter::Computer(p) => Seat::Computer(p.seat_view()),
            _ => Seat::Person,
        }
    }
}

/// The game a host offers, as a `Welcome` names it, with the cards that travel with it.
#[derive(Debug, Clone)]
pub struct Lobby {
    pub game: String,
    pub title: String,
    pub engine: u32,
    /// The match's cards and their art ([`super::cards::card_set`]), sent to every peer.
    pub cards: Arc<CardSet>,
}

/// What the connections (and the host's terminal) tell the authority.
pub enum Event {
    Join {
        id: u64,
        watch: bool,
        out: tmpsc::UnboundedSender<ToPeer>,
        /// When the connection last heard from the peer (kept by the connection, so a
        /// long computer's turn here does not make a peer look silent).
        heard: Arc<Mutex<Instant>>,
        reply: oneshot::Sender<Result<(), String>>,
    },
    Decide {
        id: u64,
        seat: usize,
        step: usize,
        option: usize,
    },
    Left {
        id: u64,
        why: String,
    },
    /// A playtest note from a peer.
    Note {
        id: u64,
        text: String,
    },
    /// A peer refused at the door, and why.
    Turned {
        why: String,
    },
    /// The host's connection to its relay closed: nobody can join any more.
    RelayLost {
        why: String,
    },
    /// A line typed at the host's terminal.
    Terminal(String),
    /// The host's terminal closed (end of input).
    TerminalClosed,
    /// The host's face stops the match before its end (the app's Stop hosting): every peer
    /// is told so and [`Host::play`] returns [`HostError::Stopped`].
    Stop,
}

/// Who came to or went from the table, as the authority saw it (what a face shows of who is
/// present; the same is said in words by [`Table::note`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Presence {
    /// A peer was let in: at its seat, or a spectator (`None`).
    Joined { seat: Option<usize> },
    /// A peer left (its connection closed, it fell silent, it was put out), and why.
    Left { seat: Option<usize>, why: String },
    /// A remote seat was handed to the computer with this policy.
    Dropped { seat: usize, policy: Policy },
}

/// What the host's terminal shows and keeps, as the match goes.
pub trait Table {
    /// New log lines.
    fn log(&mut self, lines: &[LogLine]);
    /// A seat played at this terminal decides: the question and its options.
    fn ask(&mut self, seat: usize, question: &str, options: &[String]);
    /// A note (a peer joined, left, was refused; a typed answer not taken).
    fn note(&mut self, text: &str);
    /// The session after new inputs (to keep its record).
    fn saved(&mut self, session: &Session);
    /// Someone came or went ([`Presence`]); a terminal that shows only notes ignores it.
    fn presence(&mut self, _change: Presence) {}
}

/// Why a hosted match stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("the terminal closed while Player {0} (played there) was to decide")]
    TerminalClosed(usize),
    /// `quit` was typed at the host's terminal: the match stops where it is.
    #[error("the host stopped the match at step {0}")]
    Quit(usize),
    /// A face stopped hosting (`Event::Stop`).
    #[error("the host stopped the match")]
    Stopped,
}

/// What the host's terminal may type besides a decision's number.
pub const TERMINAL_HELP: &str = "note TEXT (a playtest note on this step), drop N [POLICY] (the computer plays seat N from now on), quit (stop; the record is kept)";

/// A listening host: its runtime, endpoint and join code, and the authority's inbox.
pub struct Host {
    rt: tokio::runtime::Runtime,
    endpoint: quinn::Endpoint,
    code: JoinCode,
    events: mpsc::Receiver<Event>,
    tx: mpsc::Sender<Event>,
    lobby: Lobby,
    /// A remote seat whose peer leaves (its connection closed, or silent for [`IDLE`]) is
    /// handed to the computer with this policy; `None`: it waits for a rejoin.
    pub drop_to: Option<Policy>,
}

/// The host's small runtime for its connections.
fn runtime() -> Result<tokio::runtime::Runtime, NetError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("deckwright-net")
        .enable_all()
        .build()
        .map_err(|e| NetError::Io(e.to_string()))
}

impl Door {
    fn new(secret: &[u8; 16], lobby: &Lobby, events: &mpsc::Sender<Event>) -> Arc<Door> {
        Arc::new(Door {
            secret: hex(secret),
            lobby: lobby.clone(),
            events: events.clone(),
            open: AtomicUsize::new(0),
            next: std::sync::atomic::AtomicU64::new(0),
        })
    }
}

/// What a connection checks before it asks the authority for a seat.
struct Door {
    secret: String,
    lobby: Lobby,
    events: mpsc::Sender<Event>,
    open: AtomicUsize,
    /// The id of the last connection let in at the door.
    next: std::sync::atomic::AtomicU64,
}

/// One peer let in.
struct Peer {
    seat: Option<usize>,
    out: tmpsc::UnboundedSender<ToPeer>,
    heard: Arc<Mutex<Instant>>,
    /// The step it was last asked to decide.
    asked: Option<usize>,
    /// Which cards of the match's set it has been sent, by index.
    cards_sent: Vec<bool>,
    /// How many notes it has written.
    notes: usize,
}

impl Host {
    /// Listens on `listen` (port 0: any free port) with a fresh certificate and secret.
    pub fn start(listen: SocketAddr, lobby: Lobby) -> Result<Host, NetError> {
        let id = Identity::new()?;
        let secret = random::<16>()?;
        let rt = runtime()?;
        let endpoint = {
            let _in = rt.enter();
            quinn::Endpoint::server(server_config(&id)?, listen)
                .map_err(|e| NetError::Io(format!("cannot listen on {listen}: {e}")))?
        };
        let local = endpoint
            .local_addr()
            .map_err(|e| NetError::Io(e.to_string()))?;
        let code = JoinCode {
            addr: advertised(local),
            fingerprint: id.fingerprint,
            secret,
            relay: None,
        };
        let (tx, events) = mpsc::channel();
        let door = Door::new(&secret, &lobby, &tx);
        rt.spawn(accept(endpoint.clone(), door));
        Ok(Host {
            rt,
            endpoint,
            code,
            events,
            tx,
            lobby,
            drop_to: None,
        })
    }

    /// Hosts through the relay `relay` (`deckwright relay`): opens a connection to it and is
    /// given a room, which the code names with the relay. Each peer that joins there comes
    /// as a stream the relay splices to this connection, and speaks TLS 1.3 with this host
    /// inside it (this host's certificate, pinned by the code): the relay reads nothing.
    pub fn start_relayed(relay: RelayAddr, lobby: Lobby) -> Result<Host, NetError> {
        let id = Identity::new()?;
        let secret = random::<16>()?;
        let tls = tokio_rustls::TlsAcceptor::from(stream_server(&id)?);
        let rt = runtime()?;
        let room = rt.block_on(super::relay::open_host_room(relay))?;
        let code = JoinCode {
            addr: relay.addr,
            fingerprint: id.fingerprint,
            secret,
            relay: Some(Relayed {
                fingerprint: relay.fingerprint,
                room: room.room,
            }),
        };
        let endpoint = room.endpoint.clone();
        let (tx, events) = mpsc::channel();
        let door = Door::new(&secret, &lobby, &tx);
        rt.spawn(accept_relayed(room, tls, door));
        Ok(Host {
            rt,
            endpoint,
            code,
            events,
            tx,
            lobby,
            drop_to: None,
        })
    }

    /// The code to send to the friends who join.
    pub fn code(&self) -> &JoinCode {
        &self.code
    }

    /// Where the host's terminal sends the lines typed there.
    pub fn terminal(&self) -> mpsc::Sender<Event> {
        self.tx.clone()
    }

    /// Plays `session` to its end with `sitters` at its seats ([`Sitter::seat`] already
    /// the session's seats), then tells every peer the end and waits (a while) for them to
    /// take it.
    pub fn play(
        &mut self,
        session: &mut Session,
        sitters: &[Sitter],
        table: &mut dyn Table,
    ) -> Result<(), HostError> {
        // A dropped seat handed to the computer changes who sits there.
        let mut sitters = sitters.to_vec();
        let sitters = &mut sitters;
        let mut peers: HashMap<u64, Peer> = HashMap::new();
        let mut sent = 0usize;
        let mut inputs_saved = usize::MAX;
        let mut terminal_asked: Option<usize> = None;
        let mut terminal_closed = false;
        let stop = Arc::new(AtomicBool::new(false));
        // The terminal sees the view of the one seat played there; a terminal that plays
        // no seat (or several) runs the match and sees all of it, as its record file does.
        let here: Vec<usize> = (0..sitters.len())
            .filter(|&s| sitters[s] == Sitter::Terminal)
            .collect();
        let terminal_view = match here.as_slice() {
            [one] => View::Seat(*one),
            _ => View::All,
        };
        loop {
            session.play_computer(&stop);
            let total = session.lines().count();
            if total > sent {
                table.log(&log_lines(session, terminal_view, sent));
                for p in peers.values_mut() {
                    let lines = log_lines(session, View::of(p.seat), sent);
                    for m in log_messages(sent, &lines) {
                        let _ = p.out.send(m);
                    }
                    let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
                    send_named(&self.lobby.cards, p, &texts);
                }
                sent = total;
            }
            if session.len() != inputs_saved {
                table.saved(session);
                inputs_saved = session.len();
            }
            let step = session.len();
            match session.latest().turn() {
                Turn::Over => break,
                Turn::Seat { seat, options } => {
                    let question = session.latest().question();
                    let described = || -> Vec<String> {
                        (0..options).map(|i| session.latest().describe(i)).collect()
                    };
                    match sitters.get(seat).copied() {
                        Some(Sitter::Terminal) => {
                            if terminal_closed {
                                return Err(HostError::TerminalClosed(seat + 1));
                            }
                            if terminal_asked != Some(step) {
                                table.ask(seat, &question, &described());
                                terminal_asked = Some(step);
                            }
                        }
                        Some(Sitter::Remote) => {
                            for p in peers.values_mut() {
                                if p.seat == Some(seat) && p.asked != Some(step) {
                                    let options = described();
                                    let texts: Vec<&str> = std::iter::once(question.as_str())
                                        .chain(options.iter().map(String::as_str))
                                        .collect();
                                    send_named(&self.lobby.cards, p, &texts);
                                    let _ = p.out.send(ToPeer::Ask {
                                        seat,
                                        step,
                                        question: question.clone(),
                                        options,
                                    });
                                    p.asked = Some(step);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                // Chance with no outcome to give (a record whose dice ran out): it stops here.
                Turn::Chance(_) => break,
            }
            let Ok(event) = self.events.recv() else {
                break;
            };
            match event {
                Event::Join {
                    id,
                    watch,
                    out,
                    heard,
                    reply,
                } => {
                    let seat = if watch {
                        let watchers = peers.values().filter(|p| p.seat.is_none()).count();
                        if watchers >= MAX_WATCHERS {
                            Err(format!("the match has {MAX_WATCHERS} spectators already"))
                        } else {
                            Ok(None)
                        }
                    } else {
                        free_seat(sitters.as_slice(), &mut peers).map(Some)
                    };
                    match seat {
                        Err(why) => {
                            table.note(&format!("refused a peer: {why}"));
                            let _ = reply.send(Err(why));
                        }
                        Ok(seat) => {
                            let _ = out.send(welcome(&self.lobby, seat, sitters));
                            for n in &session.notes {
                                let _ = out.send(ToPeer::Note {
                                    step: n.step,
                                    by: n.by.clone(),
                                    text: n.text.clone(),
                                });
                            }
                            let lines = log_lines(session, View::of(seat), 0);
                            let lines = &lines[..sent.min(lines.len())];
                            for m in log_messages(0, lines) {
                                let _ = out.send(m);
                            }
                            let mut peer = Peer {
                                seat,
                                out,
                                heard,
                                asked: None,
                                cards_sent: vec![false; self.lobby.cards.cards.len()],
                                notes: 0,
                            };
                            let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
                            send_named(&self.lobby.cards, &mut peer, &texts);
                            if reply.send(Ok(())).is_ok() {
                                table.note(&match seat {
                                    Some(s) => format!("Player {} joined", s + 1),
                                    None => "a spectator joined".into(),
                                });
                                table.presence(Presence::Joined { seat });
                                peers.insert(id, peer);
                            }
                        }
                    }
                }
                Event::Decide {
                    id,
                    seat,
                    step,
                    option,
                } => {
                    let Some(p) = peers.get_mut(&id) else {
                        continue;
                    };
                    let refused = match p.seat {
                        None => Some("a spectator does not decide".to_string()),
                        Some(held) if held != seat => Some(format!(
                            "this connection holds Player {}'s seat, not Player {}'s",
                            held + 1,
                            seat + 1
                        )),
                        Some(_) => session
                            .decide_as(seat, step, option)
                            .err()
                            .map(|r| r.to_string()),
                    };
                    if let Some(reason) = refused {
                        table.note(&format!("refused a decision: {reason}"));
                        let _ = p.out.send(ToPeer::Rejected {
                            step,
                            option,
                            reason,
                        });
                        // Asked again if it is still its decision.
                        p.asked = None;
                    }
                }
                Event::Left { id, why } => {
                    if let Some(p) = peers.remove(&id) {
                        // Said to a peer put out for what it sent (a closed one hears nothing).
                        let _ = p.out.send(ToPeer::Refused {
                            reason: format!("put out: {why}"),
                        });
                        table.note(&match p.seat {
                            Some(s) => format!("Player {} left ({why})", s + 1),
                            None => format!("a spectator left ({why})"),
                        });
                        table.presence(Presence::Left { seat: p.seat, why });
                        if let (Some(seat), Some(policy)) = (p.seat, self.drop_to) {
                            hand_over(session, sitters, &mut peers, table, seat, policy);
                        }
                    }
                }
                Event::Note { id, text } => {
                    let Some(p) = peers.get_mut(&id) else {
                        continue;
                    };
                    let by = match p.seat {
                        Some(s) => format!("Player {}", s + 1),
                        None => "a spectator".to_string(),
                    };
                    p.notes += 1;
                    let kept = if p.notes > MAX_PEER_NOTES {
                        Err(format!(
                            "the note was not kept: a connection writes at most {MAX_PEER_NOTES} notes"
                        ))
                    } else {
                        add_note(session, &peers, table, &by, &text)
                    };
                    if let Err(why) = kept
                        && let Some(p) = peers.get(&id)
                    {
                        let _ = p.out.send(ToPeer::Rejected {
                            step: session.len(),
                            option: 0,
                            reason: why,
                        });
                    }
                }
                Event::Turned { why } => table.note(&format!("refused a peer: {why}")),
                Event::RelayLost { why } => table.note(&format!(
                    "the connection to the relay closed ({why}): nobody can join any more"
                )),
                Event::Terminal(text) => {
                    match command(&text) {
                        Some(Command::Note(note)) => {
                            if let Err(why) = add_note(session, &peers, table, "the host", note) {
                                table.note(&why);
                            }
                            continue;
                        }
                        Some(Command::Drop(seat, policy)) => {
                            match sitters.get(seat) {
                                Some(Sitter::Remote) => {
                                    hand_over(session, sitters, &mut peers, table, seat, policy)
                                }
                                _ => table.note(&format!(
                                    "drop: Player {} is not a remote seat of this match",
                                    seat + 1
                                )),
                            }
                            continue;
                        }
                        Some(Command::Quit) => {
                            for p in peers.values() {
                                let _ = p.out.send(ToPeer::Refused {
                                    reason: format!(
                                        "the host stopped the match at step {} (it keeps the record and may host it again)",
                                        session.len()
                                    ),
                                });
                            }
                            table.saved(session);
                            return Err(HostError::Quit(session.len()));
                        }
                        Some(Command::Bad(why)) => {
                            table.note(&why);
                            continue;
                        }
                        None => {}
                    }
                    let here = match session.latest().turn() {
                        Turn::Seat { seat, options }
                            if sitters.get(seat) == Some(&Sitter::Terminal) =>
                        {
                            Some((seat, options))
                        }
                        _ => None,
                    };
                    match here {
                        None => table.note(&format!(
                            "it is not a decision of this terminal's; type {TERMINAL_HELP}"
                        )),
                        Some((seat, options)) => {
                            let taken = text
                                .trim()
                                .parse::<usize>()
                                .ok()
                                .filter(|n| (1..=options).contains(n))
                                .map(|n| session.decide_as(seat, step, n - 1));
                            if !matches!(taken, Some(Ok(()))) {
                                table.note(&format!("enter a number from 1 to {options}"));
                                terminal_asked = None;
                            }
                        }
                    }
                }
                Event::TerminalClosed => terminal_closed = true,
                Event::Stop => {
                    self.stop(peers, table);
                    return Err(HostError::Stopped);
                }
            }
        }
        self.end(session, peers, table);
        Ok(())
    }

    /// Tells every peer the end, and waits up to [`END_WAIT`] for them to leave.
    fn end(&mut self, session: &Session, mut peers: HashMap<u64, Peer>, table: &mut dyn Table) {
        let report = final_report(session);
        let mut end = ToPeer::End {
            result: report.tail.clone(),
            report: report.json.clone(),
            record: session.record().to_toml(),
        };
        // A report too long for one frame goes without its log (the peers have it).
        if encode(&end, MAX_TO_PEER).is_err()
            && let ToPeer::End { report, .. } = &mut end
            && let Some(fields) = report.as_object_mut()
        {
            fields.remove("log");
        }
        // The end, then every card not sent yet (the record names them all now).
        for p in peers.values_mut() {
            let _ = p.out.send(end.clone());
            for k in 0..self.lobby.cards.cards.len() {
                if !p.cards_sent[k] {
                    send_card(&self.lobby.cards, p, k);
                }
            }
        }
        self.wait_for_leaving(peers, "the match is over", "take the end", table);
    }

    /// Tells every peer the match was stopped, and waits up to [`END_WAIT`] for them to
    /// leave (so they hear why before the endpoint closes).
    fn stop(&mut self, peers: HashMap<u64, Peer>, table: &mut dyn Table) {
        for p in peers.values() {
            let _ = p.out.send(ToPeer::Refused {
                reason: "the host stopped the match".into(),
            });
        }
        self.wait_for_leaving(peers, "the host stopped the match", "leave", table);
    }

    /// Waits up to [`END_WAIT`] for `peers` to leave, refusing a late joiner with `refusal`;
    /// says how many did not `what` in time.
    fn wait_for_leaving(
        &mut self,
        mut peers: HashMap<u64, Peer>,
        refusal: &str,
        what: &str,
        table: &mut dyn Table,
    ) {
        let deadline = Instant::now() + END_WAIT;
        while !peers.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(Event::Left { id, .. }) => {
                    peers.remove(&id);
                }
                Ok(Event::Join { reply, .. }) => {
                    let _ = reply.send(Err(refusal.into()));
                }
                Ok(_) => {}
                Err(_) => {
                    table.note(&format!("{} peer(s) did not {what} in time", peers.len()));
                    break;
                }
            }
        }
    }

    /// Closes the endpoint (after [`Host::play`]).
    pub fn close(self) {
        self.endpoint.close(0u32.into(), b"the match is over");
        let ep = self.endpoint.clone();
        self.rt.block_on(async {
            let _ = tokio::time::timeout(Duration::from_secs(2), ep.wait_idle()).await;
        });
        self.rt.shutdown_timeout(Duration::from_secs(1));
    }
}

/// The report of the match as `play` and `replay` print it: its game's own report of the
/// record (the session's generic one if the record would not replay).
pub fn final_report(session: &Session) -> crate::games::report::Report {
    crate::games::registry::replay(&session.record(), None, &Vec::<crate::cards::Card>::new())
        .unwrap_or_else(|_| session.report())
}

/// Whose view of the log is sent ([`log_lines`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Everything: one person watching the whole match (the host's record holds it all).
    All,
    /// What a seat may see: its own secrets and what is public.
    Seat(usize),
    /// A spectator's: only what every seat may see.
    Public,
}

impl View {
    /// A peer's view: its seat's, or a spectator's.
    pub fn of(seat: Option<usize>) -> View {
        seat.map_or(View::Public, View::Seat)
    }
}

/// The log of `session` from line `from` on, as `view` sees it, as it travels: a line a
/// seat may not see whole (the game's [`crate::games::game::Game::hidden`]) goes as its
/// redacted text, never the hidden fact.
pub fn log_lines(session: &Session, view: View, from: usize) -> Vec<LogLine> {
    let seat = match view {
        View::All => {
            return session
                .lines()
                .skip(from)
                .map(|(k, (kind, text))| LogLine::new(k, *kind, text))
                .collect();
        }
        View::Seat(s) => Some(s),
        View::Public => None,
    };
    session
        .lines_for(seat, from)
        .into_iter()
        .map(|(k, (kind, text))| LogLine::new(k, kind, &text))
        .collect()
}

/// The `Welcome` for a peer given `seat` (none: a spectator): the game, the seats, and
/// the commitments to the match's cards.
fn welcome(lobby: &Lobby, seat: Option<usize>, sitters: &[Sitter]) -> ToPeer {
    ToPeer::Welcome {
        protocol: PROTOCOL,
        game: lobby.game.clone(),
        title: lobby.title.clone(),
        engine: lobby.engine,
        seat,
        seats: sitters.iter().map(|s| s.name()).collect(),
        cards: lobby.cards.commitments(),
        card_set: lobby.cards.digest.clone(),
    }
}

/// Sends `p` the cards of the set that `texts` (what it was just sent) name and it has not
/// been sent yet: a card reaches a peer once its own view names it.
fn send_named(set: &CardSet, p: &mut Peer, texts: &[&str]) {
    for k in set.named_in(texts, &p.cards_sent) {
        send_card(set, p, k);
    }
}

/// Sends `p` card `k` of the set (its file, salt and picture).
fn send_card(set: &CardSet, p: &mut Peer, k: usize) {
    let c = &set.cards[k];
    let _ = p.out.send(ToPeer::Card {
        text: c.text.clone(),
        salt: hex(&c.salt),
        art: c.art.as_ref().map(|a| hex(&a.bytes)),
    });
    if let Some(sent) = p.cards_sent.get_mut(k) {
        *sent = true;
    }
}

/// A line typed at the host's terminal that is not a decision's number.
enum Command<'a> {
    Note(&'a str),
    Drop(usize, Policy),
    Quit,
    Bad(String),
}

/// The command `text` types, if it is one ([`TERMINAL_HELP`]).
fn command(text: &str) -> Option<Command<'_>> {
    let text = text.trim();
    let (word, rest) = text.split_once(' ').unwrap_or((text, ""));
    let rest = rest.trim();
    match word {
        "note" => Some(Command::Note(rest)),
        "quit" if rest.is_empty() => Some(Command::Quit),
        "drop" => {
            let mut parts = rest.split_whitespace();
            let seat = parts.next().and_then(|n| n.parse::<usize>().ok());
            let policy = match parts.next() {
                None => Some(Policy::Greedy),
                Some(p) => Policy::parse(p),
            };
            Some(match (seat, policy, parts.next()) {
                (Some(n), Some(p), None) if n >= 1 => Command::Drop(n - 1, p),
                _ => Command::Bad(
                    "drop N [POLICY]: the seat's number, and a policy (greedy if none)".into(),
                ),
            })
        }
        _ => None,
    }
}

/// Hands remote seat `seat` to the computer with `policy` from this step on: its peer (if
/// any) is put out, and a note on the record says so.
fn hand_over(
    session: &mut Session,
    sitters: &mut [Sitter],
    peers: &mut HashMap<u64, Peer>,
    table: &mut dyn Table,
    seat: usize,
    policy: Policy,
) {
    if sitters.get(seat) != Some(&Sitter::Remote) {
        return;
    }
    sitters[seat] = Sitter::Computer(policy);
    if let Some(s) = session.seats.get_mut(seat) {
        *s = Seat::Computer(policy);
    }
    let held: Vec<u64> = peers
        .iter()
        .filter(|(_, p)| p.seat == Some(seat))
        .map(|(&id, _)| id)
        .collect();
    for id in held {
        if let Some(p) = peers.remove(&id) {
            let _ = p.out.send(ToPeer::Refused {
                reason: format!("the host handed Player {}'s seat to the computer", seat + 1),
            });
        }
    }
    table.presence(Presence::Dropped { seat, policy });
    let text = format!(
        "Player {}'s seat was handed to the computer ({})",
        seat + 1,
        policy.name()
    );
    if let Err(why) = add_note(session, peers, table, "the host", &text) {
        table.note(&why);
    }
}

/// Adds a playtest note at the match's current step, tells every peer and the terminal,
/// and keeps the record; why not, for a note that cannot be kept.
fn add_note(
    session: &mut Session,
    peers: &HashMap<u64, Peer>,
    table: &mut dyn Table,
    by: &str,
    text: &str,
) -> Result<(), String> {
    let note = Note {
        step: session.len(),
        by: by.to_string(),
        text: text.trim().to_string(),
    };
    if let Some(why) = note.problem() {
        return Err(format!("the note was not kept: {why}"));
    }
    if session.notes.len() >= MAX_NOTES {
        return Err(format!(
            "the note was not kept: a match keeps {MAX_NOTES} notes"
        ));
    }
    table.note(&format!(
        "note at step {}, {}: {}",
        note.step, note.by, note.text
    ));
    for p in peers.values() {
        let _ = p.out.send(ToPeer::Note {
            step: note.step,
            by: note.by.clone(),
            text: note.text.clone(),
        });
    }
    session.notes.push(note);
    table.saved(session);
    Ok(())
}

/// How long since a peer was last heard from.
fn quiet(heard: &Mutex<Instant>) -> Duration {
    heard.lock().map(|h| h.elapsed()).unwrap_or_default()
}

/// The seat a new player takes: the first remote seat nobody holds, else the first whose
/// peer fell silent (that peer is put out), else none: the match is full.
fn free_seat(sitters: &[Sitter], peers: &mut HashMap<u64, Peer>) -> Result<usize, String> {
    let remote: Vec<usize> = (0..sitters.len())
        .filter(|&s| sitters[s] == Sitter::Remote)
        .collect();
    if remote.is_empty() {
        return Err("this match has no remote seat (join with --watch)".into());
    }
    let holder = |s: usize, peers: &HashMap<u64, Peer>| {
        peers
            .iter()
            .find(|(_, p)| p.seat == Some(s))
            .map(|(&id, p)| (id, quiet(&p.heard)))
    };
    if let Some(&s) = remote.iter().find(|&&s| holder(s, peers).is_none()) {
        return Ok(s);
    }
    for &s in &remote {
        if let Some((id, quiet)) = holder(s, peers)
            && quiet > SILENT
        {
            if let Some(old) = peers.remove(&id) {
                let _ = old.out.send(ToPeer::Refused {
                    reason: "another peer took this seat with the code".into(),
                });
            }
            return Ok(s);
        }
    }
    Err("the match is full: every remote seat is taken".into())
}

/// The address the code names: where the host listens, or (listening on every interface)
/// the address this machine reaches the network from, else the loopback.
pub(super) fn advertised(local: SocketAddr) -> SocketAddr {
    if !local.ip().is_unspecified() {
        return local;
    }
    // No packet is sent: connecting a UDP socket only picks the outgoing interface.
    let ip = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|s| {
            s.connect((Ipv4Addr::new(192, 0, 2, 1), 9))?;
            s.local_addr()
        })
        .map(|a| a.ip())
        .ok()
        .filter(|ip| !ip.is_unspecified())
        .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    SocketAddr::new(ip, local.port())
}

async fn accept(endpoint: quinn::Endpoint, door: Arc<Door>) {
    while let Some(incoming) = endpoint.accept().await {
        if door.open.load(Ordering::Relaxed) >= MAX_CONNECTIONS {
            incoming.refuse();
            continue;
        }
        let id = door.next.fetch_add(1, Ordering::Relaxed) + 1;
        door.open.fetch_add(1, Ordering::Relaxed);
        let door = door.clone();
        tokio::spawn(async move {
            serve(incoming, id, &door).await;
            door.open.fetch_sub(1, Ordering::Relaxed);
        });
    }
}

/// Takes the peers the relay splices to this host's connection: each stream is a peer's,
/// its TLS 1.3 handshake with this host first, then served as a direct peer is.
async fn accept_relayed(
    room: super::relay::HostRoom,
    tls: tokio_rustls::TlsAcceptor,
    door: Arc<Door>,
) {
    // The stream the room was asked on stays open while the host is.
    let _control = room.control;
    let why = loop {
        let (send, recv) = match room.conn.accept_bi().await {
            Ok(s) => s,
            Err(e) => break e.to_string(),
        };
        if door.open.load(Ordering::Relaxed) >= MAX_CONNECTIONS {
            drop((send, recv));
            continue;
        }
        let id = door.next.fetch_add(1, Ordering::Relaxed) + 1;
        door.open.fetch_add(1, Ordering::Relaxed);
        let door = door.clone();
        let tls = tls.clone();
        tokio::spawn(async move {
            let shake =
                tokio::time::timeout(HELLO_TIMEOUT, tls.accept(tokio::io::join(recv, send))).await;
            match shake {
                Ok(Ok(stream)) => {
                    let (recv, send) = tokio::io::split(stream);
                    serve_stream(recv, send, id, &door).await;
                }
                Ok(Err(e)) => {
                    let _ = door.events.send(Event::Turned {
                        why: format!("no TLS handshake through the relay: {e}"),
                    });
                }
                Err(_) => {
                    let _ = door.events.send(Event::Turned {
                        why: "no TLS handshake through the relay: timed out".into(),
                    });
                }
            }
            door.open.fetch_sub(1, Ordering::Relaxed);
        });
    };
    let _ = door.events.send(Event::RelayLost { why });
}

/// The sending half of a peer's stream: a QUIC stream of a direct peer, or the TLS
/// through a relay.
trait Outbound: AsyncWrite + Unpin + Send + 'static {
    /// Ends the stream, waiting up to `wait` for the peer to take what was sent.
    fn end(self, wait: Duration) -> impl Future<Output = ()> + Send;
}

impl Outbound for quinn::SendStream {
    async fn end(mut self, wait: Duration) {
        let _ = self.finish();
        let _ = tokio::time::timeout(wait, self.stopped()).await;
    }
}

impl<S: AsyncRead + AsyncWrite + Send + 'static> Outbound for tokio::io::WriteHalf<S> {
    async fn end(mut self, wait: Duration) {
        // TLS's close, then the end of the spliced stream (the relay passes it on).
        let _ = tokio::time::timeout(wait, self.shutdown()).await;
    }
}

/// Reads the `Hello` and checks it: the protocol's version first, then the secret, then the
/// game's engine version. Whether the peer watches.
async fn admit<R: AsyncRead + Unpin>(recv: &mut R, door: &Door) -> Result<bool, String> {
    let body = read_frame(recv, Some(HELLO_TIMEOUT), MAX_TO_HOST)
        .await
        .map_err(|e| format!("no hello: {e}"))?;
    let value: serde_json::Value =
        serde_json::from_slice(&body).map_err(|_| "the first frame is not a hello".to_string())?;
    let protocol = value.get("protocol").and_then(|p| p.as_u64());
    if protocol != Some(u64::from(PROTOCOL)) {
        return Err(format!(
            "protocol version mismatch: the peer speaks {}, this host speaks {PROTOCOL}",
            protocol.map_or("none".to_string(), |p| p.to_string())
        ));
    }
    let Ok(ToHost::Hello {
        secret,
        watch,
        engines,
        ..
    }) = serde_json::from_value(value)
    else {
        return Err("the first frame is not a hello".into());
    };
    if !same_secret(secret.as_bytes(), door.secret.as_bytes()) {
        return Err("wrong secret".into());
    }
    let game = &door.lobby.game;
    let engine = door.lobby.engine;
    match engines.iter().find(|(g, _)| g == game) {
        Some((_, e)) if *e == engine => Ok(watch),
        Some((_, e)) => Err(format!(
            "version mismatch: this host plays {game} with engine {engine}, the peer with engine {e}"
        )),
        None => Err(format!("the peer does not play {game}")),
    }
}

/// Writes `Refused` and ends the stream.
async fn refuse<W: Outbound>(mut send: W, reason: &str) {
    if let Ok(frame) = encode(
        &ToPeer::Refused {
            reason: reason.to_string(),
        },
        MAX_TO_PEER,
    ) {
        let _ = write_bytes(&mut send, &frame).await;
    }
    send.end(Duration::from_secs(2)).await;
}

/// One direct connection, from its handshake to its end.
async fn serve(incoming: quinn::Incoming, id: u64, door: &Door) {
    let turned = |why: String| {
        let _ = door.events.send(Event::Turned { why });
    };
    let conn = match tokio::time::timeout(HELLO_TIMEOUT, incoming).await {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => return turned(format!("no connection: {e}")),
        Err(_) => return turned("no connection: timed out".into()),
    };
    let (send, recv) = match tokio::time::timeout(HELLO_TIMEOUT, conn.accept_bi()).await {
        Ok(Ok(s)) => s,
        _ => {
            conn.close(1u32.into(), b"no stream opened");
            return turned("no stream opened".into());
        }
    };
    let (code, why) = serve_stream(recv, send, id, door).await;
    conn.close(code.into(), why.as_bytes());
}

/// One peer's stream (direct or through a relay), from its `Hello` to its end: the code
/// its connection closes with (1: refused) and why.
async fn serve_stream<R: AsyncRead + Unpin + Send, W: Outbound>(
    mut recv: R,
    send: W,
    id: u64,
    door: &Door,
) -> (u32, String) {
    let watch = match admit(&mut recv, door).await {
        Ok(w) => w,
        Err(why) => {
            refuse(send, &why).await;
            let _ = door.events.send(Event::Turned { why: why.clone() });
            return (1, why);
        }
    };
    let (out, mut queue) = tmpsc::unbounded_channel();
    let (reply, answer) = oneshot::channel();
    let heard = Arc::new(Mutex::new(Instant::now()));
    let _ = door.events.send(Event::Join {
        id,
        watch,
        out,
        heard: heard.clone(),
        reply,
    });
    match answer.await {
        Ok(Ok(())) => {}
        Ok(Err(why)) => {
            refuse(send, &why).await;
            return (1, why);
        }
        Err(_) => {
            let why = "the host is closing".to_string();
            refuse(send, &why).await;
            return (1, why);
        }
    }
    let mut send = send;
    let writer = tokio::spawn(async move {
        while let Some(msg) = queue.recv().await {
            // The cards left follow the end: the writer ends when the authority lets go.
            let last = matches!(msg, ToPeer::Refused { .. });
            let Ok(frame) = encode(&msg, MAX_TO_PEER) else {
                break;
            };
            if write_bytes(&mut send, &frame).await.is_err() {
                break;
            }
            if last {
                break;
            }
        }
        send.end(WRITE_TIMEOUT).await;
    });
    let why = loop {
        let msg = read_msg::<_, ToHost>(&mut recv, Some(IDLE), MAX_TO_HOST).await;
        if msg.is_ok()
            && let Ok(mut h) = heard.lock()
        {
            *h = Instant::now();
        }
        match msg {
            Ok(ToHost::Decide { seat, step, option }) => {
                let _ = door.events.send(Event::Decide {
                    id,
                    seat,
                    step,
                    option,
                });
            }
            Ok(ToHost::Heartbeat) => {}
            Ok(ToHost::Note { text }) => {
                let _ = door.events.send(Event::Note { id, text });
            }
            Ok(ToHost::Hello { .. }) => break "a second hello".to_string(),
            Err(wire::WireError::Closed) => break "closed".to_string(),
            Err(e) => break e.to_string(),
        }
    };
    let _ = door.events.send(Event::Left {
        id,
        why: why.clone(),
    });
    // The writer ends with the end of the match, or when the authority lets the peer go.
    let _ = tokio::time::timeout(WRITE_TIMEOUT, writer).await;
    (0, why)
}
