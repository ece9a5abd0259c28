//! The `deckwright` binary: no subcommand opens the desktop app; otherwise runs the command line.

use std::process::ExitCode;

use clap::Parser;
use deckwright::cli::{self, Cli};

fn main() -> ExitCode {
    let args = Cli::parse();
    match args.command {
        Some(command) => cli::run(args.db, command),
        None => {
            let db = args.db.unwrap_or_else(deckwright::catalogue::default_path);
            match deckwright::app::run(&db) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e:#}");
                    ExitCode::from(2)
                }
            }
        }
    }
}
