//! Matches over the network, as processes on the loopback: `deckwright host` and
//! `deckwright join` play whole matches (Pig with a spectator, a four-seat Iconoclasm match
//! hosted from a kept record), a killed client rejoins and finishes, and hostile peers
//! (garbage, an oversized frame, a wrong or missing secret, an illegal or replayed decision,
//! a note that cannot be kept, a sender that never finishes a frame) are refused while the match goes on; `relay.rs`:
//! the same through `deckwright relay`, which reads nothing; `playtest.rs`:
//! the match's cards travel, notes, drops, a host that quits. Waits are hang guards only:
//! nothing here depends on how fast the machine is.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use deckwright::net::NetError;
use deckwright::net::client::Link;
use deckwright::net::code::JoinCode;
use deckwright::net::wire::{PROTOCOL, ToHost, ToPeer};

mod playtest;
mod relay;

/// How long anything may take before the test counts it hung.
const HANG: Duration = Duration::from_secs(240);

/// A running `deckwright`: its stdout line by line, its stderr kept.
struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
    err: Arc<Mutex<String>>,
    what: String,
}

fn spawn(dir: &Path, args: &[&str]) -> Proc {
    let mut child = Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(dir.join("catalogue.db"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, lines) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let err = Arc::new(Mutex::new(String::new()));
    let mut stderr = child.stderr.take().unwrap();
    let e = err.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stderr.read(&mut buf) {
            if n == 0 {
                break;
            }
            e.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    Proc {
        stdin: child.stdin.take(),
        child,
        lines,
        seen: Vec::new(),
        err,
        what: args.join(" "),
    }
}

impl Proc {
    /// Reads stdout until a line holds `text`: that line.
    fn until(&mut self, text: &str) -> String {
        let deadline = Instant::now() + HANG;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(text) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "`{}` printed no line with {text:?}; stdout:\n{}\nstderr:\n{}",
                    self.what,
                    self.seen.join("\n"),
                    self.err.lock().unwrap()
                ),
            }
        }
    }

    fn type_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Waits for the end: exit code, all of stdout, stderr.
    fn finish(mut self) -> (i32, String, String) {
        drop(self.stdin.take());
        let deadline = Instant::now() + HANG;
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "`{}` did not end; stdout:\n{}\nstderr:\n{}",
                    self.what,
                    self.seen.join("\n"),
                    self.err.lock().unwrap()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        // The readers end with the pipes.
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(30)) {
            self.seen.push(line);
        }
        std::thread::sleep(Duration::from_millis(100));
        let err = self.err.lock().unwrap().clone();
        (status.code().unwrap_or(-1), self.seen.join("\n"), err)
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `deckwright host ARGS --listen 127.0.0.1:0`: the process and its join code.
fn host(dir: &Path, args: &[&str]) -> (Proc, String) {
    let mut all = vec!["host"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--listen", "127.0.0.1:0"]);
    let mut p = spawn(dir, &all);
    let code = p.until("dw1/");
    assert!(code.parse::<JoinCode>().is_ok(), "{code}");
    (p, code)
}

fn join(dir: &Path, code: &str, args: &[&str]) -> Proc {
    let mut all = vec!["join", code];
    all.extend_from_slice(args);
    spawn(dir, &all)
}

fn path(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `deckwright replay FILE`: exit code and stdout.
fn replay(dir: &Path, file: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(dir.join("catalogue.db"))
        .args(["replay", s(file)])
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn last_line(text: &str) -> &str {
    text.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("")
}

#[test]
fn pig_is_played_over_the_loopback_with_a_spectator() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = path(d, "host.match.toml");
    let theirs = path(d, "client.match.toml");
    let (host, code) = host(
        d,
        &[
            "pig",
            "--seats",
            "greedy,remote",
            "--seed",
            "3",
            "--record",
            s(&kept),
        ],
    );
    let mut watcher = join(d, &code, &["--watch"]);
    watcher.until("Watching Pig");
    let mut player = join(
        d,
        &code,
        &["--policy", "random", "--seed", "5", "--record", s(&theirs)],
    );
    player.until("as Player 2");
    let (pc, pout, perr) = player.finish();
    assert_eq!(pc, 0, "player: {pout}\n{perr}");
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");
    let (wc, wout, werr) = watcher.finish();
    assert_eq!(wc, 0, "spectator: {wout}\n{werr}");
    // Everyone ends with the same outcome; the spectator followed the whole log.
    let result = last_line(&hout);
    assert!(!result.is_empty());
    assert_eq!(last_line(&pout), result);
    assert_eq!(last_line(&wout), result);
    let host_log: Vec<&str> = hout.lines().skip(1).collect();
    let watched: Vec<&str> = wout.lines().skip(1).collect();
    assert_eq!(watched, host_log, "the spectator saw the host's log");
    assert!(herr.contains("Player 2 joined"), "{herr}");
    // The records agree and replay.
    let a = std::fs::read_to_string(&kept).unwrap();
    let b = std::fs::read_to_string(&theirs).unwrap();
    assert_eq!(a, b);
    // The host's computer seat decides from its own view: `greedy` plays `seat-greedy`.
    assert!(a.contains("seats = [\"seat-greedy\", \"person\"]"), "{a}");
    let (rc, rout) = replay(d, &kept);
    assert_eq!(rc, 0);
    assert_eq!(last_line(&rout), result);
}

#[test]
fn a_four_seat_match_is_hosted_from_a_kept_record_with_a_remote_seat() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = path(d, "host.match.toml");
    let theirs = path(d, "client.match.toml");
    let from = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/games/records/iconoclasm-four.match.toml"
    );
    let (host, code) = host(
        d,
        &[
            "iconoclasm",
            "--from",
            from,
            "--to",
            "4",
            "--seats",
            "greedy,remote,greedy,first",
            "--record",
            s(&kept),
            "--json",
        ],
    );
    let player = join(
        d,
        &code,
        &["--policy", "first", "--record", s(&theirs), "--json"],
    );
    let (pc, pout, perr) = player.finish();
    assert_eq!(pc, 0, "player: {pout}\n{perr}");
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");
    // The host prints the code, then one JSON document (with the record); so does the player.
    let doc: serde_json::Value =
        serde_json::from_str(&hout.lines().skip(1).collect::<Vec<_>>().join("\n")).unwrap();
    let theirs_doc: serde_json::Value = serde_json::from_str(&pout).unwrap();
    assert_eq!(doc["game"], "iconoclasm");
    assert_eq!(doc, theirs_doc);
    let a = std::fs::read_to_string(&kept).unwrap();
    assert_eq!(a, std::fs::read_to_string(&theirs).unwrap());
    // The kept record's first four inputs are the ones it was hosted from.
    let record: toml::Table = toml::from_str(&a).unwrap();
    let inputs = record["inputs"].as_array().unwrap();
    assert!(inputs.len() > 4);
    assert_eq!(
        inputs[..4]
            .iter()
            .map(|v| v.as_integer().unwrap())
            .collect::<Vec<_>>(),
        vec![0, 0, 0, 0]
    );
    let (rc, _) = replay(d, &kept);
    assert_eq!(rc, 0);
}

