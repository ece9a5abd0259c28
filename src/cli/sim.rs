//! `deckwright sim GAME FILE...`.

use std::process::ExitCode;

use super::{BadInput, Context, Outcome};

#[derive(Debug, clap::Args)]
pub struct Args {
    pub game: String,
    pub files: Vec<std::path::PathBuf>,
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// AI policy of both sides (random, greedy, mcts).
    #[arg(long, default_value = "greedy")]
    pub ai: String,
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_ctx: &Context, _args: Args) -> Outcome {
    Err(BadInput("`sim GAME FILE...` is not built yet".into()))
}

#[allow(dead_code)]
fn ok() -> Outcome {
    Ok(ExitCode::SUCCESS)
}
