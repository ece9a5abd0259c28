//! The cards travel with the match: a friend who lacks the designer's unreleased cards still
//! plays them. The host names the match's card set in its `Welcome` (each card's id, name and
//! SHA-256 digest, and the digest of the whole set), then sends every card file and the art
//! of the cards that have some; a peer checks each as it arrives, as hostile as any file:
//! sizes bounded, every card read by the strict card parser and its digest compared with the
//! one announced, every picture decoded under `picture`'s budget. What arrives is kept in
//! memory only: the peer's catalogue is untouched unless the person asks (`join --import`, or
//! `--cards-to DIR` to have the files written to a folder they name). At the end the peer
//! checks that the record the host sends was played with the set it announced; a card that
//! differs is named, never played on quietly.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::code::hex;
use super::tls::sha256;
use crate::cards::{Card, CardLookup};

/// The most cards a match's set holds.
pub const MAX_CARDS: usize = 1024;
/// The longest card file sent (bytes).
pub const MAX_CARD_TEXT: usize = 64 << 10;
/// The most card texts one `Cards` message carries (bytes), so a frame stays well bounded.
const CARDS_CHUNK: usize = 1 << 20;
/// The most pictures sent with a match.
pub const MAX_ART: usize = 64;
/// The largest picture sent (bytes of its file).
pub const MAX_ART_FILE: usize = 4 << 20;
/// The most bytes of pictures sent with a match, all together.
pub const MAX_ART_TOTAL: usize = 32 << 20;

/// One card of the match's set as the `Welcome` names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardDigest {
    pub id: String,
    pub name: String,
    /// SHA-256 of the card file as this program writes it, in hexadecimal.
    pub sha256: String,
}

/// A card's picture as the `Welcome` names it: the card's id, and the file's SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArtDigest {
    pub id: String,
    pub sha256: String,
}

/// A card's picture file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Art {
    /// The card's id.
    pub id: String,
    /// `png` or `jpg`, as its bytes say.
    pub extension: &'static str,
    pub bytes: Vec<u8>,
}

/// A match's card set as the host sends it.
#[derive(Debug, Clone, Default)]
pub struct CardSet {
    /// Every card with its digest, in id order.
    pub cards: Vec<(Card, CardDigest)>,
    /// The digest of the whole set ([`set_digest`]).
    pub digest: String,
    /// The pictures found for them.
    pub art: Vec<Art>,
}

/// A card's digest: SHA-256 of its file as [`Card::to_toml`] writes it.
pub fn card_digest(card: &Card) -> CardDigest {
    CardDigest {
        id: card.id().to_string(),
        name: card.name().to_string(),
        sha256: hex(&sha256(card.to_toml().as_bytes())),
    }
}

/// The digest of a set of cards: SHA-256 of each card's id and digest, in id order.
pub fn set_digest(digests: &[CardDigest]) -> String {
    let mut sorted: Vec<&CardDigest> = digests.iter().collect();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    let mut text = String::new();
    for d in sorted {
        text.push_str(&d.id);
        text.push('\n');
        text.push_str(&d.sha256);
        text.push('\n');
    }
    hex(&sha256(text.as_bytes()))
}

/// The cards a match record's options keep (`options.cards`, any game's), each read by the
/// strict card parser; none for a game that starts from its rules alone.
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

/// The set of `cards` with the pictures found for them ([`gather_art`]), and a note for
/// each picture not sent.
pub fn card_set(cards: Vec<Card>, art_dirs: &[PathBuf]) -> (CardSet, Vec<String>) {
    let (art, skipped) = gather_art(&cards, art_dirs);
    let cards: Vec<(Card, CardDigest)> = cards
        .into_iter()
        .map(|c| {
            let d = card_digest(&c);
            (c, d)
        })
        .collect();
    let digests: Vec<CardDigest> = cards.iter().map(|(_, d)| d.clone()).collect();
    (
        CardSet {
            digest: set_digest(&digests),
            cards,
            art,
        },
        skipped,
    )
}