#[test]
fn a_killed_client_rejoins_with_the_code_and_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = path(d, "host.match.toml");
    let (host, code) = host(
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
    // A person at a terminal: answers one question by number, then is killed at the next.
    let mut first = join(d, &code, &[]);
    first.until("as Player 2");
    first.until("Type a number");
    first.type_line("9");
    first.until("Enter a number from 1 to 2");
    first.type_line("1");
    first.until("Type a number");
    first.child.kill().unwrap(); // SIGKILL: no goodbye reaches the host.
    first.child.wait().unwrap();
    // Rejoining with the same code: the seat is free once the killed client is silent.
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
    // The whole log was resent: the rejoined client saw the match from its start.
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");
    assert_eq!(last_line(&rout), last_line(&hout));
    let host_log: Vec<&str> = hout.lines().skip(1).collect();
    let theirs: Vec<&str> = rout.lines().skip(1).collect();
    assert_eq!(theirs, host_log);
    let (c, _) = replay(d, &kept);
    assert_eq!(c, 0);
}

/// The messages a link receives until `pred` is true of one (that one last).
fn recv_until(link: &Link, what: &str, pred: impl Fn(&ToPeer) -> bool) -> Vec<ToPeer> {
    let deadline = Instant::now() + HANG;
    let mut got = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match link.recv(Some(left)) {
            Ok(Some(m)) => {
                let done = pred(&m);
                got.push(m);
                if done {
                    return got;
                }
            }
            Ok(None) => panic!("no {what} in time; got {got:?}"),
            Err(e) => panic!("the connection closed before {what}: {e}; got {got:?}"),
        }
    }
}

