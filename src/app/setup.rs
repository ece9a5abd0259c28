//! The Arcadia quest-setup builder: each player's character, quests, waylays and treasures
//! against their ratings, and a league grid where the user lays leagues and sees which
//! sides fit. The rules (budgets, placement, fits) come from the core.

use super::builder::{self, member_list_ui, push_edit, verdict_ui};
use super::cache::Memo;
use super::core;
use super::docs::{Slot, TomlDoc};
use super::health_panel::{self, HealthPanel};
use super::picker::{self, Picker};
use super::{Env, files};
use crate::catalogue::saved::DocKind;
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::matchfile;
use crate::games::arcadia::setup::{LaidLeague, SetupFile};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Pick {
    #[default]
    Quest,
    Waylay,
    Treasure,
    League,
}

/// The setup screen.
#[derive(Default)]
pub struct SetupScreen {
    pick: Pick,
    player: usize,
    picker: Picker,
    /// The league to lay next (a card id).
    league: Option<String>,
    selected: [Option<usize>; 6],
    verdict: Memo<core::Verdict>,
    fits: Memo<Vec<[Option<bool>; 4]>>,
    /// The side features of each laid league (north, east, south, west).
    sides: Memo<Vec<Option<[Vec<String>; 4]>>>,
    /// The rules' health of the setup's matches.
    health: HealthPanel,
}

fn edit(env: &mut Env, label: &str, s: SetupFile) {
    push_edit(env, Slot::Setup, label, &s);
}

/// The setup with two players.
fn two_players(s: &SetupFile) -> SetupFile {
    let mut s = s.clone();
    while s.players.len() < 2 {
        s.players.push(Default::default());
    }
    s
}

