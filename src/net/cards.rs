//! The cards travel with the match: a friend who lacks the designer's unreleased cards still
//! plays them, and may keep them. Some of a match's cards are secrets of one seat (an
//! Arcadia waylay held in hand, a treasure hidden face down), so the set is not shown up
//! front: the host's `Welcome` commits to it (for each card, SHA-256 of a random salt, the
//! card file and its picture, in no telling order, and the digest of those), and a card is
//! sent to a peer (with its salt and picture) once the peer's own view names it (a line of
//! its log, its question or options), every other card just before the match's end. A
//! commitment reveals nothing: without its salt, not even a released card's digest matches.
//!
//! A peer checks each card as it arrives, as hostile as any file: sizes bounded, read by the
//! strict card parser, its commitment one of those announced (else it is named), its picture
//! decoded under `picture`'s budget. What arrives is kept in memory only: the peer's
//! catalogue is untouched unless the person asks (`join --import`, or `--cards-to DIR` for
//! the files in a folder they name). At the end the peer checks that the record the host
//! sends was played with the cards it committed to; a card that differs is named, never
//! played on quietly.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use super::code::hex;
use super::tls::sha256;
use crate::cards::{Card, CardLookup};

/// The most cards a match's set holds.
pub const MAX_CARDS: usize = 1024;
/// The longest card file sent (bytes).
pub const MAX_CARD_TEXT: usize = 64 << 10;
/// The most pictures sent with a match.
pub const MAX_ART: usize = 64;
/// The largest picture sent (bytes of its file).
pub const MAX_ART_FILE: usize = 4 << 20;
/// The most bytes of pictures sent with a match, all together.
pub const MAX_ART_TOTAL: usize = 32 << 20;

/// A card's picture file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Art {
    /// `png` or `jpg`, as its bytes say.
    pub extension: &'static str,
    pub bytes: Vec<u8>,
}

/// One card of a match's set as the host keeps it.
#[derive(Debug, Clone)]
pub struct SetCard {
    pub card: Card,
    /// Its file as sent ([`Card::to_toml`]).
    pub text: String,
    pub salt: [u8; 16],
    pub art: Option<Art>,
    /// [`commitment`] of the above, in hexadecimal.
    pub commitment: String,
}

/// A match's card set as the host sends it.
#[derive(Debug, Clone, Default)]
pub struct CardSet {
    /// Every card, in id order.
    pub cards: Vec<SetCard>,
    /// The digest of the whole set ([`set_digest`] of the commitments).
    pub digest: String,
}

impl CardSet {
    /// The commitments the `Welcome` names, sorted (so their order says nothing).
    pub fn commitments(&self) -> Vec<String> {
        let mut c: Vec<String> = self.cards.iter().map(|c| c.commitment.clone()).collect();
        c.sort();
        c
    }

    /// The cards (by index) that `texts` name and that are not `sent` yet ([`names`]).
    pub fn named_in(&self, texts: &[&str], sent: &[bool]) -> Vec<usize> {
        (0..self.cards.len())
            .filter(|&k| !sent.get(k).copied().unwrap_or(false))
            .filter(|&k| texts.iter().any(|t| names(t, self.cards[k].card.name())))
            .collect()
    }
}

/// A card's commitment: SHA-256 of its salt, its file, a zero byte and its picture's bytes.
pub fn commitment(salt: &[u8], text: &str, art: Option<&[u8]>) -> String {
    let mut bytes = Vec::with_capacity(salt.len() + text.len() + 1);
    bytes.extend_from_slice(salt);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(0);
    bytes.extend_from_slice(art.unwrap_or_default());
    hex(&sha256(&bytes))
}

/// The digest of a set: SHA-256 of its commitments, sorted, a line each.
pub fn set_digest(commitments: &[String]) -> String {
    let mut sorted: Vec<&String> = commitments.iter().collect();
    sorted.sort();
    let text: String = sorted.iter().map(|c| format!("{c}\n")).collect();
    hex(&sha256(text.as_bytes()))
}

/// Whether `text` names `name`: as written, not inside a longer word.
pub fn names(text: &str, name: &str) -> bool {
    if name.trim().is_empty() {
        return false;
    }
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    text.match_indices(name).any(|(at, m)| {
        !word(text[..at].chars().next_back()) && !word(text[at + m.len()..].chars().next())
    })
}

