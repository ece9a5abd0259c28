//! `deckwright play GAME FILE...`: one Iconica match (two party files, or four for a team
//! game: the first two are side a's players in seating order, the last two side b's).

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{json, Value};

use super::play_iconoclasm::IconoclasmArgs;
use super::report::{self, Line};
use super::{BadInput, Context, Outcome};
use crate::cards::CardLookup;
use crate::games::iconica::party::PartyFile;
use crate::games::iconica::rules;
use crate::catalogue::{self, Catalogue};
use crate::games::iconica::ai::PolicyKind;
use crate::games::iconica::engine::{Breaks, Event, Rules, Ruleset, ScriptDice, Setup, State, Winner};
use crate::games::iconica::model::Character;
use crate::sim::{self, iconica::Played};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: iconica, arcadia or iconoclasm.
    pub game: String,
    /// Iconica: two party files (four for a team game); Arcadia: one setup file;
    /// Iconoclasm: none (see --players).
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Seed of the dice (and of the deal, and of random and mcts policies).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Scripted dice faces, e.g. "3 5 2 6" (Iconica, Arcadia).
    #[arg(long)]
    pub dice: Option<String>,
    /// Policy of both sides: first, random, greedy or mcts (mcts:N playouts, mcts:Nms).
    #[arg(long)]
    pub policy: Option<String>,
    /// Policy of side a (Iconoclasm: player 1).
    #[arg(long)]
    pub policy_a: Option<String>,
    /// Policy of side b (Iconoclasm: player 2).
    #[arg(long)]
    pub policy_b: Option<String>,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub iconoclasm: IconoclasmArgs,
}

/// The Iconica rule options `play` and `sim` share.
#[derive(Debug, clap::Args)]
pub struct RuleArgs {
    /// Iconica ruleset: v2 or v8.
    #[arg(long, default_value = "v2")]
    pub ruleset: String,
    /// Iconica Action Breaks: standard or advanced (v2 only).
    #[arg(long, default_value = "standard")]
    pub breaks: String,
    /// Iconica house rules, comma-separated: no-reactions,no-strengths,no-final-acts,no-action-breaks.
    #[arg(long, default_value = "")]
    pub house: String,
    /// A match that reaches this many turns ends as a draw.
    #[arg(long, default_value_t = 500)]
    pub turn_limit: u32,
}

impl RuleArgs {
    /// The rules these options ask for.
    pub fn rules(&self) -> Result<Rules, BadInput> {
        rules_from(&self.ruleset, &self.breaks, &self.house, self.turn_limit)
    }

    /// Whether the Iconica-only options (ruleset, breaks, house rules) are left as they are.
    fn iconica_defaults(&self) -> bool {
        self.ruleset == "v2" && self.breaks == "standard" && self.house.is_empty()
    }

    /// Arcadia's one rule option, the turn limit (the Iconica-only ones must be left alone).
    pub fn arcadia_turn_limit(&self) -> Result<u32, BadInput> {
        if !self.iconica_defaults() {
            return Err(BadInput("--ruleset, --breaks and --house are Iconica options; Arcadia has none".into()));
        }
        if self.turn_limit == 0 {
            return Err(BadInput("--turn-limit must be at least 1".into()));
        }
        Ok(self.turn_limit)
    }

    /// Iconoclasm takes none of these options: all must be left alone.
    pub fn none_for_iconoclasm(&self) -> Result<(), BadInput> {
        if !self.iconica_defaults() || self.turn_limit != 500 {
            return Err(BadInput(
                "--ruleset, --breaks, --house and --turn-limit are iconica options; iconoclasm has none".into(),
            ));
        }
        Ok(())
    }
}

/// The rules from the command-line options.
fn rules_from(ruleset: &str, breaks: &str, house: &str, turn_limit: u32) -> Result<Rules, BadInput> {
    let ruleset = match ruleset {
        "v2" => Ruleset::V2,
        "v8" => Ruleset::V8,
        other => return Err(BadInput(format!("--ruleset: unknown ruleset `{other}`; expected v2 or v8"))),
    };
    let breaks = match breaks {
        "standard" => Breaks::Standard,
        "advanced" => Breaks::Advanced,
        other => return Err(BadInput(format!("--breaks: unknown mode `{other}`; expected standard or advanced"))),
    };
    if turn_limit == 0 {
        return Err(BadInput("--turn-limit must be at least 1".into()));
    }
    Rules { ruleset, breaks, turn_limit, ..Rules::default() }.with_house(house).map_err(|e| BadInput(format!("--house: {e}")))
}

