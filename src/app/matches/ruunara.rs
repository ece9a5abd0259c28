//! Ruunara on the Match screen: a mission (a bundled example or a file) played by a squad (the
//! Squad screen's, the bundled example or a file) in the shared match view
//! ([`super::session_view`]), which keeps the seat of the heroes (a person or a policy), the
//! seed, New match, Back and Forward, Undo, Save and Open, the enemies' turn and its dice on a
//! background job with Stop, and the log. This file keeps how a new match starts (the mission
//! and the squad chosen, deployed) and the board painter: the table from above, where a person
//! places each member deployed in a zone by a click or a drag into the highlighted zone and
//! drags the active hero within its movement (each a point on the table, [`Act::Point`]), and
//! takes the other decisions from the options in words (keys 1-9) or by clicking the figure
//! they concern; and the Simulate view's run.
//!
//! The enemies are run by the rules inside the engine, and every die is a chance input the
//! session draws and records: Back and Forward walk an enemies' turn die by die, the attacker
//! of each roll ringed on the table and named under it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::session_view::{Act, Board, SessionView, Shown, Start};
use super::sim_view::{Ask, SimView, Words};
use crate::cards::CardLookup;
use crate::catalogue::Catalogue;
use crate::games::ai::Policy;
use crate::games::dice::{RngDice, game_seed};
use crate::games::game::{Game, Outcome, Turn};
use crate::games::owned::Owned;
use crate::games::ruunara::engine::{
    Opt, Phase, PlayMode, Pt, RuunaraEnding, RuunaraGame, Setup, Status,
};
use crate::games::ruunara::matchfile::{self, Ruunara};
use crate::games::ruunara::mission::{Objective, SceneryKind, Zone};
use crate::games::ruunara::squad::SquadFile;
use crate::games::session::Seat;
use crate::sim::play_seeded;

/// The Ruunara position of a session's position (`None` for another game's).
pub fn position(g: &dyn crate::games::any::AnyGame) -> Option<&RuunaraGame<'_>> {
    g.as_any().downcast_ref::<Owned<Ruunara>>().map(Owned::game)
}

/// The bundled example missions: their file names and texts.
pub const MISSIONS: [(&str, &str); 4] = [
    (
        "eliminate.mission.toml",
        include_str!("../../../examples/ruunara/eliminate.mission.toml"),
    ),
    (
        "rescue.mission.toml",
        include_str!("../../../examples/ruunara/rescue.mission.toml"),
    ),
    (
        "reach.mission.toml",
        include_str!("../../../examples/ruunara/reach.mission.toml"),
    ),
    (
        "survive.mission.toml",
        include_str!("../../../examples/ruunara/survive.mission.toml"),
    ),
];

/// The bundled example squad.
pub const EXAMPLE_SQUAD: &str =
    include_str!("../../../examples/ruunara/legal-free-play-mix.squad.toml");

/// Where the squad comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SquadSource {
    /// The Squad screen's current squad.
    Screen,
    /// The bundled example squad.
    Example,
    /// A squad file (its path).
    File(PathBuf),
}

/// Where the mission comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MissionSource {
    /// One of [`MISSIONS`].
    Bundled(usize),
    File(PathBuf),
}

/// Where the board was drawn: the table's rectangle on screen and its scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoardMap {
    pub rect: egui::Rect,
    /// Points per inch.
    pub scale: f32,
}

impl BoardMap {
    /// The screen point of table point `p` (y grows north, up the screen).
    pub fn to_screen(&self, p: Pt) -> egui::Pos2 {
        egui::pos2(
            self.rect.min.x + p.x as f32 * self.scale,
            self.rect.max.y - p.y as f32 * self.scale,
        )
    }

    /// The table point under screen point `s`.
    pub fn to_table(&self, s: egui::Pos2) -> Pt {
        Pt::new(
            f64::from((s.x - self.rect.min.x) / self.scale),
            f64::from((self.rect.max.y - s.y) / self.scale),
        )
    }
}

/// A zone of the table (an exit, a deployment zone): filled with `fill`, edged with `edge`.
fn shade_zone(painter: &egui::Painter, r: egui::Rect, fill: egui::Color32, edge: egui::Color32) {
    painter.rect_filled(r, 2.0, fill);
    painter.rect_stroke(
        r,
        2.0,
        egui::Stroke::new(2.0, edge),
        egui::StrokeKind::Inside,
    );
}

/// The colour of a scenery kind.
fn scenery_color(k: SceneryKind) -> egui::Color32 {
    match k {
        SceneryKind::Wall => egui::Color32::from_rgb(120, 120, 130),
        SceneryKind::Rock => egui::Color32::from_rgb(140, 110, 80),
        SceneryKind::Building => egui::Color32::from_rgb(80, 60, 55),
        SceneryKind::Cliff => egui::Color32::from_rgb(95, 120, 80),
    }
}

