//! The Ruunara skirmish engine (`spec/ruunara.md`, rule text 003): the table in plain `f64`
//! inches (geom.rs), what a match starts from (setup.rs, built from a `Scenario`), the
//! members deployed in a zone placed by the seat before round 1 (deploy.rs), the state
//! with its rounds and activations (state.rs), movement, vision and cover (sight.rs), attacks
//! and their consequences (combat.rs), the enemies run by the rules (enemy.rs), the log
//! (events.rs), the [`crate::games::game::Game`] interface (game.rs) and the evaluation the
//! shared policies use (eval.rs).
//!
//! No I/O, no clock, no randomness of its own: every die is a chance node answered by the
//! caller's `Dice` source. The state is fixed-size (`MAX_FIGS` figures, `MAX_OPTS` options):
//! a match played without a log allocates nothing per step.

pub mod combat;
pub mod deploy;
pub mod enemy;
pub mod eval;
pub mod events;
pub mod game;
pub mod geom;
pub mod setup;
pub mod sight;
pub mod skills;
pub mod state;

pub use eval::RuunaraEval;
pub use events::{CaptureKind, DeathKind, Event, Faces, Log, NoLog, Reason, RollKind};
pub use game::RuunaraGame;
pub use geom::{BASE_R, FIGURE_H, Pt, Rect};
pub use setup::{MAX_FIGS, PlayMode, Setup, SetupError, Side, Stat};
pub use sight::Path;
pub use state::{Fig, Mode, Opt, Phase, State, Status};

/// How a mission ended: the heroes win by their objective; they lose when no squad member
/// is free, when the rescue target dies, or when the round limit passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuunaraEnding {
    /// Every enemy dead (or captured).
    Eliminated,
    /// The rescue target reached the exit.
    Rescued,
    /// Every free hero in the exit zone.
    Reached,
    /// The squad held out for the mission's rounds.
    Survived,
    /// No squad member left free (all dead or captured).
    SquadLost,
    /// The rescue target died.
    TargetLost,
    /// The round limit passed.
    RoundLimit,
    /// A dice script ran out.
    DiceExhausted,
}

impl RuunaraEnding {
    /// Whether it is a win for the heroes.
    pub fn heroes_win(self) -> bool {
        matches!(
            self,
            RuunaraEnding::Eliminated
                | RuunaraEnding::Rescued
                | RuunaraEnding::Reached
                | RuunaraEnding::Survived
        )
    }
}