impl SetupScreen {
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        let setup = two_players(&env.docs.setup);
        let cat = env.cat;
        let characters = |entry: &str| {
            files::saved_character(cat, entry)
                .and_then(|t| <CharacterFile as TomlDoc>::from_toml(&t).ok())
        };
        // A saved character may change too: it is part of the key.
        let key = format!(
            "{}\n{}",
            setup.to_toml(),
            setup
                .players
                .iter()
                .map(|p| characters(&p.character)
                    .map(|c| c.to_toml())
                    .unwrap_or_default())
                .collect::<Vec<_>>()
                .join("\n")
        );
        let verdict = self.verdict.get(env.generation, key.clone(), || {
            core::check_setup(env.cat, &setup, &characters)
        });
        let flagged = builder::flagged(&verdict);
        picker::panel_ui(ui, "setup", |ui| {
            ui.horizontal(|ui| {
                ui.label("For:");
                ui.selectable_value(&mut self.player, 0, "Player 1");
                ui.selectable_value(&mut self.player, 1, "Player 2");
            });
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.pick, Pick::Quest, "Quests");
                ui.selectable_value(&mut self.pick, Pick::Waylay, "Waylays")
                    .on_hover_text("Waylays this player plays on the opponent");
                ui.selectable_value(&mut self.pick, Pick::Treasure, "Treasures")
                    .on_hover_text("Treasure merits hidden for this player");
                ui.selectable_value(&mut self.pick, Pick::League, "Leagues");
            });
            let (base, title) = match self.pick {
                Pick::Quest => ("game:arcadia kind:quest", "Quests"),
                Pick::Waylay => ("game:arcadia kind:waylay", "Waylays"),
                Pick::Treasure => ("game:arcadia kind:merit merit_type:treasure", "Treasures"),
                Pick::League => ("game:arcadia kind:league", "Leagues"),
            };
            if let Some(id) = self.picker.ui(ui, env, "setup", base, title) {
                let mut s = setup.clone();
                let p = &mut s.players[self.player];
                match self.pick {
                    Pick::Quest => p.quests.push(id),
                    Pick::Waylay => p.waylays.push(id),
                    Pick::Treasure => p.treasures.push(id),
                    Pick::League => {
                        self.league = Some(id);
                        return;
                    }
                }
                edit(env, "add card", s);
            }
        });
        egui::CentralPanel::default().show(ui, |ui| {
            builder::doc_bar_ui(ui, env, Slot::Setup, &env.docs.setup.clone());
            ui.separator();
            egui::ScrollArea::vertical()
                .id_salt("setup-scroll")
                .show(ui, |ui| {
                    ui.columns(2, |cols| {
                        for (i, col) in cols.iter_mut().enumerate() {
                            col.push_id(("player", i), |ui| {
                                self.player_ui(ui, env, &setup, i, &flagged)
                            });
                        }
                    });
                    ui.separator();
                    // The grid takes the whole width and the verdict goes under it: side by
                    // side, a grid of a few leagues overlapped the verdict at 1280 and 1024.
                    self.grid_ui(ui, env, &setup, &flagged);
                    ui.separator();
                    verdict_ui(ui, &verdict);
                    ui.separator();
                    let legal = verdict.checked && verdict.findings.is_empty();
                    self.health.ui(
                        ui,
                        "setup",
                        &key,
                        &crate::games::arcadia::REGISTRATION,
                        || {
                            if !legal {
                                return Err(
                                "Make the setup legal first: its matches are what a check plays."
                                    .into(),
                            );
                            }
                            let chars: Vec<CharacterFile> = setup
                                .players
                                .iter()
                                .map(|p| characters(&p.character))
                                .collect::<Option<_>>()
                                .ok_or("A player has no saved character.")?;
                            // The day limit of `deckwright play arcadia` and `health arcadia`.
                            let (_, source) = matchfile::compile(&setup, &chars, cat, 500)?;
                            let options = matchfile::options(&source);
                            Ok(health_panel::Subject {
                                options,
                                cards: cat.all().map_err(|e| format!("The catalogue: {e}"))?,
                            })
                        },
                    );
                });
        });
    }

    fn player_ui(
        &mut self,
        ui: &mut egui::Ui,
        env: &mut Env,
        setup: &SetupFile,
        i: usize,
        flagged: &std::collections::HashSet<String>,
    ) {
        let p = &setup.players[i];
        ui.heading(format!("Player {}", i + 1));
        ui.horizontal(|ui| {
            let label = ui.label("Character:");
            let names = env.cat.list_docs(DocKind::Character).unwrap_or_default();
            let shown = if p.character.is_empty() {
                "choose a saved character".to_string()
            } else {
                p.character.clone()
            };
            // The column's width, not the name's: a long name widened the column past the window.
            egui::ComboBox::from_id_salt(("setup-character", i))
                .width((ui.available_width() - 8.0).max(60.0))
                .truncate()
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    if names.is_empty() {
                        ui.weak("save a character first (Character screen, Ctrl+S)");
                    }
                    for n in names {
                        let file = files::character_ref(&n);
                        if ui.selectable_label(p.character == file, &n).clicked() {
                            let mut s = setup.clone();
                            s.players[i].character = file;
                            edit(env, "choose character", s);
                        }
                    }
                })
                .response
                .labelled_by(label.id);
        });
        for (j, (title, list)) in [
            ("Quests", &p.quests),
            ("Waylays", &p.waylays),
            ("Treasures", &p.treasures),
        ]
        .into_iter()
        .enumerate()
        {
            ui.strong(title);
            let sel = &mut self.selected[i * 3 + j];
            if let Some(e) = member_list_ui(ui, env, &format!("p{i}-{title}"), list, flagged, sel) {
                let mut s = setup.clone();
                let pl = &mut s.players[i];
                match j {
                    0 => pl.quests = e.members,
                    1 => pl.waylays = e.members,
                    _ => pl.treasures = e.members,
                }
                edit(env, e.label, s);
            }
        }
    }

    fn grid_ui(
        &mut self,
        ui: &mut egui::Ui,
        env: &mut Env,
        setup: &SetupFile,
        flagged: &std::collections::HashSet<String>,
    ) {
        ui.heading("Leagues");
        ui.horizontal(|ui| {
            match &self.league {
                Some(id) => {
                    let name = env.card_name(id).unwrap_or_else(|| id.clone());
                    ui.label(format!("Click a free square to lay {name} for player {}.", self.player + 1));
                }
                None => {
                    ui.weak("Pick a league on the left (Leagues tab), then click a free square beside the laid ones.");
                }
            }
        });
        let (min_x, max_x, min_y, max_y) =
            setup.leagues.iter().fold((0, 0, 0, 0), |(a, b, c, d), l| {
                (a.min(l.x), b.max(l.x), c.min(l.y), d.max(l.y))
            });
        let (x0, x1, y0, y1) = (min_x - 1, max_x + 1, min_y - 1, max_y + 1);
        let cols = (x1 - x0 + 1) as f32;
        // Squares share the width (no wider than 160, no narrower than 80: a wider grid scrolls).
        // What can be seen of the width: content wider than the window widens the scroll area.
        let visible = ui
            .available_width()
            .min(ui.clip_rect().right() - ui.cursor().left() - 4.0);
        let w = (visible / cols).clamp(80.0, 160.0);
        // Tall enough for three lines of name and owner between the north and south features.
        let cell = egui::vec2(w, w * 0.8);
        let fits = self.fits.get(env.generation, setup.to_toml(), || {
            core::league_fits(env.cat, setup)
        });
        let sides = self.sides.get(env.generation, setup.to_toml(), || {
            setup
                .leagues
                .iter()
                .map(|l| core::league_sides(env.cat, &l.id))
                .collect()
        });
        egui::ScrollArea::horizontal()
            .id_salt("league-grid-scroll")
            .show(ui, |ui| {
                self.squares_ui(
                    ui,
                    env,
                    setup,
                    flagged,
                    (x0, x1, y0, y1),
                    cell,
                    &fits,
                    &sides,
                )
            });
    }

    /// The squares of the league grid spanning `x0..=x1`, `y0..=y1`: laid leagues with their
    /// names, owners, side features and fit marks; a click lays or takes back a league.
    #[allow(clippy::too_many_arguments)]
    fn squares_ui(
        &mut self,
        ui: &mut egui::Ui,
        env: &mut Env,
        setup: &SetupFile,
        flagged: &std::collections::HashSet<String>,
        (x0, x1, y0, y1): (i32, i32, i32, i32),
        cell: egui::Vec2,
        fits: &[[Option<bool>; 4]],
        sides: &[Option<[Vec<String>; 4]>],
    ) {
        let cols = (x1 - x0 + 1) as f32;
        let rows = (y1 - y0 + 1) as f32;
        let (rect, response) = ui.allocate_exact_size(
            egui::vec2(cols * cell.x, rows * cell.y),
            egui::Sense::click(),
        );
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "League grid"));
        let painter = ui.painter_at(rect);
        let visuals = ui.visuals().clone();
        let small = egui::FontId::proportional(9.0);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let min = rect.min + egui::vec2((x - x0) as f32 * cell.x, (y - y0) as f32 * cell.y);
                let r = egui::Rect::from_min_size(min, cell).shrink(2.0);
                match setup.leagues.iter().position(|l| l.x == x && l.y == y) {
                    Some(i) => {
                        let l = &setup.leagues[i];
                        let owner_color = if l.owner == 1 {
                            egui::Color32::from_rgb(70, 110, 180)
                        } else {
                            egui::Color32::from_rgb(170, 110, 50)
                        };
                        let bad = flagged.contains(&l.id);
                        painter.rect_filled(r, 4.0, owner_color.gamma_multiply(0.35));
                        painter.rect_stroke(
                            r,
                            4.0,
                            egui::Stroke::new(
                                if bad { 2.5 } else { 1.0 },
                                if bad {
                                    visuals.error_fg_color
                                } else {
                                    owner_color
                                },
                            ),
                            egui::StrokeKind::Inside,
                        );
                        let name = env.card_name(&l.id).unwrap_or_else(|| l.id.clone());
                        let features = sides.get(i).cloned().flatten().unwrap_or_default();
                        league_square(
                            &painter,
                            r,
                            &format!("{name}\nP{} #{}", l.owner, i + 1),
                            &features,
                            &small,
                            (visuals.text_color(), visuals.weak_text_color()),
                        );
                        if let Some(sides) = fits.get(i) {
                            // A facing side is a bar on the middle of that edge: green fits.
                            let inner = r.shrink(1.5);
                            let (dx, dy) = (r.width() * 0.2, r.height() * 0.2);
                            let c = inner.center();
                            let bars = [
                                [
                                    egui::pos2(c.x - dx, inner.top()),
                                    egui::pos2(c.x + dx, inner.top()),
                                ],
                                [
                                    egui::pos2(inner.right(), c.y - dy),
                                    egui::pos2(inner.right(), c.y + dy),
                                ],
                                [
                                    egui::pos2(c.x - dx, inner.bottom()),
                                    egui::pos2(c.x + dx, inner.bottom()),
                                ],
                                [
                                    egui::pos2(inner.left(), c.y - dy),
                                    egui::pos2(inner.left(), c.y + dy),
                                ],
                            ];
                            for (bar, fit) in bars.into_iter().zip(sides) {
                                if let Some(ok) = fit {
                                    let color = if *ok {
                                        egui::Color32::from_rgb(40, 170, 70)
                                    } else {
                                        visuals.error_fg_color
                                    };
                                    painter.line_segment(bar, egui::Stroke::new(3.0, color));
                                }
                            }
                        }
                    }
                    None => {
                        painter.rect_stroke(
                            r,
                            4.0,
                            egui::Stroke::new(1.0, visuals.weak_text_color().gamma_multiply(0.4)),
                            egui::StrokeKind::Inside,
                        );
                    }
                }
            }
        }
        if let Some(pos) = response
            .interact_pointer_pos()
            .filter(|_| response.clicked())
        {
            let x = x0 + ((pos.x - rect.min.x) / cell.x).floor() as i32;
            let y = y0 + ((pos.y - rect.min.y) / cell.y).floor() as i32;
            let mut s = setup.clone();
            if let Some(i) = s.leagues.iter().position(|l| l.x == x && l.y == y) {
                s.leagues.remove(i);
                edit(env, "remove league", s);
            } else if let Some(id) = self.league.clone() {
                s.leagues.push(LaidLeague {
                    id,
                    owner: self.player as u8 + 1,
                    x,
                    y,
                });
                edit(env, "lay league", s);
            }
        }
        response.on_hover_text("Click a free square to lay the picked league; click a laid league to take it back. Each edge names the features of that side; a bar on an edge facing another league is green when the two sides fit, red when they do not.");
    }
}

