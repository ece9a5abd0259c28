//! `deckwright replay FILE [--json] [--to STEP]`: a match file's log and final state, as
//! `play` prints them, replayed by its game's engine with every input checked (exit 1 naming
//! the first step that no longer replays; exit 2 for a file that is not a match record, is
//! of a newer format or of another engine version). The record's playtest notes are printed
//! after the log (`--json`: its `notes`).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::{BadInput, Context, Outcome, report};
use crate::games::record::{MatchRecord, RecordError};
use crate::games::registry;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The match file (`*.match.toml`), saved by the app or by `play ... --record`.
    pub file: PathBuf,
    /// Stop after this many inputs (decisions and chance outcomes) and print the match there.
    #[arg(long, value_name = "STEP")]
    pub to: Option<usize>,
    /// Print the `play --json` document.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let shown = args.file.display().to_string();
    let record = MatchRecord::load(&args.file)
        .map_err(|e| BadInput(format!("{shown}: {}", crate::error_chain(&e))))?;
    let game = registry::of_record(&record)
        .map_err(|e| BadInput(format!("{shown}: {}", crate::error_chain(&e))))?;
    if let Some(to) = args.to
        && to > record.inputs.len()
    {
        return Err(BadInput(format!(
            "--to {to}: {shown} has {} inputs",
            record.inputs.len()
        )));
    }
    // A record that keeps no cards (format 1) takes them from the catalogue, opened only then.
    let cat;
    let lookup: &dyn crate::cards::CardLookup = if record.format < 2 {
        cat = crate::cli::load::open_catalogue(ctx)?;
        &cat
    } else {
        &Vec::<crate::cards::Card>::new()
    };
    match (game.replay)(&record, args.to, lookup) {
        Ok(mut r) => {
            // The playtest notes up to the step shown: after the log, before the result.
            let to = args.to.unwrap_or(record.inputs.len());
            let notes: Vec<_> = record.notes.iter().filter(|n| n.step <= to).collect();
            if args.json {
                if !notes.is_empty()
                    && let Some(fields) = r.json.as_object_mut()
                {
                    fields.insert(
                        "notes".into(),
                        serde_json::to_value(&notes).unwrap_or_default(),
                    );
                }
                report::print(&ctx.out, r, true);
            } else {
                report::log_text(&ctx.out, std::mem::take(&mut r.log));
                if !notes.is_empty() {
                    writeln!(ctx.out, "\nPlaytest notes:");
                    for n in &notes {
                        writeln!(ctx.out, "  step {}, {}: {}", n.step, n.by, n.text);
                    }
                }
                ctx.out.text(&r.tail);
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(
            e @ (RecordError::Illegal { .. }
            | RecordError::Differs { .. }
            | RecordError::Point { .. }),
        ) => {
            crate::cli::out::note!("{shown}: {}", crate::error_chain(&e));
            Ok(ExitCode::from(1))
        }
        Err(e) => Err(BadInput(format!("{shown}: {}", crate::error_chain(&e)))),
    }
}
