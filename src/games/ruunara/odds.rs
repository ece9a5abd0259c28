//! Exact combat odds of a Ruunara attack `nD k+` (`spec/other-games.md`, "Combat odds").
//!
//! Each die hits at k or more. Against a covered target every ranged hit is cancelled on a
//! cover roll of 3+ (so it stands with probability 2/6). An "instant kill on K+" skill kills on
//! any attack die of K or more; under cover the same cancel roll applies to that die
//! (see `docs/rulings.md`, Ruunara).

use super::model::Dice;

/// The question asked of the calculator.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Attack {
    pub dice: Dice,
    pub cover: bool,
    /// Instant kill on this face or more.
    pub kill_on: Option<u8>,
    /// The target's hit points, for the chance to kill.
    pub hp: Option<u32>,
    /// Hit points each hit costs (a skill's `damage`; 1 for a figure's own attack).
    pub damage: u32,
}

/// The answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Odds {
    /// `distribution[h]` = probability of exactly h hits.
    pub distribution: Vec<f64>,
    pub expected_hits: f64,
    /// Chance the target dies (hits >= hp, or an instant kill), when hp or kill_on is given.
    pub kill_chance: Option<f64>,
}

const COVER_STANDS: f64 = 2.0 / 6.0;

/// Computes the exact distribution by dynamic programming over the dice.
pub fn odds(a: &Attack) -> Odds {
    let n = a.dice.count as usize;
    let stand = if a.cover { COVER_STANDS } else { 1.0 };
    let faces = |lo: u8| f64::from(7u8.saturating_sub(lo.clamp(1, 7))) / 6.0;
    let p_hit = faces(a.dice.min) * stand;
    // Per die: a killing die (face >= K, standing), a hit that is not a kill, or nothing.
    let k = a.kill_on.unwrap_or(7);
    let p_kill = faces(k) * stand;
    let p_hit_only = (faces(a.dice.min) - faces(k.max(a.dice.min))).max(0.0) * stand;
    // hits distribution: binomial(n, p_hit)
    let mut dist = vec![0.0f64; n + 1];
    dist[0] = 1.0;
    for i in 0..n {
        for h in (0..=i + 1).rev() {
            let stay = dist[h] * (1.0 - p_hit);
            let from = if h > 0 { dist[h - 1] * p_hit } else { 0.0 };
            dist[h] = stay + from;
        }
    }
    let expected_hits = n as f64 * p_hit;
    let kill_chance = (a.hp.is_some() || a.kill_on.is_some()).then(|| {
        // Probability of no killing die and fewer hits than it takes to bring hp to 0.
        let hp =
            a.hp.map(|h| h.div_ceil(a.damage.max(1)) as usize)
                .unwrap_or(usize::MAX);
        let mut alive = vec![0.0f64; n + 1]; // by hits, with no killing die so far
        alive[0] = 1.0;
        // a killing die with face >= min also counts as a hit, but it kills anyway.
        for i in 0..n {
            for h in (0..=i + 1).rev() {
                let stay = alive[h] * (1.0 - p_hit_only - p_kill);
                let from = if h > 0 {
                    alive[h - 1] * p_hit_only
                } else {
                    0.0
                };
                alive[h] = stay + from;
            }
        }
        let survive: f64 = alive.iter().take(hp.min(n + 1)).sum();
        1.0 - survive
    });
    Odds {
        distribution: dist,
        expected_hits,
        kill_chance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attack(s: &str) -> Attack {
        Attack {
            dice: Dice::parse(s).unwrap(),
            cover: false,
            kill_on: None,
            hp: None,
            damage: 1,
        }
    }

    #[test]
    fn three_dice_hitting_on_four_is_binomial_half() {
        let o = odds(&attack("3D4+"));
        let want = [0.125, 0.375, 0.375, 0.125];
        for (g, w) in o.distribution.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{:?}", o.distribution);
        }
        assert!((o.expected_hits - 1.5).abs() < 1e-12);
        assert_eq!(o.kill_chance, None);
    }

    #[test]
    fn cover_leaves_a_third_of_hits() {
        let o = odds(&Attack {
            cover: true,
            ..attack("1D1+")
        });
        assert!((o.distribution[1] - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn kill_chance_counts_hits_and_instant_kills() {
        // 1D4+ against 1 hp: dies on a hit, 1/2.
        let o = odds(&Attack {
            hp: Some(1),
            ..attack("1D4+")
        });
        assert!((o.kill_chance.unwrap() - 0.5).abs() < 1e-12);
        // 2D6+ against 5 hp, instant kill on 5+: dies unless both dice are 1-4 -> 1 - (4/6)^2.
        let o = odds(&Attack {
            hp: Some(5),
            kill_on: Some(5),
            ..attack("2D6+")
        });
        assert!((o.kill_chance.unwrap() - (1.0 - (4.0f64 / 6.0).powi(2))).abs() < 1e-12);
        // 2D3+ against 2 hp: both dice must hit: (4/6)^2.
        let o = odds(&Attack {
            hp: Some(2),
            ..attack("2D3+")
        });
        assert!((o.kill_chance.unwrap() - (4.0f64 / 6.0).powi(2)).abs() < 1e-12);
    }

    #[test]
    fn damage_divides_the_hits_a_kill_needs() {
        // 1D5+ of 2 hit points a hit (Hammer Blow) against 2 hp: one hit kills, 1/3.
        let o = odds(&Attack {
            hp: Some(2),
            damage: 2,
            ..attack("1D5+")
        });
        assert!((o.kill_chance.unwrap() - 1.0 / 3.0).abs() < 1e-12);
        // 2D4+ of 2 against 3 hp: both dice must hit, 1/4 (1 hit point a hit: never).
        let two = Attack {
            hp: Some(3),
            damage: 2,
            ..attack("2D4+")
        };
        assert!((odds(&two).kill_chance.unwrap() - 0.25).abs() < 1e-12);
        let one = odds(&Attack { damage: 1, ..two });
        assert!(one.kill_chance.unwrap().abs() < 1e-12);
        // The hit distribution is the same.
        assert_eq!(odds(&two).distribution, one.distribution);
    }

    #[test]
    fn distribution_sums_to_one() {
        for n in 1..30 {
            for k in 1..=6 {
                let o = odds(&Attack {
                    cover: n % 2 == 0,
                    ..attack(&format!("{n}D{k}+"))
                });
                let s: f64 = o.distribution.iter().sum();
                assert!((s - 1.0).abs() < 1e-9);
            }
        }
    }
}
