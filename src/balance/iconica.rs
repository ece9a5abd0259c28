//! Iconica balance: a character's field win rate, its rank, its matchups, the impact of each
//! of its parts (paired ablations) and the smallest fixes (paired, confirmed).
//!
//! The field: the card's side plays every legal party containing the card, the other side
//! every legal party of the pool not containing it (or the parties given), each pairing
//! legal for one match (no Legend or Special character on both sides). Game `i` of a run
//! seeded `seed` draws its pairing from `game_seed(seed, i)` and seats the card's party
//! first on even `i`, second on odd `i`; both sides are played by the same policy. A version
//! of the card (an ablation, a suggestion) plays the same pairings with the same seeds.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::cards::Card;
use crate::games::ai::Policy;
use crate::games::dice::{RngDice, derive_seed, game_seed};
use crate::games::game::Verdict;
use crate::games::iconica::engine::{IconicaGame, Rules, Setup};
use crate::games::iconica::model::{Character, Effect, Nullifier};
use crate::games::iconica::party::PartyFile;
use crate::games::iconica::rules;
use crate::sim::play_seeded;

use super::{BalanceError, Delta, Rate, Runner, Stopping};

/// The band a fair card's field win rate lies in.
pub const FAIR: (f64, f64) = (0.45, 0.55);

pub use crate::games::iconica::rules::legal_against;

/// Every legal party of three of `pool` (by index, ascending), under `rules::check_party`.
pub fn legal_parties(pool: &[Character]) -> Vec<[usize; 3]> {
    let cards: Vec<Card> = pool.iter().map(|c| Card::Iconica(c.clone())).collect();
    let mut out = Vec::new();
    for i in 0..pool.len() {
        for j in i + 1..pool.len() {
            for k in j + 1..pool.len() {
                let ids = [&pool[i].id, &pool[j].id, &pool[k].id].map(String::as_str);
                if rules::check_party(&PartyFile::new("field", &ids), &cards).is_legal() {
                    out.push([i, j, k]);
                }
            }
        }
    }
    out
}

/// The ids of a party's Legend and Special characters (two parties sharing one may not
/// meet: `shared-legend-special`).
fn legends<'c>(p: impl IntoIterator<Item = &'c Character>) -> Vec<&'c str> {
    p.into_iter()
        .filter(|c| c.rarity.is_legend_or_special())
        .map(|c| c.id.as_str())
        .collect()
}

/// What the card is measured against and how.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    pub rules: Rules,
    pub ai: Policy,
    pub seed: u64,
}

/// One character's field: its parties, the opposing ones, and the legal pairings.
#[derive(Debug, Clone)]
pub struct Field {
    /// The pool the parties are drawn from; `pool[subject]` is the measured character.
    pub pool: Vec<Character>,
    pub subject: usize,
    /// Legal parties containing the subject (pool indices).
    pub mine: Vec<[usize; 3]>,
    /// The opposing parties (shared with every match compiled from them).
    pub theirs: Vec<Vec<Arc<Character>>>,
    /// `pool`, shared with every match compiled from it (no card copied per game).
    shared: Vec<Arc<Character>>,
    /// Whether the opposing parties were given (else: generated from the pool).
    pub given: bool,
    /// Legal (mine, theirs) pairings.
    pairs: Vec<(u32, u32)>,
}

