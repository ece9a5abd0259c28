//! Iconoclasm engine properties over random seeds, player counts and policies: every game
//! ends with all 16 cards on the table, the grid stays within 7 by 7, cards are conserved
//! after every move, and a seed replays the same game.

use deckwright::games::game::{Game, Turn};
use deckwright::games::iconoclasm::ai::{Agent, PolicyKind};
use deckwright::games::iconoclasm::engine::*;
use deckwright::games::iconoclasm::model::ClashTable;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn policy(k: u8) -> PolicyKind {
    match k {
        0 => PolicyKind::First,
        1 => PolicyKind::Random,
        _ => PolicyKind::Greedy,
    }
}

/// Plays a game through the game interface: the cards drawn off the setup's pile, each
/// decision by `choose(seat, state, moves)` (an index into the moves).
pub fn play_through(
    setup: &Setup,
    choose: &mut dyn FnMut(u8, &State, &[Move]) -> usize,
    log: &mut Vec<Event>,
) -> State {
    let mut g = IconoclasmGame::start(setup, log);
    let mut pile = Pile::new(setup);
    loop {
        match g.turn() {
            Turn::Over => break,
            Turn::Chance(c) => match c.draw(&mut pile) {
                Some(o) => g.apply_logged(o, log),
                None => {
                    g.exhausted(log);
                    break;
                }
            },
            Turn::Seat { seat, options } => {
                let moves = g.st.moves();
                let i = choose(seat as u8, &g.st, &moves).min(options - 1);
                g.apply_logged(i, log);
            }
        }
    }
    g.st
}

/// Plays a game, checking the invariants after every move; returns the log.
fn play(seed: u64, players: u8, kind: u8, goal: Goal) -> (State, Vec<Event>) {
    let setup = deal(
        Deck::standard(),
        &ClashTable::standard(),
        players,
        goal,
        &mut ChaCha8Rng::seed_from_u64(seed),
    )
    .unwrap();
    let mut agents: Vec<Agent> = (0..players)
        .map(|p| Agent::new(policy(kind), seed ^ u64::from(p)))
        .collect();
    let mut log = Vec::new();
    let st = play_through(
        &setup,
        &mut |seat, st, moves| {
            assert!(!moves.is_empty());
            for m in moves {
                assert_eq!(st.check(m), Ok(()), "every offered move is legal");
            }
            let held: u32 =
                st.hands.iter().map(|h| h.count_ones()).sum::<u32>() + st.undrawn.count_ones();
            assert_eq!(
                held as usize + st.grid.count(),
                CARDS,
                "cards are conserved"
            );
            let b =
                st.grid
                    .bounds()
                    .unwrap_or(deckwright::games::iconoclasm::engine::grid::Bounds {
                        top: 0,
                        bottom: 0,
                        left: 0,
                        right: 0,
                    });
            assert!(b.width() <= MAX_SPAN && b.height() <= MAX_SPAN);
            assert_eq!(seat, st.to_move);
            agents[seat as usize].choose_move(&IconoclasmGame::at(&setup, *st))
        },
        &mut log,
    );
    (st, log)
}

/// The legal moves as the rules state them, listed the slow plain way: every card of the
/// hand at every legal position, each face, each order of the neighbours (lexicographic by
/// north, east, south, west), a move kept unless an earlier one of the same card and
/// position ends with the same elements showing.
fn reference_moves(st: &State) -> Vec<Move> {
    let mut out = Vec::new();
    if st.is_over() || st.needs_draw() {
        return out;
    }
    let hand = st.hands[usize::from(st.to_move)];
    for card in (0..16u8).filter(|c| hand & (1 << c) != 0) {
        for pos in st.grid.legal_positions() {
            let nb: Vec<Pos> = st.grid.neighbours(pos).collect();
            let mut seen: Vec<Vec<Option<deckwright::games::iconoclasm::model::Element>>> =
                Vec::new();
            let mut sides = vec![Side::Front];
            if st.face(card, Side::Front) != st.face(card, Side::Back) {
                sides.push(Side::Back);
            }
            for side in sides {
                for order in permutations(&nb) {
                    let mv = Move::new(card, side, pos, &order);
                    let mut after = *st;
                    after.apply(&mv, &mut NoLog).unwrap();
                    let showing: Vec<_> = std::iter::once(pos)
                        .chain(nb.iter().copied())
                        .map(|p| after.element_at(p))
                        .collect();
                    if !seen.contains(&showing) {
                        seen.push(showing);
                        out.push(mv);
                    }
                }
            }
        }
    }
    out
}

