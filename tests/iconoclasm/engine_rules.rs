//! Iconoclasm engine scenarios: one or more per ruling of `spec/other-games.md` and of the
//! `## Iconoclasm engine` section of docs/rulings.md.

use Element::{Air, Earth, Fire, Water};
use deckwright::games::iconoclasm::engine::scoring::{counts, goal_progress};
use deckwright::games::iconoclasm::engine::*;
use deckwright::games::iconoclasm::model::{Clash, ClashRow, ClashTable, Element, ElementCard};

fn setup(players: u8, drawn: [Element; 4], goal: Goal) -> Setup {
    Setup::new(
        Deck::standard(),
        &ClashTable::standard(),
        players,
        drawn,
        goal,
        (0..16).collect(),
    )
    .unwrap()
}

fn solo() -> (Setup, State) {
    let s = setup(1, [Fire, Water, Earth, Air], Goal::Dominance);
    let st = State::new(&s, &mut NoLog);
    (s, st)
}

/// The deck index of a card id.
fn c(s: &Setup, id: &str) -> u8 {
    s.deck
        .cards
        .iter()
        .position(|c| c.id == id)
        .unwrap_or_else(|| panic!("no card {id}")) as u8
}

fn p(row: i8, col: i8) -> Pos {
    Pos::new(row, col)
}

fn el(st: &State, row: i8, col: i8) -> Element {
    st.element_at(p(row, col)).unwrap()
}

/// Solo: draws `id` and places it front up at `pos` clashing in `order`.
fn place(
    s: &Setup,
    st: &mut State,
    id: &str,
    side: Side,
    pos: Pos,
    order: &[Pos],
    log: &mut Vec<Event>,
) {
    let card = c(s, id);
    st.draw(card, log);
    st.apply(&Move::new(card, side, pos, order), log).unwrap();
}

// ---- placement ----

#[test]
fn the_first_card_must_go_at_the_origin() {
    let (s, mut st) = solo();
    let card = c(&s, "icl-fire");
    st.draw(card, &mut NoLog);
    assert_eq!(
        st.apply(&Move::new(card, Side::Front, p(1, 0), &[]), &mut NoLog),
        Err(IllegalMove::Position(p(1, 0)))
    );
    st.apply(&Move::new(card, Side::Front, p(0, 0), &[]), &mut NoLog)
        .unwrap();
    assert_eq!(st.grid.count(), 1);
}

#[test]
fn a_card_must_go_orthogonally_beside_a_card_on_an_empty_cell() {
    let (s, st) = solo();
    let st = st
        .with_table(&[(c(&s, "icl-fire"), Side::Front, p(0, 0))])
        .unwrap();
    for bad in [p(1, 1), p(-1, -1), p(0, 2), p(0, 0)] {
        assert!(!st.grid.can_place(bad), "{bad} should be illegal");
    }
    let legal = st.grid.legal_positions();
    assert_eq!(legal, vec![p(-1, 0), p(0, -1), p(0, 1), p(1, 0)]);
    let mut st2 = st;
    let card = c(&s, "icl-water");
    st2.draw(card, &mut NoLog);
    assert_eq!(
        st2.apply(&Move::new(card, Side::Front, p(1, 1), &[]), &mut NoLog),
        Err(IllegalMove::Position(p(1, 1)))
    );
}

