//! A balance run split across processes: shard K of N plays its block of the run's game
//! indices (game i is seeded from the run's seed and i whatever plays it, `--max-games` of
//! them in all) and keeps each game's score; [`merge`] puts the blocks of every shard back
//! in index order, and the run's own stopping rule, applied to them, gives the report the
//! run gives in one process, figure for figure. The shards of one run are tied together by
//! its run id and checked as `sim`'s are ([`crate::sim::shard::check_places`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::sim::shard::{MergeError, Place, Shard, check_places};

/// What a balance tally file says it is.
pub const KIND: &str = "deckwright-balance-tally";
/// The balance tally format this program writes and reads.
pub const FORMAT: u32 = 1;

/// One shard's scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreFile {
    /// [`KIND`].
    pub kind: String,
    /// [`FORMAT`].
    pub format: u32,
    pub run_id: String,
    pub shard: Shard,
    /// The game indices it played.
    pub range: [u64; 2],
    /// Seconds it took.
    pub seconds: f64,
    /// What the run is (its `games` the whole run's, the face's words to report it).
    pub run: Value,
    /// Each game's score in half-wins, in index order: one digit a game (`0`, `1`, `2`).
    pub scores: String,
}

/// Scores (0 to 2) as one digit each.
pub fn encode(scores: &[u8]) -> String {
    scores
        .iter()
        .map(|&s| char::from(b'0' + s.min(9)))
        .collect()
}

/// The digits of a [`ScoreFile`] as scores; `None` for any other character or a score
/// above 2.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    text.bytes()
        .map(|b| (b'0'..=b'2').contains(&b).then(|| b - b'0'))
        .collect()
}

/// A whole run's scores from its shards.
#[derive(Debug, Clone, PartialEq)]
pub struct Merged {
    pub run_id: String,
    pub run: Value,
    /// Every game's score, games `0..games` of the run.
    pub scores: Vec<u8>,
    /// The shards' seconds added.
    pub seconds: f64,
}

/// The scores of every shard of one run, in index order, each file named for the errors.
pub fn merge(files: &[(String, ScoreFile)]) -> Result<Merged, MergeError> {
    let mut decoded = Vec::with_capacity(files.len());
    for (name, f) in files {
        let s = decode(&f.scores).ok_or_else(|| MergeError::Bad {
            file: name.clone(),
            why: "its scores are not digits 0 to 2".into(),
        })?;
        decoded.push(s);
    }
    let places: Vec<(String, Place<'_>)> = files
        .iter()
        .zip(&decoded)
        .map(|((name, f), s)| {
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
                    played: s.len() as u64,
                },
            )
        })
        .collect();
    let seconds = check_places(&places, KIND, FORMAT)?;
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&i| files[i].1.range[0]);
    let scores = order.into_iter().flat_map(|i| decoded[i].clone()).collect();
    let first = &files[0].1;
    Ok(Merged {
        run_id: first.run_id.clone(),
        run: first.run.clone(),
        scores,
        seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(k: u64, n: u64, id: &str, games: u64) -> (String, ScoreFile) {
        let r = Shard { k, n }.range(games);
        let scores: Vec<u8> = (r.start..r.end).map(|i| (i % 3) as u8).collect();
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
                scores: encode(&scores),
            },
        )
    }

    #[test]
    fn shards_put_back_in_order_give_every_score_of_the_run() {
        let m = merge(&[
            file(3, 3, "a", 11),
            file(1, 3, "a", 11),
            file(2, 3, "a", 11),
        ])
        .unwrap();
        let want: Vec<u8> = (0..11).map(|i| (i % 3) as u8).collect();
        assert_eq!(m.scores, want);
        assert_eq!(m.seconds, 1.5);
        let e = merge(&[file(1, 2, "a", 11)]).unwrap_err();
        assert_eq!(e.to_string(), "shard 2 of 2 is missing");
        let e = merge(&[file(1, 2, "a", 11), file(2, 2, "b", 11)]).unwrap_err();
        assert!(e.to_string().contains("different runs"), "{e}");
        let mut bad = file(2, 2, "a", 11);
        bad.1.scores.push('7');
        let e = merge(&[file(1, 2, "a", 11), bad]).unwrap_err();
        assert!(e.to_string().contains("not digits"), "{e}");
        let mut short = file(2, 2, "a", 11);
        short.1.scores.pop();
        let e = merge(&[file(1, 2, "a", 11), short]).unwrap_err();
        assert!(e.to_string().contains("not its shard's"), "{e}");
    }

    #[test]
    fn scores_round_trip_as_digits() {
        let s = vec![0, 1, 2, 2, 0];
        assert_eq!(decode(&encode(&s)), Some(s));
        assert_eq!(decode("013"), None);
    }
}
