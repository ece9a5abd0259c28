//! `deckwright cards export DIR`.

use std::process::ExitCode;

use super::{BadInput, Context, Outcome};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: CardsAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum CardsAction {
    /// Write every card as DIR/<game>/<id>.toml.
    Export { dir: std::path::PathBuf },
}

pub fn run(_ctx: &Context, _args: Args) -> Outcome {
    Err(BadInput("`cards export DIR` is not built yet".into()))
}

#[allow(dead_code)]
fn ok() -> Outcome {
    Ok(ExitCode::SUCCESS)
}
