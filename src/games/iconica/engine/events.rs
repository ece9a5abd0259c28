//! The event log: small `Copy` records the engine emits (a sink may drop them), rendered as
//! readable text or as JSON objects with a `type` and a `text`.

use serde_json::{Value, json};

use super::setup::Setup;
use super::state::{Ended, Winner};
use crate::games::iconica::model::{ActionKind, Status};

/// What moved a marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cause {
    Action,
    Strength,
    Watch,
    Reaction,
    Poison,
    Siphon,
    Restoration,
    Confusion,
    Break,
    FinalAct,
}

impl Cause {
    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Action => "action",
            Cause::Strength => "strength",
            Cause::Watch => "watch",
            Cause::Reaction => "reaction",
            Cause::Poison => "poison",
            Cause::Siphon => "siphon",
            Cause::Restoration => "restoration",
            Cause::Confusion => "confusion",
            Cause::Break => "action_break",
            Cause::FinalAct => "final_act",
        }
    }
}

/// One thing that happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Event {
    Turn {
        turn: u32,
        player: u8,
        side: u8,
    },
    /// A start-of-turn status roll; `kept` = the status stays.
    StatusRoll {
        slot: u8,
        status: Status,
        face: u8,
        kept: bool,
    },
    ActionRoll {
        white: u8,
        black: u8,
    },
    /// An Action Break: heal 20 and dispel `slot`; `acts` = it uses action `number`.
    Break {
        slot: u8,
        number: u8,
        acts: bool,
    },
    NoActor,
    /// Blind or Confusion check of the acting character.
    Check {
        slot: u8,
        status: Status,
        face: u8,
        pass: bool,
    },
    LetHeal {
        by: u8,
    },
    Action {
        slot: u8,
        number: u8,
        action: u16,
    },
    Damage {
        slot: u8,
        amount: u16,
        from: u16,
        to: u16,
        parried: bool,
        by: Option<u8>,
        cause: Cause,
    },
    Heal {
        slot: u8,
        from: u16,
        to: u16,
        cause: Cause,
    },
    Inflict {
        slot: u8,
        status: Status,
        prevented: bool,
    },
    Grant {
        slot: u8,
        status: Status,
        took: bool,
    },
    Dispel {
        slot: u8,
        removed: u8,
    },
    /// v8: a nullifier the marker came to rest on removed a status.
    Removed {
        slot: u8,
        status: Status,
    },
    EffectRoll {
        slot: u8,
        face: u8,
        taken: bool,
    },
    RandomFoe {
        slot: u8,
        target: u8,
    },
    Strength {
        slot: u8,
        target: u8,
    },
    WatchSet {
        slot: u8,
        kind: ActionKind,
    },
    WatchTriggered {
        slot: u8,
        kind: ActionKind,
    },
    Skulled {
        slot: u8,
    },
    StatusEnds {
        slot: u8,
        status: Status,
    },
    FinalAct {
        slot: u8,
    },
    LeavesPlay {
        slot: u8,
    },
    End {
        ended: Ended,
        winner: Option<Winner>,
    },
}

/// Where events go. `NoLog` drops them (sims); `Vec<Event>` keeps them.
pub trait Log {
    fn push(&mut self, e: Event);
    /// False when events are dropped (lets callers skip work that only feeds the log).
    fn on(&self) -> bool {
        true
    }
}

/// Drops every event.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoLog;

impl Log for NoLog {
    #[inline(always)]
    fn push(&mut self, _: Event) {}
    #[inline(always)]
    fn on(&self) -> bool {
        false
    }
}

impl Log for Vec<Event> {
    fn push(&mut self, e: Event) {
        Vec::push(self, e)
    }
}

fn side_name(s: u8) -> &'static str {
    if s == 0 { "a" } else { "b" }
}

/// A side as the sentences and the app name it: A or B (the JSON keeps `a` and `b`).
fn side_title(s: u8) -> &'static str {
    if s == 0 { "A" } else { "B" }
}

