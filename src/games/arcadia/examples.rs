//! The example quest setups built into the program (`examples/arcadia/*.setup.toml` with
//! the character files they name): the default field of `balance arcadia`. Files only
//! parsed here; whether a setup is legal is the rules' question (`rules::check_setup`).

use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::setup::SetupFile;

static DIR: include_dir::Dir<'static> =
    include_dir::include_dir!("$CARGO_MANIFEST_DIR/examples/arcadia");

/// An example setup with its two characters.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// The setup's file name (`legal-starter.setup.toml`).
    pub file: String,
    pub setup: SetupFile,
    pub characters: [CharacterFile; 2],
}

/// Every example setup that parses and whose character files are there and parse, in file
/// name order (legal or not: the caller checks).
pub fn setups() -> Vec<Example> {
    let text = |name: &str| DIR.get_file(name).and_then(|f| f.contents_utf8());
    let mut out = Vec::new();
    let mut files: Vec<&str> = DIR
        .files()
        .filter_map(|f| f.path().to_str())
        .filter(|p| p.ends_with(".setup.toml"))
        .collect();
    files.sort_unstable();
    for file in files {
        let Some(Ok(setup)) = text(file).map(|t| SetupFile::parse(t, file)) else {
            continue;
        };
        let chars: Option<Vec<CharacterFile>> = setup
            .players
            .iter()
            .map(|p| text(&p.character).and_then(|t| CharacterFile::parse(t, &p.character).ok()))
            .collect();
        if let Some(Ok(characters)) = chars.map(<[CharacterFile; 2]>::try_from) {
            out.push(Example {
                file: file.to_string(),
                setup,
                characters,
            });
        }
    }
    out
}
