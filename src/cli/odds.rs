//! `deckwright odds ruunara DICE`.

use std::process::ExitCode;

use super::{BadInput, Context, Outcome};

#[derive(Debug, clap::Args)]
pub struct Args {
    pub game: String,
    pub dice: String,
    #[arg(long)]
    pub cover: bool,
    #[arg(long)]
    pub kill_on: Option<u8>,
    #[arg(long)]
    pub hp: Option<u32>,
    #[arg(long)]
    pub json: bool,
}

pub fn run(_ctx: &Context, _args: Args) -> Outcome {
    Err(BadInput("`odds ruunara DICE` is not built yet".into()))
}

#[allow(dead_code)]
fn ok() -> Outcome {
    Ok(ExitCode::SUCCESS)
}
