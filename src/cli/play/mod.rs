//! `deckwright play GAME ...`: one match, printing its event log and final state (or the
//! `play --json` document). The game is a subcommand with its own options.

mod arcadia;
mod generic;
mod iconica;
mod iconoclasm;
mod ruunara;

use super::{Context, Outcome};

#[derive(Debug, clap::Args)]
#[command(after_help = generic::games_help())]
pub struct Args {
    #[command(subcommand)]
    pub game: Game,
}

/// The games `play` knows.
#[derive(Debug, clap::Subcommand)]
pub enum Game {
    /// Two parties (or two teams of two) of Iconica characters.
    Iconica(iconica::Args),
    /// An Arcadia quest setup: two characters on the leagues.
    Arcadia(arcadia::Args),
    /// An Iconoclasm table of 1 to 4 players (no file).
    Iconoclasm(iconoclasm::Args),
    /// A Ruunara mission played by a squad (the enemies run by the rules).
    Ruunara(ruunara::Args),
    /// Any other registered game that starts from its rules alone (e.g. `pig`): --seed,
    /// --policy, --policy-a, --policy-b, --dice, --json, --record.
    #[command(external_subcommand)]
    Other(Vec<String>),
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    match args.game {
        Game::Iconica(a) => iconica::run(ctx, a),
        Game::Arcadia(a) => arcadia::run(ctx, a),
        Game::Iconoclasm(a) => iconoclasm::run(ctx, a),
        Game::Ruunara(a) => ruunara::run(ctx, a),
        Game::Other(words) => generic::run(ctx, words),
    }
}
