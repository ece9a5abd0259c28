//! The options of `play` and `sim` that every game takes (seed, policies, JSON, the match
//! file; for sim: games, AI, threads, shards), typed so that clap refuses a bad one (exit 2).
//! Each game's own options are its registration's (`games/GAME/options.rs`).

use std::ffi::OsStr;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;

use super::limits::{MAX_DICE_CHARS, MAX_DICE_FACES, MAX_GAMES, MAX_MILLIS, MAX_PLAYOUTS};
use crate::games::ai::Budget;
use crate::games::iconica::ai::PolicyKind;
use crate::games::iconica::engine::ScriptDice;

/// The options `play` takes for every game.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayShared {
    /// Seed of the dice (and of the deal, and of random and mcts policies).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Policy of every side: first, random, greedy, mcts, mcts:N (playouts) or mcts:Nms.
    #[arg(long, value_name = "POLICY", default_value = "first", value_parser = policy_parser())]
    pub policy: PolicyKind,
    /// Policy of side a (the first player); overrides --policy.
    #[arg(long, value_name = "POLICY", value_parser = policy_parser())]
    pub policy_a: Option<PolicyKind>,
    /// Policy of side b (the second player); overrides --policy.
    #[arg(long, value_name = "POLICY", value_parser = policy_parser())]
    pub policy_b: Option<PolicyKind>,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Also write the match file (`deckwright replay FILE` prints and checks it).
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
}

impl PlayShared {
    /// The policies of `seats` seats: `--policy-a`, `--policy-b`, else `--policy`.
    pub fn policies(&self, seats: u8) -> Vec<PolicyKind> {
        seat_policies(seats, [self.policy_a, self.policy_b], self.policy)
    }
}

/// `--dice`: the games that roll dice take a script of faces.
#[derive(Debug, Clone, clap::Args)]
pub struct DiceScript {
    /// Scripted dice faces, e.g. "3 5 2 6" (at most 10,000); the match ends when they run out.
    #[arg(long, value_name = "FACES", value_parser = dice_parser())]
    pub dice: Option<ScriptDice>,
}

/// The options `sim` takes for every game.
#[derive(Debug, Clone, clap::Args)]
pub struct SimShared {
    /// Matches to play, 1 to 100,000,000 (with --field: per party of the field, at most
    /// 100,000,000 in all).
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    pub games: u64,
    /// Seed of the whole run: each game's seed derives from it and the game's index.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// AI policy of every side: first, random, greedy, mcts, mcts:N (playouts) or mcts:Nms.
    #[arg(long, value_name = "POLICY", default_value = "greedy", value_parser = policy_parser())]
    pub ai: PolicyKind,
    /// Policy of side a (the first player); overrides --ai.
    #[arg(long, value_name = "POLICY", value_parser = policy_parser())]
    pub ai_a: Option<PolicyKind>,
    /// Policy of side b (the second player); overrides --ai.
    #[arg(long, value_name = "POLICY", value_parser = policy_parser())]
    pub ai_b: Option<PolicyKind>,
    /// Threads to play on (default: every core); more than the machine has is lowered to it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..).map(|t| usize::try_from(t).unwrap_or(usize::MAX)))]
    pub threads: Option<usize>,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub sharding: Sharding,
}

/// `--shard K/N --out FILE`: one shard of a run, its tally written for `deckwright merge`.
#[derive(Debug, Clone, clap::Args)]
pub struct Sharding {
    /// Play shard K of N of the run and write its tally to --out (`auto/N`: K from Slurm's
    /// SLURM_ARRAY_TASK_ID, Kubernetes' JOB_COMPLETION_INDEX or GNU parallel's PARALLEL_SEQ);
    /// `deckwright merge` adds the shards' tallies into the whole run's report.
    #[arg(long, value_name = "K/N", requires = "out")]
    pub shard: Option<String>,
    /// With --shard: the tally file to write.
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub out: Option<std::path::PathBuf>,
}

impl SimShared {
    /// The policies of `seats` seats: `--ai-a`, `--ai-b`, else `--ai`.
    pub fn policies(&self, seats: u8) -> Vec<PolicyKind> {
        seat_policies(seats, [self.ai_a, self.ai_b], self.ai)
    }
}

/// The policies of `seats` seats in order: the first two seats' own option when given, else
/// (and for seats 3 and 4) the shared one.
/// The options of `play` for a game with one deciding seat (Ruunara: the squad; the enemies
/// are run by the rules).
#[derive(Debug, Clone, clap::Args)]
pub struct SoloPlay {
    /// Seed of the dice and of the policy.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The squad's policy: first, random, greedy, mcts, mcts:N (playouts) or mcts:Nms.
    #[arg(long, value_name = "POLICY", default_value = "first", value_parser = policy_parser())]
    pub policy: PolicyKind,
    /// Print the match as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also write the match file (`deckwright replay FILE` prints and checks it).
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
}

