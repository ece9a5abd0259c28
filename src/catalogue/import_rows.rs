//! Cards already read (a spreadsheet's rows) into the catalogue, with their owned
//! quantities, in one transaction: all or nothing.

use std::path::Path;

use super::import::ImportReport;
use super::store::{self, CardRow, Upserted};
use super::{Catalogue, Result, collection};
use crate::cards::Card;

/// From this many cards on, an import indexes its new cards' text in one statement.
const BULK_ROWS: usize = 256;

impl Catalogue {
    /// Stores `cards` (replacing cards of the same id) and, where given, sets their owned
    /// quantity; a card without a quantity keeps the one it had. One transaction. Art
    /// files, read relative to `art_base` (the sheet's folder), are first copied into the
    /// catalogue's art folder.
    pub fn import_cards(
        &mut self,
        cards: &[(Card, Option<u32>)],
        art_base: Option<&Path>,
    ) -> Result<ImportReport> {
        let mut cards = cards.to_vec();
        // Art is checked and staged first, and moved to its names only after the cards are
        // committed: a refused import leaves every card's art as it was.
        let mut art = self.art_dir().map(|d| super::art::StagedArt::new(&d));
        if let (Some(base), Some(staged)) = (art_base, art.as_mut()) {
            for (c, _) in &mut cards {
                staged
                    .add(c, base)
                    .map_err(|e| std::io::Error::other(format!("card `{}`: {e}", c.id())))?;
            }
        }
        let cards = &cards[..];
        let rows: Vec<CardRow> = cards.iter().map(|(c, _)| CardRow::new(c)).collect();
        let mut report = ImportReport {
            files: 1,
            ..Default::default()
        };
        let tx = self
            .conn_mut()
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut write = || -> Result<()> {
            for row in &rows {
                match store::upsert(&tx, row)? {
                    Upserted::Added => report.added += 1,
                    Upserted::Updated => report.updated += 1,
                    Upserted::Unchanged => report.unchanged += 1,
                }
            }
            Ok(())
        };
        if rows.len() >= BULK_ROWS {
            store::with_bulk_fts(&tx, write)?;
        } else {
            write()?;
        }
        for (c, q) in cards {
            if let Some(q) = q {
                collection::set_quantity(&tx, c.id(), *q)?;
            }
        }
        tx.commit()?;
        if let Some(staged) = art {
            staged.commit()?;
        }
        Ok(report)
    }
}
