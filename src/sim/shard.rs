//! A run split across processes or machines: shard K of N plays a contiguous block of the
//! run's game indices (game i is seeded from the run's seed and i whatever plays it), writes
//! its sums to a tally file, and [`merge`] adds the tallies of every shard into the sums the
//! whole run gives in one process. A run id (a hash of the game, its engine version, the
//! compiled setup, the options, the policies and the seed range) ties the shards of one run
//! together: merging refuses mixed runs, a shard given twice and missing shards, naming them.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{MAX_ENDINGS, Tally};
use crate::games::game::{Ending, MAX_SEATS};

/// What a tally file says it is.
pub const KIND: &str = "deckwright-tally";
/// The tally file format this program writes and reads.
pub const FORMAT: u32 = 1;
/// The most shards a run is split into.
pub const MAX_SHARDS: u64 = 100_000;

/// Shard `k` of `n` (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// `K/N`, or `auto` / `auto/N` with the index (and, where the scheduler says it, the
    /// count) read from the environment `var` gives: Slurm job arrays
    /// (`SLURM_ARRAY_TASK_ID`, less `SLURM_ARRAY_TASK_MIN`, of `SLURM_ARRAY_TASK_COUNT`),
    /// Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX`, from 0) and GNU parallel
    /// (`PARALLEL_SEQ`, from 1).
    pub fn parse(text: &str, var: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
        let (k, n) = match text.split_once('/') {
            Some((k, n)) => (k.trim(), Some(n.trim())),
            None => (text.trim(), None),
        };
        let num = |s: &str, what: &str| -> Result<u64, String> {
            s.parse::<u64>()
                .map_err(|_| format!("`{text}`: {what} `{s}` is not a whole number"))
        };
        let mut n = n.map(|n| num(n, "the shard count")).transpose()?;
        let k = if k == "auto" {
            let (k, count) = auto_index(&var)?;
            if n.is_none() {
                n = count;
            }
            k
        } else {
            num(k, "the shard")?
        };
        let n = n.ok_or_else(|| {
            format!("`{text}`: say how many shards (auto/N): the scheduler does not say")
        })?;
        if n == 0 || n > MAX_SHARDS {
            return Err(format!(
                "`{text}`: the shard count must be 1 to {MAX_SHARDS}"
            ));
        }
        if k == 0 || k > n {
            return Err(format!("`{text}`: the shard must be 1 to {n}"));
        }
        Ok(Shard { k, n })
    }

    /// The game indices this shard plays of a run of `games`: contiguous blocks that cover
    /// the run once, their sizes differing by at most one.
    pub fn range(self, games: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(games) * u128::from(k) / u128::from(self.n)) as u64;
        at(self.k - 1)..at(self.k)
    }
}

/// The shard index (from 1) and, when the scheduler says it, the count, from the environment.
fn auto_index(var: &impl Fn(&str) -> Option<String>) -> Result<(u64, Option<u64>), String> {
    let num = |name: &str| -> Result<Option<u64>, String> {
        match var(name) {
            None => Ok(None),
            Some(v) => v
                .trim()
                .parse::<u64>()
                .map(Some)
                .map_err(|_| format!("--shard auto: {name}=`{v}` is not a whole number")),
        }
    };
    if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let k = id.checked_sub(min).ok_or_else(|| {
            format!("--shard auto: SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {min}")
        })?;
        return Ok((k + 1, num("SLURM_ARRAY_TASK_COUNT")?));
    }
    if let Some(i) = num("JOB_COMPLETION_INDEX")? {
        return Ok((i + 1, None));
    }
    if let Some(seq) = num("PARALLEL_SEQ")? {
        return Ok((seq, None));
    }
    Err("--shard auto: no scheduler's index in the environment (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or PARALLEL_SEQ)".into())
}

/// A run's sums as a file keeps them (a [`Tally`] without its ending type).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    pub games: u64,
    pub wins: Vec<u64>,
    pub draws: u64,
    pub no_result: u64,
    pub turns: u64,
    /// Games by ending, in the game's ending order.
    pub ended: Vec<u64>,
}