/// Waits until the host closes `link`: the messages it sent first, and why it closed.
fn closed(link: &Link) -> (Vec<ToPeer>, String) {
    let deadline = Instant::now() + HANG;
    let mut got = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match link.recv(Some(left)) {
            Ok(Some(m)) => got.push(m),
            Ok(None) => panic!("the host did not close the connection; got {got:?}"),
            Err(NetError::Closed(why)) => return (got, why),
            Err(e) => return (got, e.to_string()),
        }
    }
}

fn hello(secret: &str, watch: bool) -> ToHost {
    ToHost::Hello {
        protocol: PROTOCOL,
        secret: secret.into(),
        watch,
        engines: deckwright::games::registry::GAMES
            .iter()
            .map(|g| (g.name.to_string(), g.engine))
            .collect(),
    }
}

fn refused_reason(msgs: &[ToPeer]) -> String {
    match msgs {
        [ToPeer::Refused { reason }] => reason.clone(),
        other => panic!("expected one Refused and nothing else, got {other:?}"),
    }
}

#[test]
fn hostile_peers_are_refused_and_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = path(d, "host.match.toml");
    let (host, code_text) = host(
        d,
        &[
            "pig",
            "--seats",
            "remote,remote",
            "--seed",
            "4",
            "--record",
            s(&kept),
        ],
    );
    let code: JoinCode = code_text.parse().unwrap();

    // A sender that never finishes its first frame: put out, nothing else sent.
    let slow = Link::open(&code).unwrap();
    slow.send_raw(vec![0, 0]).unwrap();

    // A host whose certificate is not the one the code names is not talked to.
    let mut impostor = code.clone();
    impostor.fingerprint[0] ^= 1;
    match Link::open(&impostor) {
        Err(NetError::Connect(why)) => assert!(why.contains("certificate"), "{why}"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("connected to a host with another certificate"),
    }

    // Wrong and missing secrets: refused before any game data, by the library and the CLI.
    let mut wrong = code.clone();
    wrong.secret[0] ^= 1;
    match Link::join(&wrong, false) {
        Err(NetError::Refused(r)) => assert!(r.contains("wrong secret"), "{r}"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("let in with a wrong secret"),
    }
    let cli = join(d, &wrong.to_string(), &["--policy", "first"]);
    let (c, out, err) = cli.finish();
    assert_eq!(c, 2, "{out}\n{err}");
    assert!(err.contains("wrong secret"), "{err}");
    let missing = Link::open(&code).unwrap();
    missing.send(&hello("", false)).unwrap();
    let (msgs, _) = closed(&missing);
    assert!(refused_reason(&msgs).contains("wrong secret"));

    // Another protocol's hello, garbage, and an oversized frame as the first frame.
    let other = Link::open(&code).unwrap();
    other
        .send_raw(br#"{"protocol": 99}"#.iter().fold(
            (br#"{"protocol": 99}"#.len() as u32).to_be_bytes().to_vec(),
            |mut v, b| {
                v.push(*b);
                v
            },
        ))
        .unwrap();
    let (msgs, _) = closed(&other);
    assert!(refused_reason(&msgs).contains("protocol version"));
    let garbage = Link::open(&code).unwrap();
    garbage
        .send_raw(vec![0, 0, 0, 6, 0xde, 0xad, 0xbe, 0xef, 0, 1])
        .unwrap();
    let (msgs, _) = closed(&garbage);
    assert!(refused_reason(&msgs).contains("not a hello"));
    let huge = Link::open(&code).unwrap();
    huge.send_raw(vec![0xff, 0xff, 0xff, 0xff, b'{']).unwrap();
    let (msgs, _) = closed(&huge);
    assert!(refused_reason(&msgs).contains("bound"));

    // Another engine version of the game.
    let old = Link::open(&code).unwrap();
    old.send(&ToHost::Hello {
        protocol: PROTOCOL,
        secret: code.secret_text(),
        watch: false,
        engines: vec![("pig".into(), 999)],
    })
    .unwrap();
    let (msgs, _) = closed(&old);
    assert!(refused_reason(&msgs).contains("version mismatch"));

    // A spectator let in, then sending an oversized frame: put out.
    let (spectator, welcome) = Link::join(&code, true).unwrap();
    assert_eq!(welcome.seat, None);
    spectator.send_raw(vec![0x7f, 0, 0, 0]).unwrap();
    let (msgs, _) = closed(&spectator);
    match msgs.last() {
        Some(ToPeer::Refused { reason }) => assert!(reason.contains("bound"), "{reason}"),
        other => panic!("{other:?}"),
    }

    // Player 1 over the library, Player 2 by the command line.
    let (me, welcome) = Link::join(&code, false).unwrap();
    assert_eq!(welcome.seat, Some(0));
    let mut other_player = join(d, &code_text, &["--policy", "random", "--seed", "9"]);
    other_player.until("as Player 2");
    // Both seats are held by peers that are there: a third is refused.
    let third = join(d, &code_text, &["--policy", "first"]);
    let (c, out, err) = third.finish();
    assert_eq!(c, 2, "{out}\n{err}");
    assert!(err.contains("the match is full"), "{err}");
    let asked = recv_until(&me, "a question", |m| matches!(m, ToPeer::Ask { .. }));
    let Some(ToPeer::Ask { seat, step, .. }) = asked.last().cloned() else {
        unreachable!()
    };
    assert_eq!(seat, 0);
    let rejected = |me: &Link| {
        let got = recv_until(me, "a rejection", |m| matches!(m, ToPeer::Rejected { .. }));
        match got.last() {
            Some(ToPeer::Rejected { reason, .. }) => reason.clone(),
            _ => unreachable!(),
        }
    };
    // No such option; the other seat's decision; a step not reached; a spectator's seat.
    me.send(&ToHost::Decide {
        seat: 0,
        step,
        option: 99,
    })
    .unwrap();
    assert!(rejected(&me).contains("not one of the 2 options"));
    me.send(&ToHost::Decide {
        seat: 1,
        step,
        option: 0,
    })
    .unwrap();
    assert!(rejected(&me).contains("holds Player 1's seat"));
    me.send(&ToHost::Decide {
        seat: 0,
        step: step + 3,
        option: 0,
    })
    .unwrap();
    assert!(rejected(&me).contains("the match is at step"));
    // Notes that cannot be kept: a control character, and one over the bound.
    me.send(&ToHost::Note {
        text: "bell\u{7}".into(),
    })
    .unwrap();
    assert!(rejected(&me).contains("control character"));
    me.send(&ToHost::Note {
        text: "x".repeat(3000),
    })
    .unwrap();
    assert!(rejected(&me).contains("bound"));
    // A legal decision, then the same again: the replay is stale.
    me.send(&ToHost::Decide {
        seat: 0,
        step,
        option: 0,
    })
    .unwrap();
    me.send(&ToHost::Decide {
        seat: 0,
        step,
        option: 0,
    })
    .unwrap();
    assert!(rejected(&me).contains(&format!("the decision was for step {step}")));

    // The sender that never finished its frame was put out; the match goes on to its end.
    let (msgs, _) = closed(&slow);
    assert!(refused_reason(&msgs).contains("timed out"));
    let mut n = 0;
    let end = loop {
        match me.recv(Some(HANG)).unwrap().expect("the match went on") {
            ToPeer::Ask { seat, step, .. } => {
                n += 1;
                me.send(&ToHost::Decide {
                    seat,
                    step,
                    option: n % 2,
                })
                .unwrap();
            }
            ToPeer::End { result, record, .. } => break (result, record),
            _ => {}
        }
    };
    me.close();
    let (c, out, err) = other_player.finish();
    assert_eq!(c, 0, "{out}\n{err}");
    assert_eq!(last_line(&out), last_line(&end.0));
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "{hout}\n{herr}");
    for said in [
        "wrong secret",
        "protocol version",
        "version mismatch",
        "the match is full",
        "not a hello",
        "bound",
        "timed out",
    ] {
        assert!(herr.contains(said), "host notes lack {said:?}: {herr}");
    }
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), end.1);
    let (c, _) = replay(d, &kept);
    assert_eq!(c, 0);
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn tokio_and_the_transport_stay_inside_net() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut bad = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            let outside = !rel.starts_with("net/");
            let transport = ["tokio::", "quinn::", "rustls::", "rcgen::"]
                .iter()
                .any(|t| line.contains(t));
            let face = ["crate::cli", "crate::app"]
                .iter()
                .any(|t| line.contains(t));
            if (outside && transport) || (!outside && face) {
                bad.push(format!("{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(bad.is_empty(), "crossing net's bounds:\n{}", bad.join("\n"));
}

#[test]
fn the_host_plays_a_seat_at_its_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (mut host, code) = host(d, &["pig", "--seats", "host,remote", "--seed", "6"]);
    let player = join(d, &code, &["--policy", "random"]);
    host.until("Player 1 (here)");
    host.until("Type a number");
    host.type_line("three");
    host.type_line("2");
    // Every question after: hold (2).
    let deadline = Instant::now() + HANG;
    while let Ok(line) = host
        .lines
        .recv_timeout(deadline.saturating_duration_since(Instant::now()))
    {
        if line.contains("Type a number") {
            host.type_line("2");
        }
        host.seen.push(line);
    }
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "{hout}\n{herr}");
    assert!(herr.contains("enter a number from 1 to 2"), "{herr}");
    let (pc, pout, perr) = player.finish();
    assert_eq!(pc, 0, "{pout}\n{perr}");
    assert_eq!(last_line(&pout), last_line(&hout));
}