/// The options of `sim` for a game with one deciding seat (Ruunara).
#[derive(Debug, Clone, clap::Args)]
pub struct SoloSim {
    /// How many matches.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    pub games: u64,
    /// Seed of the run: match i is seeded from (seed, i), whatever the thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The squad's policy: first, random, greedy, mcts, mcts:N or mcts:Nms.
    #[arg(long, value_name = "POLICY", default_value = "greedy", value_parser = policy_parser())]
    pub ai: PolicyKind,
    /// Worker threads (default: every core; lowered to the machine's with a note).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..).map(|t| usize::try_from(t).unwrap_or(usize::MAX)))]
    pub threads: Option<usize>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub sharding: Sharding,
}

fn seat_policies(seats: u8, own: [Option<PolicyKind>; 2], shared: PolicyKind) -> Vec<PolicyKind> {
    (0..usize::from(seats))
        .map(|seat| own.get(seat).copied().flatten().unwrap_or(shared))
        .collect()
}

/// The parser of a policy option: `first`, `random`, `greedy`, `mcts`, `mcts:N`, `mcts:Nms`,
/// `seat-greedy`, `seat-mcts`, `seat-mcts:N`, `seat-mcts:Nms`, with the budgets of `limits.rs`.
pub fn policy_parser() -> impl TypedValueParser<Value = PolicyKind> {
    Checked(parse_policy)
}

fn parse_policy(s: &str) -> Result<PolicyKind, String> {
    let kind = PolicyKind::parse(s).ok_or_else(|| {
        format!(
            "unknown policy `{}`; expected first, random, greedy, mcts, mcts:N, mcts:Nms, seat-greedy or seat-mcts[:N|:Nms]",
            shorten(s)
        )
    })?;
    match kind {
        PolicyKind::Mcts(budget) | PolicyKind::SeatMcts(budget) => match budget {
            Budget::Playouts(n) if n > MAX_PLAYOUTS => Err(format!(
                "{kind} is more than the {MAX_PLAYOUTS} playouts a decision allowed"
            )),
            Budget::Millis(ms) if ms > MAX_MILLIS => Err(format!(
                "{kind} is more than the {MAX_MILLIS} ms a decision allowed"
            )),
            _ => Ok(kind),
        },
        _ => Ok(kind),
    }
}

/// The parser of `--dice`: faces 1 to 6 separated by spaces or commas, at most
/// [`MAX_DICE_FACES`] of them.
pub fn dice_parser() -> impl TypedValueParser<Value = ScriptDice> {
    Checked(parse_dice)
}

fn parse_dice(s: &str) -> Result<ScriptDice, String> {
    let too_long = || format!("a dice script holds at most {MAX_DICE_FACES} faces");
    if s.len() > MAX_DICE_CHARS {
        return Err(too_long());
    }
    let faces = s
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|f| !f.is_empty())
        .count();
    if faces > MAX_DICE_FACES {
        return Err(format!("{} ({faces} given)", too_long()));
    }
    ScriptDice::parse(s).map_err(|e| {
        format!(
            "`{}` is not a die face (1 to 6); write faces separated by spaces or commas, e.g. \"3 5 2 6\"",
            shorten(&e.0)
        )
    })
}

/// A value as a message may quote it: at most 80 characters.
fn shorten(s: &str) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(80) {
        Some((end, _)) => format!("{}...", &s[..end]).into(),
        None => s.into(),
    }
}

/// A value parser from a function, whose error is clap's usage error (exit 2) worded
/// `--option: message` without echoing the whole value.
#[derive(Clone, Copy)]
struct Checked<T>(fn(&str) -> Result<T, String>);

impl<T: Clone + Send + Sync + 'static> TypedValueParser for Checked<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let option = arg
            .and_then(|a| a.get_long())
            .map(|l| format!("--{l}: "))
            .unwrap_or_default();
        let text = value.to_str().ok_or_else(|| {
            clap::Error::raw(ErrorKind::InvalidUtf8, format!("{option}not valid UTF-8\n"))
                .with_cmd(cmd)
        })?;
        (self.0)(text).map_err(|e| {
            clap::Error::raw(ErrorKind::InvalidValue, format!("{option}{e}\n")).with_cmd(cmd)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_parse_with_their_budgets_bounded() {
        assert_eq!(parse_policy("greedy"), Ok(PolicyKind::Greedy));
        assert!(matches!(parse_policy("mcts:200"), Ok(PolicyKind::Mcts(_))));
        assert!(
            parse_policy("mcts:2000000")
                .unwrap_err()
                .contains("1000000 playouts")
        );
        assert!(
            parse_policy("mcts:61000ms")
                .unwrap_err()
                .contains("60000 ms")
        );
        assert!(
            parse_policy("clever")
                .unwrap_err()
                .contains("unknown policy `clever`")
        );
    }

    #[test]
    fn dice_scripts_are_bounded() {
        assert!(parse_dice("3 5, 2 6").is_ok());
        let long = "1 ".repeat(MAX_DICE_FACES + 1);
        assert!(
            parse_dice(&long)
                .unwrap_err()
                .contains("at most 10000 faces")
        );
        assert!(parse_dice(&"1 ".repeat(MAX_DICE_FACES)).is_ok());
        assert!(
            parse_dice(&"x".repeat(MAX_DICE_CHARS + 1))
                .unwrap_err()
                .contains("at most")
        );
        let bad = parse_dice(&"7".repeat(500)).unwrap_err();
        assert!(bad.len() < 200, "{bad}");
    }
}
