//! `deckwright join CODE [--policy P] [--watch] [--record FILE] [--json] [--import]
//! [--cards-to DIR]`: joins a hosted match. The seat the host gives is played at the
//! terminal (the question, its options by number, the log) or by a policy that needs no
//! position (`first`, `random`); `--watch` follows the log as a spectator. Anyone may type
//! `note TEXT` at any time: a playtest note on the match's current step, kept in its record.
//! The match's cards arrive with it, each once this seat's view names it and the rest at
//! the end, and are checked (`net::cards`); at the end the catalogue is left as it is
//! unless `--import` (or `--cards-to DIR` writes them to a folder). Exit 0 at the
//! end with the outcome, 2 when refused (wrong secret, version mismatch, match full, a card
//! that is not the one announced), 1 when the host goes away or stops the match.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::out::note;
use crate::cli::{BadInput, Context, Outcome, report};
use crate::games::ai::Policy;
use crate::games::dice::derive_seed;
use crate::games::record::MatchRecord;
use crate::games::registry;
use crate::net::NetError;
use crate::net::cards::Arrival;
use crate::net::client::Link;
use crate::net::code::JoinCode;
use crate::net::wire::{ToHost, ToPeer};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The code the host printed (`dw1/ADDRESS/FINGERPRINT/SECRET`, or `dw2/...` through a relay).
    pub code: String,
    /// Play the seat by this policy: `first` or `random` (a joined seat is sent its question
    /// and options, not the position a search needs; seat greedy or mcts at the host).
    #[arg(long, value_name = "POLICY")]
    pub policy: Option<String>,
    /// The seed of `--policy random`.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Watch as a spectator: the log only.
    #[arg(long, conflicts_with = "policy")]
    pub watch: bool,
    /// At the end, write the match file the host sends (checked to replay here first).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Print nothing but the `play --json` document at the end.
    #[arg(long)]
    pub json: bool,
    /// Import the match's cards (and their art) into the catalogue once they arrive.
    #[arg(long)]
    pub import: bool,
    /// Write the match's cards (`ID.toml`) and their art (`ID.png`) into this folder.
    #[arg(long, value_name = "DIR")]
    pub cards_to: Option<PathBuf>,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let code: JoinCode = args.code.parse()?;
    let policy = match &args.policy {
        None => None,
        Some(p) => match Policy::parse(p) {
            Some(p) if p.blind() => Some(p),
            Some(_) => {
                return Err(BadInput(format!(
                    "--policy {p}: a joined seat is sent its question, not the position a search needs; use first or random here, or seat {p} at the host"
                )));
            }
            None => return Err(BadInput(format!("--policy: unknown policy `{p}`"))),
        },
    };
    let (link, welcome) = match Link::join(&code, args.watch) {
        Ok(x) => x,
        Err(NetError::Refused(why)) => return Err(BadInput(format!("refused: {why}"))),
        Err(e) => {
            note!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    match registry::find(&welcome.game) {
        Some(g) if g.engine == welcome.engine => {}
        found => {
            link.close();
            return Err(BadInput(format!(
                "version mismatch: the host plays {} with engine {}, this program {}",
                welcome.game,
                welcome.engine,
                found.map_or("does not play it".to_string(), |g| format!(
                    "with engine {}",
                    g.engine
                ))
            )));
        }
    }
    let out = &ctx.out;
    let mut arrival = welcome.cards.clone();
    let mut cards_kept = false;
    if arrival.complete() {
        keep_cards(ctx, &args, &arrival)?;
        cards_kept = true;
    }
    if !args.json {
        match welcome.seat {
            Some(s) => writeln!(
                out,
                "Joined {} as Player {} (seats: {})",
                welcome.title,
                s + 1,
                welcome.seats.join(", ")
            ),
            None => writeln!(
                out,
                "Watching {} (seats: {})",
                welcome.title,
                welcome.seats.join(", ")
            ),
        }
        out.flush();
    }
    // The terminal: `note TEXT` goes to the host at once; other lines answer questions.
    let (answers_tx, answers) = std::sync::mpsc::channel::<String>();
    let notes = link.sender();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if let Some(text) = line.trim().strip_prefix("note ") {
                if notes.send(&ToHost::Note { text: text.into() }).is_err() {
                    break;
                }
            } else if answers_tx.send(line).is_err() {
                break;
            }
        }
    });
    // The match's end (its result, report and record) once it came.
    let mut ended: Option<(String, serde_json::Value, String)> = None;
    // The question this terminal was asked and has not answered yet: seat, step, options.
    let mut asked: Option<(usize, usize, usize)> = None;
    loop {
        // While a question waits for its answer, the host is still listened to (its notes,
        // or the match stopped) between lines typed.
        if let Some((seat, step, n)) = asked {
            match answers.try_recv() {
                Ok(line) => {
                    match line
                        .trim()
                        .parse::<usize>()
                        .ok()
                        .filter(|k| (1..=n).contains(k))
                    {
                        Some(k) => {
                            asked = None;
                            if link
                                .send(&ToHost::Decide {
                                    seat,
                                    step,
                                    option: k - 1,
                                })
                                .is_err()
                            {
                                note!("error: the host went away");
                                return Ok(ExitCode::from(1));
                            }
                        }
                        None => {
                            writeln!(out, "Enter a number from 1 to {n}:");
                            out.flush();
                        }
                    }
                    continue;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => {}
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    link.close();
                    note!("error: the input ended with a decision to take");
                    return Ok(ExitCode::from(1));
                }
            }
        }
        let wait = asked.map(|_| std::time::Duration::from_millis(50));
        let msg = match link.recv(wait) {
            Ok(Some(m)) => m,
            Ok(None) => continue,
            // Gone after the end with cards missing: the check at the end names them.
            Err(_) if ended.is_some() => {
                let (result, doc, record) = ended.take().unwrap_or_default();
                link.close();
                return finish(ctx, &args, &arrival, &result, doc, &record);
            }
            Err(e) => {
                note!("error: the host went away ({e})");
                return Ok(ExitCode::from(1));
            }
        };
        match msg {
            ToPeer::Log { lines, .. } => {
                if !args.json {
                    report::log_text(out, lines.iter().map(|l| (l.line(), l.text.clone())));
                    out.flush();
                }
            }
            ToPeer::Ask {
                seat,
                step,
                question,
                options,
            } => {
                let option = match policy {
                    Some(Policy::Random) => {
                        (derive_seed(args.seed, step as u64) % options.len().max(1) as u64) as usize
                    }
                    Some(_) => 0,
                    None => {
                        writeln!(out, "\nPlayer {} (you): {question}", seat + 1);
                        for (k, o) in options.iter().enumerate() {
                            writeln!(out, "  {}. {o}", k + 1);
                        }
                        writeln!(out, "Type a number and Enter (or note TEXT):");
                        out.flush();
                        asked = Some((seat, step, options.len()));
                        continue;
                    }
                };
                if link.send(&ToHost::Decide { seat, step, option }).is_err() {
                    note!("error: the host went away");
                    return Ok(ExitCode::from(1));
                }
            }
            ToPeer::Rejected { reason, .. } => note!("the host refused: {}", clean(&reason)),
            ToPeer::Refused { reason } => {
                link.close();
                // The host stopping the match is not this peer's bad input.
                if reason.starts_with("the host stopped") || reason.starts_with("the host handed") {
                    note!("error: {}", clean(&reason));
                    return Ok(ExitCode::from(1));
                }
                return Err(BadInput(format!("refused: {}", clean(&reason))));
            }
            ToPeer::Welcome { .. } => {}
            ToPeer::Card { text, salt, art } => {
                let art = match art.map(|a| crate::net::code::unhex_bytes(&a)) {
                    None => Ok(None),
                    Some(Some(bytes)) => Ok(Some(bytes)),
                    Some(None) => Err("a card's art is not hexadecimal".to_string()),
                };
                if let Err(e) = art.and_then(|art| arrival.card(&text, &salt, art).map(|_| ())) {
                    link.close();
                    return Err(BadInput(format!("refused the host's cards: {e}")));
                }
            }
            ToPeer::Note { step, by, text } => {
                note!("note at step {step}, {}: {}", clean(&by), clean(&text))
            }
            ToPeer::End {
                result,
                report: doc,
                record,
            } => {
                // The cards not sent yet follow the end.
                ended = Some((result, doc, record));
            }
        }
        if !cards_kept && arrival.complete() {
            cards_kept = true;
            if let Err(e) = keep_cards(ctx, &args, &arrival) {
                link.close();
                return Err(e);
            }
        }
        if arrival.complete()
            && let Some((result, doc, record)) = ended.take()
        {
            link.close();
            return finish(ctx, &args, &arrival, &result, doc, &record);
        }
    }
}