fn scenery_name(k: SceneryKind) -> &'static str {
    match k {
        SceneryKind::Wall => "wall",
        SceneryKind::Rock => "rock",
        SceneryKind::Building => "building",
        SceneryKind::Cliff => "cliff",
    }
}

/// The colour of a figure's team.
fn team_color(team: u8) -> egui::Color32 {
    match team {
        0 => egui::Color32::from_rgb(60, 120, 210),
        1 => egui::Color32::from_rgb(200, 60, 50),
        _ => egui::Color32::from_rgb(210, 180, 60),
    }
}

/// The figure an option concerns, if any.
fn opt_figure(o: Opt) -> Option<usize> {
    match o {
        Opt::Activate(j)
        | Opt::Engage(j)
        | Opt::Face(j)
        | Opt::Close(j)
        | Opt::Ranged(j)
        | Opt::Extra { target: j, .. } => Some(usize::from(j)),
        Opt::Skill { target, .. } if target != crate::games::ruunara::engine::state::NONE => {
            Some(usize::from(target))
        }
        _ => None,
    }
}

/// Reads and checks a mission and a squad into a match setup, or says why none can start.
pub fn setup_of(
    cat: &dyn CardLookup,
    mission_text: &str,
    mission_file: &str,
    squad: &SquadFile,
) -> Result<Setup, String> {
    matchfile::compile(cat, mission_text, mission_file, squad).map(|c| c.setup)
}

/// Game `index` of a run seeded `seed`, the heroes played by `policy`: its dice and the
/// policy's seed derived from (`seed`, `index`) as the sim runner derives them.
pub fn outcome(setup: &Setup, policy: Policy, seed: u64, index: u64) -> Outcome<RuunaraEnding> {
    let s = game_seed(seed, index);
    play_seeded(RuunaraGame::new(setup), RngDice::new(s), &[policy], s)
}

/// Why a drop at `at` is refused.
fn refusal(game: &RuunaraGame<'_>, fig: usize, at: Pt) -> String {
    let s = game.setup;
    let f = &game.st.figs[fig];
    let name = &s.figs[fig].name;
    let mv = game.st.move_budget(s, fig);
    if game.st.phase != Phase::Move(fig as u8) {
        return format!("{name} cannot move now.");
    }
    if game.st.engaged(fig) && !f.fleeing {
        return format!("{name} is engaged in close combat: it cannot walk away.");
    }
    let r = f.r;
    if at.x < r || at.y < r || at.x > s.width - r || at.y > s.depth - r {
        return format!("{name} cannot leave the table.");
    }
    let d = f.at.dist(at);
    if d > mv + 1e-9 {
        return format!(
            "Too far: {d:.1}\" away, and {name} moves {mv:.0}\". It goes back to its place."
        );
    }
    format!(
        "{name} cannot end there: the way is blocked, the climb does not fit its movement, or \
         the spot is taken. It goes back to its place."
    )
}

/// Why member `fig` cannot be deployed at `at`.
fn deploy_refusal(game: &RuunaraGame<'_>, fig: usize, at: Pt) -> String {
    let s = game.setup;
    let st = &game.st;
    let name = &s.figs[fig].name;
    let Some(z) = crate::games::ruunara::engine::State::zone_of(s, fig) else {
        return format!("{name} is not deployed in a zone.");
    };
    let r = st.figs[fig].r;
    let inside = at.x >= z.x + r - 1e-6
        && at.y >= z.y + r - 1e-6
        && at.x <= z.x + z.w - r + 1e-6
        && at.y <= z.y + z.d - r + 1e-6;
    if !inside {
        return format!(
            "{name} deploys inside the highlighted zone, its whole base within it: ({:.1}, {:.1}) is outside.",
            at.x, at.y
        );
    }
    if let Some(j) = st.ids().find(|&j| {
        j != fig
            && st.waiting & (1 << j) == 0
            && st.figs[j].status != Status::Dead
            && st.base_at(fig, at).overlaps(st.base(j))
    }) {
        return format!(
            "{name} cannot stand there: its base would overlap {} #{j}.",
            s.figs[j].name
        );
    }
    if !st.spot_free(s, fig, at) {
        return format!("{name} cannot stand there: no base may stand on a building.");
    }
    format!(
        "{name} cannot stand there: the members still to deploy in this zone would have no room left."
    )
}

/// What the board answered.
struct BoardOut {
    map: BoardMap,
    clicked: Option<usize>,
    dropped: Option<(usize, Pt)>,
}

/// The 135-degree vision arc of a figure of base radius `base` as a polygon (its range
/// measured from the base's edge).
fn arc_points(map: &BoardMap, at: Pt, facing: f64, range: f64, base: f64) -> Vec<egui::Pos2> {
    let c = map.to_screen(at);
    let mut pts = vec![c];
    let half = 67.5_f64.to_radians();
    let r = (range + base) as f32 * map.scale;
    for k in 0..=16 {
        let a = facing - half + 2.0 * half * f64::from(k) / 16.0;
        pts.push(c + egui::vec2(a.cos() as f32 * r, -(a.sin() as f32) * r));
    }
    pts
}