#[test]
fn an_iconica_match_is_hosted_from_its_record_with_a_remote_seat() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = path(d, "host.match.toml");
    let theirs = path(d, "client.match.toml");
    let from = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/games/records/iconica-duel.match.toml"
    );
    let (host, code) = host(
        d,
        &[
            "iconica",
            "--from",
            from,
            "--to",
            "0",
            "--seats",
            "remote,greedy",
            "--record",
            s(&kept),
        ],
    );
    let player = join(
        d,
        &code,
        &["--policy", "random", "--seed", "1", "--record", s(&theirs)],
    );
    let (pc, pout, perr) = player.finish();
    assert_eq!(pc, 0, "player: {pout}\n{perr}");
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");
    let a = std::fs::read_to_string(&kept).unwrap();
    assert_eq!(a, std::fs::read_to_string(&theirs).unwrap());
    // Both end as `replay` prints the kept record.
    let (rc, rout) = replay(d, &kept);
    assert_eq!(rc, 0);
    assert_eq!(last_line(&hout), last_line(&rout));
    assert_eq!(last_line(&pout), last_line(&rout));
}

/// The names of the cards `ids` of the record's card texts (each a TOML document).
fn card_names(record: &toml::Table, ids: &[&str]) -> Vec<String> {
    let cards = record["options"]["cards"].as_array().unwrap();
    ids.iter()
        .map(|id| {
            cards
                .iter()
                .filter_map(|c| c.as_str()?.parse::<toml::Table>().ok())
                .find(|c| c.get("id").and_then(|v| v.as_str()) == Some(id))
                .and_then(|c| c.get("name")?.as_str().map(str::to_string))
                .unwrap_or_else(|| panic!("no card {id}"))
        })
        .collect()
}

