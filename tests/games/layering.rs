//! The tree's rules for game code, checked on the source: nothing under `src/games/` uses the
//! sim runner, the catalogue or a face, and no game's folder uses another game's code.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of `text` that are code (not comments).
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
}

#[test]
fn game_code_uses_no_runner_catalogue_face_or_other_game() {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
    let names = ["iconica", "arcadia", "iconoclasm", "ruunara"];
    let mut files = Vec::new();
    rust_files(&games, &mut files);
    assert!(files.len() > 20, "found the game sources");
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let rel = f
            .strip_prefix(&games)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let own = names.iter().find(|n| rel.starts_with(&format!("{n}/")));
        for (i, line) in code_lines(&text) {
            for layer in ["crate::sim", "crate::cli", "crate::app", "crate::catalogue"] {
                if line.contains(layer) {
                    bad.push(format!("{rel}:{}: {}", i + 1, line.trim()));
                }
            }
            if let Some(own) = own {
                for other in names.iter().filter(|n| *n != own) {
                    if line.contains(&format!("games::{other}")) {
                        bad.push(format!("{rel}:{}: {}", i + 1, line.trim()));
                    }
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "game code crossing its bounds:\n{}",
        bad.join("\n")
    );
}

/// Lines of the files under `src/<dir>` that name `layer` (outside comments).
fn naming(dir: &str, layer: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(!files.is_empty(), "found src/{dir}");
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in code_lines(&text) {
            if line.contains(layer) {
                bad.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    bad
}

#[test]
fn the_runner_uses_no_balance_and_the_command_line_no_app() {
    let mut bad = naming("sim", "crate::balance");
    bad.extend(naming("cli", "crate::app"));
    assert!(bad.is_empty(), "layers crossed:\n{}", bad.join("\n"));
}

#[test]
fn the_app_reads_keys_only_through_its_command_table() {
    let mut bad = Vec::new();
    for read in [
        "key_pressed(",
        "consume_shortcut(",
        "consume_key(",
        "key_down(",
    ] {
        bad.extend(
            naming("app", read)
                .into_iter()
                .filter(|l| !l.contains("commands.rs")),
        );
    }
    assert!(
        bad.is_empty(),
        "keys read outside app/commands.rs:\n{}",
        bad.join("\n")
    );
}

#[test]
fn print_renders_the_cards_it_is_handed_and_reads_no_catalogue() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/print");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        // A unit test may take the bundled cards from the catalogue's module.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (i, line) in code_lines(code) {
            if line.contains("catalogue::") || line.contains("Catalogue") {
                bad.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "print reads the catalogue:\n{}",
        bad.join("\n")
    );
}
