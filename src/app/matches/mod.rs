//! The Match screen: the two parties of the Party screen, the rules and a policy per side;
//! simulate many seeded matches on a background thread (win rates with 95% Wilson
//! intervals), or watch one seeded match's log. The core plays the matches (`sim`, the
//! Iconica engine and AI) exactly as `deckwright sim iconica` and `play iconica` do.

pub mod arcadia;
pub mod draft;
pub mod iconica_board;
pub mod iconoclasm;
pub mod job;
pub mod network;
pub mod pictures;
pub mod play;
pub mod ruunara;
pub mod session_view;
pub mod sim_view;
pub mod simulate;
pub mod watch;

use super::Env;
use super::builder::verdict_ui;
use super::cache::Memo;
use super::core::{self, MatchReady};
use crate::app::commands::UiCommand;
use crate::games::iconica::ai::PolicyKind;
use crate::games::iconica::engine::Rules;
use crate::games::iconica::options::{
    BreaksArg, HouseRule, IconicaRules, MAX_TURN_LIMIT, RulesetArg,
};
use crate::games::iconica::party::PartyFile;
use crate::games::registry::{self, Registration};

/// The policies a side may play, with what each does.
pub const POLICIES: [(&str, &str); 4] = [
    (
        "first",
        "Always the first legal option (the spec's fixed order)",
    ),
    ("random", "A random legal option"),
    ("greedy", "The best expected outcome of this turn's choice"),
    (
        "mcts",
        "Monte Carlo tree search, 48 playouts a decision (strong, slow)",
    ),
];

/// A simulated seat's policy, chosen from [`POLICIES`] (a person's seat simulates as greedy).
pub fn policy_combo(
    ui: &mut egui::Ui,
    id: impl egui::AsIdSalt,
    seat: &mut crate::games::session::Seat,
) -> egui::Response {
    use crate::games::ai::Policy;
    use crate::games::session::Seat;
    egui::ComboBox::from_id_salt(id)
        .selected_text(match seat {
            Seat::Computer(p) => p.name(),
            Seat::Person => "greedy".into(),
        })
        .show_ui(ui, |ui| {
            for (name, tip) in POLICIES {
                let p = Policy::parse(name).expect("a known policy");
                ui.selectable_value(seat, Seat::Computer(p), name)
                    .on_hover_text(tip);
            }
        })
        .response
}

/// The match's options, apart from the widgets that edit them: Iconica's rules are its
/// registered options struct (`games/iconica/options.rs`, what `play iconica` parses).
#[derive(Debug, Clone, PartialEq)]
pub struct MatchOptions {
    pub rules: IconicaRules,
    /// Policy names of side A and side B (from [`POLICIES`]).
    pub policies: [&'static str; 2],
    /// Seed of the run (simulate) and of the match (watch).
    pub seed: u64,
}

impl Default for MatchOptions {
    fn default() -> Self {
        MatchOptions {
            rules: IconicaRules::default(),
            policies: ["greedy", "greedy"],
            seed: 1,
        }
    }
}

impl MatchOptions {
    /// Options giving `rules`, seeded `seed`, the default policies.
    pub fn of_rules(rules: Rules, seed: u64) -> MatchOptions {
        MatchOptions {
            rules: IconicaRules::of(&rules),
            seed,
            ..MatchOptions::default()
        }
    }

    /// The rules these options ask for.
    pub fn rules(&self) -> Rules {
        self.rules.rules()
    }

    /// The policy of side `side` (0 = A).
    pub fn policy(&self, side: usize) -> PolicyKind {
        PolicyKind::parse(self.policies[side.min(1)]).unwrap_or(PolicyKind::Greedy)
    }

    /// The rule options of the CLI that give the same rules (empty for the defaults).
    pub fn cli_rules(&self) -> String {
        self.rules.command_line()
    }
}

/// The two views of the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    #[default]
    Simulate,
    Watch,
    Play,
}

/// What the views play: the match-up (or why there is none), the options, the parties'
/// names, and a key that changes with any of them.
pub struct Asked<'a> {
    pub setup: &'a Result<std::sync::Arc<crate::games::iconica::engine::Setup>, String>,
    pub options: &'a MatchOptions,
    pub names: [&'a str; 2],
    pub key: &'a str,
}

/// Says that a result was played with other parties or options.
fn stale_ui(ui: &mut egui::Ui, what: &str) {
    ui.label(
        egui::RichText::new(format!(
            "The parties or options changed since this {what}: play it again to update it."
        ))
        .color(ui.visuals().warn_fg_color),
    );
}