/// The cards a match record's options keep (`options.cards`, any game's), each read by the
/// strict card parser, in id order; none for a game that starts from its rules alone.
pub fn of_options(options: &toml::Table) -> Result<Vec<Card>, String> {
    let Some(list) = options.get("cards") else {
        return Ok(Vec::new());
    };
    let list = list.as_array().ok_or("`cards` is not a list")?;
    if list.len() > MAX_CARDS {
        return Err(format!(
            "{} cards; a match sends at most {MAX_CARDS}",
            list.len()
        ));
    }
    let mut by_id = BTreeMap::new();
    for (k, c) in list.iter().enumerate() {
        let text = c.as_str().ok_or(format!("card {k} is not a text"))?;
        let card = crate::cards::parse_card(text, "the match file")
            .map_err(|e| format!("card {k}: {e}"))?;
        by_id.insert(card.id().to_string(), card);
    }
    Ok(by_id.into_values().collect())
}

/// The set of `cards` with the pictures found for them ([`gather_art`]), each with a fresh
/// salt; a note for each picture not sent.
pub fn card_set(
    cards: Vec<Card>,
    art_dirs: &[PathBuf],
) -> Result<(CardSet, Vec<String>), super::NetError> {
    let (mut art, skipped) = gather_art(&cards, art_dirs);
    let mut set = Vec::with_capacity(cards.len());
    for card in cards {
        let salt = super::tls::random::<16>()?;
        let text = card.to_toml();
        let art = art.remove(card.id());
        let commitment = commitment(&salt, &text, art.as_ref().map(|a| a.bytes.as_slice()));
        set.push(SetCard {
            card,
            text,
            salt,
            art,
            commitment,
        });
    }
    let mut set = CardSet {
        cards: set,
        digest: String::new(),
    };
    set.digest = set_digest(&set.commitments());
    Ok((set, skipped))
}

/// The pictures of `cards`, by card id: each card's `art` (a relative path with no `..`,
/// looked up in `dirs` in order) read bounded and decoded under the picture budget, at most
/// [`MAX_ART`] of them and [`MAX_ART_TOTAL`] bytes; a note says why each other one is not
/// sent.
pub fn gather_art(cards: &[Card], dirs: &[PathBuf]) -> (BTreeMap<String, Art>, Vec<String>) {
    let mut art = BTreeMap::new();
    let mut notes = Vec::new();
    let mut total = 0usize;
    for card in cards {
        let Some(path) = card.art() else { continue };
        let rel = Path::new(path);
        if rel.is_absolute() || rel.components().any(|c| !matches!(c, Component::Normal(_))) {
            notes.push(format!(
                "the art of {} is not sent: `{path}` is not a plain relative path",
                card.id()
            ));
            continue;
        }
        let Some(file) = dirs.iter().map(|d| d.join(rel)).find(|p| p.is_file()) else {
            // No file: a named art type (an Arcadia merit's `art`) or art not here.
            continue;
        };
        if art.len() >= MAX_ART {
            notes.push(format!(
                "the art of {} is not sent: at most {MAX_ART} pictures travel",
                card.id()
            ));
            continue;
        }
        let bytes = match crate::safe_io::read_bytes(&file, MAX_ART_FILE as u64, "card art") {
            Ok(b) => b,
            Err(e) => {
                notes.push(format!("the art of {} is not sent: {e}", card.id()));
                continue;
            }
        };
        if total + bytes.len() > MAX_ART_TOTAL {
            notes.push(format!(
                "the art of {} is not sent: the pictures would pass {} MiB",
                card.id(),
                MAX_ART_TOTAL >> 20
            ));
            continue;
        }
        match crate::picture::decode(&bytes) {
            Ok(p) => {
                total += bytes.len();
                art.insert(
                    card.id().to_string(),
                    Art {
                        extension: p.extension,
                        bytes,
                    },
                );
            }
            Err(e) => notes.push(format!("the art of {} is not sent: {e}", card.id())),
        }
    }
    (art, notes)
}

/// The cards and pictures a peer receives, each checked as it arrives against the
/// commitments of the host's `Welcome`.
#[derive(Debug, Clone)]
pub struct Arrival {
    commitments: Vec<String>,
    /// The cards received, in the order they came, each with its picture.
    pub cards: Vec<(Card, Option<Art>)>,
    /// The commitments met so far.
    met: Vec<String>,
    art_bytes: usize,
    /// The set's digest the host announced.
    pub digest: String,
}

