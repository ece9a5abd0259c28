//! The egui desktop app: one module per screen; it calls the core and holds no game logic or SQL.

/// Opens the desktop app on the catalogue at `db`.
pub fn run(db: &std::path::Path) -> anyhow::Result<()> {
    anyhow::bail!("the desktop app is not built yet (catalogue: {})", db.display())
}
