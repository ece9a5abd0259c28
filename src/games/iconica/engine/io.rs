//! Where dice and decisions come from: the engine asks an [`Io`] for every die face,
//! every `random_foe` pick and every decision, and stops with [`Stop`] when it has none
//! (the position then waits at that input: see [`IconicaGame::play_on`]).

use super::game::IconicaGame;
use super::setup::Setup;
use super::state::State;

/// The input source has no input for the step (a dice script is exhausted, or a position is
/// given its inputs one at a time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stop;

/// What a decision is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChoiceKind {
    /// Step 1 (v8): which opposing character Siphon damages.
    SiphonTarget,
    /// Step 3, standard break on doubles: which matching character breaks.
    BreakChar,
    /// Step 3, advanced break: act with the white die, or break a matching character.
    AdvancedBreak,
    /// Step 3, v8 break: break a matching character, or decline.
    V8Break,
    /// Step 4: which character acts.
    Actor,
    /// A `foe`, `ally` or `friend` target.
    Target,
    /// Step 4, failed Confusion: damage one of P's characters, or let the opponent heal.
    Confusion,
    /// The opponent heals one of its characters 10 (after a failed Confusion).
    HealTarget,
}

/// One option of a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Opt {
    /// A character (board slot).
    Char(u8),
    /// Advanced break option 1: use a white-die action.
    Act,
    /// Break this character (heal 20, dispel; use its action or end the turn).
    Break(u8),
    /// v8: do not use the break.
    Decline,
    /// Failed Confusion: 10 damage to this character of P.
    SelfDamage(u8),
    /// Failed Confusion: the opponent heals one of its characters 10.
    LetHeal,
}

/// A decision put to a side: the options are in the spec's `first` order (index 0 first).
#[derive(Debug, Clone, Copy)]
pub struct Choice<'a> {
    /// Side (0 = a, 1 = b) that decides.
    pub side: u8,
    pub kind: ChoiceKind,
    pub options: &'a [Opt],
    /// The acting slot, when the decision belongs to an action or Final Act.
    pub actor: Option<u8>,
    /// The state at the moment of the decision.
    pub state: &'a State,
    pub setup: &'a Setup,
    /// The position at the decision (the board is `state`): a copy goes on with any option.
    pub game: &'a IconicaGame<'a>,
}

/// A source of dice and decisions.
pub trait Io {
    /// One die face, 1 to 6.
    fn die(&mut self) -> Result<u8, Stop>;
    /// `random_foe`: an index in `0..n` (n >= 1). A dice script consumes one die.
    fn pick(&mut self, n: u8) -> Result<u8, Stop>;
    /// The index of the chosen option.
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop>;
    /// A decision taken from the number of options alone (`first`, `random`), so the engine
    /// need not list them; `None` (the default): the engine asks [`Io::choose`]. Called only
    /// with `n >= 2`; the answer means the same as `choose`'s.
    #[inline]
    fn choose_n(&mut self, _side: u8, _n: u8) -> Option<Result<u8, Stop>> {
        None
    }
}

pub use crate::games::dice::face_to_pick;
