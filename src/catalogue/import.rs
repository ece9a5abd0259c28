//! `import`: card files and folders into the catalogue, all or nothing.
//!
//! Files are found (folders recursively, `*.toml`), read and parsed in parallel, checked
//! together (one id in two files is an error naming both), and only then written, in one
//! transaction: any problem, or a process killed midway, leaves the catalogue as it was.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::art::StagedArt;
use super::store::{self, CardRow, Upserted};
use super::{CLASHES_KEY, Catalogue, CatalogueError};
use crate::cards::{self, CardError, CardFile};
use crate::games::iconoclasm::model::ClashTable;
use crate::safe_io;

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Card files read (the clash table included).
    pub files: usize,
    /// Cards whose id was new.
    pub added: usize,
    /// Cards that replaced a different card of the same id.
    pub updated: usize,
    /// Cards identical to the one already stored.
    pub unchanged: usize,
    /// Whether an Iconoclasm clash table was imported.
    pub clash_table: bool,
}

/// One reason an import was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportProblem {
    /// A card file that does not load (file, line, column, key inside).
    Card(CardError),
    /// A path that cannot be read.
    Read { path: PathBuf, message: String },
    /// Two files with the same card id (or two clash tables); `line`/`column` of the id in
    /// the second file.
    Duplicate {
        id: String,
        first: PathBuf,
        second: PathBuf,
        line: usize,
        column: usize,
    },
}

impl fmt::Display for ImportProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportProblem::Card(e) => write!(f, "{e}"),
            ImportProblem::Read { path, message } => {
                write!(f, "{}: cannot read: {message}", path.display())
            }
            ImportProblem::Duplicate {
                id,
                first,
                second,
                line,
                column,
            } => write!(
                f,
                "{}:{line}:{column}: key `id`: duplicate id `{id}`, also in {}; each card id may appear in one file only",
                second.display(),
                first.display()
            ),
        }
    }
}

/// Why nothing was imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Bad input: every problem found (files in path order).
    #[error("{}", list(.0))]
    Invalid(Vec<ImportProblem>),
    /// The catalogue could not be written.
    #[error(transparent)]
    Catalogue(#[from] CatalogueError),
}

fn list(problems: &[ImportProblem]) -> String {
    match problems {
        [one] => format!("{one}; nothing was imported"),
        many => {
            let mut s = format!("{} problems; nothing was imported:", many.len());
            for p in many {
                s.push_str("\n  ");
                s.push_str(&p.to_string());
            }
            s
        }
    }
}

impl From<rusqlite::Error> for ImportError {
    fn from(e: rusqlite::Error) -> Self {
        ImportError::Catalogue(e.into())
    }
}

/// The card files under `paths`: files as given, folders searched recursively for `*.toml`
/// (sorted, hidden entries skipped). Unreadable paths are problems.
pub fn find_card_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Vec<ImportProblem>> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for p in paths {
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => walk(p, &mut out, &mut problems, 0),
            Ok(_) => out.push(p.clone()),
            Err(e) => problems.push(ImportProblem::Read {
                path: p.clone(),
                message: e.to_string(),
            }),
        }
    }
    // A file named twice (directly, or also through its folder) is read once.
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())));
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// How deep `import` searches a folder (a symlink loop would otherwise recurse forever).
const MAX_DEPTH: usize = 32;

fn walk(dir: &Path, out: &mut Vec<PathBuf>, problems: &mut Vec<ImportProblem>, depth: usize) {
    if depth > MAX_DEPTH {
        problems.push(ImportProblem::Read {
            path: dir.to_path_buf(),
            message: format!("folders nested deeper than {MAX_DEPTH} (a symlink loop?)"),
        });
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            problems.push(ImportProblem::Read {
                path: dir.to_path_buf(),
                message: e.to_string(),
            });
            return;
        }
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        if e.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => walk(&path, out, problems, depth + 1),
            Ok(_) if path.extension().is_some_and(|x| x == "toml") => out.push(path),
            Ok(_) => {}
            Err(e) => problems.push(ImportProblem::Read {
                path,
                message: e.to_string(),
            }),
        }
    }
}

/// A file read and parsed, ready to write.
enum Loaded {
    /// The card's row, where its id is written (line, column), and its art, staged.
    Card(Box<CardRow>, (usize, usize), Option<StagedArt>),
    Clashes(ClashTable),
}