/// A laid league's square `r` on the setup's grid: its side features along the four edges
/// (north and south on one line, cut with "…" if long; west and east turned to run up and
/// down their edge, so they take one line's width from the middle), and `name` in the room
/// left in the middle, at the largest size from 11 to 8 points at which every word fits whole
/// (a word too long even at 8 points is cut with "…"): names are never broken mid-word and
/// never run under the side features.
pub(crate) fn league_square(
    painter: &egui::Painter,
    r: egui::Rect,
    name: &str,
    features: &[Vec<String>; 4],
    font: &egui::FontId,
    (color, weak): (egui::Color32, egui::Color32),
) {
    let [north, east, south, west] = features;
    let pad = 3.0;
    let line = painter
        .layout_no_wrap("Ag".into(), font.clone(), weak)
        .size()
        .y;
    let one_line = |text: String, width: f32| {
        let mut job = egui::text::LayoutJob::single_section(
            text,
            egui::TextFormat::simple(font.clone(), weak),
        );
        job.wrap = egui::text::TextWrapping::truncate_at_width(width.max(1.0));
        painter.layout_job(job)
    };
    let across = r.width() - 2.0 * (pad + line + pad);
    let along = r.height() - 2.0 * (pad + line + pad);
    let n = one_line(north.join(", "), across);
    painter.galley(
        egui::pos2(r.center().x - n.size().x / 2.0, r.top() + pad),
        n,
        weak,
    );
    let s = one_line(south.join(", "), across);
    painter.galley(
        egui::pos2(
            r.center().x - s.size().x / 2.0,
            r.bottom() - pad - s.size().y,
        ),
        s,
        weak,
    );
    // West reads upwards along the left edge, east downwards along the right edge.
    let w = one_line(west.join(", "), along);
    let at = egui::pos2(r.left() + pad, r.center().y + w.size().x / 2.0);
    painter.add(egui::epaint::TextShape::new(at, w, weak).with_angle(-std::f32::consts::FRAC_PI_2));
    let e = one_line(east.join(", "), along);
    let at = egui::pos2(r.right() - pad, r.center().y - e.size().x / 2.0);
    painter.add(egui::epaint::TextShape::new(at, e, weak).with_angle(std::f32::consts::FRAC_PI_2));
    let room = egui::Rect::from_center_size(r.center(), egui::vec2(across, along));
    let galley = fit_words(painter, name, room.size(), color);
    // Centred lines: the galley's rect is placed around its own origin.
    painter.galley(
        room.center() - galley.rect.center().to_vec2(),
        galley,
        color,
    );
}