#[test]
fn the_grid_never_grows_wider_or_taller_than_seven() {
    let (s, st) = solo();
    let ids = [
        "icl-fire",
        "icl-fire-water",
        "icl-fire-earth",
        "icl-fire-air",
        "icl-water",
        "icl-water-fire",
        "icl-water-earth",
    ];
    let row: Vec<_> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| (c(&s, id), Side::Front, p(0, i as i8)))
        .collect();
    let st = st.with_table(&row).unwrap();
    assert_eq!(st.grid.bounds().unwrap().width(), 7);
    assert!(!st.grid.can_place(p(0, 7)));
    assert!(!st.grid.can_place(p(0, -1)));
    assert!(
        st.grid
            .legal_positions()
            .iter()
            .all(|q| (0..7).contains(&q.col))
    );
    assert_eq!(
        st.grid.legal_positions().len(),
        14,
        "above and below each of the 7"
    );
    // A column of 7 likewise.
    let (s, st) = solo();
    let col: Vec<_> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| (c(&s, id), Side::Front, p(-(i as i8), 0)))
        .collect();
    let st = st.with_table(&col).unwrap();
    assert_eq!(st.grid.bounds().unwrap().height(), 7);
    assert!(!st.grid.can_place(p(1, 0)));
    assert!(!st.grid.can_place(p(-7, 0)));
    assert!(st.grid.can_place(p(-3, 1)));
    let too_far = st.with_table(&[(c(&s, "icl-air"), Side::Front, p(-7, 0))]);
    assert_eq!(too_far.err(), Some(IllegalMove::Position(p(-7, 0))));
}

#[test]
fn the_clash_order_must_list_every_neighbour_once() {
    let (s, st) = solo();
    let mut st = st
        .with_table(&[
            (c(&s, "icl-water-air"), Side::Front, p(0, 0)),
            (c(&s, "icl-air"), Side::Front, p(-1, 0)),
            (c(&s, "icl-earth-air"), Side::Front, p(-1, 1)),
        ])
        .unwrap();
    let card = c(&s, "icl-fire-water");
    st.draw(card, &mut NoLog);
    for bad in [
        vec![p(0, 0)],
        vec![p(0, 0), p(0, 0)],
        vec![p(0, 0), p(-1, 1), p(-1, 0)],
        vec![],
    ] {
        assert_eq!(
            st.check(&Move::new(card, Side::Front, p(0, 1), &bad)),
            Err(IllegalMove::Order),
            "{bad:?}"
        );
    }
    assert_eq!(
        st.check(&Move::new(card, Side::Front, p(0, 1), &[p(-1, 1), p(0, 0)])),
        Ok(())
    );
}

// ---- clashes ----

/// Water (water-air, front) at (0,0), Earth (earth-air, front) at (-1,1), Fire over Earth
/// (front) at (-1,0); the new Fire over Water goes at (0,1) beside the Water (west) and the Earth (north).
fn clash_board() -> (Setup, State) {
    let (s, st) = solo();
    let st = st
        .with_table(&[
            (c(&s, "icl-water-air"), Side::Front, p(0, 0)),
            (c(&s, "icl-fire-earth"), Side::Front, p(-1, 0)),
            (c(&s, "icl-earth-air"), Side::Front, p(-1, 1)),
        ])
        .unwrap();
    (s, st)
}

#[test]
fn clash_order_matters_and_a_flipped_new_card_clashes_on_with_its_new_face() {
    // Water first: fire and water flip each other (new card: water), then earth flips the
    // water (new card: fire again; the rule text's worked example).
    let (s, mut st) = clash_board();
    let mut log = Vec::new();
    place(
        &s,
        &mut st,
        "icl-fire-water",
        Side::Front,
        p(0, 1),
        &[p(0, 0), p(-1, 1)],
        &mut log,
    );
    assert_eq!(
        (el(&st, 0, 1), el(&st, 0, 0), el(&st, -1, 1)),
        (Fire, Air, Earth)
    );
    let clashes: Vec<_> = log
        .iter()
        .filter_map(|e| {
            if let Event::Clash {
                mine,
                theirs,
                result,
                ..
            } = e
            {
                Some((*mine, *theirs, *result))
            } else {
                None
            }
        })
        .collect();
    assert_eq!(
        clashes,
        vec![
            (Fire, Water, Clash::Mutual),
            (Water, Earth, Clash::FlipsSelf)
        ]
    );

    // Earth first: fire flips earth, then fire and water flip each other (new card: water).
    let (s, mut st) = clash_board();
    place(
        &s,
        &mut st,
        "icl-fire-water",
        Side::Front,
        p(0, 1),
        &[p(-1, 1), p(0, 0)],
        &mut Vec::new(),
    );
    assert_eq!(
        (el(&st, 0, 1), el(&st, 0, 0), el(&st, -1, 1)),
        (Water, Air, Air)
    );
}

