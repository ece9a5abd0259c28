//! Host or join a match over the network from the Match screen (`net::host`, `net::client`,
//! the same as `deckwright host` and `deckwright join`).
//!
//! - **Host**: a game (Pig or another that starts from its rules alone, Iconoclasm dealt from
//!   the catalogue, Arcadia's quest setup and Ruunara's mission, squad and mode as their
//!   boards have them (duo and the contest included), Iconica from the Party screen's two
//!   parties, or 2 against 2 from four
//!   party files compiled by `IconicaOptions::compile` as `host iconica` does, with the
//!   Match screen's rules) or a match file of any game played on from the input chosen (as `host --from
//!   --to`), who sits at each seat (you, a remote person, or the computer with a policy), the
//!   seed, where to listen or a relay to host through (`deckwright relay`'s line); Start
//!   hosting shows the join code (Copy) and who has joined (the host's typed
//!   [`crate::net::host::Presence`] events, not its notes' words); the match runs on
//!   the host's own thread ([`crate::net::host::Host::play`]), and the seat played here is
//!   asked its question with the options as buttons (keys 1-9), its log as that seat sees
//!   it; Stop hosting.
//! - **Join**: a pasted code, Join (or Watch as a spectator), the seat's question and
//!   options, its view of the log, the outcome at the end; a refusal or a lost connection
//!   said whole; Leave.
//!
//! Every network call runs on a thread of its own; the UI polls its channel each frame and
//! the thread asks for a repaint when it sends something.

use std::net::SocketAddr;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::Duration;

use super::MatchOptions;
use super::iconica_board::IconicaBoard;
use super::iconoclasm::IconoclasmBoard;
use super::session_view::{Board, OptionsBoard};
use crate::app::Env;
use crate::games::ai::Policy;
use crate::games::registry::{self, Registration};
use crate::games::session::Session;
use crate::net::NetError;
use crate::net::client::{Link, Welcome};
use crate::net::code::JoinCode;
use crate::net::code::RelayAddr;
use crate::net::host::{self, Event, Host, HostError, Lobby, Sitter, Table};
use crate::net::wire::{LogLine, ToHost, ToPeer};

/// How long the link's thread waits for a message before it looks at the UI's commands.
const POLL: Duration = Duration::from_millis(40);

/// Hosting or joining.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Side {
    #[default]
    Host,
    Join,
}

/// The network view of the Match screen.
#[derive(Default)]
pub struct NetworkPanel {
    pub side: Side,
    pub host: HostPanel,
    pub join: JoinPanel,
}

/// What a new hosted match starts from besides the Match screen's rules: the Arcadia and
/// Ruunara boards' choices (a quest setup and its Day limit; a mission, a squad and a mode),
/// as their own Play views start a match.
pub struct Boards<'a> {
    pub arcadia: &'a super::session_view::SessionView<super::arcadia::ArcadiaBoard>,
    pub ruunara: &'a super::session_view::SessionView<super::ruunara::RuunaraBoard>,
}

impl NetworkPanel {
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &Env, options: &MatchOptions, boards: &Boards) {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.side, Side::Host, "Host a match")
                .on_hover_text("Run a match here and send its join code to the friends who play");
            ui.selectable_value(&mut self.side, Side::Join, "Join a match")
                .on_hover_text("Paste the join code a host sent you");
        });
        ui.separator();
        // Both sides keep listening while the other is shown.
        self.host.poll();
        self.join.poll();
        match self.side {
            Side::Host => self.host.ui(ui, env, options, boards),
            Side::Join => self.join.ui(ui),
        }
    }
}

/// The games the app can start a hosted match of: Iconica, Iconoclasm, Arcadia and Ruunara
/// (from their boards' choices), and every game that starts from its rules alone.
pub fn hostable() -> impl Iterator<Item = &'static Registration> {
    registry::GAMES.iter().filter(|g| {
        matches!(g.name, "iconica" | "iconoclasm" | "arcadia" | "ruunara") || g.generic.is_some()
    })
}

/// The fewest and most seats a hosted match of `game` has (Ruunara's as its board's mode
/// has them, the mission's seat included where the rules play the enemies: solo 2, duo 3,
/// the contest 2; give the mission's seat a computer policy, it is never asked).
fn seat_range(game: &Registration, boards: &Boards) -> (usize, usize) {
    match game.name {
        "iconoclasm" => (1, 4),
        "iconica" | "arcadia" => (2, 2),
        "ruunara" => {
            let n = boards.ruunara.board.mode.seats();
            (n, n)
        }
        _ => {
            let n = game.generic.map_or(2, |make| make().seats());
            (n, n)
        }
    }
}

/// The sitters a seat may have, as the seat's menu names them.
fn sitter_choices() -> Vec<Sitter> {
    let mut all = vec![Sitter::Terminal, Sitter::Remote];
    all.extend(Policy::ALL.iter().map(|p| Sitter::Computer(*p)));
    all
}

/// A sitter in words.
pub fn sitter_words(s: Sitter) -> String {
    match s {
        Sitter::Terminal => "you (here)".into(),
        Sitter::Remote => "a remote person".into(),
        Sitter::Computer(p) => format!("the computer ({})", p.name()),
    }
}

/// A decision asked of a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ask {
    pub seat: usize,
    /// The input it decides (the joiner sends it back; the host's terminal needs none).
    pub step: usize,
    pub question: String,
    pub options: Vec<String>,
}

