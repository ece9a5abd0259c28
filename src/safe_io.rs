//! Files in and out, safely: every file the program reads from a user is a regular file of
//! bounded size, and every file it writes goes through one durable path.
//!
//! Reading ([`read_bytes`], [`read_text`]): FIFOs, devices and sockets are refused (reading
//! one would hang or never end), and so is a file over the limit of its kind (the limits
//! are the `MAX_*` constants, documented in `docs/reliability.md`).
//!
//! Writing ([`write_atomic`], [`Staged`], [`StagedDir`]): the bytes go to a new file with an
//! unpredictable name in the target's folder (created exclusively, so a planted symlink is
//! never followed), are flushed to the disk (`sync_all`), renamed over the target (which
//! replaces a symlink there rather than writing through it), and the folder is synced so
//! the rename survives a power cut. A target that is a FIFO, a device or a folder is
//! refused. A killed run can leave its temporary file (`.deckwright-*.part`) behind; the
//! next write into that folder removes those older than [`STALE_AFTER`], and also the
//! `.NAME.tmp-PID` / `.NAME.PID.part` files of older versions.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A card file (TOML) is at most 1 MiB.
pub const MAX_CARD_FILE: u64 = 1 << 20;
/// A party, character, setup or squad file is at most 1 MiB.
pub const MAX_BUILD_FILE: u64 = 1 << 20;
/// A collection CSV is at most 64 MiB.
pub const MAX_CSV_FILE: u64 = 64 << 20;
/// A portrait image is at most 32 MiB.
pub const MAX_PORTRAIT_FILE: u64 = 32 << 20;
/// A spreadsheet of cards (`sheet import`, CSV or XLSX) is at most 64 MiB.
pub const MAX_SHEET_FILE: u64 = 64 << 20;

/// The prefix of every temporary file and folder the program makes.
pub const TEMP_PREFIX: &str = ".deckwright-";

/// Temporary files older than this, left by a killed run, are removed by the next write.
pub const STALE_AFTER: Duration = Duration::from_secs(3600);

/// Why a file given as input was not read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A FIFO, device, socket or folder.
    #[error("`{}` is not a regular file: it is {kind}; deckwright reads only regular files", path.display())]
    NotRegular { path: PathBuf, kind: &'static str },
    /// Larger than the limit for its kind of file.
    #[error("`{}` is larger than {} (the limit for {what}); nothing was read", path.display(), size_text(*limit))]
    TooLarge {
        path: PathBuf,
        what: &'static str,
        limit: u64,
    },
    /// Not UTF-8 text.
    #[error("`{}` is not UTF-8 text (byte {at}); {what} are UTF-8", path.display())]
    NotText {
        path: PathBuf,
        what: &'static str,
        at: usize,
    },
    #[error("cannot read `{}`: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// `1 MiB`, `64 MiB`, `512 KiB`, or bytes.
pub fn size_text(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// What kind of special file this is, if it is one (`None`: a regular file).
pub fn special_kind(ft: &std::fs::FileType) -> Option<&'static str> {
    if ft.is_file() {
        return None;
    }
    if ft.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if ft.is_char_device() || ft.is_block_device() {
            return Some("a device");
        }
        if ft.is_socket() {
            return Some("a socket");
        }
    }
    if ft.is_symlink() {
        return None;
    }
    Some("not a regular file")
}

