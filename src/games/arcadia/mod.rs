//! Arcadia: card model, construction rules, engine and AI.

pub mod ai;
pub mod character;
pub mod edit;
pub mod engine;
pub mod examples;
pub mod game;
pub mod matchfile;
pub mod model;
pub mod options;
pub mod rules;
pub mod setup;
pub mod text;

/// Arcadia as the faces know it ([`crate::games::registry`]).
pub const REGISTRATION: crate::games::registry::Registration =
    crate::games::registry::Registration {
        name: "arcadia",
        title: "Arcadia",
        engine: matchfile::ENGINE,
        replay: matchfile::replay,
        generic: None,
        open: matchfile::open,
        options: crate::games::registry::Options {
            about: "An Arcadia quest setup: two characters on the leagues.",
            args: <options::ArcadiaOptions as clap::Args>::augment_args,
            compile: options::compile,
            solo: false,
            sim: Some(crate::games::registry::Sim {
                about: "An Arcadia quest setup.",
                extra: None,
                prepare: options::prepare,
                endings: crate::games::run::ending_names::<crate::games::Ended>,
                report: crate::games::registry::SimReport::Sides { counts: "Days" },
            }),
            dice: true,
        },
        balance: Some(crate::games::registry::Balance {
            about: "An Arcadia merit or flaw against what its points would otherwise buy.",
            args: <options::BalanceOptions as clap::Args>::augment_args,
            measures: &["merit", "flaw"],
            measured: "an Arcadia merit or flaw",
            sweep: None,
            method: crate::games::registry::Method::Points,
            builds: Some(crate::games::registry::Builds::Characters),
        }),
    };
