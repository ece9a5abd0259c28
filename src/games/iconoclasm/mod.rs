//! Iconoclasm: card model, rules engine and AI.

pub mod ai;
pub mod engine;
pub mod matchfile;
pub mod model;
pub mod options;

/// Iconoclasm as the faces know it ([`crate::games::registry`]).
pub const REGISTRATION: crate::games::registry::Registration =
    crate::games::registry::Registration {
        name: "iconoclasm",
        title: "Iconoclasm",
        engine: matchfile::ENGINE,
        replay: matchfile::replay,
        generic: None,
        open: matchfile::open,
        options: crate::games::registry::Options {
            about: "An Iconoclasm table of 1 to 4 players (no file).",
            args: <options::IconoclasmOptions as clap::Args>::augment_args,
            compile: options::compile,
            solo: false,
            sim: Some(crate::games::registry::Sim {
                about: "Iconoclasm tables of 1 to 4 players, a fresh deal each game.",
                extra: None,
                prepare: options::prepare,
                endings: crate::games::run::ending_names::<engine::IconoclasmEnding>,
                report: crate::games::registry::SimReport::Table,
            }),
            dice: false,
        },
        balance: Some(crate::games::registry::Balance {
            about: "Each seat's win rate and the first player's edge under a clash table.",
            args: <options::BalanceOptions as clap::Args>::augment_args,
            measures: &[],
            measured: "a clash table",
            sweep: None,
            method: crate::games::registry::Method::Seats,
            builds: None,
        }),
    };
