//! The card editor's Balance panel for an Arcadia merit or flaw: Measure runs, on a
//! background job with progress and Stop, the card's verdict against the designer's own
//! field (the setup open on the Setup screen with its characters, the Character screen's
//! character and the saved ones, each in each seat of the setups) and against the bundled
//! example setups, each decided by the sequential test; the impact of each of its parts
//! (each effect, an ally's Combat) as bars with whiskers; and, for a card that is not fair,
//! the cost change confirmed fair, with a button that applies it as one undo step. The
//! measuring is the core's (`crate::balance::arcadia_parts`); an edit of the card clears
//! the figures and stops the run.

use crate::app::Env;
use crate::app::docs::TomlDoc;
use crate::app::files;
use crate::app::matches::job::{Job, Poll, Progress};
use crate::balance::arcadia::{self as arc, FieldSetup, Subject};
use crate::balance::arcadia_parts::{self as parts, CostChange, Decided, PartImpact};
use crate::balance::sprt::Verdict;
use crate::balance::{BalanceError, Runner, Stopping};
use crate::cards::Card;
use crate::catalogue::saved::DocKind;
use crate::games::ai::Policy;
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::model::ArcadiaCard;
use crate::games::arcadia::setup::SetupFile;

/// The most saved characters put in the designer's field (each is played in each seat of
/// each setup: the work grows with them).
const MOST_SAVED: usize = 6;

/// The most cost steps tried for a suggestion.
const STEPS: i32 = 3;

/// One field's verdict.
#[derive(Debug, Clone)]
pub struct FieldVerdict {
    /// "your setup and characters" or "the bundled example setups".
    pub field: String,
    /// Its places (a setup and a seat each).
    pub places: usize,
    pub decided: Result<Decided, String>,
}

/// Everything measured for one version of the card.
#[derive(Debug, Clone)]
pub struct Figures {
    pub verdicts: Vec<FieldVerdict>,
    /// The verdict suggestions start from (over both fields together).
    pub overall: Option<Verdict>,
    pub impact: Result<Vec<PartImpact>, String>,
    pub suggestions: Result<Vec<CostChange>, String>,
}

/// What a run measures over: the catalogue's cards (the edited card in place) and the
/// designer's setup and characters.
struct Inputs {
    cards: Vec<Card>,
    setup: Option<(SetupFile, [CharacterFile; 2])>,
    characters: Vec<CharacterFile>,
}

/// The panel's state.
pub struct ArcadiaBalance {
    /// The AI of both sides (`greedy`).
    pub ai: Policy,
    /// The most pairs a verdict plays.
    pub max_pairs: u64,
    /// When an impact run stops.
    pub stopping: Stopping,
    /// The card measured (or being measured).
    card: Option<Subject>,
    job: Option<Job<Result<Figures, String>>>,
    figures: Option<Result<Figures, String>>,
}

impl Default for ArcadiaBalance {
    fn default() -> Self {
        ArcadiaBalance {
            ai: Policy::Greedy,
            max_pairs: 4_000,
            stopping: Stopping {
                precision: 0.03,
                max_games: 4_000,
            },
            card: None,
            job: None,
            figures: None,
        }
    }
}

/// The merit or flaw `card` is, if it is one.
pub fn subject_of(card: Option<&Card>) -> Option<Subject> {
    match card {
        Some(Card::Arcadia(ArcadiaCard::Merit(m))) => Some(Subject::Merit(m.clone())),
        Some(Card::Arcadia(ArcadiaCard::Flaw(f))) => Some(Subject::Flaw(f.clone())),
        _ => None,
    }
}

impl ArcadiaBalance {
    /// Is a run in flight?
    pub fn running(&self) -> bool {
        self.job.is_some()
    }

    /// Stops the run in flight, if any.
    pub fn cancel(&mut self) {
        if let Some(job) = self.job.take() {
            job.cancel();
        }
    }