impl Field {
    /// The field of `pool[subject]`: parties of the pool with it against `opponents` (or,
    /// when `None`, every legal party of the pool without it). `parties` are the pool's
    /// legal parties ([`legal_parties`]).
    pub fn new(
        pool: &[Character],
        parties: &[[usize; 3]],
        subject: usize,
        opponents: Option<&[Vec<Character>]>,
    ) -> Result<Field, BalanceError> {
        let name = &pool[subject].name;
        let mine: Vec<[usize; 3]> = parties
            .iter()
            .filter(|p| p.contains(&subject))
            .copied()
            .collect();
        if mine.is_empty() {
            return Err(BalanceError::Field(format!(
                "no legal party of the catalogue's characters contains {name}"
            )));
        }
        let shared: Vec<Arc<Character>> = pool.iter().map(|c| Arc::new(c.clone())).collect();
        let theirs: Vec<Vec<Arc<Character>>> = match opponents {
            Some(o) => o
                .iter()
                .map(|p| p.iter().map(|c| Arc::new(c.clone())).collect())
                .collect(),
            None => parties
                .iter()
                .filter(|p| !p.contains(&subject))
                .map(|p| p.iter().map(|&i| Arc::clone(&shared[i])).collect())
                .collect(),
        };
        let mine_l: Vec<Vec<&str>> = mine
            .iter()
            .map(|p| legends(p.iter().map(|&i| &pool[i])))
            .collect();
        let theirs_l: Vec<Vec<&str>> = theirs
            .iter()
            .map(|p| legends(p.iter().map(|c| &**c)))
            .collect();
        let mut pairs = Vec::new();
        for (m, ml) in mine_l.iter().enumerate() {
            for (t, tl) in theirs_l.iter().enumerate() {
                if !ml.iter().any(|id| tl.contains(id)) {
                    pairs.push((m as u32, t as u32));
                }
            }
        }
        if pairs.is_empty() {
            return Err(BalanceError::Field(format!(
                "no legal party containing {name} may face the field"
            )));
        }
        Ok(Field {
            pool: pool.to_vec(),
            subject,
            mine,
            theirs,
            shared,
            given: opponents.is_some(),
            pairs,
        })
    }

    /// The measured character as the matches share it (`pool[subject]`).
    pub fn subject_card(&self) -> &Arc<Character> {
        &self.shared[self.subject]
    }

    /// The number of legal pairings.
    pub fn pairings(&self) -> usize {
        self.pairs.len()
    }

    /// The (mine, theirs) pairing of game `index` of a run seeded `seed`.
    pub fn pairing(&self, seed: u64, index: u64) -> (usize, usize) {
        let k = derive_seed(game_seed(seed, index), 0xBA1A) % self.pairs.len() as u64;
        let (m, t) = self.pairs[k as usize];
        (m as usize, t as usize)
    }

    /// Game `index` with `card` in place of the subject: the card's side's score in
    /// half-wins (2 won, 1 drawn or no result, 0 lost).
    pub fn play(&self, card: &Arc<Character>, s: &Settings, index: u64) -> u8 {
        self.play_seated(card, s, index, (index & 1) as usize)
    }

    /// Pair `index` of a sequential test: game `index`'s seed and pairing played twice, the
    /// card's side first as side a, then as side b (half-wins of both, 0 to 4).
    pub fn play_pair(&self, card: &Arc<Character>, s: &Settings, index: u64) -> u8 {
        self.play_seated(card, s, index, 0) + self.play_seated(card, s, index, 1)
    }

    /// Game `index`'s seed and pairing with the card's side at `seat`.
    fn play_seated(&self, card: &Arc<Character>, s: &Settings, index: u64, seat: usize) -> u8 {
        let g = game_seed(s.seed, index);
        let (m, t) = self.pairing(s.seed, index);
        let mine = self.mine[m].map(|i| {
            Arc::clone(if i == self.subject {
                card
            } else {
                &self.shared[i]
            })
        });
        let setup = if seat == 0 {
            Setup::duel(&mine, &self.theirs[t], s.rules)
        } else {
            Setup::duel(&self.theirs[t], &mine, s.rules)
        };
        let Ok(setup) = setup else { return 1 };
        let o = play_seeded(IconicaGame::new(&setup), RngDice::new(g), &[s.ai], g);
        match o.verdict {
            Verdict::Won(w) if w.contains(seat) => 2,
            Verdict::Won(_) => 0,
            Verdict::Draw | Verdict::NoResult => 1,
        }
    }
}

/// What the matchup table of a field is made of, without its cards: the rows' names, the
/// opposing party of each legal pairing, and the rows each opposing party counts in (a
/// shard's tally keeps it, so the merged report needs no catalogue).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MatchupIndex {
    /// The rows: opposing characters (a generated field), or parties (a given one).
    pub names: Vec<String>,
    /// For each opposing party, the rows it counts in.
    pub rows: Vec<Vec<usize>>,
    /// The opposing party of each legal pairing, in [`Field::pairing`]'s order.
    pub pairings: Vec<u32>,
}

