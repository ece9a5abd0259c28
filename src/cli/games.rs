//! The subcommands that serve every registered game (`play`, `sim`, `health`, `host`): one
//! subcommand per game of the registry, its options struct's arguments and then the face's
//! own, parsed into the game and its matches. A face says only what it adds ([`Face`]).

use std::marker::PhantomData;

use clap::{ArgMatches, FromArgMatches};

use crate::games::registry::{self, Registration};

/// What a face adds to each game's subcommand.
pub trait Face {
    /// The subcommand of `game` (from [`game_command`]) with the face's own arguments;
    /// `None` for a game the face does not serve.
    fn subcommand(game: &'static Registration) -> Option<clap::Command>;
}

/// The game a face's subcommand names and its parsed arguments.
#[derive(Debug, Clone)]
pub struct GameArgs<F> {
    pub game: &'static Registration,
    pub matches: ArgMatches,
    face: PhantomData<F>,
}

/// The subcommand of `game` under a face: its name and line of help, its options struct's
/// arguments.
pub fn game_command(game: &Registration, about: &'static str) -> clap::Command {
    (game.options.args)(clap::Command::new(game.name).about(about))
}

/// The registered game a face's subcommand names, with its arguments.
pub fn game_of(m: &ArgMatches) -> Result<(&'static Registration, ArgMatches), clap::Error> {
    let (name, sub) = m
        .subcommand()
        .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingSubcommand))?;
    let game = registry::find(name).ok_or_else(|| {
        clap::Error::raw(
            clap::error::ErrorKind::InvalidSubcommand,
            format!("`{name}` is not a registered game\n"),
        )
    })?;
    Ok((game, sub.clone()))
}

impl<F> FromArgMatches for GameArgs<F> {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let (game, matches) = game_of(m)?;
        Ok(GameArgs {
            game,
            matches,
            face: PhantomData,
        })
    }
    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = GameArgs::from_arg_matches(m)?;
        Ok(())
    }
}

impl<F: Face> clap::Args for GameArgs<F> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        let mut cmd = cmd.subcommand_required(true).arg_required_else_help(true);
        for g in registry::GAMES {
            if let Some(sub) = F::subcommand(g) {
                cmd = cmd.subcommand(sub);
            }
        }
        cmd
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}
