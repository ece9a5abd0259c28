//! A game whose positions borrow their setup (`IconicaGame<'s>` holds `&'s Setup`), owning
//! it: what a face keeps across frames, hands to a background job or to a network host as a
//! [`super::any::AnyGame`] with no lifetime of its own.
//!
//! The setup lives in an [`Arc`]; the position borrows it there, where it never moves, and
//! every clone of the position keeps the same `Arc`. The borrow is widened to `'static` in one
//! place ([`Owned::new`]); the position is private, its own methods return owned values, and
//! it is dropped before the setup (fields drop in declaration order).

use std::mem::ManuallyDrop;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::ai::Policy;
use super::any::{AnyGame, AnyOutcome, Step};
use super::game::{Chance, Turn};

/// A game family whose positions borrow a setup of type [`OnSetup::Setup`].
pub trait OnSetup: 'static {
    type Setup: Send + Sync + 'static;
    type Game<'s>: Clone + Send;
}

/// A position of `T` with its setup.
pub struct Owned<T: OnSetup> {
    // Declared first: dropped before the setup it borrows.
    game: T::Game<'static>,
    setup: Arc<T::Setup>,
}

impl<T: OnSetup> Owned<T> {
    /// The position `make` builds on `setup` (its start, say), owning the setup.
    pub fn new(setup: T::Setup, make: impl for<'a> FnOnce(&'a T::Setup) -> T::Game<'a>) -> Self {
        let setup = Arc::new(setup);
        let game = make(&setup);
        // SAFETY: `game` borrows `*setup`, the Arc's allocation, which neither moves nor is
        // freed while this value or a clone of it (each holding the Arc) lives; `make` is
        // generic over the lifetime, so it kept no reference beyond what it returned. Only the
        // lifetime parameter changes: the value is moved bit for bit and not dropped twice.
        let game = unsafe {
            let game = ManuallyDrop::new(game);
            std::ptr::read((&raw const *game).cast::<T::Game<'static>>())
        };
        Owned { game, setup }
    }

    /// The position, borrowed no longer than this value.
    pub fn game<'a>(&'a self) -> &'a T::Game<'a> {
        // Shortening the borrow's lifetime is a covariant cast for every game here; written
        // out as a cast so the GAT's variance need not be known.
        // SAFETY: the setup outlives `'a` (it lives as long as `self`); a shared borrow of
        // the position cannot store anything into it.
        unsafe { &*(&raw const self.game).cast::<T::Game<'a>>() }
    }

    /// Changes the position: `f` works for every lifetime, so it cannot put a borrow of
    /// anything but this setup into it.
    pub fn with_mut<R>(&mut self, f: impl for<'a> FnOnce(&mut T::Game<'a>) -> R) -> R {
        f(&mut self.game)
    }

    /// The setup.
    pub fn setup(&self) -> &T::Setup {
        &self.setup
    }
}

impl<T: OnSetup> Clone for Owned<T> {
    fn clone(&self) -> Self {
        Owned {
            game: self.game.clone(),
            setup: self.setup.clone(),
        }
    }
}

/// The position as a game of any type: every call is the position's own, but a copy
/// ([`AnyGame::clone_box`]) keeps the setup with it.
impl<T: OnSetup> AnyGame for Owned<T>
where
    T::Game<'static>: AnyGame,
{
    fn name(&self) -> &'static str {
        self.game.name()
    }
    fn seats(&self) -> usize {
        self.game.seats()
    }
    fn turn(&self) -> Turn {
        self.game.turn()
    }
    fn apply(&mut self, i: usize) -> Step {
        self.game.apply(i)
    }
    fn exhausted(&mut self) -> Step {
        self.game.exhausted()
    }
    fn question(&self) -> String {
        self.game.question()
    }
    fn describe(&self, i: usize) -> String {
        self.game.describe(i)
    }
    fn outcome(&self) -> Option<AnyOutcome> {
        self.game.outcome()
    }
    fn fingerprint(&self) -> u64 {
        self.game.fingerprint()
    }
    fn choose(
        &self,
        seat: usize,
        options: usize,
        policy: Policy,
        seed: u64,
        stop: Option<Arc<AtomicBool>>,
    ) -> usize {
        self.game.choose(seat, options, policy, seed, stop)
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn offer_point(&mut self, x: f64, y: f64) -> Option<usize> {
        self.game.offer_point(x, y)
    }
    fn dealt(&self, c: Chance) -> Option<usize> {
        self.game.dealt(c)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn play_watched(
        &mut self,
        dice: &mut dyn super::dice::Dice,
        policies: &[Policy],
        seed: u64,
        each: &mut dyn FnMut(&super::any::Decision<'_>) -> bool,
    ) -> (Vec<usize>, bool) {
        self.game.play_watched(dice, policies, seed, each)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position that reads its setup through the borrow.
    #[derive(Clone)]
    struct Reads<'s> {
        words: &'s Vec<String>,
        at: usize,
    }

    struct Family;
    impl OnSetup for Family {
        type Setup = Vec<String>;
        type Game<'s> = Reads<'s>;
    }

    #[test]
    fn a_copy_outlives_the_original_and_reads_the_same_setup() {
        let words: Vec<String> = (0..100).map(|k| format!("word {k}")).collect();
        let mut a = Owned::<Family>::new(words, |w| Reads { words: w, at: 3 });
        a.with_mut(|g| g.at = 42);
        let b = a.clone();
        drop(a);
        // Allocations after the drop would reuse freed memory if `b` did not keep the setup.
        let noise: Vec<Vec<u8>> = (0..100).map(|k| vec![k as u8; 64]).collect();
        assert_eq!(b.game().words[b.game().at], "word 42");
        assert_eq!(b.setup().len(), 100);
        drop(noise);
    }
}
