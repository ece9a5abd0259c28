//! `deckwright export SELECTION --out FILE`.

use std::process::ExitCode;

use super::{BadInput, Context, Outcome};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A search query, a party/character/setup/squad file, or card ids.
    #[arg(required_unless_present = "calibration")]
    pub selection: Vec<String>,
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    #[arg(long)]
    pub png: Option<std::path::PathBuf>,
    #[arg(long, default_value = "a4")]
    pub paper: String,
    #[arg(long, default_value = "poker")]
    pub card: String,
    #[arg(long)]
    pub size: Option<String>,
    #[arg(long, default_value_t = 0.0)]
    pub bleed: f32,
    #[arg(long)]
    pub crop_marks: bool,
    #[arg(long, default_value_t = 0.0)]
    pub gutter: f32,
    #[arg(long)]
    pub backs: bool,
    #[arg(long)]
    pub back_offset: Option<String>,
    #[arg(long)]
    pub copies: Option<String>,
    #[arg(long, default_value_t = 300)]
    pub dpi: u32,
    #[arg(long)]
    pub calibration: bool,
}

pub fn run(_ctx: &Context, _args: Args) -> Outcome {
    Err(BadInput("`export SELECTION --out FILE` is not built yet".into()))
}

#[allow(dead_code)]
fn ok() -> Outcome {
    Ok(ExitCode::SUCCESS)
}