#[test]
fn both_clash_orders_are_offered_when_they_end_differently() {
    let (s, mut st) = clash_board();
    let card = c(&s, "icl-fire-water");
    st.draw(card, &mut NoLog);
    let here: Vec<Move> = st
        .moves()
        .into_iter()
        .filter(|m| m.pos == p(0, 1) && m.side == Side::Front)
        .collect();
    let orders: Vec<Vec<Pos>> = here.iter().map(|m| m.order().to_vec()).collect();
    assert!(orders.contains(&vec![p(-1, 1), p(0, 0)]));
    assert!(orders.contains(&vec![p(0, 0), p(-1, 1)]));
}

#[test]
fn equivalent_clash_orders_are_offered_once() {
    // A single air beside two earths: air flips with earth mutually... use neighbours that do
    // not react at all (same element): every order ends the same.
    let (s, st) = solo();
    let mut st = st
        .with_table(&[
            (c(&s, "icl-air-fire"), Side::Front, p(0, 0)),
            (c(&s, "icl-air-earth"), Side::Front, p(-1, 0)),
            (c(&s, "icl-air-water"), Side::Front, p(-1, 1)),
        ])
        .unwrap();
    let card = c(&s, "icl-air");
    st.draw(card, &mut NoLog);
    let here: Vec<Move> = st
        .moves()
        .into_iter()
        .filter(|m| m.pos == p(0, 1))
        .collect();
    assert_eq!(
        here.len(),
        1,
        "one face, and all clash orders end alike: {here:?}"
    );
    assert_eq!(
        here[0].order(),
        &[p(-1, 1), p(0, 0)],
        "the first order: north before west"
    );
}

#[test]
fn a_flipped_neighbour_starts_no_clash() {
    // Earth first flips the earth at (-1,1) to air; that air is beside Fire over Water at
    // (-1,0), which it would flip (to earth) if flipped cards clashed on. It must not.
    let (s, mut st) = clash_board();
    let mut log = Vec::new();
    place(
        &s,
        &mut st,
        "icl-fire-water",
        Side::Front,
        p(0, 1),
        &[p(-1, 1), p(0, 0)],
        &mut log,
    );
    assert_eq!(el(&st, -1, 1), Air);
    assert_eq!(el(&st, -1, 0), Fire, "no chain reaction");
    assert_eq!(
        log.iter()
            .filter(|e| matches!(e, Event::Clash { .. }))
            .count(),
        2,
        "one clash per neighbour"
    );
}

/// The spec's table: (element, flips, flips mutually with).
const SPEC: [(Element, Element, Element); 4] = [
    (Fire, Earth, Water),
    (Earth, Water, Air),
    (Water, Air, Fire),
    (Air, Fire, Earth),
];

fn expected(a: Element, b: Element) -> Clash {
    let row = |e: Element| SPEC.iter().find(|r| r.0 == e).unwrap();
    if a == b {
        Clash::None
    } else if row(a).2 == b {
        Clash::Mutual
    } else if row(a).1 == b {
        Clash::FlipsOther
    } else {
        assert_eq!(row(b).1, a, "every pair of elements is related");
        Clash::FlipsSelf
    }
}

/// A double card of the solo setup showing `e` on its front, other than `not`.
fn double_showing(s: &Setup, e: Element, not: &[u8]) -> u8 {
    (0..16u8)
        .find(|&i| {
            s.deck.cards[i as usize].front == e
                && s.deck.cards[i as usize].back != e
                && !not.contains(&i)
        })
        .unwrap()
}

