//! Matches through a relay (`deckwright relay`), as processes on the loopback: a relay, a
//! host and two joiners play a whole match, and every byte the relay forwarded (its `--tap`)
//! holds neither the code's secret, nor a card's name, nor a log line in clear; a killed
//! joiner rejoins through the relay; a wrong room is refused by the relay and a wrong secret
//! by the host, before any game data.

use std::path::Path;
use std::time::{Duration, Instant};

use deckwright::net::NetError;
use deckwright::net::client::Link;
use deckwright::net::code::{JoinCode, hex};

use super::{HANG, Proc, closed, hello, join, last_line, path, refused_reason, replay, s, spawn};

/// `deckwright relay --listen 127.0.0.1:0 [--tap FILE]`: the process and its address line.
fn relay(dir: &Path, tap: Option<&Path>) -> (Proc, String) {
    let mut args = vec!["relay", "--listen", "127.0.0.1:0"];
    if let Some(t) = tap {
        args.extend_from_slice(&["--tap", s(t)]);
    }
    let mut p = spawn(dir, &args);
    let line = p.until("dwr1/");
    (p, line)
}

/// `deckwright host ARGS --relay LINE`: the process and its join code (a `dw2/` code).
fn host_via(dir: &Path, line: &str, args: &[&str]) -> (Proc, String) {
    let mut all = vec!["host"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--relay", line]);
    let mut p = spawn(dir, &all);
    let code = p.until("dw2/");
    let parsed: JoinCode = code.parse().unwrap();
    assert!(parsed.relay.is_some(), "{code}");
    (p, code)
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn two_joiners_play_a_whole_match_through_a_relay_that_reads_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let tap = path(d, "relay.tap");
    let kept = path(d, "host.match.toml");
    let theirs = path(d, "client.match.toml");
    let (relay_proc, line) = relay(d, Some(&tap));
    let setup = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/arcadia/legal-long-road.setup.toml"
    );
    let (host, code) = host_via(
        d,
        &line,
        &[
            "arcadia",
            setup,
            "--turn-limit",
            "60",
            "--seed",
            "4",
            "--seats",
            "remote,remote",
            "--record",
            s(&kept),
        ],
    );
    let one = join(d, &code, &["--policy", "random", "--seed", "2"]);
    let two = join(
        d,
        &code,
        &["--policy", "random", "--seed", "3", "--record", s(&theirs)],
    );
    let (c1, o1, e1) = one.finish();
    assert_eq!(c1, 0, "first joiner: {o1}\n{e1}");
    let (c2, o2, e2) = two.finish();
    assert_eq!(c2, 0, "second joiner: {o2}\n{e2}");
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");
    assert!(herr.contains("Player 1 joined"), "{herr}");
    assert!(herr.contains("Player 2 joined"), "{herr}");
    let result = last_line(&hout);
    assert_eq!(last_line(&o1), result);
    assert_eq!(last_line(&o2), result);
    let a = std::fs::read_to_string(&kept).unwrap();
    assert_eq!(a, std::fs::read_to_string(&theirs).unwrap());
    let (rc, rout) = replay(d, &kept);
    assert_eq!(rc, 0, "{rout}");
    assert_eq!(last_line(&rout), result);
    drop(relay_proc);

    // What the relay forwarded: plenty (a whole match), none of it readable.
    let seen = std::fs::read(&tap).unwrap();
    assert!(
        seen.len() > 10_000,
        "the relay forwarded {} bytes",
        seen.len()
    );
    let code: JoinCode = code.parse().unwrap();
    assert!(!contains(&seen, hex(&code.secret).as_bytes()));
    assert!(!contains(&seen, &code.secret));
    let record: toml::Table = a.parse().unwrap();
    let names: Vec<String> = record["options"]["cards"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c.as_str()?.parse::<toml::Table>().ok())
        .filter_map(|c| c.get("name")?.as_str().map(str::to_string))
        .filter(|n| n.len() >= 6)
        .collect();
    assert!(!names.is_empty());
    for n in &names {
        assert!(
            !contains(&seen, n.as_bytes()),
            "{n:?} passed the relay in clear"
        );
    }
    let lines: Vec<&str> = hout
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| l.len() >= 16)
        .collect();
    assert!(lines.len() > 10);
    for l in lines {
        assert!(
            !contains(&seen, l.as_bytes()),
            "{l:?} passed the relay in clear"
        );
    }
}

#[test]
fn a_killed_joiner_rejoins_through_the_relay_and_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = path(d, "host.match.toml");
    let (_relay, line) = relay(d, None);
    let (host, code) = host_via(
        d,
        &line,
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
    let mut first = join(d, &code, &[]);
    first.until("as Player 2");
    first.until("Type a number");
    first.type_line("1");
    first.until("Type a number");
    first.child.kill().unwrap(); // SIGKILL: no goodbye reaches the relay or the host.
    first.child.wait().unwrap();
    let deadline = Instant::now() + HANG;
    let (rc, rout, rerr) = loop {
        let again = join(d, &code, &["--policy", "first"]);
        let (c, out, err) = again.finish();
        if c == 2 && err.contains("full") && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(500));
            continue;
        }
        break (c, out, err);
    };
    assert_eq!(rc, 0, "rejoined: {rout}\n{rerr}");
    assert!(rout.contains("as Player 2"), "{rout}");
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");
    assert_eq!(last_line(&rout), last_line(&hout));
    let host_log: Vec<&str> = hout.lines().skip(1).collect();
    let theirs: Vec<&str> = rout.lines().skip(1).collect();
    assert_eq!(
        theirs, host_log,
        "the rejoined joiner was sent the whole log"
    );
    let (c, _) = replay(d, &kept);
    assert_eq!(c, 0);
}

#[test]
fn a_wrong_room_or_secret_is_refused_before_any_game_data() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (_relay, line) = relay(d, None);
    let (host, code_text) = host_via(
        d,
        &line,
        &["pig", "--seats", "greedy,remote", "--seed", "1"],
    );
    let code: JoinCode = code_text.parse().unwrap();

    // A room the relay does not keep: refused by the relay.
    let mut lost = code.clone();
    if let Some(r) = &mut lost.relay {
        r.room[0] ^= 1;
    }
    match Link::open(&lost) {
        Err(NetError::Refused(why)) => assert!(why.contains("no such room"), "{why}"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("spliced into a room that does not exist"),
    }
    // A host whose certificate is not the code's: the TLS through the relay fails.
    let mut impostor = code.clone();
    impostor.fingerprint[0] ^= 1;
    match Link::open(&impostor) {
        Err(NetError::Connect(why)) => assert!(why.contains("certificate"), "{why}"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("talked to a host with another certificate"),
    }
    // A wrong secret: the host refuses it, and says nothing else.
    let mut wrong = code.clone();
    wrong.secret[0] ^= 1;
    let link = Link::open(&wrong).unwrap();
    link.send(&hello(&wrong.secret_text(), false)).unwrap();
    let (msgs, _) = closed(&link);
    assert!(refused_reason(&msgs).contains("wrong secret"));
    assert!(
        !link.heard().iter().any(|b| contains(b, b"welcome")),
        "game data sent to a wrong secret"
    );
    link.close();
    // The right code still plays the match to its end.
    let player = join(d, &code_text, &["--policy", "first"]);
    let (pc, pout, perr) = player.finish();
    assert_eq!(pc, 0, "player: {pout}\n{perr}");
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");
    assert!(herr.contains("wrong secret"), "{herr}");
}
