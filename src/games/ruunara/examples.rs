//! The example missions and squads built into the program (`examples/ruunara/`): the default
//! field of `balance ruunara`. Files only parsed here; whether a squad is legal or a mission
//! playable is the rules' question (`rules::check_squad`, `matchfile::compile`).

use crate::games::ruunara::squad::SquadFile;

static DIR: include_dir::Dir<'static> =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/examples/ruunara");

/// Every example file whose name ends with `suffix`, in name order: (file name, text).
fn files(suffix: &str) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = DIR
        .files()
        .filter_map(|f| Some((f.path().to_str()?.to_string(), f.contents_utf8()?)))
        .filter(|(p, _)| p.ends_with(suffix) && !p.starts_with("illegal-"))
        .collect();
    out.sort();
    out
}

/// The example missions (not the illegal ones): (file name, text).
pub fn missions() -> Vec<(String, &'static str)> {
    files(".mission.toml")
}

/// The example squads that parse (not the illegal ones): (file name, squad).
pub fn squads() -> Vec<(String, SquadFile)> {
    files(".squad.toml")
        .into_iter()
        .filter_map(|(f, t)| SquadFile::parse(t, &f).ok().map(|s| (f, s)))
        .collect()
}
