//! The Arcadia rules engine: every ruling as a scripted-dice scenario, properties over seeds
//! and policies, and `deckwright play arcadia` from the outside.
//!
//! One test binary per area (one link, one process) keeps builds small; each file below was
//! its own binary before.

mod support;

#[path = "../common/cli.rs"]
#[allow(dead_code)]
mod cli;

mod balance;
mod card_text;
mod engine_cli;
mod engine_props;
mod engine_scenarios;
mod ranking;
mod setup_phase;
