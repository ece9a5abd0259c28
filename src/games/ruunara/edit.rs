//! Form edits of Ruunara figures: a lenient read for the card editor's Form view (keys and
//! value types checked; the format's rules, such as a playable race for an ally, are left
//! to the strict parser) and the writer.

use crate::cards::{Card, CardError};

use super::model::Figure;

/// Reads `text` as a Ruunara hero or unit for the form. `Ok(None)`: the text is another
/// game's card.
pub fn read(text: &str, file: &str) -> Result<Option<Figure>, CardError> {
    let table: toml::Table =
        toml::from_str(text).map_err(|e| CardError::from_toml(file, text, &e))?;
    if table.get("game").and_then(|v| v.as_str()) != Some("ruunara") {
        return Ok(None);
    }
    toml::from_str(text)
        .map(Some)
        .map_err(|e| CardError::from_toml(file, text, &e))
}

/// The figure as the TOML of its card file.
pub fn write(f: &Figure) -> String {
    Card::Ruunara(f.clone()).to_toml()
}