/// The table from above: scenery by kind, the objective's zone, bases with facings, hit
/// points, vision arcs, engagements and captures; a person drags the moving hero.
fn board_ui(
    ui: &mut egui::Ui,
    game: &RuunaraGame<'_>,
    selected: Option<usize>,
    all_arcs: bool,
    person: bool,
    dragging: &mut Option<(usize, egui::Pos2)>,
) -> BoardOut {
    let s = game.setup;
    let st = &game.st;
    let avail = ui.available_size();
    let scale = (avail.x / s.width as f32)
        .min(avail.y / s.depth as f32)
        .max(4.0);
    let (rect, response) = ui.allocate_exact_size(
        egui::vec2(s.width as f32 * scale, s.depth as f32 * scale),
        egui::Sense::click_and_drag(),
    );
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Ruunara table"));
    let map = BoardMap { rect, scale };
    let painter = ui.painter_at(rect);
    let dark = ui.visuals().dark_mode;
    painter.rect_filled(
        rect,
        4.0,
        if dark {
            egui::Color32::from_rgb(46, 58, 44)
        } else {
            egui::Color32::from_rgb(196, 214, 170)
        },
    );
    let font = egui::FontId::proportional((scale * 0.55).clamp(9.0, 14.0));
    let zone_rect = |z: &Zone| {
        egui::Rect::from_two_pos(
            map.to_screen(Pt::new(z.x, z.y)),
            map.to_screen(Pt::new(z.x + z.w, z.y + z.d)),
        )
    };
    match s.objective {
        Objective::Reach { exit } | Objective::Rescue { exit, .. } => {
            let r = zone_rect(&exit);
            shade_zone(
                &painter,
                r,
                egui::Color32::from_rgba_unmultiplied(90, 200, 120, 70),
                egui::Color32::from_rgb(40, 150, 80),
            );
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                "exit",
                font.clone(),
                egui::Color32::from_rgb(20, 90, 40),
            );
        }
        _ => {}
    }
    // The zone of the member being deployed, and its offered spots.
    let deploying = game.deploying();
    if let Some(i) = deploying
        && let Some(z) = crate::games::ruunara::engine::State::zone_of(s, i)
    {
        let r = zone_rect(&z);
        shade_zone(
            &painter,
            r,
            egui::Color32::from_rgba_unmultiplied(60, 120, 210, 60),
            egui::Color32::from_rgb(60, 120, 210),
        );
        // Under the zone: a small zone has no room for its name.
        painter.text(
            egui::pos2(r.center().x, r.max.y + 2.0),
            egui::Align2::CENTER_TOP,
            "deployment zone",
            font.clone(),
            egui::Color32::from_rgb(30, 60, 130),
        );
        for o in game.options() {
            if let Opt::Place { col, row } = *o {
                painter.circle_stroke(
                    map.to_screen(st.spot(s, i, usize::from(col), usize::from(row))),
                    st.figs[i].r as f32 * scale * 0.5,
                    egui::Stroke::new(1.0, egui::Color32::from_rgb(60, 120, 210)),
                );
            }
        }
    }
    for piece in &s.pieces {
        let r = egui::Rect::from_two_pos(
            map.to_screen(Pt::new(piece.rect.x0, piece.rect.y0)),
            map.to_screen(Pt::new(piece.rect.x1, piece.rect.y1)),
        );
        painter.rect_filled(r, 1.0, scenery_color(piece.kind));
        if r.width() > 30.0 && r.height() > 12.0 {
            painter.text(
                r.center(),
                egui::Align2::CENTER_CENTER,
                format!("{} {:.1}\"", scenery_name(piece.kind), piece.height),
                font.clone(),
                egui::Color32::WHITE,
            );
        }
    }
    let moving = match st.phase {
        Phase::Move(i) if person => Some(usize::from(i)),
        _ => None,
    };
    // The reach of the hero that moves: what it may move now around it.
    if let Some(i) = moving {
        painter.circle(
            map.to_screen(st.figs[i].at),
            st.move_budget(s, i) as f32 * scale,
            egui::Color32::from_rgba_unmultiplied(60, 120, 210, 30),
            egui::Stroke::new(1.5, egui::Color32::from_rgb(60, 120, 210)),
        );
    }
    let figs = st.ids();
    // Vision arcs under the bases.
    for i in figs.clone() {
        let f = &st.figs[i];
        if f.status != Status::Free
            || st.waiting & (1 << i) != 0
            || !(all_arcs || selected == Some(i) || st.active() == Some(i))
        {
            continue;
        }
        let angle = f.facing.degrees().to_radians();
        let c = team_color(f.team);
        painter.add(egui::Shape::convex_polygon(
            arc_points(&map, f.at, angle, s.figs[i].vision, f.r),
            egui::Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), 28),
            egui::Stroke::new(
                1.0,
                egui::Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), 120),
            ),
        ));
    }
    // Each base drawn at its own size (the card's `base`).
    let rad = |i: usize| st.figs[i].r as f32 * scale;
    let text = if dark {
        egui::Color32::WHITE
    } else {
        egui::Color32::BLACK
    };
    for i in figs.clone() {
        let f = &st.figs[i];
        if st.waiting & (1 << i) != 0 {
            // Not on the table yet.
            continue;
        }
        let c = map.to_screen(f.at);
        let color = team_color(f.team);
        let r = rad(i);
        match f.status {
            Status::Dead => {
                let d = r * 0.7;
                let st2 = egui::Stroke::new(2.0, egui::Color32::from_gray(90));
                painter.line_segment([c - egui::vec2(d, d), c + egui::vec2(d, d)], st2);
                painter.line_segment([c + egui::vec2(-d, d), c + egui::vec2(d, -d)], st2);
                continue;
            }
            Status::Captured => {
                painter.circle(
                    c,
                    r,
                    color.gamma_multiply(0.4),
                    egui::Stroke::new(2.5, egui::Color32::from_rgb(150, 60, 170)),
                );
                painter.text(
                    c + egui::vec2(0.0, r + 2.0),
                    egui::Align2::CENTER_TOP,
                    format!("captured, executed round {}", f.execute_round),
                    font.clone(),
                    egui::Color32::from_rgb(150, 60, 170),
                );
            }
            Status::Free => {
                let ring = if selected == Some(i) || st.active() == Some(i) {
                    egui::Stroke::new(3.0, ui.visuals().selection.stroke.color)
                } else {
                    egui::Stroke::new(1.0, egui::Color32::BLACK)
                };
                painter.circle(c, r, color, ring);
            }
        }
        let (dx, dy) = crate::games::ruunara::engine::geom::facing_vec(f.facing);
        painter.line_segment(
            [c, c + egui::vec2(dx as f32, -dy as f32) * r * 1.3],
            egui::Stroke::new(2.5, egui::Color32::WHITE),
        );
        painter.text(
            c + egui::vec2(0.0, -r - 2.0),
            egui::Align2::CENTER_BOTTOM,
            // Names only where there is room (or for the figure in focus): the options,
            // the log and a hover name every figure by its number.
            if scale >= 40.0 || selected == Some(i) || st.active() == Some(i) {
                format!("#{i} {} · {} hp", s.figs[i].name, f.hp)
            } else {
                format!("#{i} · {} hp", f.hp)
            },
            font.clone(),
            text,
        );
    }
    // Engagements, over the bases (engaged bases touch).
    for a in figs.clone() {
        for b in a + 1..figs.end {
            if st.figs[a].status == Status::Free
                && st.figs[b].status == Status::Free
                && st.engaged_with(a, b)
            {
                painter.line_segment(
                    [map.to_screen(st.figs[a].at), map.to_screen(st.figs[b].at)],
                    egui::Stroke::new(4.0, egui::Color32::from_rgb(230, 120, 20)),
                );
            }
        }
    }
    if let Some(t) = s.rescue_target()
        && st.figs[t].status == Status::Free
    {
        painter.circle_stroke(
            map.to_screen(st.figs[t].at),
            rad(t) + 4.0,
            egui::Stroke::new(2.0, egui::Color32::from_rgb(40, 150, 80)),
        );
    }
    // The figure under a point, if any.
    let under = |p: egui::Pos2| {
        let t = map.to_table(p);
        figs.clone()
            .filter(|&i| st.figs[i].status != Status::Dead && st.waiting & (1 << i) == 0)
            .find(|&i| st.figs[i].at.dist(t) <= st.figs[i].r + 0.2)
    };
    if let Some(i) = response.hover_pos().and_then(under) {
        let (f, card) = (&st.figs[i], &s.figs[i]);
        response.clone().on_hover_ui_at_pointer(|ui| {
            ui.strong(format!("#{i} {}", card.name));
            ui.label(format!(
                "{} hp · moves {}\" · sees {}\" · close {}{}",
                f.hp,
                card.movement,
                card.vision,
                card.close,
                card.ranged
                    .map(|d| format!(" · ranged {d} to {}\"", card.range))
                    .unwrap_or_default()
            ));
        });
    }
    let mut out = BoardOut {
        map,
        clicked: None,
        dropped: None,
    };
    let placing = deploying.filter(|_| person);
    if response.drag_started()
        && let Some(p) = ui.input(|inp| inp.pointer.press_origin())
    {
        if let Some(i) = placing {
            // The member to deploy is dragged in from wherever the press began.
            *dragging = Some((i, p));
        } else if let Some(i) = moving
            && under(p) == Some(i)
        {
            *dragging = Some((i, p));
        }
    }
    if let Some((i, pos)) = dragging.as_mut() {
        if let Some(p) = ui.input(|inp| inp.pointer.latest_pos()) {
            *pos = p;
        }
        let t = map.to_table(*pos);
        let legal = if placing == Some(*i) {
            game.legal_deploy_at(*i, t.x, t.y)
        } else {
            game.legal_move_to(*i, t.x, t.y).is_some()
        };
        let color = if legal {
            egui::Color32::from_rgb(40, 170, 80)
        } else {
            egui::Color32::from_rgb(210, 50, 50)
        };
        if placing != Some(*i) {
            painter.line_segment(
                [map.to_screen(st.figs[*i].at), *pos],
                egui::Stroke::new(2.0, color),
            );
        }
        painter.circle_stroke(*pos, rad(*i), egui::Stroke::new(2.5, color));
        if response.drag_stopped() || !ui.input(|inp| inp.pointer.any_down()) {
            out.dropped = Some((*i, map.to_table(*pos)));
            *dragging = None;
        }
    } else if response.clicked()
        && let Some(p) = response.interact_pointer_pos()
    {
        match placing {
            // A click in the zone places the member being deployed there.
            Some(i) => out.dropped = Some((i, map.to_table(p))),
            None => out.clicked = under(p),
        }
    }
    out
}

