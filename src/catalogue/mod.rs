//! The SQLite catalogue: open, migrate, import, export, collection.

use std::path::PathBuf;

/// The default catalogue file: `deckwright/catalogue.sqlite` in the platform data directory.
pub fn default_path() -> PathBuf {
    directories::ProjectDirs::from("", "", "deckwright")
        .map(|d| d.data_dir().join("catalogue.sqlite"))
        .unwrap_or_else(|| PathBuf::from("deckwright-catalogue.sqlite"))
}