/// What the host's thread tells the panel.
enum FromHost {
    /// The host listens: its join code, and the authority's inbox.
    Started(String, Sender<Event>),
    Failed(String),
    Log(Vec<LogLine>),
    Ask(Ask),
    Note(String),
    /// Someone came or went.
    Presence(host::Presence),
    Over {
        result: String,
        record: String,
    },
    /// `Host::play` returned: how.
    Finished(Result<(), String>),
}

/// The host's terminal, for the panel: everything sent to its channel, a repaint asked.
struct AppTable {
    tx: Sender<FromHost>,
    ctx: egui::Context,
    over: bool,
}

impl AppTable {
    fn say(&self, m: FromHost) {
        let _ = self.tx.send(m);
        self.ctx.request_repaint();
    }
}

impl Table for AppTable {
    fn log(&mut self, lines: &[LogLine]) {
        self.say(FromHost::Log(lines.to_vec()));
    }

    fn ask(&mut self, seat: usize, question: &str, options: &[String]) {
        self.say(FromHost::Ask(Ask {
            seat,
            step: 0,
            question: question.into(),
            options: options.to_vec(),
        }));
    }

    fn note(&mut self, text: &str) {
        self.say(FromHost::Note(text.into()));
    }

    fn presence(&mut self, change: host::Presence) {
        self.say(FromHost::Presence(change));
    }

    fn saved(&mut self, session: &Session) {
        if !self.over && session.latest().turn() == crate::games::game::Turn::Over {
            self.over = true;
            let report = crate::net::host::final_report(session);
            self.say(FromHost::Over {
                result: report.tail.trim().to_string(),
                record: session.record().to_toml(),
            });
        }
    }
}

/// A remote seat's state, as the host's presence events tell it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Presence {
    Waiting,
    Joined,
    Left(String),
}

/// A match being hosted.
pub struct Hosting {
    pub title: String,
    pub sitters: Vec<Sitter>,
    /// The join code, once the host listens.
    pub code: Option<String>,
    /// Each seat's presence (remote seats only mean anything).
    pub presence: Vec<Presence>,
    pub spectators: usize,
    /// The log as the seat played here sees it.
    pub log: Vec<LogLine>,
    /// The decision of the seat played here, when it has one.
    pub ask: Option<Ask>,
    /// What the host said (a peer joined, left, was refused), the latest last.
    pub notes: Vec<String>,
    /// The result at the end, and the match record.
    pub over: Option<(String, String)>,
    /// Why hosting stopped, when it did before the end or could not start.
    pub error: Option<String>,
    /// Where Save match writes the record at the end, and what the last Save did.
    pub save: SaveRow,
    /// The host's thread has ended.
    pub finished: bool,
    rx: Receiver<FromHost>,
    /// The authority's inbox (the terminal's answers, Stop), once the host listens.
    terminal: Option<Sender<Event>>,
    /// Whether the panel has stopped it.
    stopped: bool,
}

impl Hosting {
    fn poll(&mut self) {
        loop {
            let m = match self.rx.try_recv() {
                Ok(m) => m,
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    self.finished = true;
                    return;
                }
            };
            match m {
                FromHost::Started(code, terminal) => {
                    self.code = Some(code);
                    if self.stopped {
                        let _ = terminal.send(Event::Stop);
                    }
                    self.terminal = Some(terminal);
                }
                FromHost::Failed(why) => {
                    self.error = Some(format!("Cannot host: {why}"));
                    self.finished = true;
                }
                FromHost::Log(lines) => self.log.extend(lines),
                FromHost::Ask(a) => self.ask = Some(a),
                FromHost::Note(n) => self.notes.push(n),
                FromHost::Presence(change) => self.presence_of(change),
                FromHost::Over { result, record } => {
                    self.ask = None;
                    self.over = Some((result, record));
                }
                FromHost::Finished(r) => {
                    self.ask = None;
                    self.finished = true;
                    if let Err(e) = r {
                        self.error = Some(format!("Hosting stopped: {e}."));
                    }
                }
            }
        }
    }

    /// Who is present, after the host's `change`.
    fn presence_of(&mut self, change: host::Presence) {
        match change {
            host::Presence::Joined { seat: None } => self.spectators += 1,
            host::Presence::Left { seat: None, .. } => {
                self.spectators = self.spectators.saturating_sub(1)
            }
            host::Presence::Joined { seat: Some(k) } => {
                if let Some(p) = self.presence.get_mut(k) {
                    *p = Presence::Joined;
                }
            }
            host::Presence::Left { seat: Some(k), why } => {
                if let Some(p) = self.presence.get_mut(k) {
                    *p = Presence::Left(why);
                }
            }
            host::Presence::Dropped { seat, policy } => {
                if let Some(s) = self.sitters.get_mut(seat) {
                    *s = Sitter::Computer(policy);
                }
                if let Some(p) = self.presence.get_mut(seat) {
                    *p = Presence::Waiting;
                }
            }
        }
    }

    /// Answers the decision asked here with option `i`.
    fn decide(&mut self, i: usize) {
        if let (Some(_), Some(t)) = (self.ask.take(), &self.terminal) {
            let _ = t.send(Event::Terminal((i + 1).to_string()));
        }
    }

    /// Stops the match (every peer is told); the thread then closes the host.
    fn stop(&mut self) {
        if !self.stopped {
            self.stopped = true;
            if let Some(t) = &self.terminal {
                let _ = t.send(Event::Stop);
            }
        }
    }
}

