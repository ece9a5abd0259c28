//! `deckwright merge FILE... [--json]`: the report of a run split into shards (`sim ...
//! --shard K/N --out FILE`) from their tally files: the same report the run gives in one
//! process with the same seeds (its games per second aside). Mixed runs, a shard given twice
//! and missing shards are refused (exit 2), naming them.

use std::path::PathBuf;

use super::{BadInput, Context, Outcome};
use crate::balance::shard::ScoreFile;
use crate::sim::shard::{self, TallyFile};

/// The largest tally file read (bytes): a balance shard keeps a digit a game (up to
/// `--max-games`' 100,000,000 in one shard).
const MAX_TALLY_FILE: u64 = 128 << 20;
/// The most tally files merged at once.
const MAX_FILES: usize = shard::MAX_SHARDS as usize;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shards' tally files (`sim ... --shard K/N --out FILE`), every shard of one run.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print the report as JSON (as `sim --json` does).
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    if args.files.len() > MAX_FILES {
        return Err(BadInput(format!(
            "{} tally files given; at most {MAX_FILES} are merged",
            args.files.len()
        )));
    }
    let mut files = Vec::with_capacity(args.files.len());
    let mut scores = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        let text = crate::safe_io::read_text(path, MAX_TALLY_FILE, "a tally file")
            .map_err(|e| BadInput(format!("{name}: {}", crate::error_chain(&e))))?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| BadInput(format!("{name} is not a tally file: {e}")))?;
        if super::balance_shard::is_balance_tally(&value) {
            let file: ScoreFile = serde_json::from_value(value)
                .map_err(|e| BadInput(format!("{name} is not a balance tally file: {e}")))?;
            scores.push((name, file));
        } else {
            let file: TallyFile = serde_json::from_value(value)
                .map_err(|e| BadInput(format!("{name} is not a tally file: {e}")))?;
            files.push((name, file));
        }
    }
    match (files.first(), scores.first()) {
        (Some((a, _)), Some((b, _))) => {
            return Err(BadInput(format!(
                "{a} is a sim tally and {b} a balance tally: shards of different runs"
            )));
        }
        (None, Some(_)) => {
            let merged = crate::balance::shard::merge(&scores)?;
            return super::balance_shard::print_merged(ctx, &merged, args.json);
        }
        _ => {}
    }
    let merged = shard::merge(&files)?;
    super::sim::print_merged(ctx, &merged, args.json)
}
