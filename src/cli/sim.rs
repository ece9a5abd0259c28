//! `deckwright sim GAME FILE...`: many AI-vs-AI Iconica matches in parallel, or with
//! `--field` every legal party of a character pool against one party.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use super::play::{game_of, load_parties, open_catalogue, seat_policies, setup_from, Game, RuleArgs};
use super::play_iconoclasm::IconoclasmArgs;
use super::{BadInput, Context, Outcome};
use crate::cards::{Card, CardLookup};
use crate::games::iconica::ai::PolicyKind;
use crate::games::iconica::model::Character;
use crate::games::iconica::party::PartyFile;
use crate::games::iconica::rules;
use crate::sim::{self, iconica::ENDINGS, Summary};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: iconica, arcadia or iconoclasm.
    pub game: String,
    /// Iconica: two party files (a, b), or with --field the one party the field plays
    /// against; Arcadia: one setup file; Iconoclasm: none (see --players).
    pub files: Vec<PathBuf>,
    /// Matches to play (with --field: per party of the field).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Seed of the whole run: each game's seed derives from it and the game's index.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// AI policy of both sides: random, greedy, mcts, mcts:N (playouts), mcts:Nms, first.
    #[arg(long, default_value = "greedy")]
    pub ai: String,
    /// Policy of side a only (overrides --ai).
    #[arg(long)]
    pub ai_a: Option<String>,
    /// Policy of side b only (overrides --ai).
    #[arg(long)]
    pub ai_b: Option<String>,
    #[arg(long)]
    pub threads: Option<usize>,
    /// Every legal party of the catalogue's Iconica characters (or of --pool) against FILE.
    #[arg(long)]
    pub field: bool,
    /// With --field: the characters to draw parties from (ids, comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub pool: Vec<String>,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub iconoclasm: IconoclasmArgs,
}

pub(super) fn bar(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(total);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games ({per_sec}, eta {eta})") {
        pb.set_style(style);
    }
    pb
}

pub(super) fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

impl Args {
    /// `--games` and `--threads` are at least 1.
    pub fn check_counts(&self) -> Result<(), BadInput> {
        if self.games == 0 {
            return Err(BadInput("--games must be at least 1".into()));
        }
        if self.threads == Some(0) {
            return Err(BadInput("--threads must be at least 1".into()));
        }
        Ok(())
    }

    /// The policies of `seats` seats: `--ai-a`, `--ai-b`, else `--ai`.
    pub fn policies(&self, seats: u8) -> Result<Vec<PolicyKind>, BadInput> {
        let own = [("--ai-a", self.ai_a.as_deref()), ("--ai-b", self.ai_b.as_deref())];
        seat_policies(seats, own, ("--ai", &self.ai))
    }
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    match game_of("sim", &args.game, &args.iconoclasm)? {
        Game::Arcadia => return super::sim_arcadia::run(ctx, args),
        Game::Iconoclasm => return super::sim_iconoclasm::run(ctx, &args),
        Game::Iconica => {}
    }
    args.check_counts()?;
    let rules = args.rules.rules()?;
    let policies = args.policies(2)?;
    let (pa, pb) = (policies[0], policies[1]);
    let cat = open_catalogue(ctx)?;
    if args.field {
        return field(&cat, &args, rules, pa, pb);
    }
    if args.files.len() != 2 {
        return Err(BadInput(format!("sim iconica needs two party files (a and b), got {}", args.files.len())));
    }
    let parties = load_parties(&cat, &args.files)?;
    let setup = setup_from(&parties, rules)?;
    two_sided("iconica", "turns", &args, [pa.name(), pb.name()], |i| {
        sim::iconica::play_one(&setup, pa, pb, args.seed, i)
    })
}