    /// What the designer has open and saved: the setup with its saved characters, the
    /// Character screen's character and up to [`MOST_SAVED`] saved ones.
    fn inputs(env: &Env, subject: &Subject) -> Result<Inputs, String> {
        let all = env.cat.all().map_err(|e| format!("catalogue: {e}"))?;
        let cards: Vec<Card> = parts::index_with(&all, subject).cards().to_vec();
        let saved = |entry: &str| {
            files::saved_character(env.cat, entry)
                .and_then(|t| <CharacterFile as TomlDoc>::from_toml(&t).ok())
        };
        let setup = &env.docs.setup;
        let setup = (setup.players.len() == 2)
            .then(|| {
                let chars: Option<Vec<CharacterFile>> =
                    setup.players.iter().map(|p| saved(&p.character)).collect();
                let chars: [CharacterFile; 2] = chars?.try_into().ok()?;
                Some((setup.clone(), chars))
            })
            .flatten();
        let mut characters = Vec::new();
        if env.docs.character.icon.is_some() {
            characters.push(env.docs.character.clone());
        }
        for name in env
            .cat
            .list_docs(DocKind::Character)
            .unwrap_or_default()
            .into_iter()
            .take(MOST_SAVED)
        {
            if let Ok(Some(text)) = env.cat.load_doc(DocKind::Character, &name)
                && let Ok(c) = <CharacterFile as TomlDoc>::from_toml(&text)
                && !characters.contains(&c)
            {
                characters.push(c);
            }
        }
        Ok(Inputs {
            cards,
            setup,
            characters,
        })
    }

    /// Starts measuring `subject` on a background job.
    fn start(&mut self, ctx: &egui::Context, env: &Env, subject: Subject) {
        self.cancel();
        self.figures = None;
        self.card = Some(subject.clone());
        let inputs = match Self::inputs(env, &subject) {
            Ok(i) => i,
            Err(e) => {
                self.figures = Some(Err(e));
                return;
            }
        };
        let how = (self.ai, self.max_pairs, self.stopping);
        let stages = 4 + parts::parts(&subject).len() as u64 + STEPS as u64;
        match Job::spawn(ctx, "arcadia-balance", stages, move |p| {
            measure(&inputs, &subject, how, p)
        }) {
            Ok(j) => self.job = Some(j),
            Err(e) => self.figures = Some(Err(e)),
        }
    }

    fn poll(&mut self) {
        let Some(job) = &self.job else { return };
        match job.poll() {
            Poll::Running => {}
            Poll::Finished(r) => {
                self.job = None;
                self.figures = Some(r);
            }
            Poll::Lost => {
                self.job = None;
                self.figures = Some(Err("the measurement stopped unexpectedly".into()));
            }
        }
    }

    /// Draws the panel for the edited card (`None`: not a valid Arcadia merit or flaw);
    /// returns a cost change the user chose to apply: its label and the card's TOML.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        env: &Env,
        card: Option<&Card>,
    ) -> Option<(String, String)> {
        ui.heading("Balance");
        let Some(subject) = subject_of(card) else {
            self.cancel();
            ui.weak("Balance is measured for a valid Arcadia merit or flaw.");
            return None;
        };
        if self.card.as_ref() != Some(&subject) {
            // An edit: what was measured is of another card.
            self.cancel();
            self.figures = None;
            self.card = None;
        }
        self.poll();
        ui.label(format!(
            "{} against what its points buy otherwise, over your setup and characters and the bundled example setups; {} on both sides.",
            subject.name(),
            self.ai.name()
        ));
        if let Some(job) = &self.job {
            ui.horizontal(|ui| {
                ui.add(
                    egui::ProgressBar::new(job.fraction())
                        .desired_width(160.0)
                        .text(format!("{} of {} stages", job.done(), job.total())),
                );
                if ui.button("Stop").clicked() {
                    job.cancel();
                }
            });
            if job.cancelled() {
                ui.weak("Stopping…");
            }
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(200));
        } else if ui
            .button("Measure balance")
            .on_hover_text(
                "Play the card against your field and the bundled one (a background job)",
            )
            .clicked()
        {
            self.start(ui.ctx(), env, subject.clone());
        }
        let ai = self.ai.name();
        match &self.figures {
            None if self.job.is_none() => {
                ui.weak("Not measured yet.");
                None
            }
            None => None,
            Some(Err(e)) => {
                ui.colored_label(ui.visuals().warn_fg_color, format!("Not measured: {e}"));
                None
            }
            Some(Ok(f)) => figures_ui(ui, f, &subject, &ai),
        }
    }
}

