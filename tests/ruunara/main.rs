//! The Ruunara engine: the rulings of `spec/ruunara.md` in scripted-dice scenarios, skills
//! within their cycles, properties of random missions, the shared game interface and the
//! duel.

mod balance;
mod bases;
mod campaign;
mod common;
mod composed;
mod deploy;
mod duel;
mod enemy_skills;
mod engine_props;
mod engine_rules;
mod golden;
mod modes;
mod racial;
mod skills;
mod written_rules;