#[test]
fn every_relation_of_the_clash_table_flips_the_right_cards() {
    for a in Element::ALL {
        for b in Element::ALL {
            let (s, st) = solo();
            let there = double_showing(&s, b, &[]);
            let mut st = st.with_table(&[(there, Side::Front, p(0, 0))]).unwrap();
            let mine = double_showing(&s, a, &[there]);
            st.draw(mine, &mut NoLog);
            let mut log = Vec::new();
            st.apply(&Move::new(mine, Side::Front, p(0, 1), &[p(0, 0)]), &mut log)
                .unwrap();
            let want = expected(a, b);
            let flipped_other = el(&st, 0, 0) != b;
            let flipped_self = el(&st, 0, 1) != a;
            let got = match (flipped_self, flipped_other) {
                (false, true) => Clash::FlipsOther,
                (true, false) => Clash::FlipsSelf,
                (true, true) => Clash::Mutual,
                (false, false) => Clash::None,
            };
            assert_eq!(got, want, "{a:?} placed beside {b:?}");
            assert!(log.contains(&Event::Clash {
                pos: p(0, 0),
                card: there,
                mine: a,
                theirs: b,
                result: want
            }));
        }
    }
}

#[test]
fn a_flipped_single_still_shows_its_element() {
    let (s, st) = solo();
    let mut st = st
        .with_table(&[(c(&s, "icl-earth"), Side::Front, p(0, 0))])
        .unwrap();
    let fire = c(&s, "icl-fire-air");
    st.draw(fire, &mut NoLog);
    let mut log = Vec::new();
    st.apply(&Move::new(fire, Side::Front, p(0, 1), &[p(0, 0)]), &mut log)
        .unwrap();
    assert_eq!(st.grid.get(p(0, 0)).unwrap().up, Side::Back, "turned over");
    assert_eq!(
        el(&st, 0, 0),
        Earth,
        "but a single shows the same element on both faces"
    );
}

#[test]
fn the_clash_table_is_data() {
    // Swap fire's relations: fire now flips water mutually with earth. Fire beside Earth flips both.
    let mut table = ClashTable::standard();
    table.clash = vec![
        ClashRow {
            element: Fire,
            flips: Water,
            mutual: Earth,
        },
        ClashRow {
            element: Earth,
            flips: Air,
            mutual: Fire,
        },
        ClashRow {
            element: Water,
            flips: Earth,
            mutual: Air,
        },
        ClashRow {
            element: Air,
            flips: Fire,
            mutual: Water,
        },
    ];
    assert!(table.problems().is_empty());
    let s = Setup::new(
        Deck::standard(),
        &table,
        1,
        [Fire, Water, Earth, Air],
        Goal::Balance,
        (0..16).collect(),
    )
    .unwrap();
    let st = State::new(&s, &mut NoLog);
    let mut st = st
        .with_table(&[(c(&s, "icl-earth-water"), Side::Front, p(0, 0))])
        .unwrap();
    let fire = c(&s, "icl-fire-air");
    st.draw(fire, &mut NoLog);
    st.apply(
        &Move::new(fire, Side::Front, p(0, 1), &[p(0, 0)]),
        &mut NoLog,
    )
    .unwrap();
    assert_eq!((el(&st, 0, 1), el(&st, 0, 0)), (Air, Water));
}

// ---- setup ----

fn hand(s: &Setup, player: usize) -> Vec<String> {
    let mut v: Vec<String> = (0..16)
        .filter(|i| s.hands[player] & (1 << i) != 0)
        .map(|i| s.deck.cards[i].id.clone())
        .collect();
    v.sort();
    v
}

