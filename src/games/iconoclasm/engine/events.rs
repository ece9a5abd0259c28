//! The event log: what happened, in order, as text for the terminal and JSON for `--json`.
//! Players are numbered from 1 in both, as in the rule text.

use serde_json::{json, Value};

use super::clash::clash_name;
use super::grid::{Pos, Side};
use super::setup::Setup;
use crate::games::iconoclasm::model::{Clash, Element};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A player drew their single(s) and took their cards (seat from 0).
    Deal { player: u8, elements: Vec<Element>, cards: Vec<u8> },
    /// 3 players: the undrawn single goes on the table first.
    TableCard { card: u8 },
    /// Solo: the top card of the deck is drawn.
    Draw { card: u8 },
    /// A card is placed (`turn` counts from 1).
    Place { turn: u16, player: u8, card: u8, side: Side, face: Element, pos: Pos },
    /// The placed card, showing `mine`, clashes with the neighbour at `pos` showing `theirs`.
    Clash { pos: Pos, card: u8, mine: Element, theirs: Element, result: Clash },
    /// A card turns over.
    Flip { card: u8, pos: Pos, from: Element, to: Element },
    /// All cards are placed; `winner` is a seat from 0.
    End { winner: Option<u8> },
}

/// Where events go: `NoLog` drops them (search, sims), `Vec<Event>` keeps them.
pub trait Log {
    fn push(&mut self, e: Event);
    /// Whether pushed events are kept (lets callers skip building them).
    fn keeps(&self) -> bool {
        true
    }
}

pub struct NoLog;

impl Log for NoLog {
    fn push(&mut self, _: Event) {}
    fn keeps(&self) -> bool {
        false
    }
}

impl Log for Vec<Event> {
    fn push(&mut self, e: Event) {
        Vec::push(self, e)
    }
}

impl Event {
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Deal { .. } => "deal",
            Event::TableCard { .. } => "table_card",
            Event::Draw { .. } => "draw",
            Event::Place { .. } => "place",
            Event::Clash { .. } => "clash",
            Event::Flip { .. } => "flip",
            Event::End { .. } => "end",
        }
    }

    /// One line for the terminal.
    pub fn text(&self, setup: &Setup) -> String {
        let name = |c: &u8| setup.deck.cards[*c as usize].name.clone();
        let names = |e: &[Element]| e.iter().map(|e| e.name()).collect::<Vec<_>>().join(" and ");
        match self {
            Event::Deal { player, elements, cards } => format!(
                "Player {} draws {} and takes {} cards: {}",
                player + 1,
                names(elements),
                cards.len(),
                cards.iter().map(name).collect::<Vec<_>>().join(", ")
            ),
            Event::TableCard { card } => format!("The undrawn single {} goes on the table at (0, 0)", name(card)),
            Event::Draw { card } => format!("Draws {}", name(card)),
            Event::Place { turn, player, card, side, face, pos } => format!(
                "Turn {turn}: player {} places {} {} up ({}) at {pos}",
                player + 1,
                name(card),
                side.name(),
                face.name()
            ),
            Event::Clash { pos, card, mine, theirs, result } => {
                let what = match result {
                    Clash::FlipsOther => format!("{} flips {}", mine.name(), theirs.name()),
                    Clash::FlipsSelf => format!("{} flips {}", theirs.name(), mine.name()),
                    Clash::Mutual => "both flip".to_string(),
                    Clash::None => "nothing happens".to_string(),
                };
                format!("{} clashes with {} ({}) at {pos}: {what}", mine.name(), name(card), theirs.name())
            }
            Event::Flip { card, pos, from, to } => {
                format!("{} at {pos} flips: {} -> {}", name(card), from.name(), to.name())
            }
            Event::End { winner } => match (winner, setup.goal) {
                (Some(w), None) => format!("All cards are placed; player {} wins", w + 1),
                (None, None) => "All cards are placed; no winner".to_string(),
                (Some(_), Some(g)) => format!("All cards are placed; goal {} met", g.name()),
                (None, Some(g)) => format!("All cards are placed; goal {} missed", g.name()),
            },
        }
    }

    /// The JSON object: `type`, the event's fields (cards by id, players from 1), `text`.
    pub fn to_json(&self, setup: &Setup) -> Value {
        let id = |c: &u8| Value::String(setup.deck.cards[*c as usize].id.clone());
        let pos = |p: &Pos| json!({"row": p.row, "col": p.col});
        let v = match self {
            Event::Deal { player, elements, cards } => json!({
                "player": player + 1,
                "elements": elements.iter().map(|e| e.name()).collect::<Vec<_>>(),
                "cards": cards.iter().map(id).collect::<Vec<_>>(),
            }),
            Event::TableCard { card } => json!({"card": id(card), "at": pos(&Pos::ORIGIN)}),
            Event::Draw { card } => json!({"card": id(card)}),
            Event::Place { turn, player, card, side, face, pos: p } => json!({
                "turn": turn, "player": player + 1, "card": id(card), "side": side.name(), "face": face.name(), "at": pos(p)
            }),
            Event::Clash { pos: p, card, mine, theirs, result } => json!({
                "with": id(card), "at": pos(p), "mine": mine.name(), "theirs": theirs.name(), "result": clash_name(*result)
            }),
            Event::Flip { card, pos: p, from, to } => {
                json!({"card": id(card), "at": pos(p), "from": from.name(), "to": to.name()})
            }
            Event::End { winner } => json!({"winner": winner.map(|w| w + 1)}),
        };
        crate::games::event_json(self.kind(), v, self.text(setup))
    }
}