impl Arrival {
    /// What is to arrive: the `Welcome`'s commitments and set digest, bounded and
    /// consistent (the set's digest is its commitments').
    pub fn new(commitments: Vec<String>, digest: String) -> Result<Arrival, String> {
        if commitments.len() > MAX_CARDS {
            return Err(format!(
                "the host announced {} cards; at most {MAX_CARDS} are taken",
                commitments.len()
            ));
        }
        if set_digest(&commitments) != digest {
            return Err("the host's card set does not match its own digest".into());
        }
        Ok(Arrival {
            commitments,
            cards: Vec::new(),
            met: Vec::new(),
            art_bytes: 0,
            digest,
        })
    }

    /// How many cards the host announced.
    pub fn announced(&self) -> usize {
        self.commitments.len()
    }

    /// Takes one card: its file bounded and read strictly, its salt and picture with it;
    /// the three must meet a commitment not met yet (else the card is named); the picture
    /// bounded and decoded under the picture budget.
    pub fn card(&mut self, text: &str, salt: &str, art: Option<Vec<u8>>) -> Result<&Card, String> {
        if text.len() > MAX_CARD_TEXT {
            return Err(format!(
                "a card file of {} bytes is over the {MAX_CARD_TEXT}-byte bound",
                text.len()
            ));
        }
        let card = crate::cards::parse_card(text, "a card from the host")
            .map_err(|e| format!("a card from the host is not a card file: {e}"))?;
        let named = format!("card `{}` ({})", card.id(), card.name());
        let salt = super::code::unhex_bytes(salt)
            .filter(|s| s.len() == 16)
            .ok_or_else(|| format!("{named} came without its salt"))?;
        if let Some(bytes) = &art {
            if bytes.len() > MAX_ART_FILE {
                return Err(format!(
                    "the art of {named} ({} bytes) is over the {MAX_ART_FILE}-byte bound",
                    bytes.len()
                ));
            }
            if self.art_bytes + bytes.len() > MAX_ART_TOTAL {
                return Err(format!(
                    "the host's pictures pass {} MiB",
                    MAX_ART_TOTAL >> 20
                ));
            }
        }
        let c = commitment(&salt, text, art.as_deref());
        if !self.commitments.contains(&c) {
            return Err(format!(
                "{named} is not one of the cards the host announced (it differs)"
            ));
        }
        if self.met.contains(&c) || self.cards.iter().any(|(k, _)| k.id() == card.id()) {
            return Err(format!("the host sent {named} twice"));
        }
        let art = match art {
            None => None,
            Some(bytes) => {
                let picture = crate::picture::decode(&bytes)
                    .map_err(|e| format!("the art of {named} is not a picture: {e}"))?;
                self.art_bytes += bytes.len();
                Some(Art {
                    extension: picture.extension,
                    bytes,
                })
            }
        };
        self.met.push(c);
        self.cards.push((card, art));
        Ok(&self.cards.last().expect("just pushed").0)
    }

    /// Whether every card announced has arrived.
    pub fn complete(&self) -> bool {
        self.met.len() == self.commitments.len()
    }

    /// The cards received with their art named as files beside them (`<id>.<ext>`), as
    /// [`Arrival::write_to`] writes them and an import reads them.
    pub fn cards_with_art(&self) -> Vec<Card> {
        self.cards
            .iter()
            .map(|(c, a)| {
                let mut c = c.clone();
                if let Some(a) = a {
                    let name = format!("{}.{}", c.id(), a.extension);
                    c.set_art(Some(name));
                }
                c
            })
            .collect()
    }

    /// The pictures received, by card id.
    pub fn pictures(&self) -> usize {
        self.cards.iter().filter(|(_, a)| a.is_some()).count()
    }