/// Every frame a peer was sent before the match's end, as text.
fn heard_before_end(link: &Link) -> String {
    let mut all = String::new();
    for body in link.heard() {
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        if v["type"] == "end" {
            break;
        }
        all.push_str(&String::from_utf8(body).unwrap());
        all.push('\n');
    }
    all
}

/// `secret` is nowhere in `heard` before `revealed` (the line that makes it public), which
/// holds it; never, if that line never came.
fn kept_until(heard: &str, secret: &str, revealed: &str) {
    assert!(revealed.contains(secret));
    if let Some(first) = heard.find(secret) {
        let at = heard.find(revealed).unwrap_or_else(|| {
            panic!("{secret:?} was sent though {revealed:?} never was:\n{heard}")
        });
        assert_eq!(
            first,
            at + revealed.find(secret).unwrap(),
            "{secret:?} was sent before {revealed:?}:\n{heard}"
        );
    }
}

#[test]
fn an_arcadia_seat_is_sent_no_secret_of_the_other_seat() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let from = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/games/records/arcadia-long-road.match.toml"
    );
    let record: toml::Table = std::fs::read_to_string(from).unwrap().parse().unwrap();
    // Player 1 is Sir Bramwell (here, remote), Player 2 Lumen Ashgrove (the computer).
    let (a, b) = ("Sir Bramwell", "Lumen Ashgrove");
    let b_waylays = card_names(
        &record,
        &["arc-w-rockslide", "arc-w-thorn-maze", "arc-w-smog-bank"],
    );
    let b_treasures = card_names(&record, &["arc-m-glasswing-blade", "arc-m-moonwell-flask"]);
    let a_treasure = card_names(&record, &["arc-m-thistledown-cloak"]).remove(0);
    // Four inputs in: the first-player roll, Sir Bramwell's treasure and Lumen Ashgrove's
    // first hidden (sent as the log caught up); the second is hidden live.
    let (host, code) = host(
        d,
        &[
            "arcadia",
            "--from",
            from,
            "--to",
            "4",
            "--seats",
            "remote,greedy",
        ],
    );
    let code: JoinCode = code.parse().unwrap();
    let (watcher, welcome) = Link::join(&code, true).unwrap();
    assert_eq!(welcome.seat, None);
    let (me, welcome) = Link::join(&code, false).unwrap();
    assert_eq!(welcome.seat, Some(0));
    let mut n = 0usize;
    loop {
        match me.recv(Some(HANG)).unwrap().expect("the match went on") {
            ToPeer::Ask {
                seat,
                step,
                options,
                ..
            } => {
                n += 1;
                me.send(&ToHost::Decide {
                    seat,
                    step,
                    option: n % options.len(),
                })
                .unwrap();
            }
            ToPeer::End { .. } => break,
            _ => {}
        }
    }
    let _ = recv_until(&watcher, "the end", |m| matches!(m, ToPeer::End { .. }));
    let mine = heard_before_end(&me);
    let theirs = heard_before_end(&watcher);
    me.close();
    watcher.close();
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");

    // The match's cards came as the views named them (the card files are searched too).
    assert!(mine.contains(r#""type":"card""#), "{mine}");
    assert!(theirs.contains(r#""type":"card""#), "{theirs}");
    // Player 1 sees its own treasure hidden, and where the other hid one, not which.
    assert!(
        mine.contains(&format!("{a} hides {a_treasure} in ")),
        "{mine}"
    );
    assert_eq!(
        mine.matches(&format!("{b} hides a treasure in ")).count(),
        2,
        "{mine}"
    );
    for t in &b_treasures {
        kept_until(&mine, t, &format!("{b} finds {t}"));
    }
    for w in &b_waylays {
        kept_until(&mine, w, &format!("{b} plays {w}"));
    }
    // A spectator sees what every seat may: neither player's treasures until found.
    assert!(
        theirs.contains(&format!("{a} hides a treasure in ")),
        "{theirs}"
    );
    kept_until(&theirs, &a_treasure, &format!("{a} finds {a_treasure}"));
    for t in &b_treasures {
        kept_until(&theirs, t, &format!("{b} finds {t}"));
    }
    for w in &b_waylays {
        kept_until(&theirs, w, &format!("{b} plays {w}"));
    }
    // The host, which runs the match and plays no seat at its terminal, sees everything.
    assert!(
        hout.contains(&format!("{b} hides {}", b_treasures[0]))
            || hout.contains(&format!("{b} hides {}", b_treasures[1])),
        "{hout}"
    );
}

/// A new match of a game that starts from files is hosted with the files `play` takes (the
/// registry's options): an Arcadia setup with a remote seat and the computer, played to the
/// end, and the kept record replays as `play` would have played it; options beside --from,
/// or a new match missing its setup, are refused in words.
#[test]
fn a_new_arcadia_match_is_hosted_from_its_setup_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = path(d, "host.match.toml");
    let setup = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/arcadia/legal-long-road.setup.toml"
    );
    let (host, code) = host(
        d,
        &[
            "arcadia",
            setup,
            "--turn-limit",
            "60",
            "--seed",
            "4",
            "--seats",
            "remote,greedy",
            "--record",
            s(&kept),
        ],
    );
    let player = join(d, &code, &["--policy", "random", "--seed", "2"]);
    let (pc, pout, perr) = player.finish();
    assert_eq!(pc, 0, "player: {pout}\n{perr}");
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");
    let record: toml::Table = std::fs::read_to_string(&kept).unwrap().parse().unwrap();
    assert_eq!(record["game"].as_str(), Some("arcadia"));
    assert_eq!(record["seed"].as_integer(), Some(4));
    assert_eq!(record["options"]["day_limit"].as_integer(), Some(60));
    let (rc, rout) = replay(d, &kept);
    assert_eq!(rc, 0, "{rout}");
    assert_eq!(last_line(&hout), last_line(&rout));
    // Options beside --from, and a new match without its setup file.
    let o = Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(d.join("c.sqlite"))
        .args(["host", "arcadia", setup, "--from", s(&kept)])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("leave out setup"));
    let o = Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(d.join("c.sqlite"))
        .args(["host", "arcadia", "--listen", "127.0.0.1:0"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("a new arcadia match"));
}

/// A Ruunara mission hosted from its files: the squad's seat played by a joiner, the enemies
/// by the rules on the host; the kept record replays.
#[test]
fn a_ruunara_mission_is_hosted_from_its_files_with_a_remote_squad() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = path(d, "host.match.toml");
    let ex = |f: &str| format!("{}/examples/ruunara/{f}", env!("CARGO_MANIFEST_DIR"));
    let (mission, squad) = (
        ex("survive.mission.toml"),
        ex("legal-ardann-story.squad.toml"),
    );
    let (host, code) = host(
        d,
        &[
            "ruunara",
            &mission,
            &squad,
            "--seed",
            "3",
            "--seats",
            "remote,first",
            "--record",
            s(&kept),
        ],
    );
    let player = join(d, &code, &["--policy", "random", "--seed", "1"]);
    let (pc, pout, perr) = player.finish();
    assert_eq!(pc, 0, "player: {pout}\n{perr}");
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");
    let (rc, rout) = replay(d, &kept);
    assert_eq!(rc, 0, "{rout}");
    assert_eq!(last_line(&hout), last_line(&rout));
    assert_eq!(last_line(&pout), last_line(&rout));
}

