//! Card files of every game: the spec's formats, positioned errors, and round trips.
//!
//! One test binary per area (one link, one process) keeps builds small; each file below was
//! its own binary before.

mod errors;
mod format;
mod roundtrip;
mod ruunara_formats;
mod sheet;