impl<E: Ending> From<&Tally<E>> for Counts {
    fn from(t: &Tally<E>) -> Counts {
        Counts {
            games: t.games,
            wins: t.wins.to_vec(),
            draws: t.draws,
            no_result: t.no_result,
            turns: t.turns,
            ended: t.ended.to_vec(),
        }
    }
}

impl Counts {
    /// The sums as a [`Tally`] of `E`; `None` when they do not fit one (a damaged file).
    pub fn tally<E: Ending>(&self) -> Option<Tally<E>> {
        if self.wins.len() != MAX_SEATS || self.ended.len() != MAX_ENDINGS {
            return None;
        }
        let mut t = Tally::<E> {
            games: self.games,
            draws: self.draws,
            no_result: self.no_result,
            turns: self.turns,
            ..Tally::default()
        };
        t.wins.copy_from_slice(&self.wins);
        t.ended.copy_from_slice(&self.ended);
        Some(t)
    }

    /// These sums and `o`'s; `None` on overflow (a damaged file).
    fn plus(&self, o: &Counts) -> Option<Counts> {
        let add = |a: &[u64], b: &[u64]| -> Option<Vec<u64>> {
            (a.len() == b.len())
                .then(|| a.iter().zip(b).map(|(x, y)| x.checked_add(*y)).collect())
                .flatten()
        };
        Some(Counts {
            games: self.games.checked_add(o.games)?,
            wins: add(&self.wins, &o.wins)?,
            draws: self.draws.checked_add(o.draws)?,
            no_result: self.no_result.checked_add(o.no_result)?,
            turns: self.turns.checked_add(o.turns)?,
            ended: add(&self.ended, &o.ended)?,
        })
    }
}

/// One shard's tally file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TallyFile {
    /// [`KIND`].
    pub kind: String,
    /// [`FORMAT`].
    pub format: u32,
    pub run_id: String,
    pub shard: Shard,
    /// The game indices it played.
    pub range: [u64; 2],
    /// Seconds it took (the merged report's games per second).
    pub seconds: f64,
    /// What the run's report says besides its sums (the game, the seed, the whole run's
    /// games, the policies, the setup's names), as the game's report reads it.
    pub run: Value,
    pub counts: Counts,
}

/// The run id of a run described by `run` (game, seed, games, policies and the rest of what
/// its report names), of a game at engine version `engine`, whose compiled setup (every
/// card's numbers) prints as `setup`: 16 hex digits (FNV-1a, 64 bits).
pub fn run_id(run: &Value, engine: u32, setup: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        // A separator, so that two parts cannot run into each other.
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    eat(run.to_string().as_bytes());
    eat(&engine.to_le_bytes());
    eat(setup.as_bytes());
    format!("{h:016x}")
}

/// Why tallies cannot be merged; each names the files at fault.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MergeError {
    #[error("no tally files given")]
    Empty,
    #[error("{file} is not a tally file of this program: {why}")]
    Bad { file: String, why: String },
    #[error("{a} and {b} are shards of different runs (run ids {ida} and {idb})")]
    Mixed {
        a: String,
        b: String,
        ida: String,
        idb: String,
    },
    #[error("shard {k}/{n} is given twice: {a} and {b}")]
    Duplicate {
        k: u64,
        n: u64,
        a: String,
        b: String,
    },
    #[error("{a} splits the run in {na} shards, {b} in {nb}")]
    Split {
        a: String,
        na: u64,
        b: String,
        nb: u64,
    },
    #[error("shard{} {} of {n} {} missing", if .missing.len() > 1 { "s" } else { "" }, list(.missing), if .missing.len() > 1 { "are" } else { "is" })]
    Missing { missing: Vec<u64>, n: u64 },
}

fn list(v: &[u64]) -> String {
    const SHOWN: usize = 20;
    let mut s: Vec<String> = v.iter().take(SHOWN).map(|k| k.to_string()).collect();
    if v.len() > SHOWN {
        s.push(format!("and {} more", v.len() - SHOWN));
    }
    s.join(", ")
}