/// Duo Ruunara over the loopback: two joiners share the squad (each its own heroes, taking
/// turns), the enemies run by the rules on the host; Ruunara hides nothing, so each seat
/// follows the host's whole log; the kept records agree and replay.
#[test]
fn duo_ruunara_is_played_by_two_joiners_sharing_the_heroes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = path(d, "host.match.toml");
    let theirs = path(d, "second.match.toml");
    let ex = |f: &str| format!("{}/examples/ruunara/{f}", env!("CARGO_MANIFEST_DIR"));
    let (mission, squad) = (
        ex("eliminate.mission.toml"),
        ex("legal-ardann-story.squad.toml"),
    );
    let (host, code) = host(
        d,
        &[
            "ruunara",
            &mission,
            &squad,
            "--mode",
            "duo",
            "--seed",
            "2",
            "--seats",
            "remote,remote,first",
            "--record",
            s(&kept),
        ],
    );
    let first = join(d, &code, &["--policy", "random", "--seed", "1"]);
    let second = join(
        d,
        &code,
        &["--policy", "first", "--seed", "2", "--record", s(&theirs)],
    );
    let (fc, fout, ferr) = first.finish();
    assert_eq!(fc, 0, "player 1: {fout}\n{ferr}");
    let (sc, sout, serr) = second.finish();
    assert_eq!(sc, 0, "player 2: {sout}\n{serr}");
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");
    assert!(
        herr.contains("Player 1 joined") && herr.contains("Player 2 joined"),
        "{herr}"
    );
    let a = std::fs::read_to_string(&kept).unwrap();
    assert_eq!(a, std::fs::read_to_string(&theirs).unwrap());
    assert!(a.contains("mode = \"duo\""), "{a}");
    // Both people decided: the record names two persons and the mission's policy.
    assert!(
        a.contains("seats = [\"person\", \"person\", \"first\"]"),
        "{a}"
    );
    let (rc, rout) = replay(d, &kept);
    assert_eq!(rc, 0, "{rout}");
    let result = last_line(&rout);
    assert_eq!(last_line(&hout), result);
    assert_eq!(last_line(&fout), result);
    assert_eq!(last_line(&sout), result);
    // Each player's heroes acted at its own seat: the log shows both players' members.
    for hero in ["Haskar Emberfist #0 acts", "Yrsa Coalmantle #1 acts"] {
        assert!(rout.contains(hero), "{rout}");
    }
}