/// The name of seat `seat` of a match played in `mode`.
pub fn seat_name(mode: PlayMode, seat: usize) -> String {
    match (mode, seat) {
        (PlayMode::Solo, _) => "Heroes".into(),
        (PlayMode::Duo, 0 | 1) => format!("Player {} (heroes)", seat + 1),
        (PlayMode::Duo, _) => "The mission".into(),
        (PlayMode::Contest, 0) => "Heroes".into(),
        (PlayMode::Contest, _) => "Enemies".into(),
    }
}

/// Ruunara's board: where a new match's mission and squad come from, and the table with the
/// decision under it.
pub struct RuunaraBoard {
    pub mission: MissionSource,
    pub squad: SquadSource,
    /// The Squad screen's squad as the panel last saw it (a new match with
    /// [`SquadSource::Screen`] deploys it).
    pub screen_squad: Option<SquadFile>,
    /// The figure clicked on the table.
    pub selected: Option<usize>,
    /// Vision arcs of every figure (else the selected or acting one's).
    pub all_arcs: bool,
    /// The figure being dragged and where the pointer is.
    pub dragging: Option<(usize, egui::Pos2)>,
    /// The table as last drawn.
    pub map: Option<BoardMap>,
    /// Why the last drop on the table was refused (nothing was decided).
    pub refusal: Option<String>,
    /// Who plays the next match: solo, duo (two people share the heroes) or a contest (a
    /// second player commands the enemies).
    pub mode: PlayMode,
}