impl Drop for Hosting {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The Host side: what to host, and the match hosted.
pub struct HostPanel {
    /// The game's name.
    pub game: &'static str,
    pub players: usize,
    /// Who sits at each seat (the first `players`).
    pub sitters: Vec<Sitter>,
    pub seed: u64,
    /// Where to listen (UDP).
    pub listen: String,
    /// A relay to host through (`deckwright relay`'s line), instead of listening; empty:
    /// listen on `listen`.
    pub relay: String,
    pub hosting: Option<Hosting>,
    /// Why the last Start hosting did not start.
    pub message: Option<String>,
    /// A match file to host instead of a new match (any game, as `host --from`).
    pub file: String,
    /// The match file read: its record, hosted from its first `to` inputs.
    pub from: Option<From>,
    /// A new Iconica match of two teams of two (from `team_parties`) rather than the Party
    /// screen's two parties.
    pub teams: bool,
    /// The four party files of a team match: side A's two players in seating order, then
    /// side B's (as `host iconica A1 A2 B1 B2`).
    pub team_parties: [String; 4],
}

/// The labels of a team match's four party files.
pub const TEAM_PARTY_LABELS: [&str; 4] = [
    "Side A, first player",
    "Side A, second player",
    "Side B, first player",
    "Side B, second player",
];

/// The app's [`registry::Shelf`]: the catalogue the app has open, and the person's files
/// (bounded as the command line bounds them).
struct AppShelf<'a> {
    cat: &'a crate::catalogue::Catalogue,
}

impl registry::Shelf for AppShelf<'_> {
    fn lookup(&self) -> Result<&dyn crate::cards::CardLookup, String> {
        Ok(self.cat)
    }
    fn cards(&self) -> Result<Vec<crate::cards::Card>, String> {
        self.cat
            .all()
            .map_err(|e| format!("reading the catalogue: {e}"))
    }
    fn clash_table(&self) -> Result<crate::games::iconoclasm::model::ClashTable, String> {
        self.cat
            .clash_table()
            .map_err(|e| format!("the catalogue's clash table: {e}"))
    }
    fn read(&self, path: &std::path::Path) -> Result<String, String> {
        crate::safe_io::read_text(path, 1 << 20, "party files").map_err(|e| e.to_string())
    }
    fn note(&self, _text: &str) {}
}

/// A match file to host, played on from input `to`.
pub struct From {
    pub path: String,
    pub record: crate::games::record::MatchRecord,
    pub to: usize,
}

impl Default for HostPanel {
    fn default() -> Self {
        HostPanel {
            game: "pig",
            players: 2,
            sitters: vec![
                Sitter::Terminal,
                Sitter::Remote,
                Sitter::Remote,
                Sitter::Remote,
            ],
            seed: 1,
            listen: "0.0.0.0:0".into(),
            relay: String::new(),
            hosting: None,
            message: None,
            file: String::new(),
            from: None,
            teams: false,
            team_parties: Default::default(),
        }
    }
}