/// The games the Match screen plays: the four with views of their own, and any other
/// registered game on the generic board (by its name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatchGame {
    #[default]
    Iconica,
    Iconoclasm,
    Arcadia,
    Ruunara,
    Generic(&'static str),
    /// Not a game: host or join a match over the network (`network`).
    Network,
}

impl MatchGame {
    /// The view that plays a registered game, `None` for a game no view can start.
    fn of(g: &'static Registration) -> Option<MatchGame> {
        Some(match g.name {
            "iconica" => MatchGame::Iconica,
            "iconoclasm" => MatchGame::Iconoclasm,
            "arcadia" => MatchGame::Arcadia,
            "ruunara" => MatchGame::Ruunara,
            _ if g.generic.is_some() => MatchGame::Generic(g.name),
            _ => return None,
        })
    }
}

/// The match screen.
#[derive(Default)]
pub struct MatchScreen {
    pub game: MatchGame,
    pub iconoclasm: iconoclasm::IconoclasmPanel,
    pub arcadia: arcadia::ArcadiaPanel,
    pub ruunara: ruunara::RuunaraPanel,
    pub options: MatchOptions,
    pub view: View,
    pub sim: simulate::SimPanel,
    pub watch: watch::WatchPanel,
    pub play: play::PlayPanel,
    /// Host or join a match over the network.
    pub network: network::NetworkPanel,
    /// The generic boards opened, one a game.
    pub generic: Vec<session_view::SessionView<session_view::OptionsBoard>>,
    ready: Memo<MatchReady>,
}

