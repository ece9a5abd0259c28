//! Iconoclasm: card model, rules engine and AI.

pub mod ai;
pub mod engine;
pub mod matchfile;
pub mod model;

/// Iconoclasm as the faces know it ([`crate::games::registry`]).
pub const REGISTRATION: crate::games::registry::Registration =
    crate::games::registry::Registration {
        name: "iconoclasm",
        title: "Iconoclasm",
        engine: matchfile::ENGINE,
        replay: matchfile::replay,
        generic: None,
        open: matchfile::open,
    };
