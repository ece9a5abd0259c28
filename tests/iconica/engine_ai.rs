//! `mcts`' leaf (`ai::look_ahead`) and greedy go on from a copy of the position: the position
//! a policy is shown at a decision of a straight-through turn (the fast path's) is the one
//! the game interface reaches by applying the same inputs node by node, and a look-ahead
//! from either plays exactly the same continuation, for every option.

use deckwright::games::game::{Game, Turn};
use deckwright::games::iconica::ai::{Agent, PolicyKind, SplitMix, look_ahead};
use deckwright::games::iconica::engine::*;
use deckwright::games::iconica::model::Character;

fn setup() -> Setup {
    let pool: Vec<Character> = deckwright::games::iconica::bundled_characters();
    assert!(pool.len() >= 6, "bundled Iconica characters");
    let a: Vec<Character> = pool[0..3].to_vec();
    let b: Vec<Character> = pool[3..6].to_vec();
    Setup::duel(&a, &b, Rules::default()).expect("setup")
}

/// A decision point of a real match: the turn's start, its inputs so far (as the game
/// interface takes them), the position shown at the decision (its board and where its turn
/// stands), the deciding side and the number of options.
struct Point {
    start: State,
    inputs: Vec<usize>,
    shown: (State, Step),
    side: u8,
    n: u8,
}

/// Random dice and options; keeps the turn's inputs and notes every decision with 2+ options.
struct Capture {
    rng: SplitMix,
    start: State,
    inputs: Vec<usize>,
    points: Vec<Point>,
}

impl Io for Capture {
    fn die(&mut self) -> Result<u8, Stop> {
        let v = self.rng.below(6) + 1;
        self.inputs.push(usize::from(v) - 1);
        Ok(v)
    }
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        let v = self.rng.below(n);
        self.inputs.push(usize::from(v));
        Ok(v)
    }
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop> {
        let n = c.options.len() as u8;
        self.points.push(Point {
            start: self.start,
            inputs: self.inputs.clone(),
            shown: (*c.game.state(), *c.game.step()),
            side: c.side,
            n,
        });
        let v = self.rng.below(n);
        self.inputs.push(usize::from(v));
        Ok(v)
    }
}

fn points(setup: &Setup, seed: u64) -> Vec<Point> {
    let mut st = State::new(setup);
    let mut io = Capture {
        rng: SplitMix(seed),
        start: st,
        inputs: Vec::new(),
        points: Vec::new(),
    };
    while st.ended.is_none() {
        io.start = st;
        io.inputs.clear();
        play_turn(setup, &mut st, &mut io, &mut NoLog).expect("random input never runs out");
    }
    io.points
}

/// The position the game interface reaches from the turn's start with `inputs`.
fn applied<'s>(setup: &'s Setup, start: State, inputs: &[usize]) -> IconicaGame<'s> {
    let mut g = IconicaGame::at_turn_start(setup, start);
    for &a in inputs {
        g.apply(a);
    }
    g
}

#[test]
fn the_position_shown_at_a_decision_is_the_one_the_interface_reaches() {
    let setup = setup();
    let mut mid_turn = 0;
    let mut differs = 0;
    let mut buf = Vec::new();
    for seed in 1..4u64 {
        for p in points(&setup, seed).iter().take(40) {
            mid_turn += !p.inputs.is_empty() as usize;
            let node = applied(&setup, p.start, &p.inputs);
            assert_eq!(
                node.turn(),
                Turn::Seat {
                    seat: p.side as usize,
                    options: p.n as usize
                }
            );
            assert_eq!((*node.state(), *node.step()), p.shown);
            let mut values = Vec::new();
            for k in 0..p.n {
                let mut next = node.clone();
                next.apply(usize::from(k));
                buf.clear();
                buf.extend_from_slice(&p.inputs);
                buf.push(usize::from(k));
                let replayed = applied(&setup, p.start, &buf);
                assert_eq!(
                    (next.state(), next.step(), next.turn()),
                    (replayed.state(), replayed.step(), replayed.turn())
                );
                for s in 0..3u64 {
                    let seed = seed * 1000 + s;
                    let mut g = Agent::new(PolicyKind::Greedy, seed);
                    values.push(look_ahead(&next, seed, &mut g, p.side));
                }
            }
            differs += values.windows(2).any(|w| w[0] != w[1]) as usize;
        }
    }
    assert!(
        mid_turn > 5,
        "decisions in the middle of a turn were checked ({mid_turn})"
    );
    assert!(
        differs > 5,
        "the continuations depend on the option and the dice ({differs})"
    );
}

/// `mcts`' tree search scores a leaf with `ai::greedy_leaf`: the logistic of the deep greedy
/// look-ahead from the leaf's position, the same continuation `look_ahead` plays.
#[test]
fn the_search_leaf_is_the_deep_greedy_look_ahead_of_its_position() {
    use deckwright::games::ai::Evaluator;
    use deckwright::games::iconica::ai::IconicaEval;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    let setup = setup();
    let mut checked = 0;
    for p in points(&setup, 5).into_iter().take(40) {
        let game = applied(&setup, p.start, &p.inputs);
        assert_eq!(
            game.turn(),
            Turn::Seat {
                seat: p.side as usize,
                options: p.n as usize
            }
        );
        let leaf = IconicaEval.leaf(&game, &mut ChaCha8Rng::seed_from_u64(9));
        assert!(
            (leaf[0] + leaf[1] - 1.0).abs() < 1e-12 && (0.0..=1.0).contains(&leaf[0]),
            "{leaf:?}"
        );
        // The same draws, by hand: the greedy agent's seed, then the look-ahead's.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut greedy = Agent::new(PolicyKind::Greedy, rng.random());
        let v = look_ahead(&game, rng.random(), &mut greedy, 0);
        assert_eq!(leaf[0], 1.0 / (1.0 + (-v).exp()));
        checked += 1;
    }
    assert!(checked > 10, "decision points checked: {checked}");
}
