//! `deckwright join CODE [--policy P] [--watch] [--record FILE] [--json]`: joins a hosted
//! match. The seat the host gives is played at the terminal (the question, its options by
//! number, the log) or by a policy that needs no position (`first`, `random`); `--watch`
//! follows the log as a spectator. Exit 0 at the end with the outcome, 2 when refused
//! (wrong secret, version mismatch, match full), 1 when the host goes away.

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
use crate::net::client::Link;
use crate::net::code::JoinCode;
use crate::net::wire::{ToHost, ToPeer};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The code the host printed (`dw1/ADDRESS/FINGERPRINT/SECRET`).
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
    let mut stdin = std::io::stdin().lock();
    loop {
        let msg = match link.recv(None) {
            Ok(Some(m)) => m,
            Ok(None) => continue,
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
                        writeln!(out, "Type a number and Enter:");
                        out.flush();
                        let mut chosen = None;
                        while chosen.is_none() {
                            let mut line = String::new();
                            match stdin.read_line(&mut line) {
                                Ok(0) | Err(_) => {
                                    link.close();
                                    note!("error: the input ended with a decision to take");
                                    return Ok(ExitCode::from(1));
                                }
                                Ok(_) => {}
                            }
                            chosen = line
                                .trim()
                                .parse::<usize>()
                                .ok()
                                .filter(|n| (1..=options.len()).contains(n));
                            if chosen.is_none() {
                                writeln!(out, "Enter a number from 1 to {}:", options.len());
                                out.flush();
                            }
                        }
                        chosen.unwrap_or(1) - 1
                    }
                };
                if link.send(&ToHost::Decide { seat, step, option }).is_err() {
                    note!("error: the host went away");
                    return Ok(ExitCode::from(1));
                }
            }
            ToPeer::Rejected { reason, .. } => note!("the host refused the decision: {reason}"),
            ToPeer::Refused { reason } => {
                link.close();
                return Err(BadInput(format!("refused: {reason}")));
            }
            ToPeer::Welcome { .. } => {}
            ToPeer::End {
                result,
                report: doc,
                record,
            } => {
                link.close();
                return finish(ctx, &args, &result, doc, &record);
            }
        }
    }
}

/// The end: the host's record checked to replay with this program's engine, written with
/// `--record`; the outcome printed.
fn finish(
    ctx: &Context,
    args: &Args,
    result: &str,
    mut doc: serde_json::Value,
    record: &str,
) -> Outcome {
    let replays = MatchRecord::parse(record).and_then(|r| {
        registry::session(&r, &Vec::<crate::cards::Card>::new())?;
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
            note!(
                "error: the host's match record does not replay here: {}",
                crate::error_chain(e)
            );
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