impl Default for RuunaraBoard {
    fn default() -> Self {
        RuunaraBoard {
            mission: MissionSource::Bundled(0),
            squad: SquadSource::Example,
            screen_squad: None,
            selected: None,
            all_arcs: false,
            dragging: None,
            map: None,
            refusal: None,
            mode: PlayMode::Solo,
        }
    }
}

impl RuunaraBoard {
    /// The mission's file name and text.
    fn mission_text(&self) -> Result<(String, String), String> {
        match &self.mission {
            MissionSource::Bundled(k) => {
                let (name, text) = MISSIONS[(*k).min(MISSIONS.len() - 1)];
                Ok((name.to_string(), text.to_string()))
            }
            MissionSource::File(p) => {
                crate::safe_io::read_text(p, crate::safe_io::MAX_BUILD_FILE, "a Ruunara file")
                    .map(|t| (p.display().to_string(), t))
                    .map_err(|e| format!("{} cannot be read: {e}", p.display()))
            }
        }
    }

    /// The squad played.
    fn squad_file(&self) -> Result<SquadFile, String> {
        match &self.squad {
            SquadSource::Screen => self
                .screen_squad
                .clone()
                .ok_or_else(|| "The Squad screen's squad is not known yet.".to_string()),
            SquadSource::Example => {
                SquadFile::parse(EXAMPLE_SQUAD, "example.squad.toml").map_err(|e| e.to_string())
            }
            SquadSource::File(p) => {
                let text =
                    crate::safe_io::read_text(p, crate::safe_io::MAX_BUILD_FILE, "a Ruunara file")
                        .map_err(|e| format!("{} cannot be read: {e}", p.display()))?;
                SquadFile::parse(&text, &p.display().to_string()).map_err(|e| e.to_string())
            }
        }
    }

    /// The setup of the mission and squad chosen.
    pub fn setup(&self, cat: &dyn CardLookup) -> Result<Setup, String> {
        let (name, text) = self.mission_text()?;
        setup_of(cat, &text, &name, &self.squad_file()?)?
            .with_mode(self.mode)
            .map_err(|e| format!("The mission cannot start: {e}"))
    }