impl Event {
    /// The event's `type` in JSON.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Turn { .. } => "turn",
            Event::StatusRoll { .. } => "status_roll",
            Event::ActionRoll { .. } => "action_roll",
            Event::Break { .. } => "action_break",
            Event::NoActor => "no_actor",
            Event::Check { .. } => "check",
            Event::LetHeal { .. } => "let_heal",
            Event::Action { .. } => "action",
            Event::Damage { .. } => "damage",
            Event::Heal { .. } => "heal",
            Event::Inflict { .. } => "inflict",
            Event::Grant { .. } => "grant",
            Event::Dispel { .. } => "dispel",
            Event::Removed { .. } => "nullifier_removes",
            Event::EffectRoll { .. } => "effect_roll",
            Event::RandomFoe { .. } => "random_foe",
            Event::Strength { .. } => "strength",
            Event::WatchSet { .. } => "watch_set",
            Event::WatchTriggered { .. } => "watch_triggered",
            Event::Skulled { .. } => "skulled",
            Event::StatusEnds { .. } => "status_ends",
            Event::FinalAct { .. } => "final_act",
            Event::LeavesPlay { .. } => "leaves_play",
            Event::End { .. } => "end",
        }
    }

    /// A readable sentence.
    pub fn text(&self, setup: &Setup) -> String {
        let n = |s: &u8| setup.label(*s as usize).to_string();
        match self {
            Event::Turn { turn, player, side } => {
                if setup.player_side.len() > 2 {
                    format!(
                        "Turn {turn}: side {} (player {}) to play",
                        side_title(*side),
                        player + 1
                    )
                } else {
                    format!("Turn {turn}: side {} to play", side_title(*side))
                }
            }
            Event::StatusRoll {
                slot,
                status,
                face,
                kept,
            } => {
                let what = match (status, kept) {
                    (Status::Fear, true) => "Fear stays; it cannot act this turn",
                    (Status::Fear, false) => "Fear ends",
                    (Status::Poison, true) => "10 damage, Poison stays",
                    (Status::Poison, false) => "Poison ends",
                    (Status::Restoration, true) => "healed, Restoration stays",
                    (Status::Restoration, false) => "Restoration ends",
                    (Status::Siphon, true) => "heals 10 and drains a foe, Siphon stays",
                    (Status::Siphon, false) => "Siphon ends",
                    (_, true) => "stays",
                    (_, false) => "ends",
                };
                format!("{} rolls {face} for {}: {what}", n(slot), status.name())
            }
            Event::ActionRoll { white, black } => {
                format!("Action Roll: white {white}, black {black}")
            }
            Event::Break { slot, number, acts } => {
                if *acts {
                    format!(
                        "Action Break: {} heals 20, is dispelled and uses action {number}",
                        n(slot)
                    )
                } else {
                    format!(
                        "Action Break: {} heals 20 and is dispelled; the turn ends",
                        n(slot)
                    )
                }
            }
            Event::NoActor => "No character can act this turn".to_string(),
            Event::Check {
                slot,
                status,
                face,
                pass,
            } => format!(
                "{} rolls {face} for {}: {}",
                n(slot),
                status.name(),
                match (status, pass) {
                    (Status::Blind, true) => "Blind ends, the action goes on",
                    (Status::Blind, false) => "the action fails",
                    (_, true) => "Confusion ends, the action goes on",
                    (_, false) => "no action",
                }
            ),
            Event::LetHeal { by } => {
                format!("Side {} may heal one of its characters 10", side_title(*by))
            }
            Event::Action {
                slot,
                number,
                action,
            } => format!(
                "{} uses {} ({number}, {})",
                n(slot),
                setup.action_name(*action as usize),
                setup.actions[*action as usize].kind.name()
            ),
            Event::Damage {
                slot,
                amount,
                from,
                to,
                parried,
                by,
                cause,
            } => {
                let src = match by {
                    Some(b) => format!(" from {}", n(b)),
                    None => String::new(),
                };
                let parry = if *parried { " (Parry prevents 10)" } else { "" };
                format!(
                    "{} takes {amount} {} damage{src}: {from} -> {to}{parry}",
                    n(slot),
                    cause.as_str()
                )
            }
            Event::Heal {
                slot,
                from,
                to,
                cause,
            } => {
                format!("{} heals ({}): {from} -> {to}", n(slot), cause.as_str())
            }
            Event::Inflict {
                slot,
                status,
                prevented,
            } => {
                if *prevented {
                    format!("{}'s nullifier prevents {}", n(slot), status.name())
                } else {
                    format!("{} is inflicted with {}", n(slot), status.name())
                }
            }
            Event::Grant { slot, status, took } => {
                if *took {
                    format!("{} gains {}", n(slot), status.name())
                } else {
                    format!("{} cannot gain {} (no effect)", n(slot), status.name())
                }
            }
            Event::Dispel { slot, .. } => format!("{} is dispelled", n(slot)),
            Event::Removed { slot, status } => {
                format!("{}'s nullifier tile removes {}", n(slot), status.name())
            }
            Event::EffectRoll { slot, face, taken } => {
                format!(
                    "{} rolls {face}: {}",
                    n(slot),
                    if *taken { "success" } else { "no success" }
                )
            }
            Event::RandomFoe { slot, target } => {
                format!("{}'s random target is {}", n(slot), n(target))
            }
            Event::Strength { slot, target } => {
                format!("{}'s strength bonus applies to {}", n(slot), n(target))
            }
            Event::WatchSet { slot, kind } => {
                format!(
                    "{} watches for a {} action on the opponent's next turn",
                    n(slot),
                    kind.name()
                )
            }
            Event::WatchTriggered { slot, kind } => {
                format!(
                    "{}'s condition triggers on a {} action",
                    n(slot),
                    kind.name()
                )
            }
            Event::Skulled { slot } => format!("{} is Skulled", n(slot)),
            Event::StatusEnds { slot, status } => format!("{}'s {} ends", n(slot), status.name()),
            Event::FinalAct { slot } => format!("{} attempts its Final Act", n(slot)),
            Event::LeavesPlay { slot } => format!("{} leaves play", n(slot)),
            Event::End { ended, winner } => match winner {
                Some(Winner::Side(s)) => {
                    format!("Side {} wins ({})", side_title(*s), ended.as_str())
                }
                Some(Winner::Draw) => format!("Draw ({})", ended.as_str()),
                None => format!("The match stops ({})", ended.as_str()),
            },
        }
    }

    /// The JSON object: `type`, the event's fields (characters by id), `text`.
    pub fn to_json(&self, setup: &Setup) -> Value {
        let id = |s: &u8| Value::String(setup.id(*s as usize).to_string());
        let v = match self {
            Event::Turn { turn, player, side } => {
                json!({"turn": turn, "player": player + 1, "side": side_name(*side)})
            }
            Event::StatusRoll {
                slot,
                status,
                face,
                kept,
            } => {
                json!({"character": id(slot), "status": status.name(), "face": face, "kept": kept})
            }
            Event::ActionRoll { white, black } => json!({"white": white, "black": black}),
            Event::Break { slot, number, acts } => {
                json!({"character": id(slot), "number": number, "acts": acts})
            }
            Event::NoActor => json!({}),
            Event::Check {
                slot,
                status,
                face,
                pass,
            } => {
                json!({"character": id(slot), "status": status.name(), "face": face, "pass": pass})
            }
            Event::LetHeal { by } => json!({"side": side_name(*by)}),
            Event::Action {
                slot,
                number,
                action,
            } => json!({
                "character": id(slot), "number": number,
                "action": setup.action_name(*action as usize),
                "kind": setup.actions[*action as usize].kind.name()
            }),
            Event::Damage {
                slot,
                amount,
                from,
                to,
                parried,
                by,
                cause,
            } => json!({
                "character": id(slot), "amount": amount, "from": from, "to": to, "parried": parried,
                "by": by.as_ref().map(id), "cause": cause.as_str()
            }),
            Event::Heal {
                slot,
                from,
                to,
                cause,
            } => {
                json!({"character": id(slot), "from": from, "to": to, "cause": cause.as_str()})
            }
            Event::Inflict {
                slot,
                status,
                prevented,
            } => {
                json!({"character": id(slot), "status": status.name(), "prevented": prevented})
            }
            Event::Grant { slot, status, took } => {
                json!({"character": id(slot), "status": status.name(), "took": took})
            }
            Event::Dispel { slot, .. } => json!({"character": id(slot)}),
            Event::Removed { slot, status } => {
                json!({"character": id(slot), "status": status.name()})
            }
            Event::EffectRoll { slot, face, taken } => {
                json!({"character": id(slot), "face": face, "taken": taken})
            }
            Event::RandomFoe { slot, target } => {
                json!({"character": id(slot), "target": id(target)})
            }
            Event::Strength { slot, target } => {
                json!({"character": id(slot), "target": id(target)})
            }
            Event::WatchSet { slot, kind } => {
                json!({"character": id(slot), "kind": kind.name()})
            }
            Event::WatchTriggered { slot, kind } => {
                json!({"character": id(slot), "kind": kind.name()})
            }
            Event::Skulled { slot } | Event::FinalAct { slot } | Event::LeavesPlay { slot } => {
                json!({"character": id(slot)})
            }
            Event::StatusEnds { slot, status } => {
                json!({"character": id(slot), "status": status.name()})
            }
            Event::End { ended, winner } => json!({
                "ended": ended.as_str(),
                "winner": match winner {
                    Some(Winner::Side(s)) => Value::String(side_name(*s).into()),
                    Some(Winner::Draw) => Value::String("draw".into()),
                    None => Value::Null,
                }
            }),
        };
        crate::games::event_json(self.kind(), v, self.text(setup))
    }
}
