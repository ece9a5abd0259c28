//! The SQLite catalogue: storage, the collection of owned cards, and the CLI around them.
//!
//! One test binary per area (one link, one process) keeps builds small; each file below was
//! its own binary before.

mod cli;
mod collection;
mod hostile;
mod store;