/// The pictures of `cards`: each card's `art` (a relative path with no `..`, looked up in
/// `dirs` in order) read bounded and decoded under the picture budget, at most [`MAX_ART`]
/// of them and [`MAX_ART_TOTAL`] bytes; a note says why each other one is not sent.
pub fn gather_art(cards: &[Card], dirs: &[PathBuf]) -> (Vec<Art>, Vec<String>) {
    let mut art = Vec::new();
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
                art.push(Art {
                    id: card.id().to_string(),
                    extension: p.extension,
                    bytes,
                });
            }
            Err(e) => notes.push(format!("the art of {} is not sent: {e}", card.id())),
        }
    }
    (art, notes)
}

/// The card texts of a set as `Cards` messages' contents, each at most about 1 MiB.
pub fn card_chunks(set: &CardSet) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut bytes = 0;
    for (c, _) in &set.cards {
        let text = c.to_toml();
        if out.is_empty() || bytes + text.len() > CARDS_CHUNK {
            out.push(Vec::new());
            bytes = 0;
        }
        bytes += text.len();
        if let Some(last) = out.last_mut() {
            last.push(text);
        }
    }
    out
}

/// The art digests a `Welcome` names.
pub fn art_digests(set: &CardSet) -> Vec<ArtDigest> {
    set.art
        .iter()
        .map(|a| ArtDigest {
            id: a.id.clone(),
            sha256: hex(&sha256(&a.bytes)),
        })
        .collect()
}

/// The cards and pictures a peer receives, each checked as it arrives against what the
/// host's `Welcome` announced.
#[derive(Debug, Clone)]
pub struct Arrival {
    cards_expected: Vec<CardDigest>,
    art_expected: Vec<ArtDigest>,
    /// The cards received, in the order they came.
    pub cards: Vec<Card>,
    /// The pictures received.
    pub art: Vec<Art>,
    /// The set's digest the host announced (checked against its cards' digests).
    pub digest: String,
}

impl Arrival {
    /// What is to arrive: the `Welcome`'s card digests, set digest and art digests, each
    /// bounded and consistent (the set's digest is its cards').
    pub fn new(
        cards: Vec<CardDigest>,
        digest: String,
        art: Vec<ArtDigest>,
    ) -> Result<Arrival, String> {
        if cards.len() > MAX_CARDS {
            return Err(format!(
                "the host announced {} cards; at most {MAX_CARDS} are taken",
                cards.len()
            ));
        }
        if art.len() > MAX_ART {
            return Err(format!(
                "the host announced {} pictures; at most {MAX_ART} are taken",
                art.len()
            ));
        }
        if set_digest(&cards) != digest {
            return Err("the host's card set does not match its own digest".into());
        }
        for (k, a) in art.iter().enumerate() {
            if !cards.iter().any(|c| c.id == a.id) || art[..k].iter().any(|b| b.id == a.id) {
                return Err(format!(
                    "the host announced art for `{}`, not one card of the set",
                    crate::safe_io::excerpt(&a.id, 64)
                ));
            }
        }
        Ok(Arrival {
            cards_expected: cards,
            art_expected: art,
            cards: Vec::new(),
            art: Vec::new(),
            digest,
        })
    }

    /// Takes one card file: bounded, read strictly, one of the set and not yet received, its
    /// digest the one announced (else the card that differs is named).
    pub fn card(&mut self, text: &str) -> Result<&Card, String> {
        if text.len() > MAX_CARD_TEXT {
            return Err(format!(
                "a card file of {} bytes is over the {MAX_CARD_TEXT}-byte bound",
                text.len()
            ));
        }
        let card = crate::cards::parse_card(text, "a card from the host")
            .map_err(|e| format!("a card from the host is not a card file: {e}"))?;
        let id = card.id().to_string();
        let Some(want) = self.cards_expected.iter().find(|d| d.id == id) else {
            return Err(format!(
                "the host sent card `{id}`, which is not in the set it announced"
            ));
        };
        if self.cards.iter().any(|c| c.id() == id) {
            return Err(format!("the host sent card `{id}` twice"));
        }
        let got = card_digest(&card);
        if got.sha256 != want.sha256 {
            return Err(format!(
                "card `{id}` ({}) differs from the one the host announced",
                want.name
            ));
        }
        self.cards.push(card);
        Ok(self.cards.last().expect("just pushed"))
    }