/// A Ruunara contest over the loopback: the squad played by the host's computer, the
/// enemies commanded by a joiner; the record replays to the same outcome.
#[test]
fn a_ruunara_contest_is_played_against_a_joiner_commanding_the_enemies() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kept = path(d, "host.match.toml");
    let ex = |f: &str| format!("{}/examples/ruunara/{f}", env!("CARGO_MANIFEST_DIR"));
    let (mission, squad) = (
        ex("eliminate.mission.toml"),
        ex("legal-ardann-story.squad.toml"),
    );
    let (host, code) = host(
        d,
        &[
            "ruunara",
            &mission,
            &squad,
            "--mode",
            "contest",
            "--seed",
            "4",
            "--seats",
            "greedy,remote",
            "--record",
            s(&kept),
        ],
    );
    let enemies = join(d, &code, &["--policy", "random", "--seed", "3"]);
    let (ec, eout, eerr) = enemies.finish();
    assert_eq!(ec, 0, "enemies: {eout}\n{eerr}");
    assert!(eout.contains("as Player 2"), "{eout}");
    let (hc, hout, herr) = host.finish();
    assert_eq!(hc, 0, "host: {hout}\n{herr}");
    let a = std::fs::read_to_string(&kept).unwrap();
    assert!(a.contains("mode = \"contest\""), "{a}");
    let (rc, rout) = replay(d, &kept);
    assert_eq!(rc, 0, "{rout}");
    assert_eq!(last_line(&hout), last_line(&rout));
    assert_eq!(last_line(&eout), last_line(&rout));
    // No enemies' turn in a contest: the sides alternate within the round.
    assert!(!rout.contains("The enemies' turn"), "{rout}");
    assert!(rout.contains("Ghoul Gnawer #3 acts"), "{rout}");
}
