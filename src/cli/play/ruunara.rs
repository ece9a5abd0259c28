//! `deckwright play ruunara MISSION SQUAD`: one Ruunara mission, the squad played by a policy
//! and the enemies by the rules, printing its event log and the figures at the end (or the
//! `play --json` document, with `rounds` and a log a reader can check without the engine).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::load::{open_catalogue, ruunara_deployed};
use std::io::IsTerminal;

use crate::cli::options::{DiceScript, SoloPlay, check_ruunara_search};
use crate::cli::out::note;
use crate::cli::report;
use crate::cli::{BadInput, Context, Outcome};
use crate::games::ai::Policy;
use crate::games::dice::RngDice;
use crate::games::record::{Inputs, MatchRecord};
use crate::games::ruunara::engine::{Event, RuunaraGame, Setup};
use crate::games::ruunara::matchfile::{self, Compiled, ENGINE};
use crate::sim;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The mission file (`*.mission.toml`).
    pub mission: PathBuf,
    /// The squad file (`*.squad.toml`), deployed by the mission in squad order.
    pub squad: PathBuf,
    #[command(flatten)]
    pub dice: DiceScript,
    #[command(flatten)]
    pub shared: SoloPlay,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let cat = open_catalogue(ctx)?;
    let (scenario, source) = ruunara_deployed(&cat, &args.mission, &args.squad)?;
    report::say_gaps(&source.cards);
    let setup =
        Setup::new(&scenario).map_err(|e| BadInput(format!("{}: {e}", args.mission.display())))?;
    let compiled = Compiled { scenario, setup };
    let policy = args.shared.policy;
    check_ruunara_search("--policy", policy, compiled.setup.figs.len())?;
    let seed = args.shared.seed;
    let mut log: Vec<Event> = Vec::new();
    let start = RuunaraGame::start(&compiled.setup, &mut log);
    // A search (`mcts`) on a terminal says on stderr which round it is in, once a round, so
    // a long mission shows its progress (the match is the same).
    let tell = matches!(policy, Policy::Mcts(_)) && std::io::stderr().is_terminal();
    let mut shown = 0;
    let mut each = |g: &RuunaraGame<'_>| {
        if tell && g.st.round != shown {
            shown = g.st.round;
            note!(
                "play ruunara: round {shown} of {} ({})",
                g.setup.round_limit,
                policy.name()
            );
        }
    };
    let played = match args.dice.dice {
        Some(d) => sim::play_recorded_observed(start, log, d, &[policy], seed, &mut each),
        None => {
            let dice = RngDice::new(seed);
            sim::play_recorded_observed(start, log, dice, &[policy], seed, &mut each)
        }
    };
    // Every die drawn is an input.
    let dice_used = matchfile::chance_inputs(&compiled.setup, &played.inputs);
    if let Some(path) = &args.shared.record {
        let record = MatchRecord::of_inputs(
            &RuunaraGame::new(&compiled.setup),
            ENGINE,
            seed,
            vec![policy.name()],
            Inputs {
                inputs: played.inputs.clone(),
                points: Vec::new(),
                exhausted: played.exhausted,
            },
            matchfile::options(&source),
        );
        report::save_record(&record, path)?;
    }
    report::print(
        &ctx.out,
        matchfile::report(
            &compiled,
            &played.game,
            &played.log,
            dice_used,
            seed,
            &policy.name(),
        ),
        args.shared.json,
    );
    Ok(ExitCode::SUCCESS)
}