/// Parses a policy name for an option.
fn policy_from(option: &str, s: &str) -> Result<PolicyKind, BadInput> {
    PolicyKind::parse(s).ok_or_else(|| {
        BadInput(format!("{option}: unknown policy `{s}`; expected first, random, greedy, mcts, mcts:N or mcts:Nms"))
    })
}

/// One side's policy: its own option when given (named in errors), else the shared one.
fn side_policy(own_option: &str, own: Option<&str>, shared_option: &str, shared: &str) -> Result<PolicyKind, BadInput> {
    match own {
        Some(p) => policy_from(own_option, p),
        None => policy_from(shared_option, shared),
    }
}

/// The policies of `seats` seats in order: the first two seats' own options (name, value)
/// when given, else (and for seats 3 and 4) the shared option (name, value).
pub fn seat_policies(seats: u8, own: [(&str, Option<&str>); 2], shared: (&str, &str)) -> Result<Vec<PolicyKind>, BadInput> {
    (0..usize::from(seats))
        .map(|seat| match own.get(seat) {
            Some(&(option, value)) => side_policy(option, value, shared.0, shared.1),
            None => policy_from(shared.0, shared.1),
        })
        .collect()
}

/// The games `play` and `sim` know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    Iconica,
    Arcadia,
    Iconoclasm,
}

/// The GAME argument of `command` (`play` or `sim`). The Iconoclasm options belong to
/// Iconoclasm only.
pub fn game_of(command: &str, game: &str, iconoclasm: &IconoclasmArgs) -> Result<Game, BadInput> {
    if game != "iconoclasm" && iconoclasm.given() {
        return Err(BadInput(format!(
            "--players and --goal are options of iconoclasm; {game} takes its players from its files"
        )));
    }
    match game {
        "iconica" => Ok(Game::Iconica),
        "arcadia" => Ok(Game::Arcadia),
        "iconoclasm" => Ok(Game::Iconoclasm),
        other => Err(BadInput(format!(
            "{command}: unknown or unsupported game `{other}`; try `iconica`, `arcadia` or `iconoclasm`"
        ))),
    }
}

impl Args {
    /// The policies of `seats` seats: `--policy-a`, `--policy-b`, else `--policy` (`first`).
    pub fn policies(&self, seats: u8) -> Result<Vec<PolicyKind>, BadInput> {
        let own = [("--policy-a", self.policy_a.as_deref()), ("--policy-b", self.policy_b.as_deref())];
        seat_policies(seats, own, ("--policy", self.policy.as_deref().unwrap_or("first")))
    }

    /// The scripted dice of `--dice`, if given.
    pub fn script_dice(&self) -> Result<Option<ScriptDice>, BadInput> {
        self.dice.as_deref().map(|d| ScriptDice::parse(d).map_err(|e| BadInput(format!("--dice: {e}")))).transpose()
    }
}

pub use crate::sim::derive_seed;

/// Opens the catalogue of the context.
pub fn open_catalogue(ctx: &Context) -> Result<Catalogue, BadInput> {
    let path = ctx.db.clone().unwrap_or_else(catalogue::default_path);
    Catalogue::open(&path).map_err(|e| BadInput(format!("catalogue {}: {e}", path.display())))
}

/// Reads the party files, resolves their members and checks the construction rules of
/// `spec/iconica.md` for the match, `shared-legend-special` included (bad input naming the
/// rule on a violation).
pub fn load_parties(lookup: &dyn CardLookup, files: &[PathBuf]) -> Result<Vec<Vec<Character>>, BadInput> {
    let mut parsed: Vec<PartyFile> = Vec::new();
    for f in files {
        let shown = f.display().to_string();
        let text = std::fs::read_to_string(f).map_err(|e| BadInput(format!("{shown}: {e}")))?;
        parsed.push(PartyFile::parse(&text, &shown)?);
    }
    let refs: Vec<&PartyFile> = parsed.iter().collect();
    let reports = rules::check_match(&refs, lookup);
    let mut parties = Vec::new();
    for (f, report) in files.iter().zip(reports) {
        if let Some(v) = report.violations.first() {
            return Err(BadInput(format!(
                "{}: illegal party: {}: {}{}",
                f.display(),
                v.rule,
                v.message,
                if report.violations.len() > 1 {
                    format!(" (and {} more; run `deckwright validate`)", report.violations.len() - 1)
                } else {
                    String::new()
                }
            )));
        }
        parties.push(report.members);
    }
    Ok(parties)
}