/// The end: the host's record checked to replay with this program's engine, written with
/// `--record`; the outcome printed.
fn finish(
    ctx: &Context,
    args: &Args,
    arrival: &Arrival,
    result: &str,
    mut doc: serde_json::Value,
    record: &str,
) -> Outcome {
    // Played with the card set the host announced, or the card that differs is named: a
    // card-set mismatch, refused as a version mismatch is (exit 2).
    if let Ok(r) = MatchRecord::parse(record) {
        let played = crate::net::cards::of_options(&r.options)
            .and_then(|played| arrival.check_played(&played));
        if let Err(e) = played {
            return Err(BadInput(format!("card-set mismatch: {e}")));
        }
    }
    let replays = MatchRecord::parse(record)
        .map_err(|e| crate::error_chain(&e))
        .and_then(|r| {
            registry::session(&r, &Vec::<crate::cards::Card>::new())
                .map_err(|e| crate::error_chain(&e))?;
            Ok(r)
        });
    let code = match &replays {
        Ok(r) => {
            if let Some(path) = &args.record {
                report::save_record(r, path)?;
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            note!("error: the host's match record does not replay here: {e}");
            ExitCode::from(1)
        }
    };
    if args.json {
        if let (Some(fields), Ok(r)) = (doc.as_object_mut(), &replays) {
            fields.insert("record".into(), serde_json::to_value(r).unwrap_or_default());
        }
        ctx.out.json_pretty(&doc);
    } else {
        ctx.out.text(result);
    }
    Ok(code)
}

/// A text from the host with its control characters escaped.
fn clean(text: &str) -> String {
    crate::cli::out::escape_controls(text).into_owned()
}

/// What becomes of the match's cards once they have all arrived: said (and the cards of the
/// catalogue that differ from them named), imported with `--import`, written with
/// `--cards-to`; otherwise nothing is kept.
fn keep_cards(ctx: &Context, args: &Args, arrival: &Arrival) -> Result<(), BadInput> {
    if arrival.cards.is_empty() {
        return Ok(());
    }
    let short = &arrival.digest[..arrival.digest.len().min(12)];
    note!(
        "the host sent the match's {} cards (set {short}) and {} pictures",
        arrival.cards.len(),
        arrival.pictures()
    );
    let received: Vec<crate::cards::Card> = arrival.cards.iter().map(|(c, _)| c.clone()).collect();
    let db = ctx
        .db
        .clone()
        .unwrap_or_else(crate::catalogue::default_path);
    // The catalogue is opened only when it exists already or the person asked to import.
    if args.import || db.is_file() {
        let mut cat = crate::cli::load::open_catalogue(ctx)?;
        let differ = crate::net::cards::differing(&received, &cat);
        if !differ.is_empty() {
            note!(
                "cards of your catalogue differ from the host's: {}; this match plays the host's{}",
                differ.join(", "),
                if args.import {
                    ""
                } else {
                    " (join --import to take them)"
                }
            );
        }
        if args.import {
            let staged = tempfile::tempdir()
                .map_err(|e| BadInput(format!("cannot stage the host's cards: {e}")))?;
            arrival
                .write_to(staged.path())
                .map_err(|e| BadInput(format!("cannot stage the host's cards: {e}")))?;
            let cards: Vec<_> = arrival
                .cards_with_art()
                .into_iter()
                .map(|c| (c, None))
                .collect();
            let r = cat
                .import_cards(&cards, Some(staged.path()))
                .map_err(|e| BadInput(format!("cannot import the host's cards: {e}")))?;
            note!(
                "imported the host's cards into the catalogue: {} added, {} updated, {} unchanged",
                r.added,
                r.updated,
                r.unchanged
            );
        }
    }
    if let Some(dir) = &args.cards_to {
        let written = arrival
            .write_to(dir)
            .map_err(|e| BadInput(format!("{}: {e}", dir.display())))?;
        note!(
            "wrote the match's cards to {} ({} files)",
            dir.display(),
            written.len()
        );
    }
    if !args.import && args.cards_to.is_none() {
        note!("your catalogue is left as it is (join --import, or --cards-to DIR, keeps them)");
    }
    Ok(())
}
