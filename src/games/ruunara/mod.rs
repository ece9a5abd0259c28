//! Ruunara: card model, missions, construction rules, engine and AI.

pub mod campaign;
pub mod duel;
pub mod edit;
pub mod engine;
pub mod examples;
pub mod matchfile;
pub mod mission;
pub mod model;
pub mod odds;
pub mod options;
pub mod races;
pub mod rules;
pub mod squad;
pub mod text;

/// Ruunara as the faces know it ([`crate::games::registry`]).
pub const REGISTRATION: crate::games::registry::Registration =
    crate::games::registry::Registration {
        name: "ruunara",
        title: "Ruunara",
        engine: matchfile::ENGINE,
        replay: matchfile::replay,
        generic: None,
        open: matchfile::open,
        options: crate::games::registry::Options {
            about: "A Ruunara mission played by a squad (the enemies run by the rules).",
            args: <options::RuunaraOptions as clap::Args>::augment_args,
            compile: options::compile,
            solo: true,
            sim: Some(crate::games::registry::Sim {
                about: "A Ruunara mission and squad: the heroes' win rate, the endings, the mean rounds.",
                extra: None,
                prepare: options::prepare,
                endings: crate::games::run::ending_names::<engine::RuunaraEnding>,
                report: crate::games::registry::SimReport::Squad,
            }),
            dice: true,
        },
        balance: Some(crate::games::registry::Balance {
            about: "A Ruunara hero, or one of its skills, by what it adds to its squads' win rate against the missions.",
            args: <options::BalanceOptions as clap::Args>::augment_args,
            measures: &["hero", "unit"],
            measured: "a Ruunara hero",
            sweep: None,
            method: crate::games::registry::Method::Squad,
            builds: Some(crate::games::registry::Builds::Squads),
        }),
    };
