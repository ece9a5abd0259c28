//! `deckwright host GAME [game options] [--seats S1,S2,...] [--seed N] [--from MATCHFILE
//! [--to STEP]] [--listen ADDR | --relay RELAY] [--policy P] [--record FILE] [--drop-to POLICY] [--json]`:
//! hosts a match over the network (`net::host`). Every registered game is a subcommand with
//! the options `play GAME` takes (its files and switches, from the registry): a new match is
//! compiled from them as `play` compiles it; `--from` hosts a match file instead. The first line on stdout is the join code; then the log
//! as it happens; the match's outcome at the end (as `play` prints it; `--json`: the
//! `play --json` document with the match record added). The match's cards (and their art,
//! found beside the match file or in the catalogue's art folder) are sent to every peer.
//! At the host's terminal, besides a decision's number: `note TEXT`, `drop N [POLICY]`,
//! `quit` (the record is kept, `--record` or `GAME.stopped.match.toml`, and hosted again
//! with `--from`).

use std::io::BufRead;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::FromArgMatches;

use crate::cli::games::{Face, GameArgs, game_command};
use crate::cli::load::CliShelf;
use crate::cli::out::{Out, note};
use crate::cli::{BadInput, Context, Outcome, report};
use crate::games::record::MatchRecord;
use crate::games::registry::{self, Ask, Registration};
use crate::games::session::Session;
use crate::net::host::{Event, Host, HostError, Lobby, Sitter, Table};
use crate::net::wire::LogLine;

/// `host`'s subcommand of each game: its `play` options (none of them required: a match
/// hosted --from its file takes none, and a new match's are checked when it is compiled),
/// then the host's own.
#[derive(Debug, Clone)]
pub struct HostFace;

impl Face for HostFace {
    fn subcommand(g: &'static Registration) -> Option<clap::Command> {
        let sub = game_command(g, g.options.about).mut_args(|a| a.required(false));
        let sub = <Shared as clap::Args>::augment_args(sub);
        Some(sub.about(g.options.about).long_about(None))
    }
}

/// The game and its parsed arguments.
pub type Args = GameArgs<HostFace>;

/// What `host` takes of every game.
#[derive(Debug, Clone, clap::Args)]
pub struct Shared {
    /// Who plays each seat, in order: `host` (this terminal, or --policy), `remote` (someone
    /// who joins with the code) or a policy (first, random, greedy, mcts, ...). Default:
    /// the host at the first seat and remote seats after it; with --from, the record's
    /// policies and a remote seat for each of its persons.
    #[arg(long, value_delimiter = ',', value_name = "S1,S2,...")]
    pub seats: Vec<String>,
    /// The seed of the match (chance and the computer's decisions). Default 0; with
    /// --from, the record's.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Host a match from its match file (any game), played on from its end or --to.
    #[arg(long, value_name = "MATCHFILE")]
    pub from: Option<PathBuf>,
    /// With --from: host the match from this many inputs in.
    #[arg(long, value_name = "STEP", requires = "from")]
    pub to: Option<usize>,
    /// Where to listen (UDP). Default: every interface, any free port.
    #[arg(
        long,
        value_name = "ADDR",
        default_value = "0.0.0.0:0",
        conflicts_with = "relay"
    )]
    pub listen: SocketAddr,
    /// Host through a relay (`deckwright relay` prints its line, `dwr1/ADDRESS/FINGERPRINT`):
    /// no port to forward here; the code names the relay, which reads nothing of the match.
    #[arg(long, value_name = "RELAY")]
    pub relay: Option<String>,
    /// The host's seats are played by this policy instead of at the terminal.
    #[arg(long, value_name = "POLICY")]
    pub policy: Option<String>,
    /// Write the match file (after every input, so a stopped host keeps the match so far).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Print only the join code, then the `play --json` document (with `"record"`).
    #[arg(long)]
    pub json: bool,
    /// A remote seat whose player leaves (the connection closed, or silent for 30 s) is
    /// played by the computer with this policy from then on; without it the seat waits for
    /// its player to rejoin (or `drop N POLICY` typed here).
    #[arg(long, value_name = "POLICY")]
    pub drop_to: Option<String>,
}

