//! The Balance screen: reached from the top bar, it ranks every Iconica character (a small
//! ranking: few games a character) on a background job, sorts by a click on a header, and
//! exports the table to a CSV file that reads back with the same rows in the same order.

use std::time::{Duration, Instant};

use deckwright::app::DeckwrightApp;
use deckwright::app::balance_screen::{Column, Ranking};
use deckwright::games::ai::Policy;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::support::{app, click, harness};

/// Steps frames until the ranking is in.
fn wait_for_ranking(h: &mut Harness<'_, DeckwrightApp>) {
    let started = Instant::now();
    while h.state().balance.running() {
        h.step();
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the ranking never finished"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    h.run();
}

#[test]
fn the_balance_screen_ranks_sorts_and_exports_csv() {
    let mut h = harness(app());
    click(&mut h, "Balance");
    assert!(h.query_by_label("Balance: every card ranked").is_some());
    assert!(
        h.query_by_label("Nothing ranked yet: choose a game and Rank.")
            .is_some()
    );
    // A small ranking: few games a character, the fast random policy.
    {
        let s = &mut h.state_mut().balance;
        assert_eq!(s.ranking, Ranking::Iconica);
        s.ai = Policy::Random;
        s.max_games = 200;
    }
    click(&mut h, "Rank");
    assert!(h.state().balance.running());
    assert!(h.query_by_label("Cancel").is_some(), "Cancel while it runs");
    wait_for_ranking(&mut h);
    let rows = h.state().balance.sorted_rows();
    assert!(rows.len() >= 10, "{rows:?}");
    assert!(
        rows.iter()
            .all(|r| r.games == 200 && r.ci95.0 <= r.value && r.value <= r.ci95.1)
    );
    // Highest win rate first, then (a click on the header) lowest first.
    assert!(
        rows.windows(2).all(|w| w[0].value >= w[1].value),
        "{rows:?}"
    );
    assert!(h.query_by_label(&rows[0].name).is_some());
    assert!(
        h.query_by_label("Sorted by Win rate, highest first (click a header to sort).")
            .is_some()
    );
    click(&mut h, "Win rate");
    assert!(
        h.query_by_label("Sorted by Win rate, lowest first (click a header to sort).")
            .is_some()
    );
    let up = h.state().balance.sorted_rows();
    assert!(up.windows(2).all(|w| w[0].value <= w[1].value), "{up:?}");
    // By name.
    click(&mut h, "Name");
    assert_eq!(h.state().balance.sort.0, Column::Name);
    let by_name = h.state().balance.sorted_rows();
    assert!(by_name.windows(2).all(|w| w[0].name <= w[1].name));

    // Export to a file named in the CSV field, and read it back.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ranking.csv");
    h.get_by_label("CSV file:").focus();
    h.get_by_label("CSV file:")
        .type_text(path.to_str().unwrap());
    h.run();
    click(&mut h, "Export CSV");
    assert!(
        h.state().status().contains("Wrote"),
        "{}",
        h.state().status()
    );
    let mut r = csv::Reader::from_path(&path).unwrap();
    let headers = r.headers().unwrap().clone();
    assert_eq!(&headers[1], "id");
    assert_eq!(&headers[5], "value");
    let back: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(back.len(), by_name.len());
    for (k, (rec, row)) in back.iter().zip(&by_name).enumerate() {
        assert_eq!(rec[0].parse::<usize>().unwrap(), k + 1);
        assert_eq!(&rec[1], row.id);
        assert_eq!(&rec[2], row.name);
        assert!((rec[5].parse::<f64>().unwrap() - row.value).abs() < 1e-4);
        assert_eq!(&rec[8], "200");
        assert_eq!(&rec[10], "random");
    }
}

#[test]
fn a_running_ranking_can_be_cancelled() {
    let mut h = harness(app());
    click(&mut h, "Balance");
    h.state_mut().balance.max_games = 1_000_000;
    h.state_mut().balance.precision = 0.005;
    h.get_by_label("Rank").click();
    h.run_steps(3);
    assert!(h.state().balance.running());
    h.get_by_label("Cancel").click();
    h.run_steps(3);
    assert!(!h.state().balance.running());
    assert!(h.query_by_label("cancelled").is_some());
    assert!(h.state().balance.result.is_none());
}
