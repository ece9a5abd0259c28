//! A playtest over the loopback: the match's cards (an unreleased one among them, with its
//! art) travel to friends who lack them, each keeps or imports them only if they ask; notes
//! written at the table are kept in the record and shown on replay; a dropped seat is handed
//! to the computer; a host that quits keeps the record and hosts it again.

use super::*;

impl Proc {
    /// Waits until stderr holds `text`.
    fn until_err(&mut self, text: &str) {
        let deadline = Instant::now() + HANG;
        while !self.err.lock().unwrap().contains(text) {
            if Instant::now() > deadline {
                panic!(
                    "`{}` wrote no {text:?} on stderr:\n{}",
                    self.what,
                    self.err.lock().unwrap()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A PNG of `w` x `h` pixels.
fn png(w: u32, h: u32) -> Vec<u8> {
    let img = image::RgbaImage::from_pixel(w, h, image::Rgba([40, 90, 200, 255]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// `deckwright search --json QUERY` in `dir`'s catalogue: each result's id and name.
fn search(dir: &Path, query: &str) -> Vec<(String, String)> {
    let out = Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(dir.join("catalogue.db"))
        .args(["search", "--json", query])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_string(),
                r["name"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

const MERIT: &str = "arc-m-dawnsworn-swordplay";
const UNRELEASED: &str = "Dawnsworn Spearplay";

/// The kept Arcadia record with one of its cards changed as a designer's unreleased version
/// (another name, a portrait beside the record): written into `dir` with the portrait.
fn unreleased_record(dir: &Path) -> PathBuf {
    let from = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/games/records/arcadia-long-road.match.toml"
    );
    let mut record: toml::Table = std::fs::read_to_string(from).unwrap().parse().unwrap();
    let cards = record["options"]["cards"].as_array_mut().unwrap();
    let mut found = false;
    for c in cards.iter_mut() {
        let mut card: toml::Table = c.as_str().unwrap().parse().unwrap();
        if card["id"].as_str() == Some(MERIT) {
            card.insert("name".into(), UNRELEASED.into());
            card.insert("portrait".into(), "spearplay.png".into());
            *c = toml::to_string(&card).unwrap().into();
            found = true;
        }
    }
    assert!(found);
    std::fs::write(dir.join("spearplay.png"), png(30, 42)).unwrap();
    let path = dir.join("unreleased.match.toml");
    std::fs::write(&path, toml::to_string(&record).unwrap()).unwrap();
    path
}

#[test]
fn an_arcadia_match_carries_its_cards_to_two_seats_and_a_spectator() {
    let root = tempfile::tempdir().unwrap();
    let [d, d1, d2, d3] = ["host", "one", "two", "watch"].map(|n| {
        let p = root.path().join(n);
        std::fs::create_dir(&p).unwrap();
        p
    });
    let rec = unreleased_record(&d);
    let kept = path(&d, "host.match.toml");
    // Player 1's catalogue exists and holds the released card of the same id.
    assert_eq!(
        search(&d1, "dawnsworn"),
        vec![(MERIT.to_string(), "Dawnsworn Swordplay".to_string())]
    );
    let (host, code) = host(
        &d,
        &[
            "arcadia",
            "--from",
            s(&rec),
            "--to",
            "0",
            "--seats",
            "remote,remote",
            "--record",
            s(&kept),
        ],
    );
    // The spectator (no catalogue at all) writes a note before anyone has decided (at the
    // step the host's chance has reached).
    let mut watcher = join(&d3, &code, &["--watch"]);
    watcher.until("Watching Arcadia");
    watcher.type_line(&format!("note {UNRELEASED} feels too strong here"));
    watcher.until_err(&format!("a spectator: {UNRELEASED} feels"));
    let cards_to = d1.join("from-host");
    let mut one = join(
        &d1,
        &code,
        &[
            "--policy",
            "random",
            "--seed",
            "5",
            "--cards-to",
            s(&cards_to),
            "--record",
            s(&path(&d1, "mine.match.toml")),
        ],
    );
    one.until("as Player 1");
    let two = join(&d2, &code, &["--policy", "first", "--import"]);
    let (c1, out1, err1) = one.finish();
    assert_eq!(c1, 0, "player 1: {out1}\n{err1}");
    let (c2, out2, err2) = two.finish();
    assert_eq!(c2, 0, "player 2: {out2}\n{err2}");
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");
    let (wc, wout, werr) = watcher.finish();
    assert_eq!(wc, 0, "spectator: {wout}\n{werr}");

    // Everyone ends with the same outcome, and everyone heard the note.
    let result = last_line(&hout);
    for (out, err) in [(&out1, &err1), (&out2, &err2), (&wout, &werr)] {
        assert_eq!(last_line(out), result);
        assert!(
            err.contains(&format!("a spectator: {UNRELEASED} feels")),
            "{err}"
        );
    }
    assert!(out2.contains("as Player 2"), "{out2}");

    // Player 1 was told its catalogue's card differs, and kept the cards in a folder only.
    // (The kept record also holds older versions of a few bundled cards, named there too.)
    assert!(
        err1.contains("cards of your catalogue differ from the host's: ")
            && err1.contains(&format!(
                "{MERIT} (yours: Dawnsworn Swordplay, the host's: {UNRELEASED})"
            )),
        "{err1}"
    );
    assert_eq!(
        search(&d1, "dawnsworn"),
        vec![(MERIT.to_string(), "Dawnsworn Swordplay".to_string())]
    );
    let written = std::fs::read_to_string(cards_to.join(format!("{MERIT}.toml"))).unwrap();
    assert!(written.contains(UNRELEASED), "{written}");
    assert!(
        written.contains(&format!("portrait = \"{MERIT}.png\"")),
        "{written}"
    );
    assert_eq!(
        std::fs::read(cards_to.join(format!("{MERIT}.png"))).unwrap(),
        std::fs::read(d.join("spearplay.png")).unwrap()
    );
    // Player 2 imported them: the unreleased card is in its catalogue, with its art.
    assert!(err2.contains("imported the host's cards"), "{err2}");
    assert_eq!(
        search(&d2, "spearplay"),
        vec![(MERIT.to_string(), UNRELEASED.to_string())]
    );
    assert!(d2.join("art").join(format!("{MERIT}.png")).is_file());
    // The spectator's catalogue was not even made.
    assert!(werr.contains("left as it is"), "{werr}");
    assert!(!d3.join("catalogue.db").exists());

    // The records agree, keep the note, and replay with it.
    let a = std::fs::read_to_string(&kept).unwrap();
    assert_eq!(
        a,
        std::fs::read_to_string(path(&d1, "mine.match.toml")).unwrap()
    );
    let record = deckwright::games::record::MatchRecord::parse(&a).unwrap();
    assert_eq!(record.notes.len(), 1);
    let step = record.notes[0].step;
    assert!(step < record.inputs.len());
    assert_eq!(
        deckwright::games::record::notes_mentioning(&record.notes, UNRELEASED),
        vec![&record.notes[0]]
    );
    let (rc, rout) = replay(&d, &kept);
    assert_eq!(rc, 0);
    assert!(
        rout.contains(&format!(
            "step {step}, a spectator: {UNRELEASED} feels too strong here"
        )),
        "{rout}"
    );
    assert_eq!(last_line(&rout), result);
}

/// Answers every question `p` is asked with `answer` until it ends.
fn answer_all(p: &mut Proc, answer: &str) {
    let deadline = Instant::now() + HANG;
    while let Ok(line) = p
        .lines
        .recv_timeout(deadline.saturating_duration_since(Instant::now()))
    {
        if line.contains("Type a number") {
            p.type_line(answer);
        }
        p.seen.push(line);
    }
}

#[test]
fn a_dropped_seat_is_handed_to_the_computer_at_the_hosts_word() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = path(d, "host.match.toml");
    let (mut host, code) = host(
        d,
        &[
            "pig",
            "--seats",
            "greedy,remote",
            "--seed",
            "2",
            "--record",
            s(&kept),
        ],
    );
    let mut player = join(d, &code, &[]);
    player.until("as Player 2");
    player.until("Type a number");
    player.type_line("note holding at 0 feels timid");
    host.until_err("note at step");
    player.type_line("1");
    player.until("Type a number");
    player.child.kill().unwrap(); // SIGKILL: the host still thinks the seat is held.
    player.child.wait().unwrap();
    // A seat that is not remote is not handed over; the dropped one is.
    host.type_line("drop 1 first");
    host.until_err("Player 1 is not a remote seat");
    host.type_line("drop 2 first");
    host.until_err("Player 2's seat was handed to the computer (first)");
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "{hout}\n{herr}");
    let a = std::fs::read_to_string(&kept).unwrap();
    let record = deckwright::games::record::MatchRecord::parse(&a).unwrap();
    // A hosted computer decides from its seat's view: `greedy` is played as `seat-greedy`.
    assert_eq!(record.seats, vec!["seat-greedy", "first"]);
    let by: Vec<&str> = record.notes.iter().map(|n| n.by.as_str()).collect();
    assert_eq!(by, vec!["Player 2", "the host"], "{a}");
    assert!(record.notes[0].step < record.notes[1].step);
    let (rc, rout) = replay(d, &kept);
    assert_eq!(rc, 0);
    assert!(
        rout.contains("Player 2: holding at 0 feels timid"),
        "{rout}"
    );
    assert_eq!(last_line(&rout), last_line(&hout));
}

#[test]
fn a_seat_whose_player_leaves_goes_to_the_computer_with_drop_to() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = path(d, "host.match.toml");
    let (host, code) = host(
        d,
        &[
            "pig",
            "--seats",
            "remote,greedy",
            "--seed",
            "8",
            "--drop-to",
            "first",
            "--record",
            s(&kept),
        ],
    );
    let code: JoinCode = code.parse().unwrap();
    let (me, welcome) = Link::join(&code, false).unwrap();
    assert_eq!(welcome.seat, Some(0));
    let asked = recv_until(&me, "a question", |m| matches!(m, ToPeer::Ask { .. }));
    let Some(ToPeer::Ask { seat, step, .. }) = asked.last().cloned() else {
        unreachable!()
    };
    me.send(&ToHost::Decide {
        seat,
        step,
        option: 0,
    })
    .unwrap();
    let _ = recv_until(&me, "the next question", |m| {
        matches!(m, ToPeer::Ask { .. })
    });
    me.close(); // The connection closes: the host hands the seat over and plays on.
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "{hout}\n{herr}");
    assert!(herr.contains("Player 1 left"), "{herr}");
    let record =
        deckwright::games::record::MatchRecord::parse(&std::fs::read_to_string(&kept).unwrap())
            .unwrap();
    assert_eq!(record.seats, vec!["first", "seat-greedy"]);
    assert!(
        record.notes[0]
            .text
            .contains("handed to the computer (first)")
    );
    let (rc, _) = replay(d, &kept);
    assert_eq!(rc, 0);
}

#[test]
fn a_host_that_quits_keeps_the_record_and_hosts_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let first = path(d, "first.match.toml");
    let again = path(d, "again.match.toml");
    let (mut host1, code) = host(
        d,
        &[
            "pig",
            "--seats",
            "greedy,remote",
            "--seed",
            "5",
            "--record",
            s(&first),
        ],
    );
    let mut player = join(d, &code, &[]);
    player.until("Type a number");
    player.type_line("1");
    player.until("Type a number");
    host1.type_line("note stopping here for dinner");
    host1.until_err("note at step");
    host1.type_line("quit");
    // The player hears the stop before its input is closed (closing it first would end the
    // player on its own unanswered question, whichever comes first on a busy machine).
    player.until_err("the host stopped the match");
    let (pc, pout, perr) = player.finish();
    assert_eq!(pc, 1, "{pout}\n{perr}");
    assert!(perr.contains("the host stopped the match"), "{perr}");
    let (hc, hout, herr) = host1.finish();
    assert_eq!(hc, 1, "{hout}\n{herr}");
    assert!(herr.contains("host it again with"), "{herr}");
    let stopped =
        deckwright::games::record::MatchRecord::parse(&std::fs::read_to_string(&first).unwrap())
            .unwrap();
    assert!(stopped.inputs.len() >= 2, "{stopped:?}");
    assert_eq!(stopped.notes.len(), 1);

    // Hosted again from the kept record: its seats, seed, inputs and note carry on.
    let (host2, code) = host(d, &["pig", "--from", s(&first), "--record", s(&again)]);
    let mut player = join(d, &code, &[]);
    answer_all(&mut player, "2");
    let (pc, pout, perr) = player.finish();
    assert_eq!(pc, 0, "{pout}\n{perr}");
    assert!(perr.contains("stopping here for dinner"), "{perr}");
    let (hc, hout, herr) = host2.finish();
    assert_eq!(hc, 0, "{hout}\n{herr}");
    let done =
        deckwright::games::record::MatchRecord::parse(&std::fs::read_to_string(&again).unwrap())
            .unwrap();
    assert_eq!(done.inputs[..stopped.inputs.len()], stopped.inputs[..]);
    assert!(done.inputs.len() > stopped.inputs.len());
    assert_eq!(done.notes, stopped.notes);
    assert_eq!(done.seed, 5);
    let (rc, rout) = replay(d, &again);
    assert_eq!(rc, 0);
    assert_eq!(last_line(&rout), last_line(&hout));
}
