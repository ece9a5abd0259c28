//! A balance run split across processes, whatever the game and whatever the report: every
//! score a balance report reads comes through its [`super::Runner`], so a runner that
//! records (shard K of N) or replays (the merge) makes any report shardable with no code of
//! the game's own.
//!
//! A report is made of *runs* (a card's field rate, a paired ablation, a rank entry, a
//! policy's verdict, a sequential test's pairs): each a list of games `0..games` (the run's
//! `--max-games`), game i a pure function of (the run's seed, i). Each run is named by a key
//! (the label the report gives it, the kind of game it plays and how many runs of that
//! label and kind came before), the same in every process that makes the same report.
//!
//! - **Record** (`--shard K/N`): the first time a run is asked for, the shard plays its
//!   block of all `games` indices and keeps their scores under the run's key; the report
//!   carries on with those (and a draw for each game of another shard), so it asks for
//!   every run it would ask for in one process. Its figures are thrown away; what is kept is
//!   the [`ScoreFile`]. Where the report would choose what to measure from a figure (the
//!   suggestions' search), it measures every choice while recording ([`super::Runner::explores`]).
//! - **Replay** (`merge`): every run's blocks put back in index order ([`merge`]); the
//!   report is made again by the same code, each run read from the merge, nothing played,
//!   so it is the single run's report figure for figure, its stopping rules included.
//!
//! The shards of one run are tied together by its run id and checked as `sim`'s are
//! ([`crate::sim::shard::check_places`]).

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::sim::shard::{MergeError, Place, Shard, check_places};

/// What a balance tally file says it is.
pub const KIND: &str = "deckwright-balance-tally";
/// The balance tally format this program writes and reads (2: every run of the report).
pub const FORMAT: u32 = 2;

/// The symbols of a score, one a game: a score (0 to 63) is its index here, so the
/// half-wins 0, 1 and 2 are the digits `0`, `1` and `2`.
const SYMBOLS: &[u8; 64] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";

/// The largest score a tally keeps.
pub const MAX_SCORE: u8 = 63;

/// One run's games of one shard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunScores {
    /// The run's key (see the module's notes).
    pub key: String,
    /// Each game's score of the shard's block, in index order, a symbol a game.
    pub scores: String,
}

/// One shard's scores of every run of a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreFile {
    /// [`KIND`].
    pub kind: String,
    /// [`FORMAT`].
    pub format: u32,
    pub run_id: String,
    pub shard: Shard,
    /// The game indices it played of every run.
    pub range: [u64; 2],
    /// Seconds it took.
    pub seconds: f64,
    /// What the report is (`games`: every run's games; the face's words to make it again).
    pub run: Value,
    /// Every run the report asked for, in key order.
    pub runs: Vec<RunScores>,
}

/// Scores (0 to [`MAX_SCORE`]) as one symbol each.
pub fn encode(scores: &[u8]) -> String {
    scores
        .iter()
        .map(|&s| char::from(SYMBOLS[usize::from(s.min(MAX_SCORE))]))
        .collect()
}

/// The symbols of a [`RunScores`] as scores; `None` for a character that is not one.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    text.bytes()
        .map(|b| SYMBOLS.iter().position(|&s| s == b).map(|i| i as u8))
        .collect()
}

/// A whole report's runs from its shards.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    pub run_id: String,
    pub run: Value,
    /// Every run's scores, games `0..games`, by key.
    pub runs: BTreeMap<String, Vec<u8>>,
    /// The shards' seconds added.
    pub seconds: f64,
}