    /// Writes every card received as `<id>.toml` and its picture as `<id>.<ext>` in `dir`
    /// (made if missing), each file written atomically. The paths written.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
        std::fs::create_dir_all(dir)?;
        let mut written = Vec::new();
        for (c, (_, art)) in self.cards_with_art().iter().zip(&self.cards) {
            // Ids are checked by the card parser: letters, digits and dashes only.
            let path = dir.join(format!("{}.toml", c.id()));
            crate::safe_io::write_atomic(&path, c.to_toml().as_bytes())?;
            written.push(path);
            if let Some(a) = art {
                let path = dir.join(format!("{}.{}", c.id(), a.extension));
                crate::safe_io::write_atomic(&path, &a.bytes)?;
                written.push(path);
            }
        }
        Ok(written)
    }

    /// Checks that `played` (the cards of the record the host sent at the end) are the cards
    /// received: those that differ, are missing or were never sent, named.
    pub fn check_played(&self, played: &[Card]) -> Result<(), String> {
        let mut wrong = Vec::new();
        if !self.complete() {
            wrong.push(format!(
                "{} of its {} cards never arrived",
                self.announced() - self.met.len(),
                self.announced()
            ));
        }
        for (c, _) in &self.cards {
            match played.iter().find(|p| p.id() == c.id()) {
                None => wrong.push(format!("{} ({}) is not in the record", c.id(), c.name())),
                Some(p) if p.to_toml() != c.to_toml() => {
                    wrong.push(format!("{} ({}) differs", c.id(), c.name()))
                }
                Some(_) => {}
            }
        }
        for p in played {
            if !self.cards.iter().any(|(c, _)| c.id() == p.id()) {
                wrong.push(format!("{} ({}) was never sent", p.id(), p.name()));
            }
        }
        if wrong.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "the match was not played with the card set the host announced: {}",
                wrong.join("; ")
            ))
        }
    }
}

