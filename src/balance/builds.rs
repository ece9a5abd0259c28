//! The strongest legal builds a min-maxer would find before the players do (`deckwright
//! health ... --builds`): a bounded local search. From each starting build (the build of the
//! setup given), builds one legal move away (Iconica: one character swapped; Arcadia: one
//! merit or flaw taken, dropped or swapped; Ruunara: one squad member swapped) are measured
//! by their win rate over a fixed set of seeded games (the same games for every build, so
//! the comparison is paired), and the search moves to the best while it improves, for at
//! most [`Climb::steps`] moves. Every build measured is kept; the strongest are reported
//! with their win rate and 95% interval.
//!
//! Seeded and bounded: the games of a build are a pure function of (seed, game index); a
//! step measures at most [`Climb::candidates`] of the legal moves (a seeded sample when
//! there are more), so at most `(1 + steps x candidates) x games` games a start. No clock
//! or global RNG; the same report at any thread count. Which search a game gets is named
//! by its registration ([`Builds`]), not by its name.

use super::iconica::legal_parties;
use super::{BalanceError, Rate, Runner, Stopped};
use crate::cards::{Card, CardLookup};
use crate::games::ai::Policy;
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::engine::{ArcadiaGame, Match};
use crate::games::arcadia::model::{ArcadiaCard, MeritType};
use crate::games::arcadia::rules::{check_character, check_setup};
use crate::games::build::CardIndex;
use crate::games::dice::{RngDice, derive_seed, game_seed};
use crate::games::game::Verdict;
use crate::games::iconica::engine::{IconicaGame, Rules, Setup};
use crate::games::iconica::model::Character;
use crate::games::registry::Builds;
use crate::games::ruunara::engine::{RuunaraGame, Setup as Mission};
use crate::games::ruunara::model::Allegiance;
use crate::games::ruunara::squad::SquadFile;
use crate::sim::play_seeded;

/// How far a search goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Climb {
    /// Games a build is measured over (the same game indices for every build).
    pub games: u64,
    /// The most moves from a start.
    pub steps: usize,
    /// The builds reported, strongest first.
    pub keep: usize,
    /// The most moves measured a step: when more are legal, a sample of this many chosen
    /// by `seed` (the same at any thread count).
    pub candidates: usize,
    /// The seed of the sample of moves.
    pub seed: u64,
}

impl Default for Climb {
    fn default() -> Self {
        Climb {
            games: 200,
            steps: 3,
            keep: 3,
            candidates: 40,
            seed: 1,
        }
    }
}

impl Climb {
    /// The most games a search from one start plays: the start, then `steps` steps of at
    /// most `candidates` builds, `games` each.
    pub fn most_games(&self) -> u64 {
        self.games
            .saturating_mul(1 + (self.steps as u64).saturating_mul(self.candidates as u64))
    }
}

/// A build measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Found<B> {
    pub build: B,
    /// The build in words (its cards).
    pub name: String,
    /// Its win rate over the search's games.
    pub rate: Rate,
    /// The moves from its start that led to it (`start` for a start itself).
    pub path: Vec<String>,
}

/// The space a climb searches: a build's legal moves, its name, and how it is played.
/// `ready` compiles a build once before its games (`Err` for one that cannot be played:
/// it is left out, as an illegal one is); `play(p, i)` is game `i` of it, in half-wins.
pub struct Space<'a, B, P> {
    /// The builds one legal move from a build, each with the move in words.
    pub neighbours: &'a dyn Fn(&B) -> Vec<(String, B)>,
    /// A build in words.
    pub name: &'a dyn Fn(&B) -> String,
    /// A build compiled for play.
    pub ready: &'a dyn Fn(&B) -> Result<P, String>,
    /// Game `i` of a compiled build: the build's side's score in half-wins.
    pub play: &'a (dyn Fn(&P, u64) -> u8 + Sync),
}