impl Field {
    /// Its [`MatchupIndex`].
    pub fn matchup_index(&self) -> MatchupIndex {
        let names: Vec<String> = if self.given {
            self.theirs
                .iter()
                .enumerate()
                .map(|(k, p)| {
                    format!(
                        "party {}: {}",
                        k + 1,
                        p.iter()
                            .map(|c| c.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
                .collect()
        } else {
            self.pool.iter().map(|c| c.name.clone()).collect()
        };
        let rows = self
            .theirs
            .iter()
            .enumerate()
            .map(|(t, party)| {
                if self.given {
                    vec![t]
                } else {
                    party
                        .iter()
                        .filter_map(|c| self.pool.iter().position(|p| p.id == c.id))
                        .collect()
                }
            })
            .collect();
        MatchupIndex {
            names,
            rows,
            pairings: self.pairs.iter().map(|p| p.1).collect(),
        }
    }
}

/// The matchup table of games `0..scores.len()` of a run seeded `seed` over the field
/// `ix` describes: each row's games and rate (rows with no game left out).
pub fn matchups_of(ix: &MatchupIndex, seed: u64, scores: &[u8]) -> Vec<Matchup> {
    let mut by: Vec<Vec<u8>> = vec![Vec::new(); ix.names.len()];
    let n = ix.pairings.len().max(1) as u64;
    for (i, &score) in scores.iter().enumerate() {
        let k = derive_seed(game_seed(seed, i as u64), 0xBA1A) % n;
        let Some(&t) = ix.pairings.get(k as usize) else {
            continue;
        };
        for &row in ix.rows.get(t as usize).map_or(&[][..], Vec::as_slice) {
            if let Some(b) = by.get_mut(row) {
                b.push(score);
            }
        }
    }
    ix.names
        .iter()
        .zip(by)
        .filter(|(_, s)| !s.is_empty())
        .map(|(name, s)| Matchup {
            name: name.clone(),
            rate: Rate::of(&s, super::Stopped::Precision),
        })
        .collect()
}

/// Checks that the engine can play `card` (roll coverage, Start in range) and its rules.
pub fn playable(card: &Character, rules: Rules) -> Result<(), BalanceError> {
    if let Some(p) = card.problems().first() {
        return Err(BalanceError::Card(p.message.clone()));
    }
    Setup::duel(
        std::slice::from_ref(card),
        std::slice::from_ref(card),
        rules,
    )?;
    Ok(())
}

/// The measured card in its field, with the games already played cached for pairing.
pub struct Balance<'r> {
    pub field: Field,
    pub card: Character,
    pub settings: Settings,
    runner: &'r Runner<'r>,
    base: Vec<u8>,
}

/// One row of the matchup table.
#[derive(Debug, Clone, PartialEq)]
pub struct Matchup {
    /// An opposing character (generated field) or party (given field).
    pub name: String,
    pub rate: Rate,
}

/// The change in win rate when one part of the card does nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct Impact {
    pub part: String,
    pub delta: Delta,
}

/// A confirmed edit that puts the card within [`FAIR`].
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    pub change: String,
    /// Steps of the change (tens of health or damage; 1 for a tile).
    pub steps: u32,
    /// The card's TOML, changed lines only (`-` old, `+` new).
    pub diff: String,
    pub card: Character,
    /// The paired run: `other` is the changed card's rate.
    pub measured: Delta,
}

/// The card's place among the pool's characters measured the same way.
#[derive(Debug, Clone, PartialEq)]
pub struct Rank {
    /// 1 = the highest win rate.
    pub position: usize,
    pub of: usize,
    /// The positions the card may hold given every rate's 95% interval: one more than the
    /// characters surely above it, and one more than those not surely below it.
    pub interval: (usize, usize),
    /// Every character (id, name, rate), highest first.
    pub table: Vec<(String, String, Rate)>,
}

/// The pool with `card` in it: the catalogue version of the same id replaced, else added.
/// Returns the pool and the card's index.
pub fn pool_with(catalogue: &[Character], card: &Character) -> (Vec<Character>, usize) {
    let mut pool = catalogue.to_vec();
    match pool.iter().position(|c| c.id == card.id) {
        Some(i) => {
            pool[i] = card.clone();
            (pool, i)
        }
        None => {
            pool.push(card.clone());
            let i = pool.len() - 1;
            (pool, i)
        }
    }
}

impl<'r> Balance<'r> {
    /// `card` measured against `opponents` (or the generated field of `catalogue`).
    pub fn new(
        catalogue: &[Character],
        card: &Character,
        opponents: Option<&[Vec<Character>]>,
        settings: Settings,
        runner: &'r Runner<'r>,
    ) -> Result<Balance<'r>, BalanceError> {
        playable(card, settings.rules)?;
        let (pool, subject) = pool_with(catalogue, card);
        let parties = legal_parties(&pool);
        let field = Field::new(&pool, &parties, subject, opponents)?;
        Ok(Balance {
            field,
            card: card.clone(),
            settings,
            runner,
            base: Vec::new(),
        })
    }