/// Plays `args.games` matches of a two-sided game (`play_one` plays game `i`) on the
/// thread pool with a progress bar, and prints the summary as text or JSON. `turns` names
/// what a match counts (turns, Days).
pub(super) fn two_sided<F>(game: &str, turns: &str, args: &Args, names: [String; 2], play_one: F) -> Outcome
where
    F: Fn(u64) -> sim::MatchResult + Sync,
{
    let pbar = bar(args.games);
    let started = Instant::now();
    let s = sim::run(args.games, args.threads, play_one, |n| pbar.inc(n))
        .map_err(|e| BadInput(format!("--threads: {e}")))?;
    pbar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let gps = s.games as f64 / secs;
    let (lo, hi) = s.ci95_a();
    let [na, nb] = names;
    if args.json {
        let doc = json!({
            "game": game,
            "games": s.games,
            "seed": args.seed,
            "ai": {"a": na, "b": nb},
            "wins": {"a": s.wins[0], "b": s.wins[1], "draw": s.wins[2]},
            "win_rate_a": s.win_rate_a(),
            "ci95_a": [lo, hi],
            "mean_turns": s.mean_turns(),
            "games_per_sec": gps,
            "ended": ended_json(&s),
        });
        println!("{doc}");
    } else {
        println!("{game}: {} games, seed {}, {na} (a) vs {nb} (b)", s.games, args.seed);
        println!("  a wins {:>7}  {} (95% CI {} to {})", s.wins[0], pct(s.win_rate_a()), pct(lo), pct(hi));
        println!("  b wins {:>7}", s.wins[1]);
        println!("  draws  {:>7}", s.wins[2]);
        println!("  mean {turns} {:.1}; {:.0} games/s", s.mean_turns(), gps);
        let ends: Vec<String> = ENDINGS.iter().zip(s.ended).map(|(n, c)| format!("{n} {c}")).collect();
        println!("  ended: {}", ends.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn ended_json(s: &Summary) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (n, c) in ENDINGS.iter().zip(s.ended) {
        m.insert(n.to_string(), json!(c));
    }
    serde_json::Value::Object(m)
}

/// Whether a party of the pool may face `opponent`: every construction rule of the match
/// (`rules::check_match`), `shared-legend-special` included.
pub fn legal_against(p: &[&Character], opponent: &[Character]) -> bool {
    let cards: Vec<Card> = p.iter().map(|c| Card::Iconica((*c).clone())).chain(opponent.iter().map(|c| Card::Iconica(c.clone()))).collect();
    let ids: Vec<&str> = p.iter().map(|c| c.id.as_str()).collect();
    let opp: Vec<&str> = opponent.iter().map(|c| c.id.as_str()).collect();
    let (mine, theirs) = (PartyFile::new("field", &ids), PartyFile::new("opponent", &opp));
    rules::check_match(&[&theirs, &mine], &cards).iter().all(|r| r.is_legal())
}

fn field(cat: &dyn CardLookupAll, args: &Args, rules: crate::games::iconica::engine::Rules, pa: PolicyKind, pb: PolicyKind) -> Outcome {
    if args.files.len() != 1 {
        return Err(BadInput("sim --field takes exactly one party file (the party the field plays)".into()));
    }
    let opponent = load_parties(cat.lookup(), &args.files)?.remove(0);
    let pool: Vec<Character> = if args.pool.is_empty() {
        cat.iconica()?
    } else {
        let mut v = Vec::new();
        for id in &args.pool {
            match cat.lookup().card(id).map(|c| c.into_owned()) {
                Some(Card::Iconica(c)) => v.push(c),
                _ => return Err(BadInput(format!("--pool: `{id}` is not an Iconica character in the catalogue"))),
            }
        }
        v
    };
    let mut parties: Vec<[usize; 3]> = Vec::new();
    for i in 0..pool.len() {
        for j in i + 1..pool.len() {
            for k in j + 1..pool.len() {
                let p = [&pool[i], &pool[j], &pool[k]];
                if legal_against(&p, &opponent) {
                    parties.push([i, j, k]);
                }
            }
        }
    }
    if parties.is_empty() {
        return Err(BadInput("--field: no legal party can be formed from the pool".into()));
    }
    let pbar = bar(args.games * parties.len() as u64);
    let started = Instant::now();
    let mut results: Vec<Summary> = Vec::with_capacity(parties.len());
    for (pi, p) in parties.iter().enumerate() {
        let members: Vec<Character> = p.iter().map(|&i| pool[i].clone()).collect();
        let setup = setup_from(&[members, opponent.clone()], rules)?;
        let seed = sim::game_seed(args.seed, 1 << 40 | pi as u64);
        let s = sim::run(args.games, args.threads, |i| sim::iconica::play_one(&setup, pa, pb, seed, i), |n| pbar.inc(n))
            .map_err(|e| BadInput(format!("--threads: {e}")))?;
        results.push(s);
    }
    pbar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    // Per character: every game of every party it is in.
    let mut per: Vec<(usize, Summary, usize)> = (0..pool.len()).map(|i| (i, Summary::default(), 0)).collect();
    for (p, s) in parties.iter().zip(&results) {
        for &i in p {
            per[i].1 = per[i].1.merge(*s);
            per[i].2 += 1;
        }
    }
    per.retain(|x| x.2 > 0);
    per.sort_by(|x, y| y.1.win_rate_a().total_cmp(&x.1.win_rate_a()).then(x.0.cmp(&y.0)));
    if args.json {
        let chars: Vec<_> = per
            .iter()
            .map(|(i, s, n)| {
                let (lo, hi) = s.ci95_a();
                json!({"id": pool[*i].id, "name": pool[*i].name, "parties": n, "games": s.games,
                       "wins": s.wins[0], "win_rate": s.win_rate_a(), "ci95": [lo, hi]})
            })
            .collect();
        let ps: Vec<_> = parties
            .iter()
            .zip(&results)
            .map(|(p, s)| {
                let (lo, hi) = s.ci95_a();
                json!({"members": p.iter().map(|&i| pool[i].id.clone()).collect::<Vec<_>>(),
                       "games": s.games, "wins": s.wins[0], "win_rate": s.win_rate_a(), "ci95": [lo, hi]})
            })
            .collect();
        let doc = json!({
            "game": "iconica", "field": true, "seed": args.seed, "games_per_party": args.games,
            "ai": {"field": pa.name(), "opponent": pb.name()},
            "opponent": opponent.iter().map(|c| c.id.clone()).collect::<Vec<_>>(),
            "characters": chars, "parties": ps,
            "games_per_sec": (args.games * parties.len() as u64) as f64 / secs,
        });
        println!("{doc}");
    } else {
        println!(
            "iconica field: {} legal parties x {} games against {}; {} (field) vs {}",
            parties.len(),
            args.games,
            opponent.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", "),
            pa.name(),
            pb.name()
        );
        println!("{:<28} {:>7} {:>9} {:>8}  95% CI", "character", "parties", "games", "win rate");
        for (i, s, n) in &per {
            let (lo, hi) = s.ci95_a();
            println!("{:<28} {:>7} {:>9} {:>8}  {} to {}", pool[*i].name, n, s.games, pct(s.win_rate_a()), pct(lo), pct(hi));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The catalogue as the field needs it: lookups and the list of Iconica characters.
trait CardLookupAll {
    fn lookup(&self) -> &dyn CardLookup;
    fn iconica(&self) -> Result<Vec<Character>, BadInput>;
}

impl CardLookupAll for crate::catalogue::Catalogue {
    fn lookup(&self) -> &dyn CardLookup {
        self
    }
    fn iconica(&self) -> Result<Vec<Character>, BadInput> {
        Ok(self
            .all()
            .map_err(|e| BadInput(format!("catalogue: {e}")))?
            .into_iter()
            .filter_map(|c| match c {
                Card::Iconica(ch) => Some(ch),
                _ => None,
            })
            .collect())
    }
}