impl MatchScreen {
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        ui.horizontal(|ui| {
            ui.label("Game:");
            for reg in registry::GAMES {
                if let Some(g) = MatchGame::of(reg) {
                    ui.selectable_value(&mut self.game, g, reg.title)
                        .on_hover_text(format!("Play {} on this screen", reg.title));
                }
            }
            ui.separator();
            ui.selectable_value(&mut self.game, MatchGame::Network, "Host or join")
                .on_hover_text("Play over the network: host a match, or join one with a code");
        });
        if self.game == MatchGame::Network {
            let options = &self.options;
            let boards = network::Boards {
                arcadia: &self.arcadia.view,
                ruunara: &self.ruunara.view,
            };
            egui::CentralPanel::default().show(ui, |ui| self.network.ui(ui, env, options, &boards));
            return;
        }
        if let MatchGame::Generic(name) = self.game {
            let Some(reg) = registry::find(name) else {
                return;
            };
            if !self.generic.iter().any(|p| p.game.name == name) {
                let seats = reg.generic.map_or(2, |make| make().seats());
                self.generic.push(session_view::SessionView::new(
                    reg,
                    "generic-match",
                    session_view::OptionsBoard { game: reg },
                    (seats, seats, seats),
                ));
            }
            let panel = self
                .generic
                .iter_mut()
                .find(|p| p.game.name == name)
                .expect("added above");
            egui::CentralPanel::default().show(ui, |ui| panel.ui(ui, env.cat));
            return;
        }
        if self.game == MatchGame::Iconoclasm {
            egui::CentralPanel::default().show(ui, |ui| self.iconoclasm.ui(ui, env));
            return;
        }
        if self.game == MatchGame::Arcadia {
            egui::CentralPanel::default().show(ui, |ui| self.arcadia.ui(ui, env));
            return;
        }
        if self.game == MatchGame::Ruunara {
            egui::CentralPanel::default().show(ui, |ui| self.ruunara.ui(ui, env));
            return;
        }
        self.iconica_ui(ui, env);
    }

    fn iconica_ui(&mut self, ui: &mut egui::Ui, env: &mut Env) {
        let (a, b) = (&env.docs.party_a, &env.docs.party_b);
        let rules = self.options.rules();
        let key = format!("{}\n{}\n{rules:?}", a.to_toml(), b.to_toml());
        // What a result was played with: a result of other parties or options is stale.
        let asked = format!("{key}\n{:?}", self.options);
        let ready = self.ready.get(env.generation, key, || {
            core::match_ready(env.cat, a, b, rules)
        });
        // The setup keeps at most 35% of the screen: the views need the rest.
        let widest = (ui.available_width() * 0.35).max(220.0);
        egui::Panel::left("match-setup")
            .resizable(true)
            .default_size(widest.min(320.0))
            .max_size(widest)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("match-setup-scroll")
                    .show(ui, |ui| self.setup_ui(ui, env, &ready));
            });
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.view, View::Simulate, "Simulate")
                    .on_hover_text("Play many seeded matches, computer against computer, and read the win rates");
                ui.selectable_value(&mut self.view, View::Watch, "Watch one match")
                    .on_hover_text("Play one seeded match and read its log, turn by turn");
                ui.selectable_value(&mut self.view, View::Play, "Play against the computer")
                    .on_hover_text("Take a side's decisions yourself; the computer plays the other");
            });
            ui.separator();
            let now = Asked {
                setup: &ready.setup,
                options: &self.options,
                names: [a.name.as_str(), b.name.as_str()],
                key: &asked,
            };
            match self.view {
                View::Simulate => self.sim.ui(ui, &now, env),
                View::Watch => self.watch.ui(ui, &now, env.cat),
                View::Play => self.play.ui(ui, &now, env.cat),
            }
        });
    }

    /// The left panel: both parties with their verdicts, the rules and each side's policy.
    fn setup_ui(&mut self, ui: &mut egui::Ui, env: &mut Env, ready: &MatchReady) {
        ui.heading("Parties");
        ui.weak("The two parties of the Party screen.");
        party_ui(ui, env, "A", &env.docs.party_a, &ready.a);
        party_ui(ui, env, "B", &env.docs.party_b, &ready.b);
        if let Err(why) = &ready.setup {
            ui.add_space(4.0);
            ui.label(egui::RichText::new(why).color(ui.visuals().error_fg_color));
        }
        ui.separator();
        self.rules_ui(ui);
        ui.separator();
        if self.view == View::Play {
            ui.heading("Players");
            ui.weak("A match you play has its seats (a person or a policy each) and its seed in its own row.");
        } else {
            self.players_ui(ui);
        }
    }

    fn rules_ui(&mut self, ui: &mut egui::Ui) {
        let o = &mut self.options;
        ui.heading("Rules");
        egui::Grid::new("match-rules")
            .num_columns(2)
            .show(ui, |ui| {
                let label = ui.label("Ruleset");
                let r = &mut o.rules;
                egui::ComboBox::from_id_salt("match-ruleset")
                    .selected_text(if r.ruleset == RulesetArg::V2 {
                        "v2"
                    } else {
                        "v8"
                    })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut r.ruleset, RulesetArg::V2, "v2");
                        ui.selectable_value(&mut r.ruleset, RulesetArg::V8, "v8");
                    })
                    .response
                    .labelled_by(label.id);
                ui.end_row();
                let label = ui.label("Action Breaks");
                ui.add_enabled_ui(r.ruleset == RulesetArg::V2, |ui| {
                    egui::ComboBox::from_id_salt("match-breaks")
                        .selected_text(if r.breaks == BreaksArg::Standard {
                            "standard"
                        } else {
                            "advanced"
                        })
                        .show_ui(ui, |ui| {
                            ui.selectable_value(&mut r.breaks, BreaksArg::Standard, "standard");
                            ui.selectable_value(&mut r.breaks, BreaksArg::Advanced, "advanced");
                        })
                        .response
                        .labelled_by(label.id);
                })
                .response
                .on_disabled_hover_text("v8 has one kind of Action Break");
                ui.end_row();
                let label = ui
                    .label("Turn limit")
                    .on_hover_text("A match that reaches this many turns ends as a draw");
                ui.add(egui::DragValue::new(&mut r.turn_limit).range(1..=MAX_TURN_LIMIT))
                    .labelled_by(label.id);
                ui.end_row();
            });
        ui.label("House rules:");
        for (rule, text) in [
            (HouseRule::NoReactions, "No reactions"),
            (HouseRule::NoStrengths, "No strengths"),
            (HouseRule::NoFinalActs, "No final acts"),
            (HouseRule::NoActionBreaks, "No Action Breaks"),
        ] {
            let mut on = o.rules.house.contains(&rule);
            if ui.checkbox(&mut on, text).changed() {
                o.rules.house.retain(|h| *h != rule);
                if on {
                    o.rules.house.push(rule);
                    o.rules.house.sort();
                }
            }
        }
    }

    fn players_ui(&mut self, ui: &mut egui::Ui) {
        let o = &mut self.options;
        ui.heading("Players");
        egui::Grid::new("match-players")
            .num_columns(2)
            .show(ui, |ui| {
                for (side, name) in ["A", "B"].into_iter().enumerate() {
                    let label = ui.label(format!("Side {name} plays"));
                    egui::ComboBox::from_id_salt(("match-policy", side))
                        .selected_text(o.policies[side])
                        .show_ui(ui, |ui| {
                            for (p, tip) in POLICIES {
                                ui.selectable_value(&mut o.policies[side], p, p)
                                    .on_hover_text(tip);
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    ui.end_row();
                }
                let label = ui.label("Seed").on_hover_text(
                    "The same seed plays the same matches, here and on the command line",
                );
                ui.add(egui::DragValue::new(&mut o.seed))
                    .labelled_by(label.id);
                ui.end_row();
            });
    }
}

/// One party: its name, its members and the rules' verdict.
fn party_ui(ui: &mut egui::Ui, env: &Env, side: &str, party: &PartyFile, verdict: &core::Verdict) {
    ui.add_space(4.0);
    ui.label(egui::RichText::new(format!("Party {side}: {}", party.name)).strong());
    if party.members.is_empty() {
        ui.weak("No members yet.");
    }
    for (i, id) in party.members.iter().enumerate() {
        ui.label(format!("{}. {}", i + 1, env.name_or_missing(id)));
    }
    ui.push_id(("match-verdict", side), |ui| verdict_ui(ui, verdict));
}

/// The log of a stepped match under a "Log" heading, each line with the step it belongs to:
/// the shown step's lines highlighted (and scrolled to), later steps' lines faint.
pub fn step_log_ui<S: AsRef<str>>(
    ui: &mut egui::Ui,
    id: &str,
    lines: impl IntoIterator<Item = (usize, S)>,
    at: usize,
) {
    ui.heading("Log");
    // Scrolled to once a step shown, not every frame: the earlier lines can be scrolled back to.
    let seen = egui::Id::unique(("step-log-scrolled", id));
    let scroll = ui.data(|d| d.get_temp::<usize>(seen)) != Some(at);
    egui::ScrollArea::vertical()
        .id_salt(id)
        .auto_shrink(false)
        .show(ui, |ui| {
            for (k, line) in lines {
                let line = line.as_ref();
                if k == at {
                    let r = ui.label(
                        egui::RichText::new(line)
                            .strong()
                            .background_color(ui.visuals().selection.bg_fill),
                    );
                    if k > 0 && scroll {
                        r.scroll_to_me(None);
                        ui.data_mut(|d| d.insert_temp(seen, at));
                    }
                } else if k > at {
                    ui.weak(line);
                } else {
                    ui.label(line);
                }
            }
        });
}

/// A decision's options `shown` (indices into its options, in the order shown) as buttons in
/// a scroll area (`wrap`: in rows), the first nine numbered and taken by the keys 1-9 too;
/// the option picked, if one was.
pub fn option_buttons(
    ui: &mut egui::Ui,
    id: &str,
    shown: &[usize],
    wrap: bool,
    text: impl Fn(usize) -> String,
) -> Option<usize> {
    let mut pick = UiCommand::option_pressed(ui).and_then(|n| shown.get(n - 1).copied());
    let mut buttons = |ui: &mut egui::Ui| {
        for (n, &i) in shown.iter().enumerate() {
            let t = if n < 9 {
                format!("{}. {}", n + 1, text(i))
            } else {
                text(i)
            };
            if ui.button(t).clicked() {
                pick = Some(i);
            }
        }
    };
    egui::ScrollArea::vertical().id_salt(id).show(ui, |ui| {
        if wrap {
            ui.horizontal_wrapped(buttons);
        } else {
            buttons(ui);
        }
    });
    pick
}

/// Back and Forward through a stepped match (and the Left and Right arrows): the step to
/// show, if one was asked. `at` is the step shown of `len`; the hovers say "Show the
/// `thing` one `unit` earlier".
pub fn step_buttons(
    ui: &mut egui::Ui,
    at: usize,
    len: usize,
    thing: &str,
    unit: &str,
) -> Option<usize> {
    let back = ui
        .add_enabled(at > 0, egui::Button::new("Back"))
        .on_hover_text(format!(
            "Show the {thing} one {unit} earlier ({})",
            UiCommand::StepBack.shortcut_text(ui.ctx())
        ));
    let fwd = ui
        .add_enabled(at < len, egui::Button::new("Forward"))
        .on_hover_text(format!(
            "Show the {thing} one {unit} later ({})",
            UiCommand::StepForward.shortcut_text(ui.ctx())
        ));
    let (left, right) = (
        UiCommand::StepBack.pressed(ui),
        UiCommand::StepForward.pressed(ui),
    );
    if (back.clicked() || left) && at > 0 {
        Some(at - 1)
    } else if (fwd.clicked() || right) && at < len {
        Some(at + 1)
    } else {
        None
    }
}