/// At most `cap` of `moves`, chosen by `salt` when there are more, in their order.
fn sample<T>(moves: Vec<T>, cap: usize, salt: u64) -> Vec<T> {
    if moves.len() <= cap {
        return moves;
    }
    let mut keys: Vec<(u64, usize)> = (0..moves.len())
        .map(|i| (derive_seed(salt, i as u64), i))
        .collect();
    keys.sort_unstable();
    let mut chosen: Vec<usize> = keys[..cap].iter().map(|&(_, i)| i).collect();
    chosen.sort_unstable();
    let mut out = Vec::with_capacity(cap);
    let mut next = chosen.into_iter().peekable();
    for (i, m) in moves.into_iter().enumerate() {
        if next.peek() == Some(&i) {
            out.push(m);
            next.next();
        }
    }
    out
}

/// What a climb found: the strongest builds and how many were measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Climbed<B> {
    /// The strongest distinct builds met, strongest first (ties by name), at most
    /// [`Climb::keep`].
    pub found: Vec<Found<B>>,
    /// The distinct legal builds measured, the starts among them.
    pub measured: usize,
}

/// Hill climbs from each of `starts` through `space`; a start that cannot be played is an
/// error. `tick(1)` is called after each game played (a face's progress; at most
/// [`Climb::most_games`] a start).
pub fn climb<B: Clone + PartialEq + Sync, P: Sync>(
    starts: &[B],
    space: &Space<'_, B, P>,
    c: &Climb,
    runner: &Runner<'_>,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<Climbed<B>, BalanceError> {
    let mut met: Vec<Found<B>> = Vec::new();
    let mut unplayable: Vec<B> = Vec::new();
    // The build's rate (measured once), or `None` when it cannot be played.
    let mut measure = |b: &B,
                       path: Vec<String>,
                       met: &mut Vec<Found<B>>|
     -> Result<Result<Rate, String>, BalanceError> {
        if let Some(f) = met.iter().find(|f| &f.build == b) {
            return Ok(Ok(f.rate));
        }
        if unplayable.contains(b) {
            return Ok(Err("cannot be played".into()));
        }
        let p = match (space.ready)(b) {
            Ok(p) => p,
            Err(e) => {
                unplayable.push(b.clone());
                return Ok(Err(e));
            }
        };
        let name = (space.name)(b);
        let scores = runner.labelled(&name, || {
            runner.scores(0, c.games, &|i| {
                let score = (space.play)(&p, i);
                tick(1);
                score
            })
        })?;
        let rate = Rate::of(&scores, Stopped::MaxGames);
        met.push(Found {
            build: b.clone(),
            name,
            rate,
            path,
        });
        Ok(Ok(rate))
    };
    for (k, start) in starts.iter().enumerate() {
        let mut at = start.clone();
        let mut path = vec!["start".to_string()];
        let mut best = measure(&at, path.clone(), &mut met)?
            .map_err(|e| BalanceError::Field(format!("the build given cannot be played: {e}")))?
            .win_rate;
        for step in 0..c.steps {
            let salt = derive_seed(c.seed, ((k as u64) << 32) | step as u64);
            let mut next: Option<(f64, String, B)> = None;
            for (swap, b) in sample((space.neighbours)(&at), c.candidates, salt) {
                let mut p = path.clone();
                p.push(swap.clone());
                let Ok(r) = measure(&b, p, &mut met)? else {
                    continue;
                };
                if r.win_rate > best && next.as_ref().is_none_or(|n| r.win_rate > n.0) {
                    next = Some((r.win_rate, swap, b));
                }
            }
            let Some((r, swap, b)) = next else { break };
            best = r;
            path.push(swap);
            at = b;
        }
    }
    met.sort_by(|a, b| {
        b.rate
            .win_rate
            .total_cmp(&a.rate.win_rate)
            .then(a.name.cmp(&b.name))
    });
    let measured = met.len();
    met.truncate(c.keep);
    Ok(Climbed {
        found: met,
        measured,
    })
}

/// How a search's games are played.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// The policy every seat plays.
    pub ai: Policy,
    /// The seed of the games (game `i` is seeded `game_seed(seed, i)`).
    pub seed: u64,
    /// The seat whose build is searched (0 the first); the others stay as given. A solo
    /// game (Ruunara) has only seat 0.
    pub seat: usize,
}

