//! A whole set swept (`deckwright balance sweep GAME [QUERY]`): every card of a selection
//! measured against its own field, one file a card, then ranked with intervals, a matchup
//! matrix and the outliers flagged. A card's file is written (atomically, by the face) as
//! soon as it is measured and carries the sweep's run id, so an interrupted sweep resumes
//! from the files it left, and shards (`--shard K/N`: card j goes to shard j mod N + 1)
//! measure disjoint cards into one folder that a last run ranks. A file keeps sums, never
//! rates, so a ranking read back from files is the ranking measured, figure for figure.

use serde::{Deserialize, Serialize};

use super::iconica::{Balance, Settings, Standing, legal_parties, rank_interval};
use super::{BalanceError, Rate, Runner, Stopped};
use crate::games::iconica::model::Character;

/// What a card's sweep file says it is.
pub const KIND: &str = "deckwright-sweep-card";
/// The format of a card's sweep file.
pub const FORMAT: u32 = 1;

/// One cell of a card's matchup row: its games and half-wins against one opponent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    pub name: String,
    pub games: u64,
    pub half_wins: u64,
}

/// One card measured: its field run's sums and its matchup row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardResult {
    /// [`KIND`].
    pub kind: String,
    /// [`FORMAT`].
    pub format: u32,
    /// The sweep's run id (the same for every card of it).
    pub run_id: String,
    pub id: String,
    pub name: String,
    pub games: u64,
    pub half_wins: u64,
    /// Why its run stopped (`precision`, `max_games`).
    pub stopped: String,
    pub matchups: Vec<Cell>,
}

impl CardResult {
    /// Its field win rate.
    pub fn rate(&self) -> Rate {
        let stopped = if self.stopped == Stopped::MaxGames.as_str() {
            Stopped::MaxGames
        } else {
            Stopped::Precision
        };
        Rate::of_sums(self.half_wins, self.games, stopped)
    }

    /// Whether it is a result of the sweep `run_id` of `id` in this format.
    pub fn fits(&self, run_id: &str, id: &str) -> bool {
        self.kind == KIND && self.format == FORMAT && self.run_id == run_id && self.id == id
    }
}

/// Half-wins of a rate over `games` (its rate times twice its games: exact).
fn half_wins(r: &Rate) -> u64 {
    (r.win_rate * 2.0 * r.games as f64).round() as u64
}

/// The shard (1-based, of `n`) that measures the `j`-th card of a selection.
pub fn shard_of(j: usize, n: u64) -> u64 {
    (j as u64 % n.max(1)) + 1
}

/// Measures `pool[index]` (an Iconica character) against its own generated field.
pub fn measure(
    pool: &[Character],
    index: usize,
    settings: Settings,
    runner: &Runner<'_>,
    run_id: &str,
) -> Result<CardResult, BalanceError> {
    let card = &pool[index];
    let mut b = Balance::new(pool, card, None, settings, runner)?;
    let rate = b.rate()?;
    let matchups = b
        .matchups(rate.games)
        .into_iter()
        .map(|m| Cell {
            half_wins: half_wins(&m.rate),
            games: m.rate.games,
            name: m.name,
        })
        .collect();
    Ok(CardResult {
        kind: KIND.into(),
        format: FORMAT,
        run_id: run_id.into(),
        id: card.id.clone(),
        name: card.name.clone(),
        games: rate.games,
        half_wins: half_wins(&rate),
        stopped: rate.stopped.as_str().into(),
        matchups,
    })
}

/// The cards of `pool` a sweep can measure: those in at least one legal party.
pub fn measurable(pool: &[Character]) -> Vec<bool> {
    let parties = legal_parties(pool);
    (0..pool.len())
        .map(|i| parties.iter().any(|p| p.contains(&i)))
        .collect()
}

/// One row of a sweep's ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub id: String,
    pub name: String,
    pub rate: Rate,
    /// 1 = the highest win rate.
    pub position: usize,
    /// The positions it may hold given every rate's 95% interval.
    pub interval: (usize, usize),
    pub standing: Standing,
}

impl Row {
    /// Decided outside the fair band.
    pub fn outlier(&self) -> bool {
        matches!(self.standing, Standing::TooStrong | Standing::TooWeak)
    }
}

/// The cards ranked by win rate (ties by id), each with its rank interval and verdict.
pub fn rank(results: &[CardResult]) -> Vec<Row> {
    let mut table: Vec<(String, String, Rate)> = results
        .iter()
        .map(|r| (r.id.clone(), r.name.clone(), r.rate()))
        .collect();
    table.sort_by(|a, b| b.2.win_rate.total_cmp(&a.2.win_rate).then(a.0.cmp(&b.0)));
    table
        .iter()
        .map(|(id, name, rate)| Row {
            id: id.clone(),
            name: name.clone(),
            rate: *rate,
            position: 1 + table
                .iter()
                .filter(|t| t.2.win_rate > rate.win_rate)
                .count(),
            interval: rank_interval(&table, id),
            standing: Standing::of(rate),
        })
        .collect()
}

/// The matchup matrix: the opponents met by any card (in the order first met, row by row),
/// and for each ranked row its win rate against each (`None`: no game).
pub fn matrix(rows: &[Row], results: &[CardResult]) -> (Vec<String>, Vec<Vec<Option<f64>>>) {
    let mut columns: Vec<String> = Vec::new();
    for r in results {
        for c in &r.matchups {
            if !columns.contains(&c.name) {
                columns.push(c.name.clone());
            }
        }
    }
    let cells = rows
        .iter()
        .map(|row| {
            let r = results.iter().find(|r| r.id == row.id);
            columns
                .iter()
                .map(|col| {
                    let c = r?.matchups.iter().find(|c| &c.name == col)?;
                    (c.games > 0).then(|| c.half_wins as f64 / (2 * c.games) as f64)
                })
                .collect()
        })
        .collect();
    (columns, cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(id: &str, half_wins: u64, games: u64) -> CardResult {
        CardResult {
            kind: KIND.into(),
            format: FORMAT,
            run_id: "r".into(),
            id: id.into(),
            name: id.to_uppercase(),
            games,
            half_wins,
            stopped: "precision".into(),
            matchups: vec![Cell {
                name: "x".into(),
                games,
                half_wins,
            }],
        }
    }

    #[test]
    fn a_ranking_reads_back_from_its_files_to_the_same_figures() {
        let rs = vec![
            result("a", 900, 1000),
            result("b", 1300, 1000),
            result("c", 920, 1000),
        ];
        let rows = rank(&rs);
        assert_eq!(
            rows.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
            ["b", "c", "a"]
        );
        assert_eq!(rows[0].standing, Standing::TooStrong);
        assert!(rows[0].outlier());
        // a and c overlap: each may be 2nd or 3rd.
        assert_eq!(rows[1].interval, (2, 3));
        let back: Vec<CardResult> = rs
            .iter()
            .map(|r| serde_json::from_str(&serde_json::to_string(r).unwrap()).unwrap())
            .collect();
        assert_eq!(rank(&back), rows);
        let (cols, cells) = matrix(&rows, &rs);
        assert_eq!(cols, ["x"]);
        assert_eq!(cells[0], [Some(0.65)]);
        assert!(rs[0].fits("r", "a") && !rs[0].fits("s", "a"));
    }

    #[test]
    fn cards_are_dealt_to_shards_in_turn() {
        let got: Vec<u64> = (0..5).map(|j| shard_of(j, 2)).collect();
        assert_eq!(got, [1, 2, 1, 2, 1]);
    }
}