/// The host's terminal: the log and the questions on stdout, notes on stderr.
struct Terminal<'a> {
    out: &'a Out,
    json: bool,
    record: Option<PathBuf>,
}

impl Table for Terminal<'_> {
    fn log(&mut self, lines: &[LogLine]) {
        if !self.json {
            report::log_text(self.out, lines.iter().map(|l| (l.line(), l.text.clone())));
            self.out.flush();
        }
    }

    fn ask(&mut self, seat: usize, question: &str, options: &[String]) {
        let out = self.out;
        writeln!(out, "\nPlayer {} (here): {question}", seat + 1);
        for (k, o) in options.iter().enumerate() {
            writeln!(out, "  {}. {o}", k + 1);
        }
        writeln!(out, "Type a number and Enter:");
        out.flush();
    }

    fn note(&mut self, text: &str) {
        note!("{text}");
    }

    fn saved(&mut self, session: &Session) {
        if let Some(path) = &self.record
            && let Err(e) = session.record().save(path)
        {
            note!("{}: {}", path.display(), crate::error_chain(&e));
        }
    }
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let (game, m) = (args.game, args.matches);
    let args = Shared::from_arg_matches(&m).map_err(|e| BadInput(e.to_string()))?;
    // The game's own options given on the command line.
    let given: Vec<String> = game_command(game, "")
        .get_arguments()
        .filter(|a| {
            m.value_source(a.get_id().as_str()) == Some(clap::parser::ValueSource::CommandLine)
        })
        .map(|a| a.get_id().to_string())
        .collect();
    if args.from.is_some() && !given.is_empty() {
        return Err(BadInput(format!(
            "--from: a match hosted from its file keeps the file's options; leave out {}",
            given.join(", ")
        )));
    }
    let (mut session, recorded) = match &args.from {
        Some(path) => {
            if args.seed.is_some() {
                return Err(BadInput(
                    "--seed: a match hosted --from its file keeps the file's seed".into(),
                ));
            }
            let shown = path.display().to_string();
            let mut r = MatchRecord::load(path)
                .map_err(|e| BadInput(format!("{shown}: {}", crate::error_chain(&e))))?;
            r.expect_game(game.name)
                .map_err(|e| BadInput(format!("{shown}: {e}")))?;
            if let Some(to) = args.to {
                if to > r.inputs.len() {
                    return Err(BadInput(format!(
                        "--to {to}: {shown} has {} inputs",
                        r.inputs.len()
                    )));
                }
                r.inputs.truncate(to);
                r.checks.truncate(to);
                r.points.retain(|p| p.step < to);
                r.notes.retain(|n| n.step <= to);
                r.exhausted = false;
            }
            let cat;
            let lookup: &dyn crate::cards::CardLookup = if r.format < 2 {
                cat = crate::cli::load::open_catalogue(ctx)?;
                &cat
            } else {
                &Vec::<crate::cards::Card>::new()
            };
            let s = registry::session(&r, lookup)
                .map_err(|e| BadInput(format!("{shown}: {}", crate::error_chain(&e))))?;
            (s, Some(r.seats))
        }
        None => {
            // A new match, compiled from the game's options as `play` compiles it.
            let seed = args.seed.unwrap_or(0);
            let shelf = CliShelf::new(ctx);
            let options = (game.options.compile)(
                &m,
                &shelf,
                &Ask {
                    seed,
                    policies: &|_| Vec::new(),
                    policy_option: "--seats",
                },
            )
            .map_err(|e| BadInput(format!("a new {} match: {e}", game.name)))?;
            let none: Vec<crate::cards::Card> = Vec::new();
            let opened = (game.open)(&options, &none)
                .map_err(|e| BadInput(format!("a new {} match: {e}", game.name)))?;
            (
                Session::opened(opened, game.engine, Vec::new(), seed, options),
                None,
            )
        }
    };
    let n = session.latest().seats();
    let mut sitters: Vec<Sitter> = if !args.seats.is_empty() {
        args.seats
            .iter()
            .map(|s| {
                Sitter::parse(s.trim()).ok_or_else(|| {
                    BadInput(format!(
                        "--seats: `{s}` is not host, remote or a policy (first, random, greedy, mcts, mcts:N, mcts:Nms)"
                    ))
                })
            })
            .collect::<Result<_, _>>()?
    } else if let Some(names) = recorded {
        names
            .iter()
            .map(|s| match s.as_str() {
                "person" => Sitter::Remote,
                p => Sitter::parse(p).unwrap_or(Sitter::Remote),
            })
            .collect()
    } else {
        (0..n)
            .map(|k| {
                if k == 0 {
                    Sitter::Terminal
                } else {
                    Sitter::Remote
                }
            })
            .collect()
    };
    if sitters.len() != n {
        return Err(BadInput(format!(
            "--seats names {} seats; this {} match has {n}",
            sitters.len(),
            game.name
        )));
    }
    if let Some(p) = &args.policy {
        let policy = crate::games::ai::Policy::parse(p)
            .ok_or_else(|| BadInput(format!("--policy: unknown policy `{p}`")))?;
        for s in &mut sitters {
            if *s == Sitter::Terminal {
                *s = Sitter::Computer(policy);
            }
        }
    }
    session.seats = sitters.iter().map(|s| s.seat()).collect();
    let drop_to = match &args.drop_to {
        None => None,
        Some(p) => Some(
            crate::games::ai::Policy::parse(p)
                .ok_or_else(|| BadInput(format!("--drop-to: unknown policy `{p}`")))?,
        ),
    };
    // The match's cards, and their art found beside the match file or in the catalogue's.
    let cards = crate::net::cards::of_options(&session.options)
        .map_err(|e| BadInput(format!("the match's cards: {e}")))?;
    let mut art_dirs = Vec::new();
    if let Some(dir) = args.from.as_deref().and_then(|p| p.parent()) {
        art_dirs.push(if dir.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            dir.to_path_buf()
        });
    }
    let db = ctx
        .db
        .clone()
        .unwrap_or_else(crate::catalogue::default_path);
    if let Some(dir) = db.parent() {
        art_dirs.push(dir.join("art"));
    }
    let (set, skipped) =
        crate::net::cards::card_set(cards, &art_dirs).map_err(|e| BadInput(e.to_string()))?;
    for why in skipped {
        note!("{why}");
    }
    let lobby = Lobby {
        game: game.name.to_string(),
        title: game.title.to_string(),
        engine: game.engine,
        cards: std::sync::Arc::new(set),
    };
    let mut host = match &args.relay {
        None => Host::start(args.listen, lobby),
        Some(line) => Host::start_relayed(line.parse()?, lobby),
    }
    .map_err(|e| BadInput(e.to_string()))?;
    host.drop_to = drop_to;
    writeln!(ctx.out, "{}", host.code());
    ctx.out.flush();
    note!(
        "hosting {} (seats: {}); send the code on the first line to whoever joins",
        game.title,
        sitters
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    note!("here you may type {}", crate::net::host::TERMINAL_HELP);
    // The terminal answers the host's seats and takes commands (notes, drops, quit).
    {
        let tx = host.terminal();
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if tx.send(Event::Terminal(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Event::TerminalClosed);
        });
    }
    let mut table = Terminal {
        out: &ctx.out,
        json: args.json,
        record: args.record.clone(),
    };
    let played = host.play(&mut session, &sitters, &mut table);
    host.close();
    if let Some(path) = &args.record {
        report::save_record(&session.record(), path)?;
    }
    match played {
        Ok(()) => {}
        Err(HostError::Quit(step)) => {
            let path = args
                .record
                .clone()
                .unwrap_or_else(|| PathBuf::from(format!("{}.stopped.match.toml", game.name)));
            if args.record.is_none() {
                report::save_record(&session.record(), &path)?;
            }
            note!(
                "stopped at step {step}; the match is kept in {p}: host it again with `deckwright host {g} --from {p}`",
                p = path.display(),
                g = game.name
            );
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(BadInput(e.to_string())),
    }
    let r = crate::net::host::final_report(&session);
    if args.json {
        let mut doc = r.json;
        if let Some(fields) = doc.as_object_mut() {
            fields.insert(
                "record".into(),
                serde_json::to_value(session.record()).unwrap_or_default(),
            );
        }
        ctx.out.json_pretty(&doc);
    } else {
        ctx.out.text(&r.tail);
    }
    Ok(ExitCode::SUCCESS)
}