    /// The card's field win rate.
    pub fn rate(&mut self) -> Result<Rate, BalanceError> {
        let (f, s) = (&self.field, &self.settings);
        let c = f.subject_card();
        self.runner.rate(&mut self.base, &|i| f.play(c, s, i))
    }

    /// `other` against the card on the same games.
    pub fn paired(&mut self, other: &Character) -> Result<Delta, BalanceError> {
        self.paired_with(other, self.runner.stopping)
    }

    /// [`Balance::paired`] under another stopping rule.
    pub fn paired_with(
        &mut self,
        other: &Character,
        stopping: Stopping,
    ) -> Result<Delta, BalanceError> {
        playable(other, self.settings.rules)?;
        let (f, s) = (&self.field, &self.settings);
        let c = f.subject_card();
        let other = Arc::new(other.clone());
        self.runner
            .paired_to(stopping, &mut self.base, &|i| f.play(c, s, i), &|i| {
                f.play(&other, s, i)
            })
    }

    /// The games played so far for the card (half-wins, by game index).
    pub fn scores(&self) -> &[u8] {
        &self.base
    }

    /// The matchup table over the first `games` games played: per opposing character of
    /// a generated field, per party of a given one.
    pub fn matchups(&self, games: u64) -> Vec<Matchup> {
        let n = (games as usize).min(self.base.len());
        matchups_of(
            &self.field.matchup_index(),
            self.settings.seed,
            &self.base[..n],
        )
    }

    /// The impact of each part: the paired change in win rate when it does nothing.
    pub fn impact(&mut self) -> Result<Vec<Impact>, BalanceError> {
        let mut out = Vec::new();
        for (part, card) in ablations(&self.card) {
            let delta = self.paired(&card)?;
            out.push(Impact { part, delta });
        }
        Ok(out)
    }

    /// Up to three confirmed fixes, smallest first, for a card whose rate is `rate`.
    ///
    /// A runner recording a shard ([`Runner::explores`]) does not know the rate: it measures
    /// every step of every search, both ways, and every tile change confirmed, each run
    /// labelled by its change, so the merge finds whatever the real search asks for.
    pub fn suggest(&mut self, rate: &Rate) -> Result<Vec<Suggestion>, BalanceError> {
        if self.runner.explores() {
            for down in [true, false] {
                self.search(down, true)?;
            }
            return Ok(Vec::new());
        }
        if (FAIR.0..=FAIR.1).contains(&rate.win_rate) {
            return Ok(Vec::new());
        }
        let mut found = self.search(rate.win_rate > FAIR.1, false)?;
        found.sort_by(|a, b| {
            a.steps.cmp(&b.steps).then(
                (a.measured.other.win_rate - 0.5)
                    .abs()
                    .total_cmp(&(b.measured.other.win_rate - 0.5).abs()),
            )
        });
        found.truncate(3);
        Ok(found)
    }