/// The cards of `received` that differ from the card of the same id in `local` (a peer's
/// catalogue): `id (name)` each, or `id (yours: name, the host's: name)` when renamed.
pub fn differing(received: &[Card], local: &dyn CardLookup) -> Vec<String> {
    received
        .iter()
        .filter_map(|c| {
            let mine = local.card(c.id())?;
            if mine.to_toml() == c.to_toml() {
                None
            } else if mine.name() == c.name() {
                Some(format!("{} ({})", c.id(), c.name()))
            } else {
                Some(format!(
                    "{} (yours: {}, the host's: {})",
                    c.id(),
                    mine.name(),
                    c.name()
                ))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards() -> Vec<Card> {
        crate::cards::bundled()
            .into_iter()
            .filter(|(p, _)| p.contains("arcadia"))
            .take(3)
            .map(|(p, t)| crate::cards::parse_card(t, &p).unwrap())
            .collect()
    }

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_pixel(w, h, image::Rgba([200, 30, 30, 255]));
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    /// What the host sends of one card: its file, salt (hexadecimal) and picture.
    type Sent = (String, String, Option<Vec<u8>>);

    /// A set of `cards`, the first with `art` (as the host would make it), and its arrival.
    fn set(cards: &[Card], art: Option<Vec<u8>>) -> (Vec<Sent>, Arrival) {
        let mut sent = Vec::new();
        let mut commitments = Vec::new();
        for (k, c) in cards.iter().enumerate() {
            let salt = [k as u8 + 1; 16];
            let a = if k == 0 { art.clone() } else { None };
            commitments.push(commitment(&salt, &c.to_toml(), a.as_deref()));
            sent.push((c.to_toml(), hex(&salt), a));
        }
        let digest = set_digest(&commitments);
        (sent, Arrival::new(commitments, digest).unwrap())
    }

    #[test]
    fn the_announced_cards_and_art_arrive() {
        let cs = cards();
        let (sent, mut a) = set(&cs, Some(png(4, 3)));
        for (text, salt, art) in &sent {
            assert!(!a.complete());
            a.card(text, salt, art.clone()).unwrap();
        }
        assert!(a.complete());
        let with = a.cards_with_art();
        assert_eq!(with[0].art(), Some(format!("{}.png", cs[0].id()).as_str()));
        let dir = tempfile::tempdir().unwrap();
        let written = a.write_to(dir.path()).unwrap();
        assert_eq!(written.len(), 4);
        let back = std::fs::read_to_string(dir.path().join(format!("{}.toml", cs[1].id())));
        assert_eq!(back.unwrap(), cs[1].to_toml());
        assert!(a.check_played(&cs).is_ok());
    }

    #[test]
    fn a_card_that_differs_is_named() {
        let cs = cards();
        let (sent, mut a) = set(&cs, None);
        let other = sent[1].0.replacen(cs[1].name(), "Spear of Tomorrow", 1);
        let e = a.card(&other, &sent[1].1, None).unwrap_err();
        assert!(e.contains(cs[1].id()) && e.contains("differs"), "{e}");
        // Another salt is another card.
        let e = a.card(&sent[1].0, &sent[2].1, None).unwrap_err();
        assert!(e.contains("not one of the cards"), "{e}");
        assert!(a.card(&sent[1].0, "zz", None).unwrap_err().contains("salt"));
        assert!(
            a.card("id = 3", &sent[0].1, None)
                .unwrap_err()
                .contains("not a card file")
        );
        let long = "#".repeat(MAX_CARD_TEXT + 1);
        assert!(
            a.card(&long, &sent[0].1, None)
                .unwrap_err()
                .contains("bound")
        );
        a.card(&sent[0].0, &sent[0].1, None).unwrap();
        assert!(
            a.card(&sent[0].0, &sent[0].1, None)
                .unwrap_err()
                .contains("twice")
        );
        // A set whose digest is not its commitments' is refused before anything arrives.
        assert!(Arrival::new(vec!["ab".into()], "00".into()).is_err());
        // The record at the end names the card played differently, and a card never sent.
        a.card(&sent[1].0, &sent[1].1, None).unwrap();
        a.card(&sent[2].0, &sent[2].1, None).unwrap();
        let mut changed = cs.clone();
        changed[2] =
            crate::cards::parse_card(&cs[2].to_toml().replacen(cs[2].name(), "Renamed", 1), "x")
                .unwrap();
        let e = a.check_played(&changed).unwrap_err();
        assert!(e.contains(cs[2].id()) && e.contains("differs"), "{e}");
    }

    #[test]
    fn hostile_art_is_refused() {
        let cs = cards();
        let junk = b"<html>not a picture</html>".to_vec();
        let (sent, mut a) = set(&cs, Some(junk.clone()));
        let e = a.card(&sent[0].0, &sent[0].1, Some(junk)).unwrap_err();
        assert!(e.contains("not a picture"), "{e}");
        // Art the commitment does not hold.
        let e = a.card(&sent[1].0, &sent[1].1, Some(png(2, 2))).unwrap_err();
        assert!(e.contains("not one of the cards"), "{e}");
        let big = vec![0u8; MAX_ART_FILE + 1];
        let (sent, mut b) = set(&cs, Some(big.clone()));
        assert!(
            b.card(&sent[0].0, &sent[0].1, Some(big))
                .unwrap_err()
                .contains("bound")
        );
        // A picture past the decoding limits, committed to honestly.
        let bomb = png(crate::picture::MAX_SIDE + 1, 1);
        let (sent, mut c) = set(&cs, Some(bomb.clone()));
        let e = c.card(&sent[0].0, &sent[0].1, Some(bomb)).unwrap_err();
        assert!(e.contains("not a picture"), "{e}");
    }

    #[test]
    fn a_card_is_named_by_whole_words() {
        assert!(names("Lumen plays Rockslide on you", "Rockslide"));
        assert!(!names("Lumen plays Rockslides", "Rockslide"));
        assert!(!names("a rockslide", "Rockslide"));
        assert!(!names("anything", " "));
    }

    #[test]
    fn art_is_gathered_only_from_plain_relative_paths() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ok.png"), png(3, 3)).unwrap();
        std::fs::write(dir.path().join("bad.png"), b"nope").unwrap();
        let mut cs = cards();
        cs[0].set_art(Some("ok.png".into()));
        cs[1].set_art(Some("../ok.png".into()));
        cs[2].set_art(Some("bad.png".into()));
        let (art, notes) = gather_art(&cs, &[dir.path().to_path_buf()]);
        assert_eq!(art.keys().collect::<Vec<_>>(), vec![cs[0].id()]);
        assert_eq!(notes.len(), 2, "{notes:?}");
        // A set commits to every card; its salts differ.
        let (set, _) = card_set(cs, &[dir.path().to_path_buf()]).unwrap();
        assert_eq!(set.commitments().len(), 3);
        assert_ne!(set.cards[0].salt, set.cards[1].salt);
        assert!(set.cards[0].art.is_some());
    }
}