/// The whole measurement, stage by stage.
fn measure(
    inputs: &Inputs,
    subject: &Subject,
    (ai, max_pairs, stopping): (Policy, u64, Stopping),
    p: &Progress,
) -> Result<Figures, String> {
    let words = |e: BalanceError| e.to_string();
    let runner = Runner::new(None, stopping, p.stop_flag()).map_err(words)?;
    let index = crate::games::build::CardIndex::new(inputs.cards.clone());
    let shop = arc::shop(index.cards());
    let settings = arc::Settings {
        ai,
        seed: 1,
        turn_limit: 500,
    };
    let test = parts::test(max_pairs);
    let bundled = arc::example_field(&index);
    let setup = inputs.setup.as_ref().map(|(s, c)| (s, c));
    let yours = parts::designer_field(setup, &inputs.characters, &bundled, &index);
    let verdict = |field: &[FieldSetup]| -> Result<(usize, Decided), BalanceError> {
        let places = arc::places(field, subject, &shop, &index, settings.turn_limit)?;
        let d = parts::decide(&places, subject, &settings, &runner, test, parts::LOOK)?;
        Ok((places.len(), d))
    };
    let stopped = |e: &BalanceError| matches!(e, BalanceError::Stopped);
    let mut verdicts = Vec::new();
    for (name, field) in [
        ("your setup and characters", &yours),
        ("the bundled example setups", &bundled),
    ] {
        if field.is_empty() {
            verdicts.push(FieldVerdict {
                field: name.into(),
                places: 0,
                decided: Err(if name.starts_with("your") {
                    "no legal setup of yours to play in: open a legal setup on the Setup screen, or a legal character on the Character screen".into()
                } else {
                    "no legal example setup".into()
                }),
            });
        } else {
            match verdict(field) {
                Ok((n, d)) => verdicts.push(FieldVerdict {
                    field: name.into(),
                    places: n,
                    decided: Ok(d),
                }),
                Err(e) if stopped(&e) => return Err("stopped".into()),
                Err(e) => verdicts.push(FieldVerdict {
                    field: name.into(),
                    places: 0,
                    decided: Err(e.to_string()),
                }),
            }
        }
        p.add(1);
    }
    // Both fields together: the impact, and the suggestions from its verdict.
    let mut both = yours.clone();
    both.extend(bundled.iter().cloned());
    let overall = if yours.is_empty() {
        verdicts
            .get(1)
            .and_then(|v| v.decided.as_ref().ok().map(Decided::verdict))
    } else {
        match verdict(&both) {
            Ok((_, d)) => Some(d.verdict()),
            Err(e) if stopped(&e) => return Err("stopped".into()),
            Err(_) => None,
        }
    };
    p.add(1);
    let impact = match parts::impact(
        &both,
        subject,
        &inputs.cards,
        settings,
        &runner,
        &mut || p.add(1),
    ) {
        Err(e) if stopped(&e) => return Err("stopped".into()),
        r => r.map_err(words),
    };
    p.add(1);
    let suggestions = match overall {
        Some(v @ (Verdict::TooStrong | Verdict::TooWeak)) => {
            match parts::suggest_cost(
                &both,
                subject,
                &inputs.cards,
                v,
                settings,
                &runner,
                test,
                parts::LOOK,
                STEPS,
                &mut || p.add(1),
            ) {
                Err(e) if stopped(&e) => return Err("stopped".into()),
                r => r.map_err(words),
            }
        }
        _ => Ok(Vec::new()),
    };
    Ok(Figures {
        verdicts,
        overall,
        impact,
        suggestions,
    })
}