/// A whole run's sums from its shards.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    pub run_id: String,
    pub run: Value,
    pub counts: Counts,
    /// The shards' seconds added (the games per second of one process doing it all).
    pub seconds: f64,
}

/// What every shard's file says of its place in its run (a sim tally, a balance tally).
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    pub kind: &'a str,
    pub format: u32,
    pub run_id: &'a str,
    pub shard: Shard,
    /// The game indices it played.
    pub range: [u64; 2],
    pub seconds: f64,
    /// The whole run's games, as its description says.
    pub games: Option<u64>,
    /// The games its sums hold.
    pub played: u64,
}

/// Checks that `files` are every shard of one run of `kind` at `format`, each once, each
/// having played its own games: the seconds of all added, or what is wrong, naming files.
pub fn check_places(
    files: &[(String, Place<'_>)],
    kind: &str,
    format: u32,
) -> Result<f64, MergeError> {
    let (first_name, first) = files.first().ok_or(MergeError::Empty)?;
    let mut seen: BTreeMap<u64, &str> = BTreeMap::new();
    let mut seconds = 0.0;
    for (name, f) in files {
        if f.kind != kind || f.format != format {
            return Err(MergeError::Bad {
                file: name.clone(),
                why: format!("kind `{}` format {}", f.kind, f.format),
            });
        }
        if f.run_id != first.run_id {
            return Err(MergeError::Mixed {
                a: first_name.clone(),
                b: name.clone(),
                ida: first.run_id.to_string(),
                idb: f.run_id.to_string(),
            });
        }
        if f.shard.n != first.shard.n {
            return Err(MergeError::Split {
                a: first_name.clone(),
                na: first.shard.n,
                b: name.clone(),
                nb: f.shard.n,
            });
        }
        if let Some(a) = seen.insert(f.shard.k, name) {
            return Err(MergeError::Duplicate {
                k: f.shard.k,
                n: f.shard.n,
                a: a.to_string(),
                b: name.clone(),
            });
        }
        let bad = |why: String| MergeError::Bad {
            file: name.clone(),
            why,
        };
        // Before any arithmetic on it: a file's shard is checked like a typed one.
        if f.shard.k == 0 || f.shard.k > f.shard.n || f.shard.n > MAX_SHARDS {
            return Err(bad(format!("shard {}/{}", f.shard.k, f.shard.n)));
        }
        let want = f.games.map(|g| f.shard.range(g));
        if want != Some(f.range[0]..f.range[1]) || f.played != f.range[1] - f.range[0] {
            return Err(bad("its games are not its shard's".into()));
        }
        if !(f.seconds.is_finite() && f.seconds >= 0.0) {
            return Err(bad("its time is not a time".into()));
        }
        seconds += f.seconds;
    }
    let missing: Vec<u64> = (1..=first.shard.n)
        .filter(|k| !seen.contains_key(k))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Missing {
            missing,
            n: first.shard.n,
        });
    }
    Ok(seconds)
}

