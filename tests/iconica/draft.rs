//! The draft (Party Member selection) over seeds and policies: the lowest roll picks first,
//! picks alternate, every offered pick keeps the picker's party legal, and both finished
//! parties are legal under the construction rules (checked together, as a match is).

use deckwright::cards::Card;
use deckwright::catalogue::bundled_cards;
use deckwright::games::ai::Policy;
use deckwright::games::dice::{RngDice, ScriptDice};
use deckwright::games::iconica::draft::{Draft, DraftError, PARTY, Refusal};
use deckwright::games::iconica::model::Character;
use deckwright::games::iconica::rules::check_match;
use proptest::prelude::*;

fn pool() -> Vec<Character> {
    bundled_cards()
        .unwrap()
        .into_iter()
        .filter_map(|c| match c {
            Card::Iconica(ch) => Some(ch),
            _ => None,
        })
        .collect()
}

fn policy(k: u8) -> Policy {
    match k {
        0 => Policy::First,
        1 => Policy::Random,
        _ => Policy::Greedy,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn a_draft_keeps_both_parties_legal(seed in any::<u64>(), a in 0u8..3, b in 0u8..3) {
        let cards: Vec<Card> = pool().into_iter().map(Card::Iconica).collect();
        let mut dice = RngDice::new(seed);
        let mut d = Draft::start(pool(), &mut dice).unwrap();
        let (first, second) = d.rolls.last().map(|&(x, y)| (x, y)).unwrap();
        prop_assert_ne!(first, second);
        prop_assert_eq!(d.first, usize::from(second < first), "the lowest roll picks first");
        let mut order = Vec::new();
        while let Some(p) = d.to_pick() {
            order.push(p);
            let legal = d.legal();
            prop_assert!(!legal.is_empty(), "a legal pick is always left");
            // Every offered pick keeps the party legal (all rules but its size).
            for &i in &legal {
                prop_assert!(!d.taken(i));
                let mut trial = d.clone();
                trial.picks[p].push(i);
                let (mine, other) = (trial.party(p, "mine"), trial.party(1 - p, "other"));
                let reports = check_match(&[&other, &mine], &cards);
                prop_assert!(
                    reports[1].violations.iter().all(|v| v.rule == "party-size"),
                    "{:?}", reports[1].violations
                );
            }
            // A character is refused exactly when it is not offered; a refused free one
            // names the rule it would break, checked the same way, or has no way to three.
            for i in 0..d.pool.len() {
                let why = d.refusal(i, ["mine", "other"]);
                prop_assert_eq!(why.is_none(), legal.contains(&i), "{:?}", why);
                if let Some(Refusal::Breaks(v)) = &why {
                    let mut trial = d.clone();
                    trial.picks[p].push(i);
                    let (mine, other) = (trial.party(p, "mine"), trial.party(1 - p, "other"));
                    let reports = check_match(&[&other, &mine], &cards);
                    prop_assert!(reports[1].violations.contains(v), "{:?}", v);
                    prop_assert_ne!(v.rule, "party-size");
                }
                if d.taken(i) {
                    prop_assert_eq!(why, Some(Refusal::Taken));
                }
            }
            let i = d.choose(policy(if p == 0 { a } else { b }), &mut dice).unwrap();
            prop_assert!(legal.contains(&i));
            prop_assert!(d.pick(i));
        }
        // Picks alternate from the first picker until each has three.
        let want: Vec<usize> = (0..2 * PARTY).map(|k| (d.first + k) % 2).collect();
        prop_assert_eq!(order, want);
        let [(pa, a), (pb, b)] = d.parties(["A", "B"]);
        prop_assert_eq!(pa, d.first);
        prop_assert_eq!(pb, 1 - d.first);
        for r in check_match(&[&a, &b], &cards) {
            prop_assert!(r.is_legal(), "{:?}", r.violations);
        }
    }
}

#[test]
fn a_tied_opening_roll_is_rolled_again_and_an_illegal_pick_is_refused() {
    // 3 and 3 tie; 5 and 2: player 1 rolled lowest.
    let mut dice = ScriptDice::parse("3,3,5,2").unwrap();
    let mut d = Draft::start(pool(), &mut dice).unwrap();
    assert_eq!(d.rolls, [(3, 3), (5, 2)]);
    assert_eq!(d.first, 1);
    assert_eq!(d.to_pick(), Some(1));
    // A Legion pick, then no Protectorate character is offered to the same player.
    let legion = d
        .pool
        .iter()
        .position(|c| c.id == "ico-kethra-voss")
        .unwrap();
    assert!(d.pick(legion));
    let protectorate = d
        .pool
        .iter()
        .position(|c| c.id == "ico-teodric-vale")
        .unwrap();
    let other = d.legal().into_iter().find(|&i| i != protectorate).unwrap();
    assert!(d.pick(other));
    assert!(!d.taken(protectorate));
    assert_eq!(d.to_pick(), Some(1));
    assert!(!d.legal().contains(&protectorate));
    assert!(!d.pick(protectorate), "an illegal pick is refused");
    // Its reason is the faction rule, in the rule's own words, naming both characters.
    match d.refusal(protectorate, ["You", "The computer"]) {
        Some(Refusal::Breaks(v)) => {
            assert_eq!(v.rule, "faction-mix");
            assert!(v.message.contains("Kethra Voss") && v.message.contains("Teodric Vale"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        d.refusal(legion, ["You", "The computer"]),
        Some(Refusal::Taken)
    );
    assert_eq!(d.refusal(d.legal()[0], ["You", "The computer"]), None);
    assert!(!d.pick(legion), "a taken character is refused");
    // A script that only ties stops the draft with a reason.
    let mut ties = ScriptDice::parse("4,4").unwrap();
    assert_eq!(Draft::start(pool(), &mut ties), Err(DraftError::NoDice));
}