    /// Takes one picture: announced and not yet received, at most [`MAX_ART_FILE`] bytes
    /// (and [`MAX_ART_TOTAL`] all together), its digest the one announced, and a PNG or
    /// JPEG that decodes under the picture budget.
    pub fn art(&mut self, id: &str, bytes: Vec<u8>) -> Result<(), String> {
        let shown = crate::safe_io::excerpt(id, 64);
        let Some(want) = self.art_expected.iter().find(|a| a.id == id) else {
            return Err(format!(
                "the host sent art for `{shown}`, which it did not announce"
            ));
        };
        if self.art.iter().any(|a| a.id == id) {
            return Err(format!("the host sent the art of `{shown}` twice"));
        }
        if bytes.len() > MAX_ART_FILE {
            return Err(format!(
                "the art of `{shown}` ({} bytes) is over the {MAX_ART_FILE}-byte bound",
                bytes.len()
            ));
        }
        let total: usize = self.art.iter().map(|a| a.bytes.len()).sum();
        if total + bytes.len() > MAX_ART_TOTAL {
            return Err(format!(
                "the host's pictures pass {} MiB",
                MAX_ART_TOTAL >> 20
            ));
        }
        if hex(&sha256(&bytes)) != want.sha256 {
            return Err(format!(
                "the art of `{shown}` differs from the one the host announced"
            ));
        }
        let picture = crate::picture::decode(&bytes)
            .map_err(|e| format!("the art of `{shown}` is not a picture: {e}"))?;
        self.art.push(Art {
            id: id.to_string(),
            extension: picture.extension,
            bytes,
        });
        Ok(())
    }

    /// The cards the host announced.
    pub fn announced(&self) -> &[CardDigest] {
        &self.cards_expected
    }

    /// Whether every card and picture announced has arrived.
    pub fn complete(&self) -> bool {
        self.cards.len() == self.cards_expected.len() && self.art.len() == self.art_expected.len()
    }

    /// The cards received with their art named as files beside them (`<id>.<ext>`), as
    /// [`Arrival::write_to`] writes them and an import reads them.
    pub fn cards_with_art(&self) -> Vec<Card> {
        self.cards
            .iter()
            .map(|c| {
                let mut c = c.clone();
                if let Some(a) = self.art.iter().find(|a| a.id == c.id()) {
                    c.set_art(Some(format!("{}.{}", a.id, a.extension)));
                }
                c
            })
            .collect()
    }