    /// The line above the table: the mission and its round, the arcs switch, and the refusal
    /// of the last drop (always one line, so the table under it keeps its place).
    fn status_ui(&mut self, ui: &mut egui::Ui, game: &RuunaraGame<'_>) {
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.all_arcs, "Every vision arc");
            ui.label(format!(
                "{}: round {} of {}",
                game.setup.name, game.st.round, game.setup.round_limit
            ));
            // Duo and contest: whose decision it is.
            if game.setup.mode != PlayMode::Solo
                && let Turn::Seat { seat, .. } = game.turn()
            {
                ui.strong(format!("{} decides", seat_name(game.setup.mode, seat)));
            }
            if let Some(r) = &self.refusal {
                ui.add(
                    egui::Label::new(egui::RichText::new(r).color(ui.visuals().error_fg_color))
                        .truncate(),
                )
                .on_hover_text(r);
            }
        });
    }
}

impl Board for RuunaraBoard {
    fn seat_name(&self, seat: usize) -> String {
        seat_name(self.mode, seat)
    }

    fn opened(&mut self, options: &toml::Table) {
        if let Ok(src) = matchfile::source_of(options) {
            self.mode = src.mode;
        }
    }

    /// The mission and the squad chosen, deployed with the cards of the catalogue `cat` (the
    /// record keeps the cards looked up, so it replays without them).
    fn start(&self, _players: usize, _seed: u64, cat: &Catalogue) -> Result<Start, String> {
        let (name, text) = self.mission_text()?;
        let (_, mut src) = matchfile::deploy(cat, &text, &name, &self.squad_file()?)?;
        src.mode = self.mode;
        let options = matchfile::options(&src);
        let opened = matchfile::open(&options, cat).map_err(|e| e.to_string())?;
        Ok(Start { opened, options })
    }

    fn ui(&mut self, ui: &mut egui::Ui, shown: &Shown<'_>) -> Option<Act> {
        let game = position(shown.game)?;
        let person = shown.person.is_some();
        let mut act = None;
        egui::Panel::bottom("ruunara-options")
            .resizable(true)
            .default_size(150.0)
            .show(ui, |ui| {
                // Scrolled within the panel's size: a longer list or question must not grow
                // the panel and shrink the table above it.
                egui::ScrollArea::vertical()
                    .id_salt("ruunara-options-panel")
                    .auto_shrink(false)
                    .show(ui, |ui| {
                        act = options_ui(ui, game, shown, self.selected).map(Act::Option);
                    });
            });
        egui::CentralPanel::default().show(ui, |ui| {
            self.status_ui(ui, game);
            // While the dice of an attack are rolled, its attacker is in focus.
            let rolling = (game.st.phase == Phase::Roll).then(|| usize::from(game.st.attack.by));
            let out = board_ui(
                ui,
                game,
                rolling.or(self.selected),
                self.all_arcs,
                person,
                &mut self.dragging,
            );
            self.map = Some(out.map);
            if let Some(j) = out.clicked {
                self.selected = Some(j);
                // A click on the figure an option concerns takes it when it is the only one.
                let on: Vec<usize> = game
                    .options()
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| opt_figure(**o) == Some(j))
                    .map(|(i, _)| i)
                    .collect();
                if person && on.len() == 1 {
                    act = Some(Act::Option(on[0]));
                }
            }
            if let Some((fig, at)) = out.dropped {
                let deploying = game.deploying() == Some(fig);
                let legal = if deploying {
                    game.legal_deploy_at(fig, at.x, at.y)
                } else {
                    game.legal_move_to(fig, at.x, at.y).is_some()
                };
                if legal {
                    act = Some(Act::Point(at.x, at.y));
                    self.refusal = None;
                } else if deploying {
                    self.refusal = Some(deploy_refusal(game, fig, at));
                } else {
                    self.refusal = Some(refusal(game, fig, at));
                }
            }
        });
        act
    }

    fn reset(&mut self) {
        self.selected = None;
        self.dragging = None;
        self.refusal = None;
    }
}

/// A file chosen in the dialog (a mission's when true), picked up on the next frame.
type Chosen = Arc<Mutex<Option<(bool, PathBuf)>>>;

/// The Ruunara view of the Match screen.
pub struct RuunaraPanel {
    /// Simulate many missions (else play one).
    pub simulate: bool,
    pub sim: SimView,
    /// The mission played (its heroes' seat and seed are the simulation's too).
    pub view: SessionView<RuunaraBoard>,
    chosen: Chosen,
}

impl Default for RuunaraPanel {
    fn default() -> Self {
        RuunaraPanel {
            simulate: false,
            sim: SimView::new("ruunara-sim", 500),
            view: {
                // Seats for two players (duo, contest); one offered until a mode wants two.
                let mut v = SessionView::new(
                    &crate::games::ruunara::REGISTRATION,
                    "ruunara",
                    RuunaraBoard::default(),
                    (1, 1, 2),
                );
                v.most = 1;
                v
            },
            chosen: Arc::default(),
        }
    }
}