impl HostPanel {
    fn poll(&mut self) {
        if let Some(h) = &mut self.hosting {
            h.poll();
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, env: &Env, options: &MatchOptions, boards: &Boards) {
        if self.hosting.is_some() {
            self.hosting_ui(ui);
            return;
        }
        self.setup_ui(ui, env, options, boards);
    }

    fn setup_ui(&mut self, ui: &mut egui::Ui, env: &Env, options: &MatchOptions, boards: &Boards) {
        self.file_ui(ui);
        let Some(game) = registry::find(self.game) else {
            return;
        };
        let (fewest, most) = match &self.from {
            Some(f) => (f.record.seats.len(), f.record.seats.len()),
            None => seat_range(game, boards),
        };
        if self.from.is_none() {
            self.game_ui(ui, game, boards);
        }
        self.seats_ui(ui, env, options, boards, fewest, most);
    }

    /// The match file row: a file read to host (any game), or none.
    fn file_ui(&mut self, ui: &mut egui::Ui) {
        let mut forget = false;
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Match file");
            ui.add(
                egui::TextEdit::singleline(&mut self.file)
                    .desired_width(260.0)
                    .hint_text("host a saved match (any game)"),
            )
            .labelled_by(label.id);
            if ui
                .add_enabled(
                    !self.file.trim().is_empty(),
                    egui::Button::new("Read match file"),
                )
                .on_hover_text("Host this match, played on from the input chosen")
                .clicked()
            {
                let path = self.file.trim().to_string();
                match crate::games::record::MatchRecord::load(std::path::Path::new(&path)) {
                    Ok(record) => {
                        let to = record.inputs.len();
                        self.players = record.seats.len();
                        if self.sitters.len() < self.players {
                            self.sitters.resize(self.players, Sitter::Remote);
                        }
                        for (k, s) in record.seats.iter().enumerate() {
                            self.sitters[k] = match s.as_str() {
                                "person" => Sitter::Remote,
                                p => Sitter::parse(p).unwrap_or(Sitter::Remote),
                            };
                        }
                        self.from = Some(From { path, record, to });
                        self.message = None;
                    }
                    Err(e) => self.message = Some(format!("Not read: {}", crate::error_chain(&e))),
                }
            }
            if let Some(f) = &mut self.from {
                let label = ui.label("from input");
                let most = f.record.inputs.len();
                ui.add(egui::DragValue::new(&mut f.to).range(0..=most))
                    .labelled_by(label.id)
                    .on_hover_text(format!("0: from its start; {most}: from its end"));
                forget = ui
                    .button("New match instead")
                    .on_hover_text("Host a new match of a game chosen below")
                    .clicked();
            }
        });
        if let Some(f) = &self.from {
            let title = registry::find(&f.record.game).map_or(f.record.game.as_str(), |g| g.title);
            ui.weak(format!(
                "Hosting {title} from {} ({} inputs; its seed {}).",
                f.path,
                f.record.inputs.len(),
                f.record.seed
            ));
        }
        if forget {
            self.from = None;
        }
    }

    fn game_ui(&mut self, ui: &mut egui::Ui, game: &Registration, boards: &Boards) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Game:");
            for g in hostable() {
                if ui
                    .selectable_value(&mut self.game, g.name, g.title)
                    .clicked()
                {
                    let (f, m) = seat_range(g, boards);
                    self.players = self.players.clamp(f, m);
                }
            }
        });
        if game.name == "iconica" {
            ui.checkbox(&mut self.teams, "2 against 2")
                .on_hover_text("Two teams of two parties each, from four party files");
            if self.teams {
                egui::Grid::new("net-host-teams")
                    .num_columns(2)
                    .show(ui, |ui| {
                        for (k, path) in self.team_parties.iter_mut().enumerate() {
                            let label = ui.label(TEAM_PARTY_LABELS[k]);
                            ui.add(
                                egui::TextEdit::singleline(path)
                                    .desired_width(300.0)
                                    .hint_text("a party file (.party.toml)"),
                            )
                            .labelled_by(label.id);
                            ui.end_row();
                        }
                    });
                ui.weak(
                    "Player 1 plays side A (both its parties), player 2 side B, with the \
                     Match screen's Iconica rules.",
                );
                return;
            }
        }
        ui.weak(match game.name {
            "iconica" => {
                "Player 1 plays the Party screen's party A, player 2 party B, with the \
                          Match screen's Iconica rules."
            }
            "iconoclasm" => "A deal of the catalogue's Iconoclasm deck.",
            _ => "The game starts from its rules alone.",
        });
    }

    fn seats_ui(
        &mut self,
        ui: &mut egui::Ui,
        env: &Env,
        options: &MatchOptions,
        boards: &Boards,
        fewest: usize,
        most: usize,
    ) {
        ui.horizontal_wrapped(|ui| {
            if fewest < most {
                let label = ui.label("Players");
                ui.add(egui::DragValue::new(&mut self.players).range(fewest..=most))
                    .labelled_by(label.id);
            }
            if self.from.is_none() {
                let label = ui.label("Seed");
                ui.add(egui::DragValue::new(&mut self.seed))
                    .labelled_by(label.id);
            }
            let label = ui
                .label("Listen on")
                .on_hover_text("The UDP address to listen on; port 0 takes any free port");
            ui.add_enabled(
                self.relay.trim().is_empty(),
                egui::TextEdit::singleline(&mut self.listen).desired_width(140.0),
            )
            .labelled_by(label.id);
            let label = ui.label("or through relay").on_hover_text(
                "The line `deckwright relay` prints (dwr1/...): friends join through it, no \
                 port to forward here; the relay forwards the match encrypted and reads none of it",
            );
            ui.add(
                egui::TextEdit::singleline(&mut self.relay)
                    .desired_width(220.0)
                    .hint_text("dwr1/ADDRESS/FINGERPRINT"),
            )
            .labelled_by(label.id);
        });
        let players = self.players.clamp(fewest, most);
        egui::Grid::new("net-host-seats")
            .num_columns(2)
            .show(ui, |ui| {
                for (k, sitter) in self.sitters.iter_mut().enumerate().take(players) {
                    let label = ui.label(format!("Player {}", k + 1));
                    egui::ComboBox::from_id_salt(("net-host-seat", k))
                        .selected_text(sitter_words(*sitter))
                        .width(200.0)
                        .show_ui(ui, |ui| {
                            for c in sitter_choices() {
                                ui.selectable_value(sitter, c, sitter_words(c));
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    ui.end_row();
                }
            });
        if ui
            .button("Start hosting")
            .on_hover_text("Listen for the friends who join, and show the code to send them")
            .clicked()
        {
            match self.start(ui.ctx(), env, options, boards, players) {
                Ok(h) => {
                    self.hosting = Some(h);
                    self.message = None;
                }
                Err(e) => self.message = Some(e),
            }
        }
        if let Some(m) = &self.message {
            ui.colored_label(ui.visuals().error_fg_color, m);
        }
    }

    /// The session of the match to host, its seats set.
    fn session(
        &self,
        game: &'static Registration,
        env: &Env,
        options: &MatchOptions,
        boards: &Boards,
        sitters: &[Sitter],
    ) -> Result<Session, String> {
        if let Some(f) = &self.from {
            let mut r = f.record.clone();
            let to = f.to.min(r.inputs.len());
            r.inputs.truncate(to);
            r.checks.truncate(to);
            r.points.retain(|p| p.step < to);
            r.exhausted = false;
            let mut s = registry::session(&r, env.cat)
                .map_err(|e| format!("{}: {}", f.path, crate::error_chain(&e)))?;
            s.seats = sitters.iter().map(|s| s.seat()).collect();
            return Ok(s);
        }
        let players = sitters.len();
        if game.name == "iconica" && self.teams {
            // As `host iconica A1 A2 B1 B2` compiles it: the game's options, then its opening.
            let parties: Vec<std::path::PathBuf> = self
                .team_parties
                .iter()
                .zip(TEAM_PARTY_LABELS)
                .map(|(p, label)| match p.trim() {
                    "" => Err(format!("{label}: no party file given")),
                    p => Ok(std::path::PathBuf::from(p)),
                })
                .collect::<Result<_, _>>()?;
            let options = crate::games::iconica::options::IconicaOptions {
                parties,
                rules: crate::games::iconica::options::IconicaRules::of(&options.rules()),
            }
            .compile(&AppShelf { cat: env.cat })?;
            let none: Vec<crate::cards::Card> = Vec::new();
            let opened = (game.open)(&options, &none).map_err(|e| e.to_string())?;
            return Ok(Session::opened(
                opened,
                game.engine,
                sitters.iter().map(|s| s.seat()).collect(),
                self.seed,
                options,
            ));
        }
        let start = match game.name {
            "iconica" => {
                let (a, b) = (&env.docs.party_a, &env.docs.party_b);
                let ready = crate::app::core::match_ready(env.cat, a, b, options.rules());
                let mut board = IconicaBoard::default();
                board.next = ready
                    .setup
                    .map(|s| (s, vec![a.name.clone(), b.name.clone()]));
                board.start(players, self.seed, env.cat)
            }
            "iconoclasm" => IconoclasmBoard::default().start(players, self.seed, env.cat),
            "arcadia" => boards.arcadia.board.start(players, self.seed, env.cat),
            "ruunara" => boards.ruunara.board.start(players, self.seed, env.cat),
            _ => OptionsBoard { game }.start(players, self.seed, env.cat),
        }?;
        Ok(Session::opened(
            start.opened,
            game.engine,
            sitters.iter().map(|s| s.seat()).collect(),
            self.seed,
            start.options,
        ))
    }

    /// Builds the match and starts the host's thread.
    fn start(
        &self,
        ctx: &egui::Context,
        env: &Env,
        options: &MatchOptions,
        boards: &Boards,
        players: usize,
    ) -> Result<Hosting, String> {
        let name = self
            .from
            .as_ref()
            .map_or(self.game, |f| f.record.game.as_str());
        let game = registry::find(name)
            .ok_or_else(|| format!("`{name}` is not a game this program plays"))?;
        let relay: Option<RelayAddr> = match self.relay.trim() {
            "" => None,
            line => Some(line.parse().map_err(|e| format!("Through relay: {e}"))?),
        };
        let listen: SocketAddr = self.listen.trim().parse().map_err(|_| {
            format!(
                "Listen on: `{}` is not an address and port (for example 0.0.0.0:0)",
                self.listen.trim()
            )
        })?;
        let sitters = self.sitters[..players.min(self.sitters.len())].to_vec();
        if !sitters.contains(&Sitter::Remote) {
            return Err(
                "No seat is a remote person's: choose one for the friend who joins.".into(),
            );
        }
        let mut session = self
            .session(game, env, options, boards, &sitters)
            .map_err(|e| format!("No match can start: {e}"))?;
        if session.latest().seats() != players {
            return Err(format!(
                "This {} match has {} seats, not {players}.",
                game.title,
                session.latest().seats()
            ));
        }
        // The match's cards travel with it (their art from the catalogue's folder).
        let cards = crate::net::cards::of_options(&session.options)
            .map_err(|e| format!("The match's cards: {e}"))?;
        let art_dirs: Vec<std::path::PathBuf> = env.cat.art_dir().into_iter().collect();
        let (set, _skipped) = crate::net::cards::card_set(cards, &art_dirs)
            .map_err(|e| format!("The match's cards: {e}"))?;
        let (tx, rx) = mpsc::channel();
        let lobby = Lobby {
            game: game.name.into(),
            title: game.title.into(),
            engine: game.engine,
            cards: std::sync::Arc::new(set),
        };
        let ctx = ctx.clone();
        let seated = sitters.clone();
        std::thread::Builder::new()
            .name("deckwright-host".into())
            .spawn(move || {
                let table = AppTable {
                    tx: tx.clone(),
                    ctx: ctx.clone(),
                    over: false,
                };
                let started = match relay {
                    None => Host::start(listen, lobby),
                    Some(r) => Host::start_relayed(r, lobby),
                };
                let mut host = match started {
                    Ok(h) => h,
                    Err(e) => return table.say(FromHost::Failed(e.to_string())),
                };
                let started = FromHost::Started(host.code().to_string(), host.terminal());
                if tx.send(started).is_err() {
                    // The panel went away before the host listened.
                    return host.close();
                }
                ctx.request_repaint();
                let mut table = table;
                let played = host.play(&mut session, &seated, &mut table);
                host.close();
                table.say(FromHost::Finished(played.map_err(|e| match e {
                    HostError::Stopped => "you stopped it".to_string(),
                    e => e.to_string(),
                })));
            })
            .map_err(|e| format!("Cannot start the host's thread: {e}"))?;
        Ok(Hosting {
            title: game.title.into(),
            presence: vec![Presence::Waiting; sitters.len()],
            sitters,
            code: None,
            spectators: 0,
            log: Vec::new(),
            ask: None,
            notes: Vec::new(),
            over: None,
            error: None,
            save: SaveRow::default(),
            finished: false,
            rx,
            terminal: None,
            stopped: false,
        })
    }

    fn hosting_ui(&mut self, ui: &mut egui::Ui) {
        let Some(h) = &mut self.hosting else {
            return;
        };
        let mut stop = false;
        let mut close = false;
        ui.horizontal_wrapped(|ui| {
            ui.heading(format!("Hosting {}", h.title));
            if h.finished {
                close = ui
                    .button("Host another")
                    .on_hover_text("Back to choosing a game and its seats")
                    .clicked();
            } else {
                stop = ui
                    .button("Stop hosting")
                    .on_hover_text("End the match now; whoever joined is told")
                    .clicked();
            }
        });
        match &h.code {
            Some(code) => {
                ui.horizontal_wrapped(|ui| {
                    ui.label("Join code:");
                    ui.label(egui::RichText::new(code.as_str()).monospace());
                    if ui
                        .button("Copy")
                        .on_hover_text("Copy the code, to send to whoever joins")
                        .clicked()
                    {
                        ui.ctx().copy_text(code.clone());
                    }
                });
            }
            None if !h.finished => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("Starting the host…");
                });
            }
            None => {}
        }
        ui.horizontal_wrapped(|ui| {
            for (k, s) in h.sitters.iter().enumerate() {
                let who = match (s, &h.presence[k]) {
                    (Sitter::Remote, Presence::Waiting) => "waiting for someone to join".into(),
                    (Sitter::Remote, Presence::Joined) => "a remote person, joined".into(),
                    (Sitter::Remote, Presence::Left(why)) => format!("left ({why})"),
                    (s, _) => sitter_words(*s),
                };
                ui.label(format!("Player {}: {who}", k + 1));
                ui.separator();
            }
            match h.spectators {
                0 => ui.weak("no spectators"),
                1 => ui.label("1 spectator"),
                n => ui.label(format!("{n} spectators")),
            };
        });
        if let Some(e) = &h.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        } else if h.stopped && !h.finished {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Stopping: telling whoever joined…");
            });
        }
        ui.separator();
        egui::Panel::right("net-host-log")
            .resizable(true)
            .default_size(340.0)
            .show(ui, |ui| log_ui(ui, "net-host-log-scroll", &h.log));
        let mut pick = None;
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some((result, record)) = &h.over {
                ui.heading(result);
                h.save.ui(ui, "net-host-save", record);
            } else if let Some(a) = &h.ask {
                pick = ask_ui(ui, "net-host-options", a, "you");
            } else if h.code.is_some() && !h.finished {
                ui.weak("Waiting for the other seats…");
            }
            if !h.notes.is_empty() {
                ui.add_space(8.0);
                ui.label(egui::RichText::new("At the host").strong());
                for n in h.notes.iter().rev().take(6) {
                    ui.weak(n);
                }
            }
        });
        if let Some(i) = pick {
            h.decide(i);
        }
        if stop {
            h.stop();
        }
        if close {
            self.hosting = None;
        }
    }
}