    /// The fixes found searching `down` (or up); `every`: no step or change left out.
    fn search(&mut self, down: bool, every: bool) -> Result<Vec<Suggestion>, BalanceError> {
        let runner = self.runner;
        let mut found: Vec<Suggestion> = Vec::new();
        // Start health, then each action's damage, by tens, until in the band or past it.
        let card = self.card.clone();
        // None: Start health; Some(a): action a's damage.
        let families: Vec<Option<usize>> = std::iter::once(None)
            .chain(
                (0..card.actions.len())
                    .filter(|&a| has_damage(&card.actions[a].effects))
                    .map(Some),
            )
            .collect();
        for family in families {
            for k in 1..=10 {
                let step = match family {
                    None => health_by(&card, k, down),
                    Some(a) => damage_by(&card, a, k, down),
                };
                let Some((change, variant)) = step else {
                    break;
                };
                let d = runner.labelled(&change, || self.paired(&variant))?;
                if every {
                    continue;
                }
                let r = d.other.win_rate;
                if (FAIR.0..=FAIR.1).contains(&r) {
                    found.push(self.suggestion(change, k, variant, d));
                    break;
                }
                if (down && r < FAIR.0) || (!down && r > FAIR.1) {
                    break;
                }
            }
        }
        // One nullifier tile (removed when too strong, added when too weak): screened on
        // few games, the best one confirmed on the full rule.
        let screen = Stopping {
            precision: 0.05,
            max_games: super::BATCH.min(runner.stopping.max_games),
        };
        let mut best: Option<(f64, String, Character)> = None;
        for (change, variant) in tile_changes(&card, down) {
            let d = runner.labelled(&change, || self.paired_with(&variant, screen))?;
            if every {
                runner.labelled(&change, || self.paired(&variant))?;
                continue;
            }
            let gap = (d.other.win_rate - 0.5).abs();
            if best.as_ref().is_none_or(|b| gap < b.0) {
                best = Some((gap, change, variant));
            }
        }
        if let Some((_, change, variant)) = best {
            let d = runner.labelled(&change, || self.paired(&variant))?;
            if (FAIR.0..=FAIR.1).contains(&d.other.win_rate) {
                found.push(self.suggestion(change, 1, variant, d));
            }
        }
        Ok(found)
    }

    fn suggestion(&self, change: String, steps: u32, card: Character, d: Delta) -> Suggestion {
        Suggestion {
            change,
            steps,
            diff: toml_diff(&self.card, &card),
            card,
            measured: d,
        }
    }

    /// Every character of the pool measured the same way (its own field, the same seed
    /// and stopping rule), and the card's position among them.
    pub fn rank(&mut self, opponents: Option<&[Vec<Character>]>) -> Result<Rank, BalanceError> {
        let mine = self.rate()?;
        let pool = &self.field.pool;
        let parties = legal_parties(pool);
        let mut table = Vec::new();
        let mut card_rate = None;
        for i in 0..pool.len() {
            let r = if i == self.field.subject {
                mine
            } else {
                let Ok(f) = Field::new(pool, &parties, i, opponents) else {
                    continue;
                };
                let s = &self.settings;
                self.runner
                    .rate(&mut Vec::new(), &|g| f.play(&f.shared[i], s, g))?
            };
            if i == self.field.subject {
                card_rate = Some(r.win_rate);
            }
            table.push((pool[i].id.clone(), pool[i].name.clone(), r));
        }
        table.sort_by(|a, b| b.2.win_rate.total_cmp(&a.2.win_rate).then(a.0.cmp(&b.0)));
        let mine = card_rate.unwrap_or(0.0);
        let position = 1 + table.iter().filter(|t| t.2.win_rate > mine).count();
        let interval = rank_interval(&table, self.field.pool[self.field.subject].id.as_str());
        Ok(Rank {
            position,
            of: table.len(),
            interval,
            table,
        })
    }
}

/// The positions `id` may hold in `table` (id, name, rate) given each rate's interval.
pub fn rank_interval(table: &[(String, String, Rate)], id: &str) -> (usize, usize) {
    let Some((_, _, me)) = table.iter().find(|t| t.0 == id) else {
        return (0, 0);
    };
    let others = || table.iter().filter(|t| t.0 != id).map(|t| t.2.ci95);
    let surely_above = others().filter(|ci| ci.0 > me.ci95.1).count();
    let maybe_above = others().filter(|ci| ci.1 >= me.ci95.0).count();
    (1 + surely_above, 1 + maybe_above)
}

