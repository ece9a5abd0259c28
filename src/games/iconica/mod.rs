//! Iconica: card model, construction rules, engine and AI.

pub mod ai;
pub mod draft;
pub mod edit;
pub mod engine;
pub mod human;
pub mod matchfile;
pub mod model;
pub mod options;
pub mod party;
pub mod rules;
pub mod text;

/// Iconica as the faces know it ([`crate::games::registry`]).
pub const REGISTRATION: crate::games::registry::Registration =
    crate::games::registry::Registration {
        name: "iconica",
        title: "Iconica",
        engine: matchfile::ENGINE,
        replay: matchfile::replay,
        generic: None,
        open: matchfile::open,
        options: crate::games::registry::Options {
            about: "Two parties (or two teams of two) of Iconica characters.",
            args: <options::IconicaOptions as clap::Args>::augment_args,
            compile: options::compile,
            solo: false,
            sim: Some(crate::games::registry::Sim {
                about: "Two Iconica parties, or with --field every legal party of a pool against one.",
                extra: Some(<options::Field as clap::Args>::augment_args),
                prepare: options::prepare,
                endings: crate::games::run::ending_names::<crate::games::Ended>,
                report: crate::games::registry::SimReport::Sides { counts: "turns" },
            }),
            dice: true,
        },
        balance: Some(crate::games::registry::Balance {
            about: "An Iconica character against the field of legal parties.",
            args: <options::BalanceOptions as clap::Args>::augment_args,
            measures: &["character"],
            measured: "an Iconica character",
            method: crate::games::registry::Method::Field,
            sweep: Some(<options::SweepOptions as clap::Args>::augment_args),
            builds: Some(crate::games::registry::Builds::Parties),
        }),
    };

/// The Iconica characters among the bundled starter cards (`cards/iconica/`), in file order.
pub fn bundled_characters() -> Vec<model::Character> {
    crate::cards::bundled()
        .into_iter()
        .filter_map(|(path, text)| match crate::cards::parse_card(text, &path) {
            Ok(crate::cards::Card::Iconica(c)) => Some(c),
            _ => None,
        })
        .collect()
}

/// A duel of the first three bundled characters against the next three, default rules: the
/// unit tests' usual match.
#[cfg(test)]
pub(crate) fn bundled_duel() -> engine::Setup {
    let chars = bundled_characters();
    engine::Setup::duel(&chars[0..3], &chars[3..6], engine::Rules::default()).unwrap()
}