/// The log as it arrived, the latest line kept in view.
fn log_ui(ui: &mut egui::Ui, id: &str, log: &[LogLine]) {
    ui.heading("Log");
    egui::ScrollArea::vertical()
        .id_salt(id)
        .auto_shrink(false)
        .stick_to_bottom(true)
        .show(ui, |ui| {
            for l in log {
                match l.line() {
                    crate::games::report::Line::Heading => {
                        ui.label(egui::RichText::new(&l.text).strong())
                    }
                    _ => ui.label(&l.text),
                };
            }
        });
}

/// A decision asked of the seat `who` plays: the question and the options as buttons (keys
/// 1-9); the option taken, if one was.
fn ask_ui(ui: &mut egui::Ui, id: &str, a: &Ask, who: &str) -> Option<usize> {
    ui.label(egui::RichText::new(format!("Player {} ({who}) decides", a.seat + 1)).strong());
    ui.label(&a.question);
    let all: Vec<usize> = (0..a.options.len()).collect();
    super::option_buttons(ui, id, &all, false, |i| a.options[i].clone())
}

/// What the link's thread tells the panel.
enum FromLink {
    Welcome(Welcome),
    Msg(ToPeer),
    /// Not joined: why, in words.
    Failed(String),
    /// The connection went away.
    Lost(String),
}

