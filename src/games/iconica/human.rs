//! A match with one side played by a person: [`HumanSeat`] is the [`Io`] that puts that
//! side's decisions to a callback (a UI answers them) and leaves everything else (the other
//! side's policy, the dice) to a [`Table`]; and each decision and option in words.

use super::ai::{Agent, PolicyKind, Table};
use super::engine::{
    Choice, ChoiceKind, Dice, Io, Log, Opt, Setup, State, Stop, TurnHook, play_match,
};
use crate::games::dice::derive_seed;

/// A [`Table`] whose side `side` is a person: `ask` answers that side's decisions with an
/// option's index, or `None` to stop the match (it then ends as if the dice ran out).
pub struct HumanSeat<D: Dice, F> {
    pub table: Table<D>,
    pub side: u8,
    pub ask: F,
}

impl<D: Dice, F> TurnHook for HumanSeat<D, F> {}

impl<D: Dice, F: FnMut(&Choice<'_>) -> Option<u8>> Io for HumanSeat<D, F> {
    fn die(&mut self) -> Result<u8, Stop> {
        self.table.die()
    }
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        self.table.pick(n)
    }
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop> {
        if c.side != self.side {
            return self.table.choose(c);
        }
        let n = c.options.len().min(usize::from(u8::MAX)) as u8;
        (self.ask)(c).filter(|k| *k < n).ok_or(Stop)
    }
    fn choose_n(&mut self, side: u8, n: u8) -> Option<Result<u8, Stop>> {
        // The person sees the options: the engine lists them for `choose`.
        if side == self.side {
            None
        } else {
            self.table.choose_n(side, n)
        }
    }
}

/// Plays one match with side `human` asked through `ask` and the other side played by
/// `other`, seeded as `play` seeds a match (the dice from `dice`, the computer's policy
/// from its side's stream of `seed`): a person who always takes the first option plays the
/// match `play --policy-a first` (or `--policy-b first`) plays.
pub fn play_against<D: Dice, F, L>(
    setup: &Setup,
    human: u8,
    other: PolicyKind,
    seed: u64,
    dice: D,
    ask: F,
    log: &mut L,
) -> State
where
    F: FnMut(&Choice<'_>) -> Option<u8>,
    L: Log,
{
    let agent = |side: u8| {
        let kind = if side == human {
            PolicyKind::First
        } else {
            other
        };
        Agent::new(kind, derive_seed(seed, u64::from(side) + 1))
    };
    let mut io = HumanSeat {
        table: Table::new(dice, agent(0), agent(1)),
        side: human,
        ask,
    };
    let mut st = State::new(setup);
    play_match(setup, &mut st, &mut io, log);
    st
}

/// The question a decision puts, in words.
pub fn question(c: &Choice<'_>) -> String {
    question_of(c.setup, c.kind, c.actor)
}

/// The question of a decision of `kind` (of the action of slot `actor`), in words.
pub fn question_of(setup: &Setup, kind: ChoiceKind, actor: Option<u8>) -> String {
    let actor = actor.map(|a| setup.label(usize::from(a)).to_string());
    match kind {
        ChoiceKind::SiphonTarget => "Siphon: which opposing character takes the damage?".into(),
        ChoiceKind::BreakChar => "Doubles: which character takes the Action Break?".into(),
        ChoiceKind::AdvancedBreak => "Act with the white die, or take an Action Break?".into(),
        ChoiceKind::V8Break => "Take the Action Break?".into(),
        ChoiceKind::Actor => "Which character acts?".into(),
        ChoiceKind::Target => match actor {
            Some(a) => format!("Which character does {a}'s action target?"),
            None => "Which character is the target?".into(),
        },
        ChoiceKind::Confusion => {
            "Confusion failed: 10 damage to one of your characters, or let the opponent heal 10?"
                .into()
        }
        ChoiceKind::HealTarget => "Which of your characters heals 10?".into(),
    }
}

/// One option of a decision, in words.
pub fn option_text(setup: &Setup, o: Opt) -> String {
    let n = |s: u8| setup.label(usize::from(s)).to_string();
    match o {
        Opt::Char(s) => n(s),
        Opt::Act => "Act with the white die".into(),
        Opt::Break(s) => format!("Break {}", n(s)),
        Opt::Decline => "Do not break".into(),
        Opt::SelfDamage(s) => format!("10 damage to {}", n(s)),
        Opt::LetHeal => "Let the opponent heal 10".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ai::Evaluated;
    use crate::games::iconica::engine::{Event, IconicaGame, RngDice};

    fn seeded_dice(seed: u64) -> RngDice {
        RngDice::new(seed)
    }

    /// The match `play` plays with these policies and seed (seats' streams 1 and 2).
    fn play_logged(
        setup: &Setup,
        a: PolicyKind,
        b: PolicyKind,
        seed: u64,
        mut dice: RngDice,
    ) -> (State, Vec<Event>) {
        let mut agents = [
            Agent::new(a, derive_seed(seed, 1)),
            Agent::new(b, derive_seed(seed, 2)),
        ];
        let mut g = IconicaGame::new(setup);
        let mut log = Vec::new();
        g.play_out(&mut dice, &mut agents, Some(&mut log));
        (*g.state(), log)
    }

    use crate::games::iconica::bundled_duel as duel;

    #[test]
    fn a_person_taking_the_first_option_plays_the_first_policy_s_match() {
        let setup = duel();
        for (human, seed) in [(0u8, 4u64), (1, 5)] {
            let mut asked = 0;
            let mut log: Vec<Event> = Vec::new();
            let ask = |c: &Choice<'_>| {
                assert_eq!(c.side, human);
                assert!(!c.options.is_empty());
                assert!(!question(c).is_empty());
                asked += 1;
                Some(0)
            };
            let st = play_against(
                &setup,
                human,
                PolicyKind::Greedy,
                seed,
                seeded_dice(seed),
                ask,
                &mut log,
            );
            let (a, b) = if human == 0 {
                (PolicyKind::First, PolicyKind::Greedy)
            } else {
                (PolicyKind::Greedy, PolicyKind::First)
            };
            let (want, want_log) = play_logged(&setup, a, b, seed, seeded_dice(seed));
            assert_eq!(log, want_log);
            assert_eq!(st.ended, want.ended);
            assert!(asked > 0);
        }
    }

    #[test]
    fn a_person_who_stops_ends_the_match_without_a_winner() {
        let setup = duel();
        let mut log: Vec<Event> = Vec::new();
        let st = play_against(
            &setup,
            0,
            PolicyKind::First,
            1,
            seeded_dice(1),
            |_| None,
            &mut log,
        );
        assert_eq!(st.ended.map(|e| e.1), Some(None));
        let out_of_range = play_against(
            &setup,
            0,
            PolicyKind::First,
            1,
            seeded_dice(1),
            |_| Some(200),
            &mut Vec::new(),
        );
        assert_eq!(out_of_range.ended, st.ended);
    }

    #[test]
    fn options_name_the_characters() {
        let setup = duel();
        assert_eq!(option_text(&setup, Opt::Char(0)), setup.label(0));
        assert_eq!(
            option_text(&setup, Opt::Break(1)),
            format!("Break {}", setup.label(1))
        );
    }
}