/// Adds the tallies of every shard of one run, each named (its file) for the errors.
pub fn merge(files: &[(String, TallyFile)]) -> Result<Merged, MergeError> {
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
                    played: f.counts.games,
                },
            )
        })
        .collect();
    let seconds = check_places(&places, KIND, FORMAT)?;
    let (_, first) = files.first().ok_or(MergeError::Empty)?;
    let mut counts: Option<Counts> = None;
    for (name, f) in files {
        counts = Some(match counts {
            None => f.counts.clone(),
            Some(c) => c.plus(&f.counts).ok_or_else(|| MergeError::Bad {
                file: name.clone(),
                why: "its sums do not add up with the others'".into(),
            })?,
        });
    }
    Ok(Merged {
        run_id: first.run_id.clone(),
        run: first.run.clone(),
        counts: counts.unwrap_or_default(),
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let v: Vec<(String, String)> = pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        move |k| v.iter().find(|(a, _)| a == k).map(|(_, b)| b.clone())
    }

    #[test]
    fn shards_cover_the_run_once_in_blocks() {
        for games in [0u64, 1, 7, 1000, 1001] {
            for n in 1..=9 {
                let mut next = 0;
                for k in 1..=n {
                    let r = Shard { k, n }.range(games);
                    assert_eq!(r.start, next);
                    assert!(r.end - r.start <= games / n + 1);
                    next = r.end;
                }
                assert_eq!(next, games);
            }
        }
    }

    #[test]
    fn a_shard_is_read_from_its_words_or_the_scheduler() {
        let none = env(&[]);
        assert_eq!(Shard::parse("2/5", &none), Ok(Shard { k: 2, n: 5 }));
        assert!(Shard::parse("0/5", &none).is_err());
        assert!(Shard::parse("6/5", &none).is_err());
        assert!(Shard::parse("x/5", &none).is_err());
        assert!(
            Shard::parse("auto/4", &none)
                .unwrap_err()
                .contains("no scheduler")
        );
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "7"),
            ("SLURM_ARRAY_TASK_MIN", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ]);
        assert_eq!(Shard::parse("auto", &slurm), Ok(Shard { k: 3, n: 4 }));
        let k8s = env(&[("JOB_COMPLETION_INDEX", "0")]);
        assert_eq!(Shard::parse("auto/3", &k8s), Ok(Shard { k: 1, n: 3 }));
        assert!(Shard::parse("auto", &k8s).unwrap_err().contains("how many"));
        let parallel = env(&[("PARALLEL_SEQ", "2")]);
        assert_eq!(Shard::parse("auto/2", &parallel), Ok(Shard { k: 2, n: 2 }));
    }

    fn file(k: u64, n: u64, id: &str) -> (String, TallyFile) {
        let r = Shard { k, n }.range(10);
        (
            format!("s{k}.json"),
            TallyFile {
                kind: KIND.into(),
                format: FORMAT,
                run_id: id.into(),
                shard: Shard { k, n },
                range: [r.start, r.end],
                seconds: 1.0,
                run: serde_json::json!({"game": "pig", "games": 10}),
                counts: Counts {
                    games: r.end - r.start,
                    wins: vec![r.end - r.start, 0, 0, 0],
                    ended: vec![0; MAX_ENDINGS],
                    ..Counts::default()
                },
            },
        )
    }

    #[test]
    fn merging_adds_every_shard_and_names_what_is_wrong() {
        let m = merge(&[file(2, 3, "a"), file(1, 3, "a"), file(3, 3, "a")]).unwrap();
        assert_eq!(m.counts.games, 10);
        assert_eq!(m.counts.wins[0], 10);
        assert_eq!(m.seconds, 3.0);
        let e = merge(&[file(1, 3, "a"), file(2, 3, "b")]).unwrap_err();
        assert!(
            e.to_string()
                .contains("s1.json and s2.json are shards of different runs"),
            "{e}"
        );
        let e = merge(&[file(1, 3, "a"), file(1, 3, "a")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "shard 1/3 is given twice: s1.json and s1.json"
        );
        let e = merge(&[file(1, 3, "a")]).unwrap_err();
        assert_eq!(e.to_string(), "shards 2, 3 of 3 are missing");
        let e = merge(&[file(1, 2, "a"), file(2, 3, "a")]).unwrap_err();
        assert!(e.to_string().contains("in 2 shards"), "{e}");
        // Regression: a hostile shard 0/0 was divided by before it was checked (a panic).
        for (k, n) in [(0, 0), (0, 2), (3, 2), (1, MAX_SHARDS + 1)] {
            let mut hostile = file(1, 2, "a");
            hostile.1.shard = Shard { k, n };
            let e = merge(&[hostile]).unwrap_err();
            assert!(e.to_string().contains("not a tally file"), "{k}/{n}: {e}");
        }
        let mut lying = file(2, 2, "a");
        lying.1.counts.games += 1;
        let e = merge(&[file(1, 2, "a"), lying]).unwrap_err();
        assert!(e.to_string().contains("not its shard's"), "{e}");
    }
}
