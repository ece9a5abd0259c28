//! `deckwright play ruunara --campaign FILE [--seed S] [--policy P] [--json] [--record
//! FILE]`: Ruunara's story mode (`games::ruunara::campaign`): the campaign file read with the
//! squad and the missions it names (beside it), the missions played in order, each printed as
//! `play` prints a mission under its own heading, then the campaign's line. `--record`
//! writes one match file per mission played ([`campaign::record_path`]), each replayed and
//! checked by `deckwright replay` like any match file.

use std::path::Path;
use std::process::ExitCode;

use crate::cli::load::CliShelf;
use crate::cli::out::note;
use crate::cli::report::log_text;
use crate::cli::{BadInput, Context, Outcome};
use crate::games::ai::Policy;
use crate::games::registry::Shelf;
use crate::games::report::Line;
use crate::games::ruunara::campaign::{self, CampaignFile};
use crate::games::ruunara::squad::SquadFile;

/// Plays the campaign at `path` with `policies` from `seed`; `json`: the campaign's JSON;
/// `record`: each mission's match file written beside it ([`campaign::record_path`]).
pub fn run(
    ctx: &Context,
    path: &Path,
    policies: &[Policy],
    seed: u64,
    json: bool,
    record: Option<&Path>,
) -> Outcome {
    let shelf = CliShelf::new(ctx);
    let shown = path.display().to_string();
    let text = shelf
        .read(path)
        .map_err(|e| BadInput(format!("{shown}: {e}")))?;
    let c = CampaignFile::parse(&text, &shown).map_err(BadInput)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let read = |name: &str| {
        let p = dir.join(name);
        shelf
            .read(&p)
            .map_err(|e| BadInput(format!("{shown}: {}: {e}", p.display())))
    };
    let squad_text = read(&c.squad)?;
    let squad = SquadFile::parse(&squad_text, &c.squad).map_err(|e| BadInput(e.to_string()))?;
    let missions = c
        .missions
        .iter()
        .map(|m| read(m).map(|t| (m.clone(), t)))
        .collect::<Result<Vec<_>, _>>()?;
    let lookup = shelf.lookup().map_err(BadInput)?;
    let played = campaign::play(&c, &squad, &missions, lookup, policies, seed)
        .map_err(|e| BadInput(format!("{shown}: {e}")))?;
    if let Some(record) = record {
        if record.file_name().is_none() {
            return Err(BadInput(format!(
                "--record {}: give a file name (each mission's match file is named after it)",
                record.display()
            )));
        }
        for (k, leg) in played.legs.iter().enumerate() {
            let file = campaign::record_path(record, k + 1);
            crate::cli::report::save_record(&leg.record, &file)?;
            note!(
                "mission {} of {} ({}) recorded to {}",
                k + 1,
                campaign::MISSIONS,
                leg.mission_file,
                file.display()
            );
        }
    }
    if json {
        ctx.out.json_pretty(&played.json(&c, seed));
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(t) = &c.text {
        ctx.out.text(&format!("{}\n", t.trim()));
    }
    for (k, leg) in played.legs.iter().enumerate() {
        let mut lines = vec![(
            Line::Heading,
            format!(
                "Mission {} of {}: {}",
                k + 1,
                campaign::MISSIONS,
                leg.mission_file
            ),
        )];
        lines.extend(leg.report.log.iter().cloned());
        log_text(&ctx.out, lines);
        ctx.out.text(&leg.report.tail);
        if !leg.gone.is_empty() {
            ctx.out.text(&format!(
                "Gone for the rest of the campaign: {}\n",
                leg.gone.join(", ")
            ));
        }
    }
    ctx.out.text(&format!("\n{}\n", played.summary(&c)));
    if played.legs.len() < campaign::MISSIONS && !played.won {
        note!("the campaign ends with its first lost mission");
    }
    Ok(ExitCode::SUCCESS)
}
