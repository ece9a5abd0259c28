//! `deckwright search QUERY`.

use std::process::ExitCode;

use super::{BadInput, Context, Outcome};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The query (see docs/search.md); a query starting with - goes after --.
    #[arg(required = true, num_args = 1.., allow_hyphen_values = false)]
    pub query: Vec<String>,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_ctx: &Context, _args: Args) -> Outcome {
    Err(BadInput("`search QUERY` is not built yet".into()))
}

#[allow(dead_code)]
fn ok() -> Outcome {
    Ok(ExitCode::SUCCESS)
}