/// What the panel tells the link's thread.
enum ToLink {
    Decide {
        seat: usize,
        step: usize,
        option: usize,
    },
}

/// A match joined (or being joined).
pub struct Joined {
    /// Watching as a spectator.
    pub watch: bool,
    /// The host's welcome, once let in.
    pub welcome: Option<Welcome>,
    /// The log as this seat sees it.
    pub log: Vec<LogLine>,
    pub ask: Option<Ask>,
    /// The host refused the last decision: why.
    pub rejected: Option<String>,
    /// The result at the end, and the match record.
    pub over: Option<(String, String)>,
    /// Why it is not (or no longer) joined, in words.
    pub error: Option<String>,
    /// Where Save match writes the host's record at the end, and what the last Save did.
    pub save: SaveRow,
    /// The link's thread has ended.
    pub finished: bool,
    /// The match's cards the host has sent so far (counted, not kept).
    pub cards: usize,
    /// Playtest notes attached at the table.
    pub notes: Vec<String>,
    rx: Receiver<FromLink>,
    tx: Sender<ToLink>,
}

impl Joined {
    fn poll(&mut self) {
        loop {
            let m = match self.rx.try_recv() {
                Ok(m) => m,
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    self.finished = true;
                    if self.over.is_none() && self.error.is_none() {
                        self.error = Some("The connection to the host closed.".into());
                    }
                    self.ask = None;
                    return;
                }
            };
            match m {
                FromLink::Welcome(w) => self.welcome = Some(w),
                FromLink::Failed(why) => self.error = Some(why),
                FromLink::Lost(why) => {
                    if self.over.is_none() {
                        self.error = Some(format!("The connection to the host was lost: {why}."));
                    }
                }
                FromLink::Msg(msg) => match msg {
                    ToPeer::Log { from, lines } => {
                        self.log.truncate(from);
                        self.log.extend(lines);
                    }
                    ToPeer::Ask {
                        seat,
                        step,
                        question,
                        options,
                    } => {
                        self.ask = Some(Ask {
                            seat,
                            step,
                            question,
                            options,
                        })
                    }
                    ToPeer::Rejected { reason, .. } => {
                        self.rejected = Some(format!("The host refused the decision: {reason}."))
                    }
                    ToPeer::Refused { reason } => {
                        self.ask = None;
                        self.error = Some(format!("The host ended this connection: {reason}."));
                    }
                    ToPeer::End { result, record, .. } => {
                        self.ask = None;
                        self.over = Some((result.trim().to_string(), record));
                    }
                    ToPeer::Welcome { .. } => {}
                    // The match's cards as they are shown: played from the host's match
                    // itself, so the panel only counts them (never parsed or imported here).
                    ToPeer::Card { .. } => self.cards += 1,
                    ToPeer::Note { step, by, text } => self
                        .notes
                        .push(format!("Note at step {step} by {by}: {text}")),
                },
            }
        }
    }

    fn decide(&mut self, i: usize) {
        if let Some(a) = self.ask.take() {
            self.rejected = None;
            let _ = self.tx.send(ToLink::Decide {
                seat: a.seat,
                step: a.step,
                option: i,
            });
        }
    }
}

