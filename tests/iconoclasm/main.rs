//! The Iconoclasm engine: rulings, properties, policies and `play`/`sim iconoclasm`.
//!
//! One test binary per area (one link, one process) keeps builds small; each file below was
//! its own binary before.

#[path = "../common/cli.rs"]
mod cli;

mod balance;
mod engine_ai;
mod engine_cli;
mod engine_props;
mod engine_rules;