impl RuunaraPanel {
    /// Whether a simulation is running.
    pub fn simulating(&self) -> bool {
        self.sim.running()
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut super::super::Env) {
        if let Some((mission, path)) = self.chosen.lock().map(|mut c| c.take()).unwrap_or(None) {
            if mission {
                self.view.board.mission = MissionSource::File(path);
            } else {
                self.view.board.squad = SquadSource::File(path);
            }
        }
        // The seats offered follow the mode: one player, or two.
        let players = self.view.board.mode.players();
        (self.view.fewest, self.view.players, self.view.most) = (players, players, players);
        let board = &mut self.view.board;
        if board.squad == SquadSource::Screen {
            if board.screen_squad.as_ref() != Some(&env.docs.squad) {
                board.screen_squad = Some(env.docs.squad.clone());
            }
        } else {
            board.screen_squad = None;
        }
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.simulate, false, "Play one mission")
                .on_hover_text("Play one mission on the table, step through it");
            ui.selectable_value(&mut self.simulate, true, "Simulate missions")
                .on_hover_text("Play many seeded missions and read the heroes' win rate");
        });
        self.sources_ui(ui, env);
        if self.simulate {
            self.sim_ui(ui, env);
            return;
        }
        self.view.ui(ui, env.cat);
    }

    /// Where the next match's mission and squad come from.
    fn sources_ui(&mut self, ui: &mut egui::Ui, env: &mut super::super::Env) {
        ui.horizontal_wrapped(|ui| {
            let board = &mut self.view.board;
            let label = ui.label("Mission");
            let shown = match &board.mission {
                MissionSource::Bundled(k) => MISSIONS[*k].0.to_string(),
                MissionSource::File(p) => p.display().to_string(),
            };
            egui::ComboBox::from_id_salt("ruunara-mission")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    for (k, (name, _)) in MISSIONS.iter().enumerate() {
                        ui.selectable_value(&mut board.mission, MissionSource::Bundled(k), *name);
                    }
                })
                .response
                .labelled_by(label.id);
            if ui
                .button("Mission file…")
                .on_hover_text("Open a *.mission.toml file")
                .clicked()
            {
                self.ask_file(ui.ctx(), env, true);
            }
            let board = &mut self.view.board;
            let label = ui.label("Squad");
            let shown = match &board.squad {
                SquadSource::Screen => "the Squad screen's".to_string(),
                SquadSource::Example => "the example squad".to_string(),
                SquadSource::File(p) => p.display().to_string(),
            };
            egui::ComboBox::from_id_salt("ruunara-squad")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    ui.selectable_value(
                        &mut board.squad,
                        SquadSource::Screen,
                        "the Squad screen's",
                    );
                    ui.selectable_value(
                        &mut board.squad,
                        SquadSource::Example,
                        "the example squad",
                    );
                })
                .response
                .labelled_by(label.id);
            if ui
                .button("Squad file…")
                .on_hover_text("Open a *.squad.toml file")
                .clicked()
            {
                self.ask_file(ui.ctx(), env, false);
            }
            let board = &mut self.view.board;
            let label = ui.label("Mode");
            egui::ComboBox::from_id_salt("ruunara-mode")
                .selected_text(board.mode.as_str())
                .show_ui(ui, |ui| {
                    for (m, tip) in [
                        (PlayMode::Solo, "One player commands the squad"),
                        (
                            PlayMode::Duo,
                            "Two players share the heroes, each commanding every other member",
                        ),
                        (
                            PlayMode::Contest,
                            "A second player commands the enemies; the sides alternate activations",
                        ),
                    ] {
                        ui.selectable_value(&mut board.mode, m, m.as_str())
                            .on_hover_text(tip);
                    }
                })
                .response
                .labelled_by(label.id);
        });
    }

    fn ask_file(&self, ctx: &egui::Context, env: &mut super::super::Env, mission: bool) {
        use super::super::files::{Dialog, Want, ask};
        let name = if mission {
            "Ruunara mission"
        } else {
            "Ruunara squad"
        };
        let chosen = self.chosen.clone();
        ask(
            ctx,
            env,
            Dialog::new(Want::File).filter(name, &["toml"]),
            move |_, paths| {
                if let (Some(p), Ok(mut c)) = (paths.into_iter().next(), chosen.lock()) {
                    *c = Some((mission, p));
                }
                Vec::new()
            },
        );
    }

    /// What a simulation is played with: a result of another mission, squad, policy or seed
    /// is stale.
    fn sim_key(&self) -> String {
        let b = &self.view.board;
        format!(
            "{:?} {:?} {:?} {:?} seed {} games {}",
            b.mission,
            b.squad_file().map(|s| s.to_toml()),
            b.squad,
            self.sim_policy(),
            self.view.seed,
            self.sim.games
        )
    }

    /// The heroes' policy in a simulation (a person's heroes are played by greedy).
    fn sim_policy(&self) -> Policy {
        match self.view.seats[0] {
            Seat::Computer(p) => p,
            Seat::Person => Policy::Greedy,
        }
    }

    /// Starts a simulation of the view's missions in the shared view.
    pub fn start_sim(&mut self, ctx: &egui::Context, env: &super::super::Env) {
        let setup = match self.view.board.setup(env.cat) {
            Ok(s) => Arc::new(s),
            Err(e) => {
                self.view.message = Some(e);
                return;
            }
        };
        self.view.message = None;
        let policy = self.sim_policy();
        let (games, seed) = (self.sim.games.max(1), self.view.seed);
        let ask = Ask {
            heading: format!(
                "{games} missions of {}, seed {seed} (heroes: {})",
                setup.name,
                policy.name()
            ),
            cli: None,
            key: self.sim_key(),
            labels: vec![
                format!("Heroes ({})", policy.name()),
                "The mission".to_string(),
            ],
            words: Words {
                length: ("round", "rounds"),
                draw: "A Ruunara mission is never drawn: the heroes win it or the mission does.",
            },
        };
        self.sim
            .start(ctx, ask, move |i| outcome(&setup, policy, seed, i));
    }

    /// The simulation's choices (the heroes' policy, the seed), its run and its figures.
    fn sim_ui(&mut self, ui: &mut egui::Ui, env: &super::super::Env) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Heroes played by");
            let seat = &mut self.view.seats[0];
            super::policy_combo(ui, "ruunara-sim-heroes", seat).labelled_by(label.id);
            let label = ui
                .label("Seed")
                .on_hover_text("The same seed rolls the same dice");
            ui.add(egui::DragValue::new(&mut self.view.seed))
                .labelled_by(label.id);
        });
        if let Some(m) = &self.view.message {
            ui.colored_label(ui.visuals().error_fg_color, m);
        }
        let key = self.sim_key();
        let tip = "Play the missions on a background thread (the dice of each from the seed)";
        if self.sim.ui(
            ui,
            tip,
            &key,
            "The mission, squad, policy or seed changed since this run: play it again to update it.",
        ) {
            self.start_sim(ui.ctx(), env);
        }
    }
}