/// Builds the match-up from 2 or 4 parties.
pub fn setup_from(parties: &[Vec<Character>], rules: Rules) -> Result<Setup, BadInput> {
    let r = match parties.len() {
        2 => Setup::duel(&parties[0], &parties[1], rules),
        4 => Setup::teams(&[&parties[0], &parties[1]], &[&parties[2], &parties[3]], rules),
        n => return Err(BadInput(format!("iconica needs two party files (or four for a team game), got {n}"))),
    };
    r.map_err(|e| BadInput(e.to_string()))
}

/// The `sides` object of the JSON: every member in party order.
pub fn sides_json(setup: &Setup, st: &State) -> Value {
    let [a, b] = sim::iconica::sides(setup, st).map(|side| {
        side.into_iter()
            .map(|m| json!({"id": m.id, "health": m.health, "skulled": m.skulled, "statuses": m.statuses}))
            .collect::<Vec<_>>()
    });
    json!({"a": a, "b": b})
}

pub fn winner_json(st: &State) -> Value {
    match st.ended.and_then(|e| e.1) {
        Some(Winner::Side(0)) => json!("a"),
        Some(Winner::Side(_)) => json!("b"),
        Some(Winner::Draw) => json!("draw"),
        None => Value::Null,
    }
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    match game_of("play", &args.game, &args.iconoclasm)? {
        Game::Arcadia => return super::play_arcadia::run(ctx, args),
        Game::Iconoclasm => return super::play_iconoclasm::run(ctx, &args),
        Game::Iconica => {}
    }
    let rules = args.rules.rules()?;
    let policies = args.policies(2)?;
    let script = args.script_dice()?;
    if args.files.len() != 2 && args.files.len() != 4 {
        return Err(BadInput(format!(
            "iconica needs two party files (or four for a team game), got {}",
            args.files.len()
        )));
    }
    let cat = open_catalogue(ctx)?;
    let parties = load_parties(&cat, &args.files)?;
    let setup = setup_from(&parties, rules)?;

    let (pa, pb) = (policies[0], policies[1]);
    let Played { state: st, log } = match script {
        Some(dice) => sim::iconica::play_logged(&setup, pa, pb, args.seed, dice),
        None => sim::iconica::play_logged(&setup, pa, pb, args.seed, sim::iconica::seeded_dice(args.seed)),
    };
    let (ended, _) = st.ended.unwrap_or((crate::games::iconica::engine::Ended::DiceExhausted, None));

    if args.json {
        let log = log.iter().map(|e| e.to_json(&setup)).collect();
        report::print_match_json("iconica", winner_json(&st), ended, st.turn, st.dice_used, sides_json(&setup, &st), log)?;
    } else {
        use std::fmt::Write as _;
        let mut out = String::new();
        let line = |e: &Event| if matches!(e, Event::Turn { .. }) { Line::Heading } else { Line::Item };
        report::log_text(&mut out, log.iter().map(|e| (line(e), e.text(&setup))));
        let _ = writeln!(out);
        for side in 0..2u8 {
            let _ = writeln!(out, "Side {}:", if side == 0 { "a" } else { "b" });
            for (i, c) in setup.chars.iter().enumerate().filter(|(i, _)| setup.side[*i] == side) {
                let statuses: Vec<&str> = st.statuses(i).map(|s| s.name()).collect();
                if st.is_alive(i) {
                    let _ = writeln!(out, "  {:<24} {:>4}/{:<4} {}", c.name, st.hp[i], c.start, statuses.join(", "));
                } else {
                    let _ = writeln!(out, "  {:<24} Skulled", c.name);
                }
            }
        }
        let end = log.last().map(|e| e.text(&setup)).unwrap_or_default();
        let _ = writeln!(out, "{end}; {} turns, {} dice", st.turn, st.dice_used);
        report::print(&out);
    }
    Ok(ExitCode::SUCCESS)
}
