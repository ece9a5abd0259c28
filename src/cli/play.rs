//! `deckwright play GAME [game options] [--dice ...] [--seed S] [--policy P] [--json]
//! [--record FILE]`: one match of a registered game, printing its event log and final state
//! (or the `play --json` document). Every game is a subcommand built from the registry (its
//! options struct's arguments, then the options every game takes), and every game is played
//! by the one driver here: its options compiled into the match a record keeps, the match
//! opened from them, played by the seats' policies, and the report the game's replay of that
//! record gives (so `replay FILE` prints what `play` printed).

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{ArgMatches, FromArgMatches};

use crate::cards::Card;
use crate::cli::games::{Face, GameArgs, game_command};
use crate::cli::load::CliShelf;
use crate::cli::options::{DiceScript, PlayShared, SoloPlay};
use crate::cli::out::note;
use crate::cli::report;
use crate::cli::{BadInput, Context, Outcome};
use crate::games::ai::Policy;
use crate::games::dice::RngDice;
use crate::games::record::MatchRecord;
use crate::games::registry::{Ask, Registration};

/// `play`'s subcommand of each game: its options, its dice script, the seats' policies.
#[derive(Debug, Clone)]
pub struct PlayFace;

impl Face for PlayFace {
    fn subcommand(g: &'static Registration) -> Option<clap::Command> {
        let mut sub = game_command(g, g.options.about);
        if g.options.dice {
            sub = <DiceScript as clap::Args>::augment_args(sub);
        }
        sub = if g.options.solo {
            <SoloPlay as clap::Args>::augment_args(sub)
        } else {
            <PlayShared as clap::Args>::augment_args(sub)
        };
        // The registration's line, not a derived struct's doc comment.
        Some(sub.about(g.options.about).long_about(None))
    }
}

/// The game and its parsed arguments.
pub type Args = GameArgs<PlayFace>;

/// What `play` takes of every game: the seed, the policies, the output.
struct Common {
    seed: u64,
    /// `--policy` (or every seat's, `--policy-a`/`--policy-b` overriding).
    shared: Option<PlayShared>,
    solo: Option<Policy>,
    json: bool,
    record: Option<std::path::PathBuf>,
}

impl Common {
    fn of(game: &Registration, m: &ArgMatches) -> Result<Common, clap::Error> {
        Ok(if game.options.solo {
            let s = SoloPlay::from_arg_matches(m)?;
            Common {
                seed: s.seed,
                shared: None,
                solo: Some(s.policy),
                json: s.json,
                record: s.record,
            }
        } else {
            let s = PlayShared::from_arg_matches(m)?;
            Common {
                seed: s.seed,
                json: s.json,
                record: s.record.clone(),
                solo: None,
                shared: Some(s),
            }
        })
    }

    /// The policies of `seats` seats.
    fn policies(&self, seats: usize) -> Vec<Policy> {
        match (&self.shared, self.solo) {
            (Some(s), _) => s.policies(seats.clamp(1, usize::from(u8::MAX)) as u8),
            (None, p) => vec![p.unwrap_or(Policy::First)],
        }
    }
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let (game, m) = (args.game, args.matches);
    let common = Common::of(game, &m).map_err(|e| BadInput(e.to_string()))?;
    let dice = if game.options.dice {
        DiceScript::from_arg_matches(&m)
            .map_err(|e| BadInput(e.to_string()))?
            .dice
    } else {
        None
    };
    let seed = common.seed;
    // Ruunara's story mode plays a campaign's three missions, each a match of its own.
    if game.name == crate::games::ruunara::REGISTRATION.name
        && let Ok(Some(path)) = m.try_get_one::<std::path::PathBuf>("campaign")
    {
        if m.try_get_one::<crate::games::ruunara::engine::PlayMode>("mode")
            .ok()
            .flatten()
            .is_some_and(|&mode| mode != crate::games::ruunara::engine::PlayMode::Solo)
        {
            return Err(BadInput(
                "--campaign: a campaign is played solo (--mode duo or contest is for one mission)"
                    .into(),
            ));
        }
        if dice.is_some() {
            return Err(BadInput(
                "--campaign: a campaign's missions are seeded one by one; --dice is for one mission"
                    .into(),
            ));
        }
        let policies = common.policies(2);
        let record = common.record.as_deref();
        return super::campaign::run(ctx, path, &policies, seed, common.json, record);
    }
    let shelf = CliShelf::new(ctx);
    let options = (game.options.compile)(
        &m,
        &shelf,
        &Ask {
            seed,
            policies: &|seats| common.policies(seats),
            policy_option: "--policy",
        },
    )
    .map_err(BadInput)?;
    // The compiled options carry every card they name.
    let none: Vec<Card> = Vec::new();
    let opened = (game.open)(&options, &none).map_err(|e| BadInput(e.to_string()))?;
    let mut position = opened.game;
    let seats = position.seats();
    if seats < 2 && common.shared.as_ref().is_some_and(|s| s.policy_b.is_some()) {
        return Err(BadInput(
            "--policy-b: a solo game has one player; use --policy".into(),
        ));
    }
    let policies = common.policies(seats);
    // A search (`mcts`) on a terminal says on stderr which turn it is in, once a turn, so a
    // long match shows its progress (the match is the same).
    let searching = policies.iter().any(|p| matches!(p, Policy::Mcts(_)));
    let tell = searching && std::io::stderr().is_terminal();
    let mut shown = 0;
    let mut each = |turns: u32| {
        if tell && turns != shown {
            shown = turns;
            note!("play {}: turn {turns}", game.name);
        }
    };
    let (inputs, exhausted) = match dice {
        Some(mut d) => position.play_on(&mut d, &policies, seed, &mut each),
        None => position.play_on(&mut RngDice::new(seed), &policies, seed, &mut each),
    };
    // The record of the match: each input's check taken on a fresh start.
    let mut start = (game.open)(&options, &none)
        .map_err(|e| BadInput(e.to_string()))?
        .game;
    let checks = inputs.iter().map(|&i| start.apply(i).check).collect();
    let record = MatchRecord {
        engine: game.engine,
        seats: policies.iter().map(|p| p.name()).collect(),
        inputs,
        checks,
        exhausted,
        options,
        ..MatchRecord::new(game.name, seed)
    };
    if let Some(path) = &common.record {
        report::save_record(&record, path)?;
    }
    let played = (game.replay)(&record, None, &none).map_err(|e| {
        BadInput(format!(
            "the match did not replay (a bug in {}'s engine): {e}",
            game.title
        ))
    })?;
    report::print(&ctx.out, played, common.json);
    Ok(ExitCode::SUCCESS)
}
