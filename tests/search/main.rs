//! Search: the query language's parser, running queries on a catalogue, the in-row index's
//! exactness against the slow path, and `deckwright search`.
//!
//! One test binary per area (one link, one process) keeps builds small; each file below was
//! its own binary before.

mod common;
#[path = "../common/cli.rs"]
#[allow(dead_code)]
mod run_cli;

mod bundled;
mod cli;
mod doc_examples;
mod index;
mod parse;
mod props;
mod run;
