//! How long a construction check takes, over the bundled cards held in memory: a party, a
//! character, a squad, and a full quest setup with 10 leagues (the builders check on every
//! keystroke). Run: `cargo bench --bench rules`.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use deckwright::cards::Card;
use deckwright::games::arcadia::character::CharacterFile;
use deckwright::games::arcadia::rules as arcadia;
use deckwright::games::arcadia::setup::SetupFile;
use deckwright::games::build::CardIndex;
use deckwright::games::iconica::party::PartyFile;
use deckwright::games::iconica::rules as iconica;
use deckwright::games::ruunara::rules as ruunara;
use deckwright::games::ruunara::squad::SquadFile;

const PARTY: &str = include_str!("../examples/iconica/legal-legion-raiders.party.toml");
const MIXED: &str = include_str!("../examples/iconica/illegal-faction-mix.party.toml");
const SETUP: &str = include_str!("../examples/arcadia/legal-starter.setup.toml");
const KNIGHT: &str = include_str!("../examples/arcadia/legal-hobgallant-knight.character.toml");
const VETERAN: &str = include_str!("../examples/arcadia/legal-veteran-with-experience.character.toml");
const SQUAD: &str = include_str!("../examples/ruunara/legal-ardann-story.squad.toml");

fn benches(c: &mut Criterion) {
    let cards: Vec<Card> = deckwright::catalogue::bundled_cards().expect("bundled cards load");
    let index = CardIndex::new(cards.clone());
    let party = PartyFile::parse(PARTY, "party").unwrap();
    let mixed = PartyFile::parse(MIXED, "mixed").unwrap();
    let setup = SetupFile::parse(SETUP, "setup").unwrap();
    let chars = [CharacterFile::parse(KNIGHT, "a").unwrap(), CharacterFile::parse(VETERAN, "b").unwrap()];
    let squad = SquadFile::parse(SQUAD, "squad").unwrap();
    assert!(iconica::check_party(&party, &cards).is_legal());
    assert!(arcadia::check_setup(&setup, &chars, &cards).is_legal());
    assert_eq!(setup.leagues.len(), 10);

    let mut g = c.benchmark_group("rules");
    g.measurement_time(Duration::from_secs(3)).sample_size(20).warm_up_time(Duration::from_secs(1));
    g.bench_function("party/vec", |b| b.iter(|| iconica::check_party(&party, &cards)));
    g.bench_function("party/index", |b| b.iter(|| iconica::check_party(&party, &index)));
    g.bench_function("party-illegal/vec", |b| b.iter(|| iconica::check_party(&mixed, &cards)));
    g.bench_function("match-of-two/vec", |b| b.iter(|| iconica::check_match(&[&party, &mixed], &cards)));
    g.bench_function("character/vec", |b| b.iter(|| arcadia::check_character(&chars[1], &cards)));
    g.bench_function("setup-10-leagues/vec", |b| b.iter(|| arcadia::check_setup(&setup, &chars, &cards)));
    g.bench_function("setup-10-leagues/index", |b| b.iter(|| arcadia::check_setup(&setup, &chars, &index)));
    g.bench_function("squad/vec", |b| b.iter(|| ruunara::check_squad(&squad, &cards)));
    g.finish();
}

criterion_group!(rules_benches, benches);
criterion_main!(rules_benches);