/// Where a rate stands against the fair band, as its interval says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// The whole interval is inside the band.
    Fair,
    /// The whole interval is above it.
    TooStrong,
    /// The whole interval is below it.
    TooWeak,
    /// The interval reaches across an edge of the band: more games would decide.
    NotDecided,
}

impl Standing {
    /// Where `r` stands against [`FAIR`].
    pub fn of(r: &Rate) -> Standing {
        let (lo, hi) = r.ci95;
        if lo >= FAIR.0 && hi <= FAIR.1 {
            Standing::Fair
        } else if lo > FAIR.1 {
            Standing::TooStrong
        } else if hi < FAIR.0 {
            Standing::TooWeak
        } else {
            Standing::NotDecided
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Standing::Fair => "fair",
            Standing::TooStrong => "too_strong",
            Standing::TooWeak => "too_weak",
            Standing::NotDecided => "not_decided",
        }
    }

    pub fn decided(self) -> bool {
        self != Standing::NotDecided
    }
}

/// The card's sequential test ([`super::sprt`]) against its field: pairs of games with the
/// same seed and the seats swapped.
pub fn sprt(
    catalogue: &[Character],
    card: &Character,
    opponents: Option<&[Vec<Character>]>,
    settings: Settings,
    runner: &Runner<'_>,
    test: super::sprt::Sprt,
) -> Result<super::sprt::Outcome, BalanceError> {
    let b = Balance::new(catalogue, card, opponents, settings, runner)?;
    let (field, s) = (&b.field, &b.settings);
    let card = field.subject_card();
    super::sprt::run(test, runner, &|j| field.play_pair(card, s, j))
}

/// The label of action `a` (its roll numbers and name).
fn action_label(c: &Character, a: usize) -> String {
    let act = &c.actions[a];
    let rolls: Vec<String> = act.roll.numbers().iter().map(u8::to_string).collect();
    format!("action {}: {}", rolls.join("/"), act.name)
}

/// Each part of the card and the card with that part doing nothing: each action's effects
/// cleared, each strength removed, the final act removed, the reaction tiles cleared, the
/// nullifier tiles cleared.
pub fn ablations(c: &Character) -> Vec<(String, Character)> {
    let mut out = Vec::new();
    for a in 0..c.actions.len() {
        let mut v = c.clone();
        v.actions[a].effects.clear();
        out.push((action_label(c, a), v));
    }
    for s in 0..c.strengths.len() {
        let mut v = c.clone();
        v.strengths.remove(s);
        out.push((format!("strength {}: {}", s + 1, c.strengths[s].text), v));
    }
    if c.final_act.is_some() {
        let mut v = c.clone();
        v.final_act = None;
        out.push(("final act".to_string(), v));
    }
    if !c.health.reaction.is_empty() {
        let mut v = c.clone();
        v.health.reaction.clear();
        out.push(("reaction tiles".to_string(), v));
    }
    if Nullifier::ALL
        .iter()
        .any(|&n| !c.health.tiles(n).is_empty())
    {
        let mut v = c.clone();
        let h = &mut v.health;
        for t in [
            &mut h.parry,
            &mut h.antidote,
            &mut h.courage,
            &mut h.evasion,
            &mut h.focus,
            &mut h.clarity,
        ] {
            t.clear();
        }
        out.push(("nullifier tiles".to_string(), v));
    }
    out
}

