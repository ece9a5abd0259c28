//! The catalogue's commands with nobody reading their stdout: each does its work, then ends
//! quietly with the status it has with a reader (not a panic, exit 101, after the work).

use deckwright::catalogue::Catalogue;

use crate::run_cli::closed_pipe::assert_quiet;

const MERIT: &str = "game = \"arcadia\"\nkind = \"merit\"\nid = \"tst-pipe-dance\"\nname = \"Pipe Dance\"\ntext = \"Dance.\"\nmerit_type = \"art\"\ncost = 2\n";

#[test]
fn catalogue_commands_into_closed_pipe_do_not_panic() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    let card = dir.path().join("merit.toml");
    std::fs::write(&card, MERIT).unwrap();

    assert_quiet(&db, &["import", card.to_str().unwrap()], 0);
    assert_quiet(&db, &["collection", "set", "tst-pipe-dance", "3"], 0);
    let csv = dir.path().join("owned.csv");
    assert_quiet(&db, &["collection", "export", csv.to_str().unwrap()], 0);
    assert!(
        std::fs::read_to_string(&csv)
            .unwrap()
            .contains("tst-pipe-dance,Pipe Dance,arcadia,3")
    );
    std::fs::write(
        &csv,
        "id,name,game,quantity\ntst-pipe-dance,Pipe Dance,arcadia,5\n",
    )
    .unwrap();
    assert_quiet(&db, &["collection", "import", csv.to_str().unwrap()], 0);
    let exported = dir.path().join("exported");
    assert_quiet(&db, &["cards", "export", exported.to_str().unwrap()], 0);
    assert_eq!(
        std::fs::read_to_string(exported.join("arcadia/tst-pipe-dance.toml")).unwrap(),
        MERIT
    );

    // The work was done although nobody read what was said about it.
    let cat = Catalogue::open(&db).unwrap();
    assert_eq!(cat.owned("tst-pipe-dance").unwrap(), 5);
}