/// The decision at the step shown: the question and the options as buttons (keys 1-9), those
/// concerning the selected figure first; the attack whose dice are rolled; at the end, the
/// result.
fn options_ui(
    ui: &mut egui::Ui,
    game: &RuunaraGame<'_>,
    shown: &Shown<'_>,
    selected: Option<usize>,
) -> Option<usize> {
    let s = game.setup;
    match game.turn() {
        Turn::Over => {
            let o = game.outcome();
            let ended = o.map_or("?", |o| crate::games::game::Ending::name(o.ended));
            ui.heading(if game.won() {
                format!("The heroes win ({ended})")
            } else {
                format!("The heroes lose ({ended})")
            });
            ui.label(format!("After {} rounds.", game.st.round));
            None
        }
        Turn::Chance(_) => {
            let a = &game.st.attack;
            let (by, at) = (usize::from(a.by), usize::from(a.target));
            if let (Some(f), Some(t)) = (s.figs.get(by), s.figs.get(at)) {
                if f.run_by_rules() {
                    ui.strong("The enemies' turn");
                }
                ui.label(format!(
                    "{} #{by} attacks {} #{at}: the dice are rolled.",
                    f.name, t.name
                ));
            }
            if let Some(i) = shown.taken() {
                ui.weak(format!("Rolled: {}", i + 1));
            }
            None
        }
        Turn::Seat { .. } => {
            if let Some(i) = shown.taken() {
                ui.weak(format!("Taken: {}", taken_text(game, shown, i)));
            }
            if shown.person.is_none() {
                ui.label(match game.setup.mode {
                    PlayMode::Solo => "The computer plays the heroes.".to_string(),
                    mode => format!(
                        "The computer plays {} here.",
                        seat_name(mode, game.seat_now())
                    ),
                });
                return None;
            }
            ui.strong(game.question());
            ui.weak(match game.st.phase {
                Phase::Deploy(_) => {
                    "Click or drag into the highlighted zone to place the member there, or take a spot (keys 1-9)."
                }
                Phase::Move(_) => {
                    "Drag the hero within its reach on the table, or take an option (keys 1-9)."
                }
                _ => "Click a figure on the table, or take an option (keys 1-9).",
            });
            let opts = game.options();
            let mut listed: Vec<usize> = (0..opts.len()).collect();
            if let Some(j) = selected {
                listed.sort_by_key(|&i| opt_figure(opts[i]) != Some(j));
            }
            super::option_buttons(ui, "ruunara-options-scroll", &listed, false, |i| {
                game.opt_text(opts[i])
            })
        }
    }
}

/// Input `i`, taken at the step shown, in words: a point on the table (a drag or a drop) as
/// the option the engine made of it.
fn taken_text(game: &RuunaraGame<'_>, shown: &Shown<'_>, i: usize) -> String {
    let at = shown.session.at;
    match shown.session.points().iter().find(|p| p.step == at) {
        Some(p) => {
            let mut g = game.clone();
            match g.offer_point(p.x, p.y) {
                Some(k) => g.describe(k),
                None => format!("a point on the table ({:.2}, {:.2})", p.x, p.y),
            }
        }
        None => game.describe(i),
    }
}