/// The link's thread: joins, then passes on what the host says and what the panel decides
/// until the end, a refusal, a lost connection, or the panel letting go (Leave).
fn run_link(
    code: JoinCode,
    watch: bool,
    tx: Sender<FromLink>,
    rx: Receiver<ToLink>,
    ctx: egui::Context,
) {
    let say = |m: FromLink| {
        let sent = tx.send(m).is_ok();
        ctx.request_repaint();
        sent
    };
    let (link, welcome) = match Link::join(&code, watch) {
        Ok(x) => x,
        Err(e) => {
            say(FromLink::Failed(join_error(&e)));
            return;
        }
    };
    match registry::find(&welcome.game) {
        Some(g) if g.engine == welcome.engine => {}
        found => {
            link.close();
            say(FromLink::Failed(format!(
                "Refused: version mismatch: the host plays {} with engine {}, this program {}.",
                welcome.game,
                welcome.engine,
                found.map_or("does not play it".to_string(), |g| format!(
                    "with engine {}",
                    g.engine
                ))
            )));
            return;
        }
    }
    if !say(FromLink::Welcome(welcome)) {
        return link.close();
    }
    loop {
        loop {
            match rx.try_recv() {
                Ok(ToLink::Decide { seat, step, option }) => {
                    if let Err(e) = link.send(&ToHost::Decide { seat, step, option }) {
                        say(FromLink::Lost(e.to_string()));
                        return link.close();
                    }
                }
                Err(TryRecvError::Empty) => break,
                // Leave: the panel let go.
                Err(TryRecvError::Disconnected) => return link.close(),
            }
        }
        match link.recv(Some(POLL)) {
            Ok(None) => {}
            Ok(Some(m)) => {
                let last = matches!(m, ToPeer::End { .. } | ToPeer::Refused { .. });
                if !say(FromLink::Msg(m)) || last {
                    return link.close();
                }
            }
            Err(e) => {
                say(FromLink::Lost(e.to_string()));
                return link.close();
            }
        }
    }
}

/// Why a join failed, whole, in words.
fn join_error(e: &NetError) -> String {
    match e {
        NetError::Refused(why) => format!("Refused: {why}."),
        NetError::Connect(why) => format!("Cannot connect to the host: {why}."),
        NetError::Closed(why) => format!("The host closed the connection: {why}."),
        NetError::Tls(why) => format!("Cannot set up the connection: {why}."),
        NetError::Io(why) => format!("Cannot join: {why}."),
    }
}

/// The Join side: the code, and the match joined.
#[derive(Default)]
pub struct JoinPanel {
    /// The code pasted.
    pub code: String,
    pub joined: Option<Joined>,
    /// Why the code was not taken.
    pub message: Option<String>,
}

impl JoinPanel {
    fn poll(&mut self) {
        if let Some(j) = &mut self.joined {
            j.poll();
        }
    }

    /// Joins the match the code names (`watch`: as a spectator), on the link's own thread.
    pub fn join(&mut self, ctx: &egui::Context, watch: bool) {
        let code: JoinCode = match self.code.parse() {
            Ok(c) => c,
            Err(e) => {
                self.message = Some(format!("Not joined: {e}."));
                return;
            }
        };
        let (tx, rx) = mpsc::channel();
        let (ctx_tx, ctx_rx) = mpsc::channel();
        let c = ctx.clone();
        let spawned = std::thread::Builder::new()
            .name("deckwright-join".into())
            .spawn(move || run_link(code, watch, tx, ctx_rx, c));
        if let Err(e) = spawned {
            self.message = Some(format!("Cannot start the connection's thread: {e}"));
            return;
        }
        self.message = None;
        self.joined = Some(Joined {
            watch,
            welcome: None,
            log: Vec::new(),
            ask: None,
            rejected: None,
            over: None,
            error: None,
            save: SaveRow::default(),
            finished: false,
            cards: 0,
            notes: Vec::new(),
            rx,
            tx: ctx_tx,
        });
    }