    /// Writes every card received as `<id>.toml` and its picture as `<id>.<ext>` in `dir`
    /// (made if missing), each file written atomically. The paths written.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
        std::fs::create_dir_all(dir)?;
        let mut written = Vec::new();
        for c in self.cards_with_art() {
            // Ids are checked by the card parser: letters, digits and dashes only.
            let path = dir.join(format!("{}.toml", c.id()));
            crate::safe_io::write_atomic(&path, c.to_toml().as_bytes())?;
            written.push(path);
        }
        for a in &self.art {
            let path = dir.join(format!("{}.{}", a.id, a.extension));
            crate::safe_io::write_atomic(&path, &a.bytes)?;
            written.push(path);
        }
        Ok(written)
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

/// Checks that `played` (the cards of the record the host sent at the end) is the set the
/// host announced: the cards that differ, are missing or were added, named.
pub fn check_played(announced: &[CardDigest], played: &[Card]) -> Result<(), String> {
    let mut wrong = Vec::new();
    for d in announced {
        match played.iter().find(|c| c.id() == d.id) {
            None => wrong.push(format!("{} ({}) is missing", d.id, d.name)),
            Some(c) if card_digest(c).sha256 != d.sha256 => {
                wrong.push(format!("{} ({}) differs", d.id, d.name))
            }
            Some(_) => {}
        }
    }
    for c in played {
        if !announced.iter().any(|d| d.id == c.id()) {
            wrong.push(format!("{} ({}) was not announced", c.id(), c.name()));
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

    fn arrival(cards: &[Card], art: &[(&str, &[u8])]) -> Arrival {
        let d: Vec<CardDigest> = cards.iter().map(card_digest).collect();
        let a = art
            .iter()
            .map(|(id, b)| ArtDigest {
                id: id.to_string(),
                sha256: hex(&sha256(b)),
            })
            .collect();
        Arrival::new(d.clone(), set_digest(&d), a).unwrap()
    }

    #[test]
    fn the_announced_cards_and_art_arrive() {
        let cs = cards();
        let pic = png(4, 3);
        let mut a = arrival(&cs, &[(cs[0].id(), &pic)]);
        for c in &cs {
            a.card(&c.to_toml()).unwrap();
        }
        assert!(!a.complete());
        a.art(cs[0].id(), pic.clone()).unwrap();
        assert!(a.complete());
        let with = a.cards_with_art();
        assert_eq!(with[0].art(), Some(format!("{}.png", cs[0].id()).as_str()));
        let dir = tempfile::tempdir().unwrap();
        let written = a.write_to(dir.path()).unwrap();
        assert_eq!(written.len(), 4);
        let back = std::fs::read_to_string(dir.path().join(format!("{}.toml", cs[1].id())));
        assert_eq!(back.unwrap(), cs[1].to_toml());
        assert!(check_played(&cs.iter().map(card_digest).collect::<Vec<_>>(), &cs).is_ok());
    }

    #[test]
    fn a_card_that_differs_is_named() {
        let cs = cards();
        let mut a = arrival(&cs, &[]);
        let mut other = cs[1].to_toml();
        other = other.replacen(cs[1].name(), "Spear of Tomorrow", 1);
        let e = a.card(&other).unwrap_err();
        assert!(e.contains(cs[1].id()) && e.contains("differs"), "{e}");
        assert!(a.card("id = 3").unwrap_err().contains("not a card file"));
        assert!(
            a.card(&"#".repeat(MAX_CARD_TEXT + 1))
                .unwrap_err()
                .contains("bound")
        );
        a.card(&cs[0].to_toml()).unwrap();
        assert!(a.card(&cs[0].to_toml()).unwrap_err().contains("twice"));
        // A set whose digest is not its cards' is refused before anything arrives.
        let d: Vec<CardDigest> = cs.iter().map(card_digest).collect();
        assert!(Arrival::new(d.clone(), "00".into(), vec![]).is_err());
        // The record at the end names the card played differently.
        let mut changed = cs.clone();
        changed[2] =
            crate::cards::parse_card(&cs[2].to_toml().replacen(cs[2].name(), "Renamed", 1), "x")
                .unwrap();
        let e = check_played(&d, &changed).unwrap_err();
        assert!(e.contains(cs[2].id()) && e.contains("differs"), "{e}");
    }

    #[test]
    fn hostile_art_is_refused() {
        let cs = cards();
        let junk = b"<html>not a picture</html>".to_vec();
        let mut a = arrival(&cs, &[(cs[0].id(), &junk)]);
        assert!(
            a.art(cs[0].id(), junk.clone())
                .unwrap_err()
                .contains("not a picture")
        );
        assert!(
            a.art(cs[1].id(), png(2, 2))
                .unwrap_err()
                .contains("did not announce")
        );
        // Bytes other than those announced.
        assert!(
            a.art(cs[0].id(), png(2, 2))
                .unwrap_err()
                .contains("differs")
        );
        let big = vec![0u8; MAX_ART_FILE + 1];
        let mut b = arrival(&cs, &[(cs[0].id(), &big)]);
        assert!(
            b.art(cs[0].id(), big.clone())
                .unwrap_err()
                .contains("bound")
        );
        // A picture whose size is past the decoding limits, announced honestly.
        let bomb = png(crate::picture::MAX_SIDE + 1, 1);
        let mut c = arrival(&cs, &[(cs[0].id(), &bomb)]);
        assert!(
            c.art(cs[0].id(), bomb.clone())
                .unwrap_err()
                .contains("not a picture")
        );
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
        assert_eq!(art.len(), 1);
        assert_eq!(art[0].id, cs[0].id());
        assert_eq!(notes.len(), 2, "{notes:?}");
    }
}