/// A verdict in words.
fn verdict_words(v: Verdict) -> &'static str {
    match v {
        Verdict::Fair => "fair",
        Verdict::TooStrong => "too strong",
        Verdict::TooWeak => "too weak",
        Verdict::NotDecided => "not decided",
    }
}

/// A change in points of win rate with its interval.
fn change_words(d: &crate::balance::Delta) -> String {
    format!(
        "{:+.1} pts ({:+.1} to {:+.1})",
        d.delta * 100.0,
        d.ci95.0 * 100.0,
        d.ci95.1 * 100.0
    )
}

fn figures_ui(
    ui: &mut egui::Ui,
    f: &Figures,
    subject: &Subject,
    ai: &str,
) -> Option<(String, String)> {
    for v in &f.verdicts {
        match &v.decided {
            Ok(d) => {
                ui.label(format!(
                    "Against {} ({} places): {}, change {}, {} after {} pairs of games, {ai}",
                    v.field,
                    v.places,
                    verdict_words(d.verdict()),
                    change_words(&d.delta),
                    if d.test.decided() {
                        "decided"
                    } else {
                        "not decided"
                    },
                    d.test.pairs
                ));
            }
            Err(e) => {
                ui.weak(format!("Against {}: not measured: {e}", v.field));
            }
        }
    }
    match &f.impact {
        Ok(impact) if impact.is_empty() => {
            ui.weak("Impact: the card has no effect or Combat to take away.");
        }
        Ok(impact) => {
            ui.label(format!(
                "Impact of each part when removed (points, paired, {ai}):"
            ));
            super::balance_panel::impact_plot(
                ui,
                "arcadia-balance-impact",
                120.0,
                impact.iter().map(|i| (i.part.as_str(), &i.delta)),
            );
            for (k, i) in impact.iter().enumerate() {
                ui.small(format!("{}: {} {}", k + 1, i.part, change_words(&i.delta)));
            }
        }
        Err(e) => {
            ui.weak(format!("Impact: not measured: {e}"));
        }
    }
    let what = match subject {
        Subject::Merit(_) => "cost",
        Subject::Flaw(_) => "points",
    };
    let mut chosen = None;
    match (&f.overall, &f.suggestions) {
        (_, Err(e)) => {
            ui.weak(format!("Suggestions: not measured: {e}"));
        }
        (Some(Verdict::Fair), _) => {
            ui.weak(format!(
                "Fair over both fields: no {what} change suggested."
            ));
        }
        (Some(Verdict::NotDecided) | None, _) => {
            ui.weak(format!(
                "Not decided over both fields: no {what} change suggested."
            ));
        }
        (Some(_), Ok(s)) => {
            for c in s {
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!(
                        "{}: {}, change {}{}",
                        c.change,
                        verdict_words(c.decided.verdict()),
                        change_words(&c.decided.delta),
                        if c.confirmed() { " (confirmed)" } else { "" }
                    ));
                    if c.confirmed() && ui.button("Apply").clicked() {
                        let card = match &c.card {
                            Subject::Merit(m) => ArcadiaCard::Merit(m.clone()),
                            Subject::Flaw(fl) => ArcadiaCard::Flaw(fl.clone()),
                        };
                        chosen = Some((
                            format!("Balance: {}", c.change),
                            crate::games::arcadia::edit::write(&card),
                        ));
                    }
                });
            }
            if !s.iter().any(CostChange::confirmed) {
                ui.weak(format!(
                    "No {what} within {STEPS} steps was confirmed fair."
                ));
            }
        }
    }
    chosen
}
