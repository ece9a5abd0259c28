//! The command line's limits on numbers and sizes (`docs/limits.md` lists them for users).
//! A value beyond one is a usage error (exit 2) naming the limit; only `--threads` is
//! lowered instead, to the machine's parallelism, with a note (the result of a sim does not
//! depend on its thread count).

/// `sim --games N`: at most this many matches (with `--field`: in all, parties x games).
pub const MAX_GAMES: u64 = 100_000_000;

/// `duel ruunara --games N`: at most this many duels (played on one thread).
pub const MAX_DUEL_GAMES: u32 = 10_000_000;

/// `sim iconica --field`: at most this many characters in the pool (161,700 parties of three).
pub const MAX_FIELD_POOL: usize = 100;

/// `--dice "..."`: at most this many scripted faces.
pub const MAX_DICE_FACES: usize = 10_000;

/// `--dice "..."`: at most this many characters (checked before the faces are read).
pub const MAX_DICE_CHARS: usize = 100_000;

/// `mcts:N`: at most this many playouts a decision.
pub const MAX_PLAYOUTS: u32 = 1_000_000;

/// `mcts:Nms`: at most this many milliseconds a decision.
pub const MAX_MILLIS: u64 = 60_000;

/// `search QUERY`: at most this many characters.
pub const MAX_QUERY_CHARS: usize = 4_096;

/// `odds ruunara nD k+`: at most this many dice.
pub const MAX_ODDS_DICE: u32 = 1_000;

/// A party, character, setup or squad file (`validate`, `play`, `sim`): at most this many
/// bytes (the largest example is under 2 KB).
pub const MAX_BUILD_FILE_BYTES: u64 = crate::safe_io::MAX_BUILD_FILE;

/// The threads a sim may use: what the machine offers (at least 1).
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `--threads T` as it will be used: `T` lowered to [`max_threads`], with the note to print
/// when it was lowered.
pub fn threads(requested: Option<usize>) -> (Option<usize>, Option<String>) {
    let max = max_threads();
    match requested {
        Some(t) if t > max => (
            Some(max),
            Some(format!(
                "note: --threads {t}: this machine runs at most {max} threads at once; using {max}"
            )),
        ),
        other => (other, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_lowered_to_the_machine_only_above_it() {
        let max = max_threads();
        assert_eq!(threads(None), (None, None));
        assert_eq!(threads(Some(1)), (Some(1), None));
        assert_eq!(threads(Some(max)), (Some(max), None));
        let (t, note) = threads(Some(max + 1));
        assert_eq!(t, Some(max));
        assert!(note.unwrap().contains(&format!("using {max}")));
    }
}
