//! `deckwright import PATH...`.

use std::process::ExitCode;

use super::{BadInput, Context, Outcome};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Card files or folders (searched recursively for *.toml).
    #[arg(required = true)]
    pub paths: Vec<std::path::PathBuf>,
}

pub fn run(_ctx: &Context, _args: Args) -> Outcome {
    Err(BadInput("`import PATH...` is not built yet".into()))
}

#[allow(dead_code)]
fn ok() -> Outcome {
    Ok(ExitCode::SUCCESS)
}