/// Start health `k` tens lower (`down`) or higher; `None` when no longer a valid card. A
/// tile at or above the new Start is dropped (and the change says so).
pub fn health_by(c: &Character, k: u32, down: bool) -> Option<(String, Character)> {
    let mut v = c.clone();
    let from = c.health.start;
    let to = if down {
        from.checked_sub(10 * k).filter(|&t| t > 0)?
    } else {
        from + 10 * k
    };
    v.health.start = to;
    let mut dropped = Vec::new();
    for n in Nullifier::ALL {
        let tiles = tiles_mut(&mut v.health, n);
        for &t in tiles.iter().filter(|&&t| t >= to) {
            dropped.push(format!("the {} tile at {t}", n.key()));
        }
        tiles.retain(|&t| t < to);
    }
    let high: Vec<(String, u32)> = v
        .health
        .reactions()
        .filter(|&(t, _)| t >= to)
        .map(|(t, d)| (t.to_string(), d))
        .collect();
    for (t, _) in &high {
        dropped.push(format!("the reaction tile at {t}"));
    }
    v.health
        .reaction
        .retain(|k, _| k.trim().parse::<u32>().is_ok_and(|t| t < to));
    if !v.problems().is_empty() {
        return None;
    }
    let mut change = format!("Start health {from} -> {to}");
    if !dropped.is_empty() {
        change.push_str(&format!(" (dropping {})", dropped.join(", ")));
    }
    Some((change, v))
}

fn has_damage(effects: &[Effect]) -> bool {
    effects.iter().any(|e| match e {
        Effect::Damage { .. } => true,
        Effect::Roll {
            then, otherwise, ..
        } => has_damage(then) || has_damage(otherwise),
        Effect::Watch { then, .. } => has_damage(then),
        _ => false,
    })
}

/// Adds `by` tens to every damage effect (nested ones included); false when one would
/// fall below 10.
fn shift_damage(effects: &mut [Effect], by: i64) -> bool {
    effects.iter_mut().all(|e| match e {
        Effect::Damage { damage, .. } => {
            let d = i64::from(*damage) + 10 * by;
            if d < 10 {
                return false;
            }
            *damage = d as u32;
            true
        }
        Effect::Roll {
            then, otherwise, ..
        } => shift_damage(then, by) && shift_damage(otherwise, by),
        Effect::Watch { then, .. } => shift_damage(then, by),
        _ => true,
    })
}

/// Action `a`'s damage `k` tens lower (`down`) or higher.
pub fn damage_by(c: &Character, a: usize, k: u32, down: bool) -> Option<(String, Character)> {
    let mut v = c.clone();
    let by = if down { -i64::from(k) } else { i64::from(k) };
    if !shift_damage(&mut v.actions[a].effects, by) || !v.problems().is_empty() {
        return None;
    }
    Some((
        format!(
            "{}: damage {}{}",
            action_label(c, a),
            if down { "-" } else { "+" },
            10 * k
        ),
        v,
    ))
}

fn tiles_mut(h: &mut crate::games::iconica::model::Health, n: Nullifier) -> &mut Vec<u32> {
    match n {
        Nullifier::Parry => &mut h.parry,
        Nullifier::Antidote => &mut h.antidote,
        Nullifier::Courage => &mut h.courage,
        Nullifier::Evasion => &mut h.evasion,
        Nullifier::Focus => &mut h.focus,
        Nullifier::Clarity => &mut h.clarity,
    }
}

/// Every one-tile nullifier change: removing one (`down`) or adding one.
pub fn tile_changes(c: &Character, down: bool) -> Vec<(String, Character)> {
    let mut out = Vec::new();
    for n in Nullifier::ALL {
        if down {
            for (i, &t) in c.health.tiles(n).iter().enumerate() {
                let mut v = c.clone();
                tiles_mut(&mut v.health, n).remove(i);
                out.push((format!("remove the {} tile at {t}", n.key()), v));
            }
        } else {
            for t in (10..c.health.start).step_by(10).rev() {
                if c.health.has(n, t) {
                    continue;
                }
                let mut v = c.clone();
                tiles_mut(&mut v.health, n).push(t);
                if v.problems().is_empty() {
                    out.push((format!("add a {} tile at {t}", n.key()), v));
                }
            }
        }
    }
    out
}

