//! `mcts`' leaf (`ai::look_ahead`): a continuation resumed from a mid-turn step
//! boundary plays exactly what the same continuation replayed from the turn's start plays, so
//! the search scores the position the game is really in, for every option.

use deckwright::games::iconica::ai::{look_ahead, Agent, Mark, PolicyKind, SplitMix};
use deckwright::games::iconica::engine::*;
use deckwright::games::iconica::model::Character;

fn setup() -> Setup {
    let pool: Vec<Character> = deckwright::games::iconica::bundled_characters();
    assert!(pool.len() >= 6, "bundled Iconica characters");
    let a: Vec<Character> = pool[0..3].to_vec();
    let b: Vec<Character> = pool[3..6].to_vec();
    Setup::duel(&a, &b, Rules::default()).expect("setup")
}

/// A decision point of a real match: the turn's start, its inputs so far, its latest step
/// boundary, the deciding side and the number of options.
struct Point {
    start: State,
    inputs: Vec<u8>,
    mark: Mark,
    side: u8,
    n: u8,
}

/// Random dice and options; keeps the turn record and notes every decision with 2+ options.
struct Capture {
    rng: SplitMix,
    start: State,
    inputs: Vec<u8>,
    mark: Option<Mark>,
    points: Vec<Point>,
}

impl Io for Capture {
    fn die(&mut self) -> Result<u8, Stop> {
        let v = self.rng.below(6) + 1;
        self.inputs.push(v);
        Ok(v)
    }
    fn pick(&mut self, n: u8) -> Result<u8, Stop> {
        let v = self.rng.below(n);
        self.inputs.push(v);
        Ok(v)
    }
    fn choose(&mut self, c: &Choice<'_>) -> Result<u8, Stop> {
        let n = c.options.len() as u8;
        if let Some(mark) = self.mark {
            self.points.push(Point { start: self.start, inputs: self.inputs.clone(), mark, side: c.side, n });
        }
        let v = self.rng.below(n);
        self.inputs.push(v);
        Ok(v)
    }
    fn mark(&mut self, st: &State, at: Resume) {
        self.mark = Some(Mark { state: *st, at, pos: self.inputs.len() });
    }
}

fn points(setup: &Setup, seed: u64) -> Vec<Point> {
    let mut st = State::new(setup);
    let mut io = Capture { rng: SplitMix(seed), start: st, inputs: Vec::new(), mark: None, points: Vec::new() };
    while st.ended.is_none() {
        io.start = st;
        io.inputs.clear();
        io.mark = None;
        play_turn(setup, &mut st, &mut io, &mut NoLog).expect("random input never runs out");
    }
    io.points
}

#[test]
fn a_look_ahead_from_a_step_boundary_equals_one_from_the_turns_start() {
    let setup = setup();
    let mut mid_turn = 0;
    let mut differs = 0;
    let mut buf = Vec::new();
    for seed in 1..4u64 {
        for p in points(&setup, seed).iter().take(40) {
            mid_turn += (p.mark.at != Resume::Start && p.mark.pos > 0) as usize;
            let from_start = Mark { state: p.start, at: Resume::Start, pos: 0 };
            let mut values = Vec::new();
            for k in 0..p.n {
                let mut whole = p.inputs.clone();
                whole.push(k);
                let since = &whole[p.mark.pos..];
                for s in 0..3u64 {
                    let seed = seed * 1000 + s;
                    let mut g = Agent::new(PolicyKind::Greedy, seed);
                    let resumed = look_ahead(&setup, &p.mark, since, seed, &mut g, &mut buf, p.side);
                    let mut g = Agent::new(PolicyKind::Greedy, seed);
                    let replayed = look_ahead(&setup, &from_start, &whole, seed, &mut g, &mut buf, p.side);
                    assert_eq!(resumed.to_bits(), replayed.to_bits(), "seed {seed}, option {k}");
                    values.push(resumed);
                }
            }
            differs += values.windows(2).any(|w| w[0] != w[1]) as usize;
        }
    }
    assert!(mid_turn > 5, "decisions after a mid-turn boundary were checked ({mid_turn})");
    assert!(differs > 5, "the continuations depend on the option and the dice ({differs})");
}

/// `mcts`' tree search scores a leaf with `ai::greedy_leaf`: the logistic of the deep greedy
/// look-ahead from the leaf's position, the same continuation `look_ahead` plays.
#[test]
fn the_search_leaf_is_the_deep_greedy_look_ahead_of_its_position() {
    use deckwright::games::{GameState, Node};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    let setup = setup();
    let mut checked = 0;
    for p in points(&setup, 5).into_iter().take(40) {
        let game = IconicaGame::at(&setup, p.start, &p.inputs).with_leaf(Leaf::With(deckwright::games::iconica::ai::greedy_leaf));
        assert_eq!(game.node(), Node::Decision { player: p.side as usize, actions: p.n as usize });
        let leaf = game.clone().rollout(&mut ChaCha8Rng::seed_from_u64(9));
        assert!((leaf[0] + leaf[1] - 1.0).abs() < 1e-12 && (0.0..=1.0).contains(&leaf[0]), "{leaf:?}");
        // The same draws, by hand: the greedy agent's seed, then the look-ahead's.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut greedy = Agent::new(PolicyKind::Greedy, rng.random());
        let mark = Mark { pos: 0, ..p.mark };
        let v = look_ahead(&setup, &mark, &p.inputs[p.mark.pos..], rng.random(), &mut greedy, &mut Vec::new(), 0);
        assert_eq!(leaf[0], 1.0 / (1.0 + (-v).exp()));
        checked += 1;
    }
    assert!(checked > 10, "decision points checked: {checked}");
}
