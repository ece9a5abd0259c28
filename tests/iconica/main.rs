//! The Iconica rules engine and its AI: scripted-dice scenarios, properties, golden logs,
//! policies, and `deckwright play`/`sim iconica` from the outside.
//!
//! One test binary per area (one link, one process) keeps builds small; each file below was
//! its own binary before.

#[path = "../common/cli.rs"]
mod cli;
mod support;

mod balance;
mod draft;
mod engine_ai;
mod engine_cli;
mod engine_golden;
mod engine_props;
mod engine_scenarios;
