//! `deckwright template check FILE`, `template pack SET.toml --out FILE.zip`, `template import
//! FILE.zip DIR`: face templates and template sets (see docs/templates.md).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{BadInput, Context, Outcome};
use crate::print::template::{self, set};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: Sub,
}

#[derive(Debug, clap::Subcommand)]
pub enum Sub {
    /// Read a face template (or a set file and its templates) and report every problem at
    /// file:line:column.
    Check { file: PathBuf },
    /// Write a set file with its templates, fonts, pictures and card files into one zip file.
    Pack {
        set: PathBuf,
        #[arg(long, value_name = "FILE.zip")]
        out: PathBuf,
    },
    /// Unpack a shared set into a folder (refused whole if any file would land outside it).
    Import { archive: PathBuf, dir: PathBuf },
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let out = &ctx.out;
    match args.command {
        Sub::Check { file } => {
            if file.to_string_lossy().ends_with(".set.toml") {
                let s = set::load(&file).map_err(BadInput)?;
                writeln!(
                    out,
                    "{}: set `{}`, {} template(s), fine",
                    file.display(),
                    s.file.name,
                    s.faces.len()
                );
            } else {
                let f = template::load_file(&file)?;
                writeln!(
                    out,
                    "{}: `{}` for {} {}, {} layers, fine",
                    file.display(),
                    f.template.name,
                    f.template.game,
                    f.template.kinds.join(", "),
                    f.template.layers.len()
                );
            }
        }
        Sub::Pack { set: s, out: to } => {
            let n = set::pack(&s, &to).map_err(BadInput)?;
            writeln!(out, "wrote {} ({n} files)", to.display());
        }
        Sub::Import { archive, dir } => {
            let p = set::unpack(&archive, &dir).map_err(BadInput)?;
            writeln!(out, "imported the set {}", p.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Puts the set file at `path` in use for this run: its cards (its query's hits, run by
/// `query`, or its folder's cards) are drawn with its templates.
pub fn use_set(
    path: &Path,
    query: &dyn Fn(&str) -> Result<Vec<String>, String>,
) -> Result<(), BadInput> {
    let s = set::load(path).map_err(BadInput)?;
    let ids: BTreeSet<String> = match &s.file.query {
        Some(q) => query(q).map_err(BadInput)?.into_iter().collect(),
        None => s.folder_ids().map_err(BadInput)?,
    };
    template::use_sets(s.rules(&ids));
    Ok(())
}