/// The runs of every shard of one report, each put back in index order, each file named for
/// the errors: the shards must be every shard of one run (as `sim`'s), and each must hold
/// the same runs.
pub fn merge(files: &[(String, ScoreFile)]) -> Result<Merged, MergeError> {
    let mut decoded: Vec<BTreeMap<&str, Vec<u8>>> = Vec::with_capacity(files.len());
    for (name, f) in files {
        let bad = |why: String| MergeError::Bad {
            file: name.clone(),
            why,
        };
        let mut runs = BTreeMap::new();
        for r in &f.runs {
            let s = decode(&r.scores)
                .ok_or_else(|| bad(format!("the scores of run `{}` are not scores", r.key)))?;
            if s.len() as u64 != f.range[1].saturating_sub(f.range[0]) {
                return Err(bad(format!("run `{}` is not its shard's games", r.key)));
            }
            if runs.insert(r.key.as_str(), s).is_some() {
                return Err(bad(format!("run `{}` is there twice", r.key)));
            }
        }
        decoded.push(runs);
    }
    let places: Vec<(String, Place<'_>)> = files
        .iter()
        .map(|(name, f)| {
            (
                name.clone(),
                Place {
                    kind: &f.kind,
                    format: f.format,
                    run_id: &f.run_id,
                    shard: f.shard,
                    range: f.range,
                    seconds: f.seconds,
                    games: f.run.get("games").and_then(Value::as_u64),
                    played: f.range[1].saturating_sub(f.range[0]),
                },
            )
        })
        .collect();
    let seconds = check_places(&places, KIND, FORMAT)?;
    let keys: Vec<&str> = decoded[0].keys().copied().collect();
    for ((name, _), runs) in files.iter().zip(&decoded) {
        if runs.keys().copied().ne(keys.iter().copied()) {
            return Err(MergeError::Bad {
                file: name.clone(),
                why: format!("its runs are not those of {}", files[0].0),
            });
        }
    }
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&i| files[i].1.range[0]);
    let runs = keys
        .iter()
        .map(|&k| {
            let scores = order
                .iter()
                .flat_map(|&i| decoded[i][k].iter().copied())
                .collect();
            (k.to_string(), scores)
        })
        .collect();
    let first = &files[0].1;
    Ok(Merged {
        run_id: first.run_id.clone(),
        run: first.run.clone(),
        runs,
        seconds,
    })
}

/// The runs of a report as a runner records or replays them (shared by every runner of
/// one report, so their keys count on across runners).
#[derive(Debug)]
pub struct Ledger {
    /// Recording: the shard whose block each run plays. Replaying: `None`.
    shard: Option<Shard>,
    /// Every run's games.
    games: u64,
    /// How many runs of each label and kind have been asked for.
    counts: HashMap<String, u32>,
    /// Recording: each run's block; replaying: each run's games.
    runs: BTreeMap<String, Vec<u8>>,
}

/// What the runner does with a run's first request, as the ledger says.
#[derive(Debug)]
pub(super) enum Next<'l> {
    /// Play these game indices and [`Ledger::keep`] their scores under the key.
    Play(String, std::ops::Range<u64>),
    /// The run's whole scores.
    Known(&'l [u8]),
}

impl Ledger {
    /// A ledger recording shard `shard` of runs of `games` games.
    pub fn recording(shard: Shard, games: u64) -> Ledger {
        Ledger {
            shard: Some(shard),
            games,
            counts: HashMap::new(),
            runs: BTreeMap::new(),
        }
    }

    /// A ledger replaying merged runs of `games` games.
    pub fn replaying(games: u64, runs: BTreeMap<String, Vec<u8>>) -> Ledger {
        Ledger {
            shard: None,
            games,
            counts: HashMap::new(),
            runs,
        }
    }

    /// Whether it records (a shard) rather than replays.
    pub fn records(&self) -> bool {
        self.shard.is_some()
    }