/// Refuses anything but a regular file (symlinks followed) at `path`; a missing file is
/// fine (`Ok(false)`), an existing regular one `Ok(true)`.
pub fn check_regular(path: &Path) -> Result<bool, InputError> {
    match std::fs::metadata(path) {
        Ok(m) => match special_kind(&m.file_type()) {
            Some(kind) => Err(InputError::NotRegular {
                path: path.to_path_buf(),
                kind,
            }),
            None => Ok(true),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(source) => Err(InputError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The bytes of the regular file at `path`, at most `limit` of them (`what` names the kind
/// of file in the error, e.g. "a card file").
pub fn read_bytes(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, InputError> {
    let io_err = |source| InputError::Io {
        path: path.to_path_buf(),
        source,
    };
    if !check_regular(path)? {
        return Err(io_err(io::Error::from(io::ErrorKind::NotFound)));
    }
    let f = File::open(path).map_err(io_err)?;
    let meta = f.metadata().map_err(io_err)?;
    if let Some(kind) = special_kind(&meta.file_type()) {
        return Err(InputError::NotRegular {
            path: path.to_path_buf(),
            kind,
        });
    }
    let too_large = || InputError::TooLarge {
        path: path.to_path_buf(),
        what,
        limit,
    };
    if meta.len() > limit {
        return Err(too_large());
    }
    let mut out = Vec::with_capacity(meta.len() as usize);
    f.take(limit + 1).read_to_end(&mut out).map_err(io_err)?;
    if out.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(out)
}

/// The UTF-8 text of the regular file at `path` (a leading byte-order mark dropped), at most
/// `limit` bytes.
pub fn read_text(path: &Path, limit: u64, what: &'static str) -> Result<String, InputError> {
    let bytes = read_bytes(path, limit, what)?;
    let text = String::from_utf8(bytes).map_err(|e| InputError::NotText {
        path: path.to_path_buf(),
        what,
        at: e.utf8_error().valid_up_to(),
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// `s` cut to at most `max` characters for quoting in a message (`…` and the full length
/// added when cut), so a 10 MB value never makes a 10 MB message.
pub fn excerpt(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((at, _)) => format!("{}… ({} characters)", &s[..at], s.chars().count()),
    }
}

/// Refuses an output target that is a folder, a FIFO, a device or a socket (a symlink
/// there is fine: it is replaced, never written through).
pub fn check_output(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) => match special_kind(&m.file_type()) {
            Some(kind) => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "`{}` is {kind}; deckwright writes only regular files",
                    path.display()
                ),
            )),
            None => Ok(()),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Makes the new folder `path` in a folder that exists (nothing there yet: an existing file,
/// folder or special file is refused), and flushes the entry to the disk.
pub fn create_folder(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) => {
            let what = special_kind(&m.file_type()).unwrap_or(if m.is_dir() {
                "a folder already"
            } else {
                "a file"
            });
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("`{}` is {what}", path.display()),
            ));
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    std::fs::create_dir(path)?;
    sync_dir(&folder_of(path))
}

/// The folder a path is in (`.` for a bare file name).
pub fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Flushes a folder's entries (a rename into it) to the disk; a no-op where folders cannot
/// be opened.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// A new temporary file in `dir`: unpredictable name, created exclusively, with the
/// permissions a plain `File::create` gives (0o666 less the umask), as the file it becomes
/// is the user's output.
fn temp_in(dir: &Path) -> io::Result<tempfile::NamedTempFile> {
    let mut b = tempfile::Builder::new();
    b.prefix(TEMP_PREFIX).suffix(".part").rand_bytes(12);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(dir)
}

/// A file being written to a temporary name beside its target; [`Staged::commit`] makes it
/// the target, dropping it unfinished removes it.
pub struct Staged {
    tmp: tempfile::NamedTempFile,
    target: PathBuf,
}

impl Staged {
    /// Starts writing `target` (its folder must exist). Refuses a target that is a folder or
    /// a special file before anything is written.
    pub fn new(target: &Path) -> io::Result<Staged> {
        check_output(target)?;
        if target.file_name().is_none() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("`{}` has no file name", target.display()),
            ));
        }
        let dir = folder_of(target);
        clean_stale(&dir, target);
        Ok(Staged {
            tmp: temp_in(&dir)?,
            target: target.to_path_buf(),
        })
    }

    /// The temporary file, to write to.
    pub fn file(&mut self) -> &mut File {
        self.tmp.as_file_mut()
    }

    /// Syncs the bytes, renames them over the target and syncs the folder.
    pub fn commit(self) -> io::Result<()> {
        let Staged { tmp, target } = self;
        tmp.as_file().sync_all()?;
        check_output(&target)?;
        tmp.persist(&target).map_err(|e| e.error)?;
        sync_dir(&folder_of(&target))
    }
}

/// A file written and synced under a temporary name beside its target, holding no open
/// file (an import may stage thousands): [`StagedFile::commit`] renames it over the target,
/// dropping it removes it.
pub struct StagedFile {
    tmp: tempfile::TempPath,
    target: PathBuf,
}

impl StagedFile {
    /// Writes `bytes` beside `target` (its folder must exist); `target` is not touched yet.
    pub fn write(target: &Path, bytes: &[u8]) -> io::Result<StagedFile> {
        let mut staged = Staged::new(target)?;
        staged.write_all(bytes)?;
        staged.file().sync_all()?;
        let Staged { tmp, target } = staged;
        Ok(StagedFile {
            tmp: tmp.into_temp_path(),
            target,
        })
    }

    /// Renames the bytes over the target (the caller syncs the folder, once for many).
    pub fn commit(self) -> io::Result<()> {
        check_output(&self.target)?;
        self.tmp.persist(&self.target).map_err(|e| e.error)
    }
}

impl Write for Staged {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

/// Writes `bytes` to `path` durably and atomically: a reader sees the old file or the new
/// one, never a part, even after a crash or a power cut.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut staged = Staged::new(path)?;
    staged.write_all(bytes)?;
    staged.commit()
}

/// Removes what killed runs left in `dir`: `.deckwright-*` temporary files and folders
/// older than [`STALE_AFTER`], and the `.NAME.tmp-PID` / `.NAME.PID.part` files of older
/// versions for `target`'s NAME. Errors are ignored (it is housekeeping).
pub fn clean_stale(dir: &Path, target: &Path) {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let old_tmp = format!(".{name}.tmp-");
    let old_part = format!(".{name}.");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        let legacy = !name.is_empty()
            && ((n
                .strip_prefix(&old_tmp)
                .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())))
                || n.strip_prefix(&old_part)
                    .and_then(|r| r.strip_suffix(".part"))
                    .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())));
        let ours = n.starts_with(TEMP_PREFIX);
        if !(legacy || ours) {
            continue;
        }
        let Ok(meta) = e.path().symlink_metadata() else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age >= STALE_AFTER);
        if !(legacy || old) {
            continue;
        }
        if meta.is_dir() {
            let _ = std::fs::remove_dir_all(e.path());
        } else {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// A multi-file output written all or nothing: files go into a temporary folder, then
/// [`StagedDir::commit`] moves them into the target folder. A target folder that does not
/// exist yet is made by renaming the temporary folder, so it appears whole or not at all.
pub struct StagedDir {
    stage: tempfile::TempDir,
    target: PathBuf,
    /// The target did not exist: the stage is beside it and becomes it.
    fresh: bool,
}

impl StagedDir {
    /// Starts an output into the folder `target` (created with its parents if missing).
    pub fn new(target: &Path) -> io::Result<StagedDir> {
        let fresh = match std::fs::symlink_metadata(target) {
            Ok(m) if m.is_dir() => false,
            Ok(m) if m.file_type().is_symlink() && target.is_dir() => false,
            Ok(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("`{}` exists and is not a folder", target.display()),
                ));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => true,
            Err(e) => return Err(e),
        };
        let home = if fresh {
            let parent = folder_of(target);
            std::fs::create_dir_all(&parent)?;
            parent
        } else {
            target.to_path_buf()
        };
        clean_stale(&home, Path::new(""));
        let stage = tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .rand_bytes(12)
            .tempdir_in(&home)?;
        Ok(StagedDir {
            stage,
            target: target.to_path_buf(),
            fresh,
        })
    }

    /// Writes the file at `rel` (a relative path of plain names, made by the caller from
    /// validated parts) into the stage. Several threads may write at once.
    pub fn write(&self, rel: &Path, bytes: &[u8]) -> io::Result<()> {
        let plain = rel
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !plain || rel.as_os_str().is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("`{}` is not a plain relative path", rel.display()),
            ));
        }
        let path = self.stage.path().join(rel);
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d)?;
        }
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        f.write_all(bytes)?;
        f.sync_all()
    }

    /// Moves every staged file into the target folder (replacing files of the same name).
    /// Every target is checked first, so a refused one leaves the target folder untouched.
    pub fn commit(self) -> io::Result<()> {
        let StagedDir {
            stage,
            target,
            fresh,
        } = self;
        let mut files = Vec::new();
        staged_files(stage.path(), Path::new(""), &mut files)?;
        let mut dirs: Vec<PathBuf> = files
            .iter()
            .filter_map(|f| f.parent().map(Path::to_path_buf))
            .collect();
        dirs.sort();
        dirs.dedup();
        for d in &dirs {
            if !d.as_os_str().is_empty() {
                sync_dir(&stage.path().join(d))?;
            }
        }
        if fresh {
            let path = stage.path().to_path_buf();
            sync_dir(&path)?;
            if std::fs::rename(&path, &target).is_ok() {
                // The stage is the target now: nothing is left to clean.
                let _ = stage.keep();
                return sync_dir(&folder_of(&target));
            }
            // Another process made the folder meanwhile: move the files into it instead.
        }
        for f in &files {
            check_output(&target.join(f))?;
            if let Some(d) = f.parent().filter(|d| !d.as_os_str().is_empty()) {
                let dest = target.join(d);
                match std::fs::symlink_metadata(&dest) {
                    Ok(m) if m.is_dir() => {}
                    Ok(_) => {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidInput,
                            format!("`{}` exists and is not a folder", dest.display()),
                        ));
                    }
                    Err(_) => {}
                }
            }
        }
        for d in &dirs {
            std::fs::create_dir_all(target.join(d))?;
        }
        for f in &files {
            std::fs::rename(stage.path().join(f), target.join(f))?;
        }
        for d in &dirs {
            sync_dir(&target.join(d))?;
        }
        sync_dir(&target)
    }
}