/// A build found, as a report gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct Build {
    /// The build in words.
    pub name: String,
    /// Its win rate over the search's games (a mission's: the heroes').
    pub rate: Rate,
    /// The moves from the build given that led to it.
    pub path: Vec<String>,
    /// The build as its file's text (a party, character or squad file), to save and play.
    pub file: String,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct Searched {
    /// What the builds were measured against, in words (`the second party as given`).
    pub against: String,
    /// The strongest builds met, strongest first.
    pub builds: Vec<Build>,
    /// The distinct legal builds measured, the one given among them.
    pub measured: usize,
}

impl Searched {
    /// A climb's result as the report shows it, each build written as a file by `file`.
    fn of<B>(against: String, climbed: Climbed<B>, file: impl Fn(&B) -> String) -> Searched {
        Searched {
            against,
            measured: climbed.measured,
            builds: climbed
                .found
                .into_iter()
                .map(|f| Build {
                    file: file(&f.build),
                    name: f.name,
                    rate: f.rate,
                    path: f.path,
                })
                .collect(),
        }
    }
}

/// The strongest legal builds of the match a record's `options` describe (the options a
/// game's `compile` makes), searched as `kind` says: the build of seat `s.seat` moved one
/// legal step at a time among `cards` (the catalogue's), the rest of the match as given;
/// `tick` as [`climb`] calls it.
pub fn search(
    kind: Builds,
    options: &toml::Table,
    cards: &[Card],
    s: Settings,
    c: &Climb,
    runner: &Runner<'_>,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<Searched, BalanceError> {
    match kind {
        Builds::Parties => search_parties(options, cards, s, c, runner, tick),
        Builds::Characters => arcadia_characters(options, cards, s, c, runner, tick),
        Builds::Squads => ruunara_squads(options, cards, s, c, runner, tick),
    }
}

/// The cards of a record's options, and the catalogue's not among them, by id: the lookup a
/// search checks and compiles its builds with. In id order, so the moves (and the sample of
/// them a step measures) do not depend on the order the catalogue lists its cards.
fn index(kept: Vec<Card>, cards: &[Card]) -> CardIndex {
    let mut all = kept;
    let known: std::collections::HashSet<String> = all.iter().map(|k| k.id().to_string()).collect();
    all.extend(cards.iter().filter(|c| !known.contains(c.id())).cloned());
    all.sort_by(|a, b| a.id().cmp(b.id()));
    CardIndex::new(all)
}

fn options_error(e: impl std::fmt::Display) -> BalanceError {
    BalanceError::Field(format!("the match cannot be read back: {e}"))
}

/// The seat word of `seat` of two.
fn other_party(seat: usize) -> &'static str {
    if seat == 0 { "second" } else { "first" }
}

/// [`Builds::Parties`]: Iconica's party of seat `s.seat` against the other as given.
fn search_parties(
    options: &toml::Table,
    cards: &[Card],
    s: Settings,
    c: &Climb,
    runner: &Runner<'_>,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<Searched, BalanceError> {
    use crate::games::iconica::matchfile::{parties_of, rules_of};
    let rules = rules_of(options).map_err(options_error)?;
    let kept = crate::games::build::cards_of(options, crate::cards::Game::Iconica)
        .map_err(options_error)?;
    let lookup = index(kept, cards);
    let pool: Vec<Character> = lookup
        .cards()
        .iter()
        .filter_map(|c| match c {
            Card::Iconica(ch) => Some(ch.clone()),
            _ => None,
        })
        .collect();
    let parties = parties_of(options).map_err(options_error)?;
    if parties.len() != 2 || s.seat > 1 {
        return Err(BalanceError::Field(
            "--builds: an Iconica duel of two parties is searched".into(),
        ));
    }
    let member = |id: &String| pool.iter().position(|p| &p.id == id);
    let mine: Option<Vec<usize>> = parties[s.seat].1.iter().map(member).collect();
    let against: Option<Vec<Character>> = parties[1 - s.seat]
        .1
        .iter()
        .map(|id| member(id).map(|i| pool[i].clone()))
        .collect();
    let (Some(&[a, b, k]), Some(against)) = (mine.as_deref(), against) else {
        return Err(BalanceError::Field(
            "--builds: the party searched must be three known characters".into(),
        ));
    };
    let climbed = iconica_parties(&pool, &[[a, b, k]], &against, rules, s, c, runner, tick)?;
    let file = |p: &[usize; 3]| {
        let ids: Vec<&str> = p.iter().map(|&i| pool[i].id.as_str()).collect();
        crate::games::iconica::party::PartyFile::new("found", &ids).to_toml()
    };
    Ok(Searched::of(
        format!("the {} party as given", other_party(s.seat)),
        climbed,
        file,
    ))
}