    /// Every run's games.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// What to do for the first request of a run of `label` playing games of `kind`.
    pub(super) fn next(&mut self, label: &str, kind: &str) -> Result<Next<'_>, String> {
        let n = self
            .counts
            .entry(format!("{label}\u{1f}{kind}"))
            .or_insert(0);
        let key = format!("{label}|{kind}|{n}");
        *n += 1;
        match self.shard {
            Some(s) => Ok(Next::Play(key, s.range(self.games))),
            None => self.runs.get(&key).map(|s| Next::Known(s)).ok_or_else(|| {
                format!("the tallies hold no run `{key}`: they were written by another version of deckwright or another command")
            }),
        }
    }

    /// Keeps a recorded run's block.
    pub(super) fn keep(&mut self, key: String, scores: Vec<u8>) {
        self.runs.insert(key, scores);
    }

    /// The recorded runs, for the shard's [`ScoreFile`].
    pub fn runs(&self) -> Vec<RunScores> {
        self.runs
            .iter()
            .map(|(key, s)| RunScores {
                key: key.clone(),
                scores: encode(s),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(k: u64, n: u64, id: &str, games: u64) -> (String, ScoreFile) {
        let r = Shard { k, n }.range(games);
        let scores: Vec<u8> = (r.start..r.end).map(|i| (i % 3) as u8).collect();
        let codes: Vec<u8> = (r.start..r.end).map(|i| (i % 64) as u8).collect();
        (
            format!("b{k}.json"),
            ScoreFile {
                kind: KIND.into(),
                format: FORMAT,
                run_id: id.into(),
                shard: Shard { k, n },
                range: [r.start, r.end],
                seconds: 0.5,
                run: serde_json::json!({"games": games}),
                runs: vec![
                    RunScores {
                        key: "|a|0".into(),
                        scores: encode(&scores),
                    },
                    RunScores {
                        key: "|b|0".into(),
                        scores: encode(&codes),
                    },
                ],
            },
        )
    }

    #[test]
    fn shards_put_back_in_order_give_every_score_of_every_run() {
        let m = merge(&[
            file(3, 3, "a", 100),
            file(1, 3, "a", 100),
            file(2, 3, "a", 100),
        ])
        .unwrap();
        let want: Vec<u8> = (0..100).map(|i| (i % 3) as u8).collect();
        assert_eq!(m.runs["|a|0"], want);
        let codes: Vec<u8> = (0..100).map(|i| (i % 64) as u8).collect();
        assert_eq!(m.runs["|b|0"], codes);
        assert_eq!(m.seconds, 1.5);
        let e = merge(&[file(1, 2, "a", 11)]).unwrap_err();
        assert_eq!(e.to_string(), "shard 2 of 2 is missing");
        let e = merge(&[file(1, 2, "a", 11), file(2, 2, "b", 11)]).unwrap_err();
        assert!(e.to_string().contains("different runs"), "{e}");
        let mut bad = file(2, 2, "a", 11);
        bad.1.runs[0].scores.push('*');
        let e = merge(&[file(1, 2, "a", 11), bad]).unwrap_err();
        assert!(e.to_string().contains("not scores"), "{e}");
        let mut short = file(2, 2, "a", 11);
        short.1.runs[0].scores.pop();
        let e = merge(&[file(1, 2, "a", 11), short]).unwrap_err();
        assert!(e.to_string().contains("not its shard's"), "{e}");
        let mut fewer = file(2, 2, "a", 11);
        fewer.1.runs.pop();
        let e = merge(&[file(1, 2, "a", 11), fewer]).unwrap_err();
        assert!(e.to_string().contains("its runs are not those"), "{e}");
    }

    #[test]
    fn scores_round_trip_as_symbols() {
        let s: Vec<u8> = (0..=MAX_SCORE).chain([0, 1, 2]).collect();
        assert_eq!(decode(&encode(&s)), Some(s));
        assert_eq!(encode(&[0, 1, 2]), "012");
        assert_eq!(decode("01*"), None);
    }

    #[test]
    fn a_ledger_keys_runs_by_label_kind_and_count() {
        let mut rec = Ledger::recording(Shard { k: 2, n: 2 }, 10);
        let Ok(Next::Play(key, range)) = rec.next("", "f") else {
            panic!()
        };
        assert_eq!((key.as_str(), range), ("|f|0", 5..10));
        rec.keep(key, vec![2; 5]);
        let Ok(Next::Play(key, _)) = rec.next("", "f") else {
            panic!()
        };
        assert_eq!(key, "|f|1");
        let Ok(Next::Play(key, _)) = rec.next("Start -10", "f") else {
            panic!()
        };
        assert_eq!(key, "Start -10|f|0");
        let mut rep = Ledger::replaying(10, BTreeMap::from([("|f|0".to_string(), vec![1; 10])]));
        assert!(matches!(rep.next("", "f"), Ok(Next::Known(s)) if s.len() == 10));
        assert!(rep.next("", "f").unwrap_err().contains("no run `|f|1`"));
    }
}