fn ids(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn four_players_each_take_their_element_set() {
    let s = setup(4, [Water, Fire, Air, Earth], Goal::Dominance);
    assert_eq!(
        hand(&s, 0),
        ids(&[
            "icl-water",
            "icl-water-fire",
            "icl-water-earth",
            "icl-water-air"
        ])
    );
    assert_eq!(
        hand(&s, 1),
        ids(&[
            "icl-fire",
            "icl-fire-water",
            "icl-fire-earth",
            "icl-fire-air"
        ])
    );
    assert_eq!(
        hand(&s, 3),
        ids(&[
            "icl-earth",
            "icl-earth-fire",
            "icl-earth-water",
            "icl-earth-air"
        ])
    );
    assert_eq!(
        s.owner,
        [Some(1), Some(0), Some(3), Some(2)],
        "by Element::ALL: fire, water, earth, air"
    );
    assert_eq!(s.table_card, None);
    let st = State::new(&s, &mut NoLog);
    assert_eq!(st.grid.count(), 0);
    assert!(s.hands.iter().all(|h| h.count_ones() == 4));
}

#[test]
fn three_players_take_five_cards_and_the_undrawn_single_opens_the_table() {
    // The rule text's example: player 1 has fire; air is not playing, so she also takes Air/Fire.
    let s = setup(3, [Fire, Water, Earth, Air], Goal::Dominance);
    assert_eq!(
        hand(&s, 0),
        ids(&[
            "icl-fire",
            "icl-fire-water",
            "icl-fire-earth",
            "icl-fire-air",
            "icl-air-fire"
        ])
    );
    assert_eq!(
        hand(&s, 1),
        ids(&[
            "icl-water",
            "icl-water-fire",
            "icl-water-earth",
            "icl-water-air",
            "icl-air-water"
        ])
    );
    assert_eq!(
        hand(&s, 2),
        ids(&[
            "icl-earth",
            "icl-earth-fire",
            "icl-earth-water",
            "icl-earth-air",
            "icl-air-earth"
        ])
    );
    assert_eq!(s.owner[3], None, "air has no player");
    let mut log = Vec::new();
    let st = State::new(&s, &mut log);
    assert_eq!(st.grid.count(), 1);
    assert_eq!(
        s.deck.cards[st.grid.get(Pos::ORIGIN).unwrap().card as usize].id,
        "icl-air"
    );
    assert_eq!(st.turn, 0, "the table card is not a turn");
    assert!(log.iter().any(|e| matches!(e, Event::TableCard { .. })));
}

#[test]
fn two_players_play_two_element_sets_each_drawn_alternately() {
    let s = setup(2, [Earth, Air, Fire, Water], Goal::Dominance);
    assert_eq!(s.elements_of(0), vec![Earth, Fire]);
    assert_eq!(s.elements_of(1), vec![Air, Water]);
    assert_eq!(s.hands[0].count_ones(), 8);
    assert_eq!(s.hands[1].count_ones(), 8);
    assert_eq!(s.hands[0] & s.hands[1], 0);
    assert!(
        hand(&s, 0).contains(&"icl-earth-water".to_string())
            && hand(&s, 0).contains(&"icl-fire-air".to_string())
    );
}

#[test]
fn solo_plays_the_whole_deck_from_a_shuffled_pile() {
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(9);
    let s = deal(
        Deck::standard(),
        &ClashTable::standard(),
        1,
        Goal::Balance,
        &mut rng,
    )
    .unwrap();
    let mut sorted = s.draw_pile.clone();
    sorted.sort();
    assert_eq!(sorted, (0..16).collect::<Vec<u8>>());
    assert_ne!(s.draw_pile, (0..16).collect::<Vec<u8>>(), "shuffled");
    assert_eq!(s.goal, Some(Goal::Balance));
    let st = State::new(&s, &mut NoLog);
    assert!(st.needs_draw());
    assert!(st.moves().is_empty());
}

#[test]
fn player_counts_outside_one_to_four_are_refused() {
    for n in [0, 5] {
        let r = Setup::new(
            Deck::standard(),
            &ClashTable::standard(),
            n,
            Element::ALL,
            Goal::Balance,
            (0..16).collect(),
        );
        assert_eq!(r.err(), Some(SetupError::Players(n)));
    }
}

#[test]
fn the_deck_needs_the_full_set_and_takes_the_lowest_id_of_duplicates() {
    let cards = Deck::standard().cards;
    let missing: Vec<ElementCard> = cards
        .iter()
        .filter(|c| c.id != "icl-water-earth")
        .cloned()
        .collect();
    let err = Deck::from_cards(&missing).unwrap_err();
    assert!(err.to_string().contains("water set with earth"), "{err}");
    let mut extra = cards.to_vec();
    let mut dup = cards.iter().find(|c| c.id == "icl-fire").unwrap().clone();
    dup.id = "icl-a-fire".into();
    extra.push(dup);
    let deck = Deck::from_cards(&extra).unwrap();
    assert!(deck.cards.iter().any(|c| c.id == "icl-a-fire"));
    assert!(!deck.cards.iter().any(|c| c.id == "icl-fire"));
    assert_eq!(deck.cards.len(), 16);
}

#[test]
fn the_same_seed_deals_the_same_game() {
    let deal_with = |seed| {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        deal(
            Deck::standard(),
            &ClashTable::standard(),
            2,
            Goal::Balance,
            &mut rng,
        )
        .unwrap()
    };
    assert_eq!(deal_with(4), deal_with(4));
    assert!((0..20).any(|k| deal_with(k).drawn != deal_with(4).drawn));
}

// ---- scoring ----

/// Lays `(id, side, row, col)` on the table of a fresh game with these players and draw.
fn table(players: u8, drawn: [Element; 4], cards: &[(&str, Side, i8, i8)]) -> State {
    let s = setup(players, drawn, Goal::Dominance);
    // 3 players: the undrawn single is already at the origin.
    let placed: Vec<_> = cards
        .iter()
        .map(|(id, side, r, col)| (c(&s, id), *side, p(*r, *col)))
        .filter(|(card, _, at)| Some(*card) != s.table_card || *at != Pos::ORIGIN)
        .collect();
    State::new(&s, &mut NoLog).with_table(&placed).unwrap()
}

use Side::{Back, Front};

#[test]
fn most_face_up_scores_four_then_three_two_one() {
    // 4 players, player i draws drawn[i]: fire 3, water 2, earth 1, air 0.
    let st = table(
        4,
        [Air, Earth, Water, Fire],
        &[
            ("icl-fire", Front, 0, 0),
            ("icl-fire-water", Front, 0, 1),
            ("icl-fire-earth", Front, 0, 2),
            ("icl-water", Front, 1, 0),
            ("icl-water-air", Front, 1, 1),
            ("icl-earth", Front, 2, 0),
        ],
    );
    let ranks = rank_elements(&st);
    assert_eq!(ranks.map(|r| r.element), [Fire, Water, Earth, Air]);
    assert_eq!(ranks.map(|r| r.points), [4, 3, 2, 1]);
    let scores: Vec<u8> = player_scores(&st).iter().map(|s| s.points).collect();
    assert_eq!(scores, vec![1, 2, 3, 4], "air, earth, water, fire");
    assert_eq!(winner(&st), Some(3));
}

#[test]
fn a_tie_goes_to_the_larger_connected_group() {
    // Fire and water 3 each; water's 3 are connected, fire's are not.
    let st = table(
        4,
        [Fire, Water, Earth, Air],
        &[
            ("icl-fire", Front, 0, 0),
            ("icl-earth", Front, 0, 1),
            ("icl-fire-water", Front, 0, 2),
            ("icl-air", Front, 0, 3),
            ("icl-fire-earth", Front, 0, 4),
            ("icl-water", Front, 1, 0),
            ("icl-water-air", Front, 2, 0),
            ("icl-water-earth", Front, 3, 0),
        ],
    );
    let ranks = rank_elements(&st);
    assert_eq!(
        (ranks[0].element, ranks[0].count, ranks[0].group),
        (Water, 3, 3)
    );
    assert_eq!(
        (ranks[1].element, ranks[1].count, ranks[1].group),
        (Fire, 3, 1)
    );
    assert_eq!(
        winner(&st),
        Some(1),
        "water's player, seat 2, though fire's player is earlier"
    );
}

#[test]
fn a_tie_in_count_and_group_goes_to_the_earlier_player() {
    // Earth and air: 1 each, groups of 1. Earth's player is seat 3, air's seat 2.
    let st = table(
        4,
        [Fire, Air, Earth, Water],
        &[
            ("icl-earth", Front, 0, 0),
            ("icl-water", Front, 0, 1),
            ("icl-air", Front, 0, 2),
        ],
    );
    let ranks = rank_elements(&st);
    assert_eq!(
        ranks.map(|r| r.element)[..3],
        [Air, Earth, Water],
        "air's player is earlier than earth's"
    );
    let st = table(
        4,
        [Fire, Earth, Air, Water],
        &[
            ("icl-earth", Front, 0, 0),
            ("icl-water", Front, 0, 1),
            ("icl-air", Front, 0, 2),
        ],
    );
    assert_eq!(
        rank_elements(&st).map(|r| r.element)[..3],
        [Earth, Air, Water]
    );
}

#[test]
fn three_players_the_undrawn_element_ranks_but_scores_for_nobody_and_loses_ties() {
    // Air undrawn: 3 air (table single + 2), 1 fire, 1 water, 0 earth... air ranks first.
    let st = table(
        3,
        [Fire, Water, Earth, Air],
        &[
            ("icl-air", Front, 0, 0),
            ("icl-air-fire", Front, 0, 1),
            ("icl-air-water", Front, 0, 2),
            ("icl-fire", Front, 1, 0),
            ("icl-water", Front, 1, 1),
        ],
    );
    let ranks = rank_elements(&st);
    assert_eq!(
        (ranks[0].element, ranks[0].owner, ranks[0].points),
        (Air, None, 4)
    );
    let scores: Vec<u8> = player_scores(&st).iter().map(|s| s.points).collect();
    assert_eq!(
        scores,
        vec![3, 2, 1],
        "fire, water, earth: 4 goes to nobody"
    );
    // A tie with the undrawn element: it comes last.
    let st = table(
        3,
        [Fire, Water, Earth, Air],
        &[("icl-air", Front, 0, 0), ("icl-earth", Front, 0, 1)],
    );
    let ranks = rank_elements(&st);
    assert_eq!(ranks[0].element, Earth);
    assert_eq!(ranks[1].element, Air);
}

#[test]
fn two_players_add_up_both_elements_and_a_points_tie_goes_to_more_face_up() {
    // Player 1 (seat 0): fire and earth; player 2: water and air.
    // Fire 4 (rank 1, 4 pts), water 3 (3), air 2 (2), earth 1 (1): 5 against 5.
    let st = table(
        2,
        [Fire, Water, Earth, Air],
        &[
            ("icl-fire", Front, 0, 0),
            ("icl-fire-water", Front, 0, 1),
            ("icl-fire-earth", Front, 0, 2),
            ("icl-fire-air", Front, 0, 3),
            ("icl-water", Front, 1, 0),
            ("icl-water-air", Front, 1, 1),
            ("icl-water-earth", Front, 1, 2),
            ("icl-air", Front, 2, 0),
            ("icl-air-fire", Front, 2, 1),
            ("icl-earth", Front, 3, 0),
        ],
    );
    let s = player_scores(&st);
    assert_eq!((s[0].points, s[1].points), (5, 5));
    assert_eq!((s[0].face_up, s[1].face_up), (5, 5));
    assert_eq!(
        winner(&st),
        Some(0),
        "equal face up too: the holder of the best-ranked element"
    );
    // One more water face up for player 2 (air-water shows water: 4 water, 1 air).
    let st = table(
        2,
        [Fire, Water, Earth, Air],
        &[
            ("icl-fire", Front, 0, 0),
            ("icl-fire-water", Front, 0, 1),
            ("icl-fire-earth", Front, 0, 2),
            ("icl-fire-air", Front, 0, 3),
            ("icl-water", Front, 1, 0),
            ("icl-water-air", Front, 1, 1),
            ("icl-water-earth", Front, 1, 2),
            ("icl-air", Front, 2, 0),
            ("icl-air-water", Back, 2, 1),
            ("icl-air-earth", Front, 2, 2),
            ("icl-earth", Front, 3, 0),
        ],
    );
    let ranks = rank_elements(&st);
    assert_eq!(
        ranks.map(|r| (r.element, r.count)),
        [(Fire, 4), (Water, 4), (Air, 2), (Earth, 1)]
    );
    let s = player_scores(&st);
    assert_eq!((s[0].points, s[1].points), (5, 5));
    assert_eq!((s[0].face_up, s[1].face_up), (5, 6));
    assert_eq!(winner(&st), Some(1));
}

// ---- solo goals ----

fn solo_table(cards: &[(&str, Side, i8, i8)]) -> State {
    let (s, st) = solo();
    let placed: Vec<_> = cards
        .iter()
        .map(|(id, side, r, col)| (c(&s, id), *side, p(*r, *col)))
        .collect();
    st.with_table(&placed).unwrap()
}

const SEVEN_FIRE: [(&str, Side); 7] = [
    ("icl-fire", Front),
    ("icl-fire-water", Front),
    ("icl-fire-earth", Front),
    ("icl-fire-air", Front),
    ("icl-water-fire", Back),
    ("icl-earth-fire", Back),
    ("icl-air-fire", Back),
];

#[test]
fn dominance_is_met_by_seven_connected_of_one_element() {
    let cards: Vec<_> = SEVEN_FIRE
        .iter()
        .enumerate()
        .map(|(i, (id, s))| (*id, *s, 0, i as i8))
        .collect();
    let st = solo_table(&cards);
    assert!(goal_met(&st, Goal::Dominance));
    assert_eq!(winner(&st), Some(0));
    assert_eq!(player_scores(&st)[0].points, 1);
}

#[test]
fn dominance_is_missed_by_seven_not_connected() {
    // Six fire in a row, then water, then the seventh fire below the water.
    let mut cards: Vec<_> = SEVEN_FIRE[..6]
        .iter()
        .enumerate()
        .map(|(i, (id, s))| (*id, *s, 0, i as i8))
        .collect();
    cards.push(("icl-water", Front, 1, 0));
    cards.push(("icl-air-fire", Back, 2, 0));
    let st = solo_table(&cards);
    assert_eq!(counts(&st)[0], 7);
    assert!(!goal_met(&st, Goal::Dominance));
    assert_eq!(winner(&st), None);
    assert_eq!(player_scores(&st)[0].points, 0);
    assert!(goal_progress(&st, Goal::Dominance) < 1.0);
}

fn all_cards(balance: bool) -> Vec<(&'static str, Side, i8, i8)> {
    // 16 cards in a 4x4 block, every card front up: 4 of each element (each set's front).
    let ids = [
        "icl-fire",
        "icl-fire-water",
        "icl-fire-earth",
        "icl-fire-air",
        "icl-water",
        "icl-water-fire",
        "icl-water-earth",
        "icl-water-air",
        "icl-earth",
        "icl-earth-fire",
        "icl-earth-water",
        "icl-earth-air",
        "icl-air",
        "icl-air-fire",
        "icl-air-water",
        "icl-air-earth",
    ];
    ids.iter()
        .enumerate()
        .map(|(i, id)| {
            let side = if !balance && *id == "icl-water-fire" {
                Back
            } else {
                Front
            };
            (*id, side, (i / 4) as i8, (i % 4) as i8)
        })
        .collect()
}

#[test]
fn balance_is_met_by_four_of_each() {
    let st = solo_table(&all_cards(true));
    assert_eq!(counts(&st), [4, 4, 4, 4]);
    assert!(st.is_over());
    assert!(goal_met(&st, Goal::Balance));
}

#[test]
fn balance_is_missed_by_five_and_three() {
    let st = solo_table(&all_cards(false));
    assert_eq!(counts(&st), [5, 3, 4, 4]);
    assert!(!goal_met(&st, Goal::Balance));
}

#[test]
fn a_solo_game_ends_with_the_goal_in_the_end_event() {
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    let s = deal(
        Deck::standard(),
        &ClashTable::standard(),
        1,
        Goal::Balance,
        &mut rng,
    )
    .unwrap();
    let mut log = Vec::new();
    let st = crate::engine_props::play_through(&s, &mut |_, _, _| 0, &mut log);
    assert!(st.is_over());
    assert_eq!(st.turn, 16);
    let draws: Vec<u8> = log
        .iter()
        .filter_map(|e| {
            if let Event::Draw { card } = e {
                Some(*card)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(draws, s.draw_pile, "cards come off the pile in order");
    assert_eq!(
        log.last(),
        Some(&Event::End {
            winner: goal_met(&st, Goal::Balance).then_some(0)
        })
    );
}
