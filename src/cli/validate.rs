//! `deckwright validate FILE...`.

use std::process::ExitCode;

use super::{BadInput, Context, Outcome};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Party, character, setup or squad files.
    #[arg(required = true)]
    pub files: Vec<std::path::PathBuf>,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_ctx: &Context, _args: Args) -> Outcome {
    Err(BadInput("`validate FILE...` is not built yet".into()))
}

#[allow(dead_code)]
fn ok() -> Outcome {
    Ok(ExitCode::SUCCESS)
}