    fn ui(&mut self, ui: &mut egui::Ui) {
        if self.joined.is_none() {
            self.code_ui(ui);
            return;
        }
        self.joined_ui(ui);
    }

    fn code_ui(&mut self, ui: &mut egui::Ui) {
        ui.label(
            "Paste the join code the host sent you (it reads dw1/ADDRESS/FINGERPRINT/SECRET).",
        );
        let mut go = None;
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Join code");
            ui.add(
                egui::TextEdit::singleline(&mut self.code)
                    .desired_width(420.0)
                    .hint_text("dw1/…"),
            )
            .labelled_by(label.id);
            let ready = !self.code.trim().is_empty();
            if ui
                .add_enabled(ready, egui::Button::new("Join"))
                .on_hover_text("Take the seat the host keeps for a remote person")
                .clicked()
            {
                go = Some(false);
            }
            if ui
                .add_enabled(ready, egui::Button::new("Watch"))
                .on_hover_text("Follow the match as a spectator: what every seat may see")
                .clicked()
            {
                go = Some(true);
            }
        });
        if let Some(watch) = go {
            self.join(ui.ctx(), watch);
        }
        if let Some(m) = &self.message {
            ui.colored_label(ui.visuals().error_fg_color, m);
        }
    }

    fn joined_ui(&mut self, ui: &mut egui::Ui) {
        let Some(j) = &mut self.joined else {
            return;
        };
        let mut leave = false;
        ui.horizontal_wrapped(|ui| {
            match &j.welcome {
                Some(w) => {
                    ui.heading(match w.seat {
                        Some(s) => format!("{}: you are Player {}", w.title, s + 1),
                        None => format!("Watching {}", w.title),
                    });
                }
                None if j.error.is_none() => {
                    ui.spinner();
                    ui.label(if j.watch { "Watching…" } else { "Joining…" });
                }
                None => {}
            }
            let done = j.finished || j.over.is_some() || j.error.is_some();
            leave = ui
                .button(if done { "Back" } else { "Leave" })
                .on_hover_text(if done {
                    "Back to the join code"
                } else {
                    "Leave the match (the host may give the seat to someone who joins again)"
                })
                .clicked();
        });
        if let Some(w) = &j.welcome {
            ui.label(format!(
                "Seats: {}",
                w.seats
                    .iter()
                    .enumerate()
                    .map(|(k, s)| format!("Player {}: {s}", k + 1))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if j.cards > 0 {
            ui.weak(format!(
                "{} of the match sent by the host (played on the host; your catalogue is untouched)",
                crate::count(j.cards as u64, "card", "cards")
            ));
        }
        for n in j.notes.iter().rev().take(3) {
            ui.weak(n);
        }
        if let Some(e) = &j.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        if let Some(r) = &j.rejected {
            ui.colored_label(ui.visuals().warn_fg_color, r);
        }
        ui.separator();
        let mut pick = None;
        if j.welcome.is_some() {
            egui::Panel::right("net-join-log")
                .resizable(true)
                .default_size(340.0)
                .show(ui, |ui| log_ui(ui, "net-join-log-scroll", &j.log));
            egui::CentralPanel::default().show(ui, |ui| {
                if let Some((result, record)) = &j.over {
                    ui.heading(result);
                    j.save.ui(ui, "net-join-save", record);
                } else if let Some(a) = &j.ask {
                    pick = ask_ui(ui, "net-join-options", a, "you");
                } else if j.error.is_none() {
                    ui.weak("Waiting for the other seats…");
                }
            });
        }
        if let Some(i) = pick {
            j.decide(i);
        }
        if leave {
            self.joined = None;
        }
    }
}

/// Save match at the end: the match record (as the host sent it) written to a file, which
/// `deckwright replay` and the app's Open match replay.
#[derive(Debug, Default)]
pub struct SaveRow {
    pub path: String,
    /// What the last Save did: `Ok` said, or why not.
    pub said: Option<Result<String, String>>,
}

impl SaveRow {
    fn ui(&mut self, ui: &mut egui::Ui, id: &str, record: &str) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Match file");
            ui.push_id(id, |ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut self.path)
                        .desired_width(260.0)
                        .hint_text("a path ending in .match.toml"),
                )
                .labelled_by(label.id);
            });
            let save = ui
                .add_enabled(
                    !self.path.trim().is_empty(),
                    egui::Button::new("Save match"),
                )
                .on_hover_text("Keep the match (every decision and die) in a file that replays");
            if save.clicked() {
                let path = std::path::PathBuf::from(self.path.trim());
                let saved =
                    crate::games::record::MatchRecord::parse(record).and_then(|r| r.save(&path));
                self.said = Some(match saved {
                    Ok(()) => Ok(format!("Saved to {}.", path.display())),
                    Err(e) => Err(format!("Not saved: {}", crate::error_chain(&e))),
                });
            }
        });
        match &self.said {
            Some(Ok(m)) => {
                ui.label(m);
            }
            Some(Err(m)) => {
                ui.colored_label(ui.visuals().error_fg_color, m);
            }
            None => {}
        }
    }
}