/// The lines of `b`'s TOML that differ from `a`'s (`-` old, `+` new), by longest common
/// subsequence.
pub fn toml_diff(a: &Character, b: &Character) -> String {
    let (ta, tb) = (
        Card::Iconica(a.clone()).to_toml(),
        Card::Iconica(b.clone()).to_toml(),
    );
    let (x, y): (Vec<&str>, Vec<&str>) = (ta.lines().collect(), tb.lines().collect());
    let (n, m) = (x.len(), y.len());
    let mut l = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            l[i][j] = if x[i] == y[j] {
                l[i + 1][j + 1] + 1
            } else {
                l[i + 1][j].max(l[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < n || j < m {
        if i < n && j < m && x[i] == y[j] {
            i += 1;
            j += 1;
        } else if j < m && (i == n || l[i][j + 1] > l[i + 1][j]) {
            out.push_str(&format!("+{}\n", y[j]));
            j += 1;
        } else {
            out.push_str(&format!("-{}\n", x[i]));
            i += 1;
        }
    }
    out
}

/// Everything `deckwright balance iconica` reports.
#[derive(Debug, Clone)]
pub struct Report {
    pub rate: Rate,
    pub rank: Option<Rank>,
    pub matchups: Vec<Matchup>,
    pub impact: Vec<Impact>,
    pub suggestions: Vec<Suggestion>,
    /// Legal parties with the card, opposing parties, legal pairings.
    pub field: (usize, usize, usize),
}

/// What to include in a [`Report`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Include {
    pub rank: bool,
    pub impact: bool,
    pub suggest: bool,
}

/// The whole report on `card` against `opponents` (or the generated field of `catalogue`).
pub fn report(
    catalogue: &[Character],
    card: &Character,
    opponents: Option<&[Vec<Character>]>,
    settings: Settings,
    runner: &Runner<'_>,
    include: Include,
) -> Result<Report, BalanceError> {
    let mut b = Balance::new(catalogue, card, opponents, settings, runner)?;
    let rate = b.rate()?;
    let matchups = b.matchups(rate.games);
    let rank = if include.rank {
        Some(b.rank(opponents)?)
    } else {
        None
    };
    let impact = if include.impact {
        b.impact()?
    } else {
        Vec::new()
    };
    let suggestions = if include.suggest {
        b.suggest(&rate)?
    } else {
        Vec::new()
    };
    Ok(Report {
        rate,
        rank,
        matchups,
        impact,
        suggestions,
        field: (b.field.mine.len(), b.field.theirs.len(), b.field.pairings()),
    })
}

/// Every character of `pool` against its own generated field, in pool order, with its
/// field win rate (characters that are in no legal party are left out); `done` is called
/// after each character.
pub fn rank_pool(
    pool: &[Character],
    settings: Settings,
    runner: &Runner<'_>,
    done: &mut dyn FnMut(),
) -> Result<Vec<(Character, Rate)>, BalanceError> {
    let parties = legal_parties(pool);
    let mut out = Vec::new();
    for (i, c) in pool.iter().enumerate() {
        if let Ok(f) = Field::new(pool, &parties, i, None) {
            let s = &settings;
            let r = runner.rate(&mut Vec::new(), &|g| f.play(&f.shared[i], s, g))?;
            out.push((c.clone(), r));
        }
        done();
    }
    Ok(out)
}

/// A never-set stop flag, for runs that are not cancelled.
pub static NEVER: AtomicBool = AtomicBool::new(false);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::iconica::bundled_characters;

    #[test]
    fn the_cheap_pairing_test_agrees_with_check_match() {
        let pool = bundled_characters();
        let parties = legal_parties(&pool);
        let f = Field::new(&pool, &parties, 0, None).unwrap();
        let mut checked = 0;
        for (m, mp) in f.mine.iter().enumerate().step_by(7) {
            for (t, tp) in f.theirs.iter().enumerate().step_by(11) {
                let p: Vec<&Character> = mp.iter().map(|&i| &pool[i]).collect();
                let paired = f.pairs.contains(&(m as u32, t as u32));
                let tp: Vec<Character> = tp.iter().map(|c| Character::clone(c)).collect();
                assert_eq!(paired, legal_against(&p, &tp), "{mp:?} vs {tp:?}");
                checked += 1;
            }
        }
        assert!(checked > 50);
    }

    #[test]
    fn a_diff_shows_only_the_changed_line() {
        let c = bundled_characters().remove(0);
        let (_, v) = health_by(&c, 1, true).unwrap();
        let d = toml_diff(&c, &v);
        assert_eq!(
            d,
            format!(
                "-start = {}\n+start = {}\n",
                c.health.start,
                c.health.start - 10
            )
        );
    }
}