fn load(path: &Path, art: Option<&StagedArt>) -> Result<Loaded, ImportProblem> {
    // Special files (a FIFO would hang) and files over the limit are refused; an editor's
    // byte-order mark is not part of the TOML.
    let text = safe_io::read_text(path, safe_io::MAX_CARD_FILE, "card files").map_err(|e| {
        ImportProblem::Read {
            path: path.to_path_buf(),
            message: match &e {
                safe_io::InputError::Io { source, .. } => source.to_string(),
                safe_io::InputError::NotRegular { kind, .. } => {
                    format!("it is {kind}, not a regular file")
                }
                safe_io::InputError::TooLarge { limit, .. } => {
                    format!(
                        "larger than {}, the limit for a card file",
                        safe_io::size_text(*limit)
                    )
                }
                safe_io::InputError::NotText { at, .. } => {
                    format!("not UTF-8 text (byte {at}); card files are UTF-8 TOML")
                }
            },
        }
    })?;
    let text = text.as_str();
    match cards::parse(text, &path.display().to_string()) {
        Ok(CardFile::Card(mut c)) => {
            // The card's art, relative to the card file, is checked and staged for the
            // catalogue's folder (moved there only when the import commits).
            let staged = match art {
                Some(all) => {
                    let mut mine = all.part();
                    let base = path.parent().unwrap_or(Path::new("."));
                    mine.add(&mut c, base).map_err(|e| ImportProblem::Read {
                        path: c
                            .art()
                            .map(|a| super::art::art_source(a, base))
                            .unwrap_or_else(|| path.to_path_buf()),
                        message: format!("the card's art cannot be adopted: {e}"),
                    })?;
                    Some(mine)
                }
                None => None,
            };
            Ok(Loaded::Card(
                Box::new(CardRow::new(&c)),
                cards::key_position(text, &["id"]),
                staged,
            ))
        }
        Ok(CardFile::Clashes(t)) => Ok(Loaded::Clashes(t)),
        Err(e) => Err(ImportProblem::Card(e)),
    }
}

/// Reads and parses files in parallel. The threads get a roomy stack: deeply nested effect
/// lists recurse in the TOML reader (which stops at its own depth limit).
fn load_all(
    files: Vec<PathBuf>,
    art: Option<&StagedArt>,
) -> Vec<(PathBuf, Result<Loaded, ImportProblem>)> {
    let job = |files: Vec<PathBuf>| {
        files
            .into_par_iter()
            .map(|p| {
                let r = load(&p, art);
                (p, r)
            })
            .collect()
    };
    match rayon::ThreadPoolBuilder::new().stack_size(16 << 20).build() {
        Ok(pool) => pool.install(|| job(files)),
        Err(_) => files
            .into_iter()
            .map(|p| {
                let r = load(&p, art);
                (p, r)
            })
            .collect(),
    }
}

/// From this many cards on, an import indexes its new cards' text in one statement.
const BULK_ROWS: usize = 256;

/// The clash table's pseudo-id in duplicate messages.
const CLASHES_ID: &str = "iconoclasm clash table";

impl Catalogue {
    /// Imports card files and folders: all or nothing. A card whose id is already in the
    /// catalogue is replaced; its owned quantity is kept. A card's art file, read relative
    /// to the card file, is copied into the catalogue's art folder (see [`Catalogue::art_dir`]).
    pub fn import_paths(&mut self, paths: &[PathBuf]) -> Result<ImportReport, ImportError> {
        let files = find_card_files(paths).map_err(ImportError::Invalid)?;
        let mut art = self.art_dir().map(|d| StagedArt::new(&d));
        let loaded = load_all(files, art.as_ref());
        let mut problems = Vec::new();
        let mut seen: HashMap<String, PathBuf> = HashMap::new();
        let mut rows = Vec::new();
        let mut clashes = None;
        let files = loaded.len();
        for (path, r) in loaded {
            let (id, (line, column), item) = match r {
                Ok(Loaded::Card(row, at, staged)) => {
                    if let (Some(all), Some(mine)) = (art.as_mut(), staged) {
                        all.extend(mine);
                    }
                    (row.id.clone(), at, Loaded::Card(row, at, None))
                }
                Ok(Loaded::Clashes(t)) => (CLASHES_ID.to_string(), (1, 1), Loaded::Clashes(t)),
                Err(p) => {
                    problems.push(p);
                    continue;
                }
            };
            if let Some(first) = seen.get(&id) {
                problems.push(ImportProblem::Duplicate {
                    id,
                    first: first.clone(),
                    second: path,
                    line,
                    column,
                });
                continue;
            }
            seen.insert(id, path);
            match item {
                Loaded::Card(row, _, _) => rows.push(row),
                Loaded::Clashes(t) => clashes = Some(t),
            }
        }
        if !problems.is_empty() {
            return Err(ImportError::Invalid(problems));
        }
        let mut report = ImportReport {
            files,
            clash_table: clashes.is_some(),
            ..Default::default()
        };
        let tx = self
            .conn_mut()
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut write = || -> Result<(), CatalogueError> {
            for row in &rows {
                match store::upsert(&tx, row)? {
                    Upserted::Added => report.added += 1,
                    Upserted::Updated => report.updated += 1,
                    Upserted::Unchanged => report.unchanged += 1,
                }
            }
            Ok(())
        };
        if rows.len() >= BULK_ROWS {
            store::with_bulk_fts(&tx, write)?;
        } else {
            write()?;
        }
        if let Some(t) = clashes {
            store::set_meta(&tx, CLASHES_KEY, &t.to_toml())?;
        }
        tx.commit()?;
        if let Some(staged) = art {
            staged.commit().map_err(CatalogueError::from)?;
        }
        Ok(report)
    }
}