/// `text` laid out within `room`: at the largest size from 11 to 8 points at which each word
/// fits on a line whole and the lines fit in the height; failing that at 8 points, with each
/// word too wide cut with "…" and the lines that do not fit left out.
fn fit_words(
    painter: &egui::Painter,
    text: &str,
    room: egui::Vec2,
    color: egui::Color32,
) -> std::sync::Arc<egui::Galley> {
    let width = |t: &str, font: &egui::FontId| {
        painter
            .layout_no_wrap(t.to_string(), font.clone(), color)
            .size()
            .x
    };
    let wrapped = |t: String, font: &egui::FontId, rows: usize| {
        let mut job =
            egui::text::LayoutJob::single_section(t, egui::TextFormat::simple(font.clone(), color));
        job.wrap = egui::text::TextWrapping {
            max_width: room.x.max(1.0),
            max_rows: rows,
            break_anywhere: false,
            overflow_character: Some('…'),
        };
        job.halign = egui::Align::Center;
        painter.layout_job(job)
    };
    for size in [11.0, 10.0, 9.0, 8.0] {
        let font = egui::FontId::proportional(size);
        if text
            .split_whitespace()
            .all(|word| width(word, &font) <= room.x)
        {
            let g = wrapped(text.to_string(), &font, usize::MAX);
            if g.size().y <= room.y {
                return g;
            }
        }
    }
    let font = egui::FontId::proportional(8.0);
    let cut = |word: &str| {
        if width(word, &font) <= room.x {
            return word.to_string();
        }
        let mut chars: Vec<char> = word.chars().collect();
        while !chars.is_empty() {
            chars.pop();
            let t: String = chars.iter().chain(['…'].iter()).collect();
            if width(&t, &font) <= room.x {
                return t;
            }
        }
        "…".into()
    };
    let text = text
        .lines()
        .map(|l| l.split(' ').map(cut).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n");
    let line = painter
        .layout_no_wrap("Ag".into(), font.clone(), color)
        .size()
        .y;
    let rows = ((room.y / line).floor() as usize).max(1);
    wrapped(text, &font, rows)
}

/// The side features of a league written along the four edges of its square `r`: north and
/// south centred on the top and bottom edges, west and east one feature a line on the left and
/// right.
pub(crate) fn side_features(
    painter: &egui::Painter,
    r: egui::Rect,
    features: &[Vec<String>; 4],
    font: &egui::FontId,
    color: egui::Color32,
) {
    let [north, east, south, west] = features;
    let pad = 3.0;
    let place = [
        (
            north.join(", "),
            egui::pos2(r.center().x, r.top() + pad),
            egui::Align2::CENTER_TOP,
        ),
        (
            south.join(", "),
            egui::pos2(r.center().x, r.bottom() - pad),
            egui::Align2::CENTER_BOTTOM,
        ),
        (
            west.join("\n"),
            egui::pos2(r.left() + pad, r.center().y),
            egui::Align2::LEFT_CENTER,
        ),
        (
            east.join("\n"),
            egui::pos2(r.right() - pad, r.center().y),
            egui::Align2::RIGHT_CENTER,
        ),
    ];
    for (text, pos, align) in place {
        painter.text(pos, align, text, font.clone(), color);
    }
}