/// The files under `root/rel`, as paths relative to `root`.
fn staged_files(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for e in std::fs::read_dir(root.join(rel))? {
        let e = e?;
        let r = rel.join(e.file_name());
        if e.file_type()?.is_dir() {
            staged_files(root, &r, out)?;
        } else {
            out.push(r);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.toml");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        assert_eq!(names(dir.path()), vec!["a.toml"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_at_the_target_is_replaced_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "keep").unwrap();
        let out = dir.path().join("out.csv");
        std::os::unix::fs::symlink(&victim, &out).unwrap();
        write_atomic(&out, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        assert!(
            !std::fs::symlink_metadata(&out)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[cfg(unix)]
    #[test]
    fn an_output_file_gets_the_permissions_file_create_gives() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        std::fs::File::create(&plain).unwrap();
        let ours = dir.path().join("ours");
        write_atomic(&ours, b"x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&ours), mode(&plain));
    }

    #[test]
    fn legacy_and_stale_temp_files_are_cleaned() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(".out.csv.tmp-1234"), "x").unwrap();
        std::fs::write(dir.path().join(".out.csv.99.part"), "x").unwrap();
        std::fs::write(dir.path().join(".out.csv.notes"), "mine").unwrap();
        write_atomic(&dir.path().join("out.csv"), b"a").unwrap();
        assert_eq!(names(dir.path()), vec![".out.csv.notes", "out.csv"]);
    }

    #[test]
    fn staged_dir_into_a_new_folder_appears_whole() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("new/out");
        let s = StagedDir::new(&target).unwrap();
        s.write(Path::new("a/x.toml"), b"1").unwrap();
        s.write(Path::new("b/y.toml"), b"2").unwrap();
        assert!(!target.exists());
        assert!(s.write(Path::new("../z"), b"3").is_err());
        s.commit().unwrap();
        assert_eq!(
            std::fs::read_to_string(target.join("a/x.toml")).unwrap(),
            "1"
        );
        assert_eq!(names(&dir.path().join("new")), vec!["out"]);
    }

    #[test]
    fn staged_dir_dropped_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let s = StagedDir::new(dir.path()).unwrap();
        s.write(Path::new("a/x.toml"), b"1").unwrap();
        drop(s);
        assert!(names(dir.path()).is_empty());
    }

    #[test]
    fn excerpts_are_bounded() {
        assert_eq!(excerpt("abc", 5), "abc");
        let long = "é".repeat(10_000);
        let e = excerpt(&long, 40);
        assert!(e.chars().count() < 80, "{e}");
        assert!(e.ends_with("(10000 characters)"));
    }
}
