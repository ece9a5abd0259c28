//! The browser's sheet view: the cards of the current search as rows, one column a simple
//! key (a text, number or yes/no at the top of the card), each cell edited in place. An
//! edit is read with the strict card rules when the cell loses focus (Enter or a click
//! elsewhere), stored, and is one undo step.

use std::collections::HashMap;

use egui_extras::{Column, TableBuilder};

use super::core;
use super::{Action, Env};
use crate::cards::Card;

/// The most rows the sheet view loads (each row is a whole card read from the catalogue).
pub const MAX_ROWS: usize = 2000;

/// The sheet view's state: the cards shown and the cells being typed in.
#[derive(Default)]
pub struct SheetView {
    /// The ids and catalogue generation the cards were loaded for.
    loaded: Option<(Vec<String>, u64)>,
    cards: Vec<Card>,
    keys: Vec<String>,
    /// Text typed in a cell, by (id, key), until it is stored.
    buffers: HashMap<(String, String), String>,
}

impl SheetView {
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env, ids: &[String]) {
        if self
            .loaded
            .as_ref()
            .is_none_or(|(l, g)| l.as_slice() != ids || *g != env.generation)
        {
            self.cards = ids
                .iter()
                .filter_map(|id| core::card(env.cat, id))
                .collect();
            self.keys = core::simple_keys(&self.cards);
            self.buffers.clear();
            self.loaded = Some((ids.to_vec(), env.generation));
        }
        if ids.len() > MAX_ROWS {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "The first {MAX_ROWS} of {} cards; refine the search to see the others.",
                    ids.len()
                ),
            );
        }
        ui.weak("Click a cell to edit it; Enter stores it (checked as card files are). Lists and tables are edited in the card editor.");
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 8.0;
        // The columns are wider than a laptop's window: the table scrolls sideways (shift+wheel,
        // a horizontal wheel or the bar), its body up and down.
        let mut edits = Vec::new();
        egui::ScrollArea::horizontal()
            .id_salt("sheet-view-across")
            .auto_shrink(false)
            .show(ui, |ui| self.table_ui(ui, row_height, &mut edits));
        for (id, key, value) in edits {
            env.push(Action::SetCardKey { id, key, value });
        }
    }

    /// The table: an id column and one column a simple key; cells typed in and left are
    /// added to `edits` as (id, key, value).
    fn table_ui(
        &mut self,
        ui: &mut egui::Ui,
        row_height: f32,
        edits: &mut Vec<(String, String, String)>,
    ) {
        let mut table = TableBuilder::new(ui)
            .id_salt("sheet-view")
            .striped(true)
            .resizable(true)
            .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
            .column(Column::initial(160.0).at_least(80.0).clip(true));
        for k in &self.keys {
            let w = if matches!(k.as_str(), "text" | "description" | "ability") {
                260.0
            } else {
                110.0
            };
            table = table.column(Column::initial(w).at_least(50.0).clip(true));
        }
        table
            .auto_shrink(false)
            .min_scrolled_height(0.0)
            .header(row_height, |mut header| {
                header.col(|ui| {
                    ui.strong("id");
                });
                for k in &self.keys {
                    header.col(|ui| {
                        ui.strong(k);
                    });
                }
            })
            .body(|body| {
                body.rows(row_height, self.cards.len(), |mut row| {
                    let card = &self.cards[row.index()];
                    let id = card.id().to_string();
                    row.col(|ui| {
                        ui.add(egui::Label::new(&id).selectable(false).truncate());
                    });
                    for k in &self.keys {
                        row.col(|ui| {
                            let shown = core::key_text(card, k);
                            let buf = self
                                .buffers
                                .entry((id.clone(), k.clone()))
                                .or_insert_with(|| shown.clone());
                            let name = format!("{k} of {id}");
                            let r = ui
                                .add(egui::TextEdit::singleline(buf).desired_width(f32::INFINITY));
                            r.widget_info(|| {
                                egui::WidgetInfo::labeled(egui::Role::TextInput, true, &name)
                            });
                            if r.lost_focus() && *buf != shown {
                                edits.push((id.clone(), k.clone(), buf.clone()));
                            }
                        });
                    }
                });
            });
    }
}