/// Every order of `v`, in lexicographic order of the indices.
fn permutations(v: &[Pos]) -> Vec<Vec<Pos>> {
    if v.len() <= 1 {
        return vec![v.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..v.len() {
        let mut rest = v.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

/// The largest connected group of each element face up, by a plain search from every card.
fn reference_groups(st: &State) -> [u8; 4] {
    let cells: Vec<(Pos, deckwright::games::iconoclasm::model::Element)> = st
        .grid
        .cards()
        .map(|(p, c)| (p, st.face(c.card, c.up)))
        .collect();
    let mut best = [0u8; 4];
    for (k, e) in deckwright::games::iconoclasm::model::Element::ALL
        .into_iter()
        .enumerate()
    {
        for &(start, se) in &cells {
            if se != e {
                continue;
            }
            let mut group = vec![start];
            let mut i = 0;
            while i < group.len() {
                for n in group[i].around() {
                    if !group.contains(&n) && cells.contains(&(n, e)) {
                        group.push(n);
                    }
                }
                i += 1;
            }
            best[k] = best[k].max(group.len() as u8);
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The engine's move list (and its count and n-th move, which random play uses without
    /// listing) is the rules' list in the documented order; its element groups are the plain
    /// search's.
    #[test]
    fn moves_counts_and_groups_match_the_plain_reading(seed in any::<u64>(), players in 1u8..=4, kind in 0u8..3, other_table in any::<bool>()) {
        // The catalogue's clash table, or another (each element's flips and mutual swapped).
        let mut table = ClashTable::standard();
        if other_table {
            for r in &mut table.clash {
                std::mem::swap(&mut r.flips, &mut r.mutual);
            }
        }
        let setup = deal(
            Deck::standard(),
            &table,
            players,
            Goal::Dominance,
            &mut ChaCha8Rng::seed_from_u64(seed),
        )
        .unwrap();
        let mut agents: Vec<Agent> = (0..players)
            .map(|p| Agent::new(policy(kind), seed ^ u64::from(p)))
            .collect();
        let mut log = Vec::new();
        play_through(
            &setup,
            &mut |seat, st, moves| {
                assert_eq!(moves, reference_moves(st).as_slice());
                assert_eq!(st.move_count(), moves.len());
                let per_card = st.move_counts();
                assert_eq!(per_card.iter().map(|n| usize::from(*n)).sum::<usize>(), moves.len());
                for (k, m) in moves.iter().enumerate() {
                    assert_eq!(st.nth_move(k), Some(*m));
                    assert_eq!(st.nth_move_by(&per_card, k), Some(*m));
                }
                assert_eq!(st.nth_move(moves.len()), None);
                assert_eq!(st.nth_move_by(&per_card, moves.len()), None);
                // The same read from the clash table's memo of outcome numbers.
                let memo = CountTable::of(&st.clashes());
                assert!(memo.is_some_and(|t| t.is_for(&st.clashes())));
                assert_eq!(st.move_counts_in(memo), per_card);
                for k in 0..=moves.len() {
                    assert_eq!(st.nth_move_in(memo, &per_card, k), moves.get(k).copied());
                }
                // Greedy's values, each layout valued once, are each move's own value.
                let values = eval::move_values(st, moves);
                for (m, v) in moves.iter().zip(&values) {
                    assert_eq!(*v, eval::move_values(st, std::slice::from_ref(m))[0]);
                }
                assert_eq!(scoring::groups(st), reference_groups(st));
                agents[seat as usize].choose_move(&IconoclasmGame::at(&setup, *st))
            },
            &mut log,
        );
    }

    #[test]
    fn every_game_ends_within_bounds_with_each_card_once(seed in any::<u64>(), players in 1u8..=4, kind in 0u8..3, balance in any::<bool>()) {
        let goal = if balance { Goal::Balance } else { Goal::Dominance };
        let (st, log) = play(seed, players, kind, goal);
        prop_assert!(st.is_over());
        prop_assert_eq!(st.grid.count(), CARDS);
        let b = st.grid.bounds().unwrap();
        prop_assert!(b.width() <= MAX_SPAN && b.height() <= MAX_SPAN);
        let mut cards: Vec<u8> = st.grid.cards().map(|(_, c)| c.card).collect();
        cards.sort();
        prop_assert_eq!(cards, (0..16).collect::<Vec<u8>>());
        prop_assert!(st.hands.iter().all(|h| *h == 0) && st.undrawn == 0);
        prop_assert_eq!(st.turn, if players == 3 { 15 } else { 16 });
        // Every placed card is beside another (the table is one connected group).
        prop_assert_eq!(st.grid.largest_group(|_| true), CARDS);
        let w = winner(&st);
        if players > 1 {
            prop_assert!(w.is_some_and(|w| w < players));
        } else {
            prop_assert_eq!(w.is_some(), goal_met(&st, goal));
        }
        prop_assert_eq!(log.last(), Some(&Event::End { winner: w }));
    }

    #[test]
    fn a_seed_replays_the_same_game(seed in any::<u64>(), players in 1u8..=4, kind in 1u8..3) {
        let (a, la) = play(seed, players, kind, Goal::Dominance);
        let (b, lb) = play(seed, players, kind, Goal::Dominance);
        prop_assert_eq!(a, b);
        prop_assert_eq!(la, lb);
    }
}
