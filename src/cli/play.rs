//! `deckwright play GAME FILE...`.

use std::process::ExitCode;

use super::{BadInput, Context, Outcome};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game (iconica).
    pub game: String,
    /// Iconica: two party files.
    pub files: Vec<std::path::PathBuf>,
    /// v2 or v8.
    #[arg(long, default_value = "v2")]
    pub ruleset: String,
    /// standard or advanced (v2 only).
    #[arg(long, default_value = "standard")]
    pub breaks: String,
    /// Comma-separated: no-reactions,no-strengths,no-final-acts,no-action-breaks.
    #[arg(long, default_value = "")]
    pub house: String,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Scripted dice faces, e.g. "3 5 2 6".
    #[arg(long)]
    pub dice: Option<String>,
    /// Policy of both sides: first, random, greedy or mcts.
    #[arg(long)]
    pub policy: Option<String>,
    #[arg(long)]
    pub policy_a: Option<String>,
    #[arg(long)]
    pub policy_b: Option<String>,
    #[arg(long, default_value_t = 500)]
    pub turn_limit: u32,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_ctx: &Context, _args: Args) -> Outcome {
    Err(BadInput("`play GAME FILE...` is not built yet".into()))
}

#[allow(dead_code)]
fn ok() -> Outcome {
    Ok(ExitCode::SUCCESS)
}