/// The strongest Iconica parties of `pool` found from `starts` (pool indices) against
/// `against` (the other side, as given): neighbours are the legal parties of the pool that
/// keep two of the three and share no Legend or Special with `against`. Game `i` seats the
/// searched party at `s.seat` when `i` is even and at the other seat when odd.
#[allow(clippy::too_many_arguments)]
pub fn iconica_parties(
    pool: &[Character],
    starts: &[[usize; 3]],
    against: &[Character],
    rules: Rules,
    s: Settings,
    c: &Climb,
    runner: &Runner<'_>,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<Climbed<[usize; 3]>, BalanceError> {
    let legal = legal_parties(pool);
    let theirs: Vec<&str> = against
        .iter()
        .filter(|c| c.rarity.is_legend_or_special())
        .map(|c| c.id.as_str())
        .collect();
    let meets = |p: &[usize; 3]| {
        !p.iter().any(|&i| {
            pool[i].rarity.is_legend_or_special() && theirs.contains(&pool[i].id.as_str())
        })
    };
    let neighbours = |p: &[usize; 3]| -> Vec<(String, [usize; 3])> {
        legal
            .iter()
            .filter(|q| meets(q) && q.iter().filter(|i| p.contains(i)).count() == 2)
            .map(|q| {
                let out = p.iter().find(|i| !q.contains(i)).copied().unwrap_or(0);
                let inn = q.iter().find(|i| !p.contains(i)).copied().unwrap_or(0);
                (format!("{} for {}", pool[inn].name, pool[out].name), *q)
            })
            .collect()
    };
    let name = |p: &[usize; 3]| {
        p.iter()
            .map(|&i| pool[i].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    // Both seatings compiled once: [searched first, searched second].
    let ready = |p: &[usize; 3]| -> Result<[Setup; 2], String> {
        let mine: Vec<Character> = p.iter().map(|&k| pool[k].clone()).collect();
        let first = Setup::duel(&mine, against, rules).map_err(|e| e.to_string())?;
        let second = Setup::duel(against, &mine, rules).map_err(|e| e.to_string())?;
        Ok([first, second])
    };
    let play = |setups: &[Setup; 2], i: u64| -> u8 {
        let seat = (s.seat + (i & 1) as usize) % 2;
        let g = game_seed(s.seed, i);
        let o = play_seeded(IconicaGame::new(&setups[seat]), RngDice::new(g), &[s.ai], g);
        score(o.verdict, seat)
    };
    let space = Space {
        neighbours: &neighbours,
        name: &name,
        ready: &ready,
        play: &play,
    };
    climb(starts, &space, c, runner, tick)
}

/// A seat's score of a verdict in half-wins.
fn score(v: Verdict, seat: usize) -> u8 {
    match v {
        Verdict::Won(w) if w.contains(seat) => 2,
        Verdict::Won(_) => 0,
        Verdict::Draw | Verdict::NoResult => 1,
    }
}

/// The legal characters one move from `c` in seat `seat` of `setup` (the other character
/// as given): a merit of `shop` taken, dropped or swapped for another, a flaw taken,
/// dropped or swapped for another (never a treasure, which a setup gives, nor a flaw
/// bought off), each with the move in words. Legal as the Setup screen checks it: the
/// character alone ([`check_character`]) and the setup with it ([`check_setup`]); the
/// court is settled as the balance lab settles it (declared as before when a change ties
/// the count).
pub fn arcadia_moves(
    setup: &crate::games::arcadia::setup::SetupFile,
    characters: &[CharacterFile],
    seat: usize,
    shop: &[Card],
    lookup: &dyn CardLookup,
) -> Vec<(String, CharacterFile)> {
    use super::arcadia::{court_of, settle_court};
    let c = &characters[seat];
    let court = court_of(c, lookup);
    let merits: Vec<(&str, &str)> = shop
        .iter()
        .filter_map(|k| match k {
            Card::Arcadia(ArcadiaCard::Merit(m)) if m.merit_type != MeritType::Treasure => {
                Some((m.id.as_str(), m.name.as_str()))
            }
            _ => None,
        })
        .collect();
    let flaws: Vec<(&str, &str)> = shop
        .iter()
        .filter_map(|k| match k {
            Card::Arcadia(ArcadiaCard::Flaw(f)) => Some((f.id.as_str(), f.name.as_str())),
            _ => None,
        })
        .collect();
    let name_of = |id: &str| {
        lookup
            .card(id)
            .map(|k| k.name().to_string())
            .unwrap_or_else(|| id.to_string())
    };
    let mut raw: Vec<(String, CharacterFile)> = Vec::new();
    for (list, pool, kind) in [(&c.merits, &merits, true), (&c.flaws, &flaws, false)] {
        let fixed = |id: &String| !kind && c.flaws_bought_off.contains(id);
        for (k, have) in list.iter().enumerate() {
            if fixed(have) {
                continue;
            }
            let mut v = c.clone();
            let l = if kind { &mut v.merits } else { &mut v.flaws };
            l.remove(k);
            raw.push((format!("dropped {}", name_of(have)), v));
        }
        for &(id, name) in pool.iter() {
            if list.iter().any(|h| h == id) {
                continue;
            }
            let mut v = c.clone();
            let l = if kind { &mut v.merits } else { &mut v.flaws };
            l.push(id.to_string());
            raw.push((format!("took {name}"), v));
            for (k, have) in list.iter().enumerate() {
                if fixed(have) {
                    continue;
                }
                let mut v = c.clone();
                let l = if kind { &mut v.merits } else { &mut v.flaws };
                l[k] = id.to_string();
                raw.push((format!("{name} for {}", name_of(have)), v));
            }
        }
    }
    let mut out: Vec<(String, CharacterFile)> = Vec::new();
    for (m, mut v) in raw {
        settle_court(&mut v, court, lookup);
        if out.iter().any(|(_, o)| o == &v) || !check_character(&v, lookup).is_legal() {
            continue;
        }
        let mut chars = characters.to_vec();
        chars[seat] = v.clone();
        if check_setup(setup, &chars, lookup).is_legal() {
            out.push((m, v));
        }
    }
    out
}

/// A character's merits and flaws in words.
fn arcadia_name(c: &CharacterFile, lookup: &dyn CardLookup) -> String {
    let names = |ids: &[String]| {
        ids.iter()
            .map(|id| {
                lookup
                    .card(id)
                    .map(|k| k.name().to_string())
                    .unwrap_or_else(|| id.clone())
            })
            .collect::<Vec<_>>()
            // A card's name may hold a comma (`Old Gristle, Badger Knight`).
            .join(" / ")
    };
    let flaws = if c.flaws.is_empty() {
        "no flaws".to_string()
    } else {
        format!("flaws {}", names(&c.flaws))
    };
    format!("{}: merits {}; {flaws}", c.display_name(), names(&c.merits))
}

/// [`Builds::Characters`]: Arcadia's character of seat `s.seat` against the other as built,
/// on the setup as given, the merits and flaws of `cards` its shop.
fn arcadia_characters(
    options: &toml::Table,
    cards: &[Card],
    s: Settings,
    c: &Climb,
    runner: &Runner<'_>,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<Searched, BalanceError> {
    let src = crate::games::arcadia::matchfile::source_of(options).map_err(options_error)?;
    let lookup = index(src.cards.clone(), cards);
    if src.characters.len() != 2 || s.seat > 1 {
        return Err(BalanceError::Field(
            "--builds: an Arcadia quest of two characters is searched".into(),
        ));
    }
    let (setup, chars, limit, seat) = (&src.setup, &src.characters, src.day_limit, s.seat);
    let shop = lookup.cards();
    let neighbours = |b: &CharacterFile| {
        let mut now = chars.clone();
        now[seat] = b.clone();
        arcadia_moves(setup, &now, seat, shop, &lookup)
    };
    let name = |b: &CharacterFile| arcadia_name(b, &lookup);
    let ready = |b: &CharacterFile| -> Result<Match, String> {
        let mut now = chars.clone();
        now[seat] = b.clone();
        Match::new(setup, &now, &lookup, limit).map_err(|e| e.to_string())
    };
    let play = |m: &Match, i: u64| -> u8 {
        let g = game_seed(s.seed, i);
        let o = play_seeded(ArcadiaGame::new(m), RngDice::new(g), &[s.ai], g);
        score(o.verdict, seat)
    };
    let space = Space {
        neighbours: &neighbours,
        name: &name,
        ready: &ready,
        play: &play,
    };
    let climbed = climb(std::slice::from_ref(&chars[seat]), &space, c, runner, tick)?;
    Ok(Searched::of(
        format!(
            "{} as built, on the setup given",
            chars[1 - seat].display_name()
        ),
        climbed,
        |b| b.to_toml(),
    ))
}

/// The legal squads one move from `squad`: a member swapped for an ally hero or unit of
/// `lookup` not in it, the squad rules checked (`check_squad`: one race in Story Mode, no
/// card twice), with the move in words. The size is the squad's: the mission deploys the
/// squad as given (docs/rulings.md). Members are written by id.
pub fn ruunara_moves(squad: &SquadFile, lookup: &CardIndex) -> Vec<(String, SquadFile)> {
    use crate::games::ruunara::rules::check_squad;
    let members = check_squad(squad, lookup).members;
    let allies: Vec<&crate::games::ruunara::model::Figure> = lookup
        .cards()
        .iter()
        .filter_map(|c| match c {
            Card::Ruunara(f) if f.faction == Allegiance::Ally => Some(f),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for (k, m) in members.iter().enumerate() {
        for f in &allies {
            if members.iter().any(|x| x.id == f.id) {
                continue;
            }
            let mut v = squad.clone();
            v.members = members.iter().map(|x| x.id.clone()).collect();
            v.members[k] = f.id.clone();
            if check_squad(&v, lookup).violations.is_empty() {
                out.push((format!("{} for {}", f.name, m.name), v));
            }
        }
    }
    out
}

/// [`Builds::Squads`]: Ruunara's squad against the mission as given, in its mode.
fn ruunara_squads(
    options: &toml::Table,
    cards: &[Card],
    s: Settings,
    c: &Climb,
    runner: &Runner<'_>,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<Searched, BalanceError> {
    use crate::games::ruunara::matchfile;
    use crate::games::ruunara::rules::check_squad;
    let src = matchfile::source_of(options).map_err(options_error)?;
    if s.seat != 0 {
        return Err(BalanceError::Field(
            "--builds: a Ruunara squad is seat 1 (the mission plays the rest)".into(),
        ));
    }
    let lookup = index(src.cards.clone(), cards);
    let mut start = src.squad.clone();
    start.members = check_squad(&src.squad, &lookup)
        .members
        .iter()
        .map(|f| f.id.clone())
        .collect();
    let neighbours = |b: &SquadFile| ruunara_moves(b, &lookup);
    let name = |b: &SquadFile| {
        check_squad(b, &lookup)
            .members
            .iter()
            .map(|f| f.name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let ready = |b: &SquadFile| -> Result<Mission, String> {
        let m = matchfile::compile(&lookup, &src.mission, &src.mission_file, b)?;
        m.setup.with_mode(src.mode).map_err(|e| e.to_string())
    };
    let play = |m: &Mission, i: u64| -> u8 {
        let g = game_seed(s.seed, i);
        let o = play_seeded(RuunaraGame::new(m), RngDice::new(g), &[s.ai], g);
        score(o.verdict, 0)
    };
    let space = Space {
        neighbours: &neighbours,
        name: &name,
        ready: &ready,
        play: &play,
    };
    let climbed = climb(std::slice::from_ref(&start), &space, c, runner, tick)?;
    Ok(Searched::of(
        format!("the mission {}", src.mission_file),
        climbed,
        |b| b.to_toml(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::Stopping;
    use std::sync::atomic::AtomicBool;

    /// Builds are numbers; a build's neighbours are one more and one less (0 to 9); a
    /// build n wins n games in 10 (by game index); 7 cannot be played.
    fn numbers(b: &u8) -> Vec<(String, u8)> {
        [b.checked_sub(1), (*b < 9).then_some(b + 1)]
            .into_iter()
            .flatten()
            .map(|n| (format!("{n} for {b}"), n))
            .collect()
    }

    #[test]
    fn a_climb_moves_to_a_stronger_neighbour_and_reports_the_strongest_first() {
        let never = AtomicBool::new(false);
        let runner = Runner::new(Some(1), Stopping::default(), &never).unwrap();
        let c = Climb {
            games: 10,
            steps: 20,
            keep: 2,
            ..Climb::default()
        };
        let name = |b: &u8| b.to_string();
        let ready = |b: &u8| Ok(*b);
        let play = |&b: &u8, i: u64| if i < u64::from(b) { 2 } else { 0 };
        let space = Space {
            neighbours: &numbers,
            name: &name,
            ready: &ready,
            play: &play,
        };
        let climbed = climb(&[3u8], &space, &c, &runner, &|_| {}).unwrap();
        // 3 to 9, and 2 beside the start: each measured once.
        assert_eq!(climbed.measured, 8);
        let found = climbed.found;
        assert_eq!(found[0].build, 9);
        assert_eq!(found[0].rate.win_rate, 0.9);
        assert_eq!(found[0].path.last().unwrap(), "9 for 8");
        assert_eq!(found[1].build, 8);
        // Bounded: two steps from 3 reach 5 at most.
        let short = climb(&[3u8], &space, &Climb { steps: 2, ..c }, &runner, &|_| {}).unwrap();
        assert_eq!(short.found[0].build, 5);
        // A build that cannot be played is left out, and the climb stops before it.
        let not_seven = |b: &u8| if *b == 7 { Err("no".into()) } else { Ok(*b) };
        let walled = Space {
            ready: &not_seven,
            ..space
        };
        let found = climb(&[3u8], &walled, &c, &runner, &|_| {}).unwrap().found;
        assert_eq!(found[0].build, 6);
        assert!(climb(&[7u8], &walled, &c, &runner, &|_| {}).is_err());
    }

    #[test]
    fn a_step_measures_at_most_the_cap_chosen_by_the_seed() {
        let all: Vec<u32> = (0..100).collect();
        let a = sample(all.clone(), 10, 5);
        assert_eq!(a.len(), 10);
        assert!(a.windows(2).all(|w| w[0] < w[1]), "in their order: {a:?}");
        assert_eq!(a, sample(all.clone(), 10, 5));
        assert_ne!(a, sample(all.clone(), 10, 6));
        assert_eq!(sample(all.clone(), 200, 5), all);
    }

    fn cards() -> Vec<Card> {
        crate::catalogue::bundled_cards().unwrap()
    }

    fn runner(threads: usize, never: &AtomicBool) -> Runner<'_> {
        Runner::new(Some(threads), Stopping::default(), never).unwrap()
    }

    /// A short search: 6 games a build, 6 moves a step, 2 steps.
    fn short() -> Climb {
        Climb {
            games: 6,
            steps: 2,
            keep: 3,
            candidates: 6,
            seed: 3,
        }
    }

    #[test]
    fn arcadia_characters_found_are_legal_at_least_as_strong_as_the_start_and_the_same_at_any_thread_count()
     {
        let cards = cards();
        let ex = crate::games::arcadia::examples::setups()
            .into_iter()
            .find(|e| e.file == "legal-long-road.setup.toml")
            .unwrap();
        let (_, src) =
            crate::games::arcadia::matchfile::compile(&ex.setup, &ex.characters, &cards, 200)
                .unwrap();
        let options = crate::games::arcadia::matchfile::options(&src);
        let s = Settings {
            ai: Policy::Greedy,
            seed: 1,
            seat: 1,
        };
        let never = AtomicBool::new(false);
        let played = std::sync::atomic::AtomicU64::new(0);
        let one = search(
            Builds::Characters,
            &options,
            &cards,
            s,
            &short(),
            &runner(1, &never),
            &|n| {
                played.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
            },
        )
        .unwrap();
        // Progress: every game of every build measured, within the bound.
        let played = played.into_inner();
        assert_eq!(played, one.measured as u64 * 6);
        assert!(played <= short().most_games());
        let two = search(
            Builds::Characters,
            &options,
            &cards,
            s,
            &short(),
            &runner(2, &never),
            &|_| {},
        )
        .unwrap();
        assert_eq!(one, two);
        assert!(one.against.contains(ex.characters[0].display_name()));
        assert_eq!(one.builds.len(), 3, "{one:?}");
        let start = one.builds.iter().find(|b| b.path == ["start"]);
        let best = &one.builds[0];
        if let Some(start) = start {
            assert!(best.rate.win_rate >= start.rate.win_rate);
        }
        assert!(
            one.builds
                .windows(2)
                .all(|w| w[0].rate.win_rate >= w[1].rate.win_rate)
        );
        for b in &one.builds {
            assert_eq!(b.rate.games, 6);
            let c = CharacterFile::parse(&b.file, "found").unwrap();
            let mut chars = ex.characters.to_vec();
            chars[1] = c;
            let r = check_setup(&ex.setup, &chars, &cards);
            assert!(r.is_legal(), "{}: {:?}", b.name, r.violations);
            assert_eq!(b.path[0], "start");
            assert!(b.path.len() <= 3);
        }
    }

    #[test]
    fn arcadia_moves_are_each_legal_and_one_card_apart() {
        let cards = cards();
        let ex = crate::games::arcadia::examples::setups()
            .into_iter()
            .find(|e| e.file == "legal-starter.setup.toml")
            .unwrap();
        let moves = arcadia_moves(&ex.setup, &ex.characters, 0, &cards, &cards);
        assert!(moves.len() > 5, "{}", moves.len());
        let c = &ex.characters[0];
        for (m, v) in &moves {
            let mut chars = ex.characters.to_vec();
            chars[0] = v.clone();
            assert!(check_setup(&ex.setup, &chars, &cards).is_legal(), "{m}");
            let diff = |a: &[String], b: &[String]| a.iter().filter(|x| !b.contains(x)).count();
            let changed = diff(&v.merits, &c.merits)
                + diff(&c.merits, &v.merits)
                + diff(&v.flaws, &c.flaws)
                + diff(&c.flaws, &v.flaws);
            assert!((1..=2).contains(&changed), "{m}: {v:?}");
        }
    }

    #[test]
    fn ruunara_squads_found_are_legal_deployable_and_the_same_at_any_thread_count() {
        use crate::games::ruunara::matchfile;
        let cards = cards();
        let (mission_file, mission) = crate::games::ruunara::examples::missions()
            .into_iter()
            .find(|(f, _)| f == "survive.mission.toml")
            .unwrap();
        let (_, squad) = crate::games::ruunara::examples::squads()
            .into_iter()
            .find(|(f, _)| f == "legal-ardann-story.squad.toml")
            .unwrap();
        let options = matchfile::options(&matchfile::Source {
            mission_file: mission_file.clone(),
            mission: mission.to_string(),
            squad: squad.clone(),
            cards: Vec::new(),
            mode: crate::games::ruunara::engine::PlayMode::Solo,
        });
        let s = Settings {
            ai: Policy::Greedy,
            seed: 2,
            seat: 0,
        };
        let never = AtomicBool::new(false);
        let one = search(
            Builds::Squads,
            &options,
            &cards,
            s,
            &short(),
            &runner(1, &never),
            &|_| {},
        )
        .unwrap();
        let two = search(
            Builds::Squads,
            &options,
            &cards,
            s,
            &short(),
            &runner(2, &never),
            &|_| {},
        )
        .unwrap();
        assert_eq!(one, two);
        assert!(!one.builds.is_empty());
        for b in &one.builds {
            let v = SquadFile::parse(&b.file, "found").unwrap();
            assert_eq!(v.members.len(), squad.members.len());
            assert!(
                matchfile::compile(&cards, mission, &mission_file, &v).is_ok(),
                "{}",
                b.name
            );
        }
        let start = one.builds.iter().find(|b| b.path == ["start"]);
        if let Some(start) = start {
            assert!(one.builds[0].rate.win_rate >= start.rate.win_rate);
        }
        // Seat 2 of a solo mission is refused, said whole.
        let e = search(
            Builds::Squads,
            &options,
            &cards,
            Settings { seat: 1, ..s },
            &short(),
            &runner(1, &never),
            &|_| {},
        )
        .unwrap_err();
        assert!(e.to_string().contains("seat 1"), "{e}");
    }
}
