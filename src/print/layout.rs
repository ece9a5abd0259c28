//! Sheet layout as data: paper sizes and card presets are table entries, and a
//! [`SheetLayout`] (columns, rows, where each card and its back go, crop marks) is computed
//! from paper, card size, bleed and gutter. All lengths in millimetres, origin at the
//! top-left corner of the page.

/// A paper size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paper {
    pub name: &'static str,
    pub width: f32,
    pub height: f32,
}

/// The papers `--paper` accepts.
pub const PAPERS: &[Paper] = &[
    Paper { name: "a4", width: 210.0, height: 297.0 },
    Paper { name: "letter", width: 215.9, height: 279.4 },
    Paper { name: "a3", width: 297.0, height: 420.0 },
    Paper { name: "legal", width: 215.9, height: 355.6 },
];

/// A named card size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CardPreset {
    pub name: &'static str,
    pub width: f32,
    pub height: f32,
}

/// The card sizes `--card` accepts.
pub const CARD_PRESETS: &[CardPreset] = &[
    CardPreset { name: "poker", width: 63.0, height: 88.0 },
    CardPreset { name: "poker-us", width: 63.5, height: 88.9 },
    CardPreset { name: "bridge", width: 57.0, height: 89.0 },
    CardPreset { name: "mini", width: 44.0, height: 63.0 },
    CardPreset { name: "tarot", width: 70.0, height: 120.0 },
];

/// The smallest distance from the page edge to a card's bleed (most printers cannot print
/// closer to the edge).
pub const MARGIN: f32 = 5.0;
/// Crop marks start this far outside the cards' bleed.
pub const MARK_GAP: f32 = 1.0;
/// Longest crop mark.
pub const MARK_LEN: f32 = 4.0;

pub fn paper(name: &str) -> Option<Paper> {
    PAPERS.iter().copied().find(|p| p.name.eq_ignore_ascii_case(name))
}

pub fn card_preset(name: &str) -> Option<CardPreset> {
    CARD_PRESETS.iter().copied().find(|p| p.name.eq_ignore_ascii_case(name))
}

/// Parses `WxH` (millimetres, e.g. `63x88` or `63.5x88.9`).
pub fn parse_wxh(s: &str) -> Option<(f32, f32)> {
    let (w, h) = s.trim().split_once(['x', 'X'])?;
    let w: f32 = w.trim().parse().ok()?;
    let h: f32 = h.trim().parse().ok()?;
    (w.is_finite() && h.is_finite()).then_some((w, h))
}

/// Everything the layout depends on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SheetSpec {
    pub paper: Paper,
    pub card_w: f32,
    pub card_h: f32,
    pub bleed: f32,
    pub gutter: f32,
}

/// A rectangle on the page (mm, top-left origin).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn right(&self) -> f32 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
}

/// A crop mark: a line segment on the page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mark {
    pub from: (f32, f32),
    pub to: (f32, f32),
}

/// Why a layout cannot be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LayoutError {
    #[error("card size {w} x {h} mm is not a positive size")]
    BadCardSize { w: f32, h: f32 },
    #[error("bleed and gutter must be 0 mm or more (bleed {bleed}, gutter {gutter})")]
    Negative { bleed: f32, gutter: f32 },
    #[error(
        "a {w} x {h} mm card (with {bleed} mm bleed) does not fit on {paper} paper ({pw} x {ph} mm, {margin} mm margins); choose a smaller card, less bleed or larger paper"
    )]
    DoesNotFit { w: f32, h: f32, bleed: f32, paper: &'static str, pw: f32, ph: f32, margin: f32 },
}

/// Where cards go on a sheet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SheetLayout {
    pub spec: SheetSpec,
    pub cols: usize,
    pub rows: usize,
    /// Top-left corner of the first card's bleed box.
    pub origin: (f32, f32),
}

impl SheetLayout {
    /// As many cards as fit inside the margins, the block centred on the page.
    pub fn new(spec: SheetSpec) -> Result<SheetLayout, LayoutError> {
        let ok = |v: f32| v.is_finite() && v > 0.0;
        if !ok(spec.card_w) || !ok(spec.card_h) {
            return Err(LayoutError::BadCardSize { w: spec.card_w, h: spec.card_h });
        }
        let fine = |v: f32| v.is_finite() && v >= 0.0;
        if !fine(spec.bleed) || !fine(spec.gutter) {
            return Err(LayoutError::Negative { bleed: spec.bleed, gutter: spec.gutter });
        }
        let (cw, ch) = (spec.card_w + 2.0 * spec.bleed, spec.card_h + 2.0 * spec.bleed);
        let fit = |avail: f32, cell: f32| {
            let n = ((avail + spec.gutter + 1e-4) / (cell + spec.gutter)).floor();
            if n.is_finite() && n > 0.0 { n as usize } else { 0 }
        };
        let cols = fit(spec.paper.width - 2.0 * MARGIN, cw);
        let rows = fit(spec.paper.height - 2.0 * MARGIN, ch);
        if cols == 0 || rows == 0 {
            return Err(LayoutError::DoesNotFit {
                w: spec.card_w,
                h: spec.card_h,
                bleed: spec.bleed,
                paper: spec.paper.name,
                pw: spec.paper.width,
                ph: spec.paper.height,
                margin: MARGIN,
            });
        }
        let block_w = cols as f32 * cw + (cols - 1) as f32 * spec.gutter;
        let block_h = rows as f32 * ch + (rows - 1) as f32 * spec.gutter;
        let origin = ((spec.paper.width - block_w) / 2.0, (spec.paper.height - block_h) / 2.0);
        Ok(SheetLayout { spec, cols, rows, origin })
    }

    pub fn per_page(&self) -> usize {
        self.cols * self.rows
    }

    /// Pages needed for `n` cards.
    pub fn pages_for(&self, n: usize) -> usize {
        n.div_ceil(self.per_page())
    }

    fn cell(&self, col: usize, row: usize) -> Rect {
        let s = &self.spec;
        let (cw, ch) = (s.card_w + 2.0 * s.bleed, s.card_h + 2.0 * s.bleed);
        Rect {
            x: self.origin.0 + col as f32 * (cw + s.gutter),
            y: self.origin.1 + row as f32 * (ch + s.gutter),
            w: cw,
            h: ch,
        }
    }

    fn trim_of(&self, cell: Rect) -> Rect {
        let b = self.spec.bleed;
        Rect { x: cell.x + b, y: cell.y + b, w: self.spec.card_w, h: self.spec.card_h }
    }

    /// Trim box of the `k`-th card of a fronts page (row by row, left to right).
    pub fn front(&self, k: usize) -> Rect {
        let k = k % self.per_page();
        self.trim_of(self.cell(k % self.cols, k / self.cols))
    }

    /// Bleed box (the image's extent) of the `k`-th card of a fronts page.
    pub fn front_bleed(&self, k: usize) -> Rect {
        let k = k % self.per_page();
        self.cell(k % self.cols, k / self.cols)
    }

    /// Trim box of the back of card `k` on the backs page: mirrored left to right so it
    /// lands behind its front when the sheet is flipped on its long edge (portrait paper),
    /// then moved by `offset` (x, y in mm) to correct a printer's misalignment.
    pub fn back(&self, k: usize, offset: (f32, f32)) -> Rect {
        let f = self.front(k);
        Rect { x: self.spec.paper.width - f.x - f.w + offset.0, y: f.y + offset.1, w: f.w, h: f.h }
    }

    /// Bleed box of the back of card `k`.
    pub fn back_bleed(&self, k: usize, offset: (f32, f32)) -> Rect {
        let b = self.spec.bleed;
        let t = self.back(k, offset);
        Rect { x: t.x - b, y: t.y - b, w: t.w + 2.0 * b, h: t.h + 2.0 * b }
    }

    /// Crop marks for a page holding `n` cards: short lines extending every trim edge into
    /// the margin around the block of cards, never over a card.
    pub fn crop_marks(&self, n: usize) -> Vec<Mark> {
        let n = n.min(self.per_page());
        if n == 0 {
            return Vec::new();
        }
        let used_rows = n.div_ceil(self.cols);
        let used_cols = n.min(self.cols);
        let first = self.cell(0, 0);
        let last = self.cell(used_cols - 1, used_rows - 1);
        let (top, bottom) = (first.y, last.bottom());
        let (left, right) = (first.x, last.right());
        let w = self.spec.paper.width;
        let h = self.spec.paper.height;
        let mut marks = Vec::new();
        let len_up = (top - MARK_GAP).min(MARK_LEN);
        let len_down = (h - bottom - MARK_GAP).min(MARK_LEN);
        let len_left = (left - MARK_GAP).min(MARK_LEN);
        let len_right = (w - right - MARK_GAP).min(MARK_LEN);
        let mut xs = Vec::new();
        for c in 0..used_cols {
            let t = self.trim_of(self.cell(c, 0));
            xs.push(t.x);
            xs.push(t.right());
        }
        let mut ys = Vec::new();
        for r in 0..used_rows {
            let t = self.trim_of(self.cell(0, r));
            ys.push(t.y);
            ys.push(t.bottom());
        }
        dedup(&mut xs);
        dedup(&mut ys);
        for &x in &xs {
            if len_up > 0.5 {
                marks.push(Mark { from: (x, top - MARK_GAP - len_up), to: (x, top - MARK_GAP) });
            }
            if len_down > 0.5 {
                marks.push(Mark { from: (x, bottom + MARK_GAP), to: (x, bottom + MARK_GAP + len_down) });
            }
        }
        for &y in &ys {
            if len_left > 0.5 {
                marks.push(Mark { from: (left - MARK_GAP - len_left, y), to: (left - MARK_GAP, y) });
            }
            if len_right > 0.5 {
                marks.push(Mark { from: (right + MARK_GAP, y), to: (right + MARK_GAP + len_right, y) });
            }
        }
        marks
    }
}

fn dedup(v: &mut Vec<f32>) {
    v.sort_by(f32::total_cmp);
    v.dedup_by(|a, b| (*a - *b).abs() < 0.01);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(paper_name: &str, card: &str, bleed: f32, gutter: f32) -> SheetSpec {
        let c = card_preset(card).unwrap();
        SheetSpec { paper: paper(paper_name).unwrap(), card_w: c.width, card_h: c.height, bleed, gutter }
    }

    #[test]
    fn nine_poker_cards_on_a4_and_letter_centred() {
        for p in ["a4", "letter"] {
            let l = SheetLayout::new(spec(p, "poker", 0.0, 0.0)).unwrap();
            assert_eq!((l.cols, l.rows), (3, 3), "{p}");
            let paper = paper(p).unwrap();
            let first = l.front(0);
            let last = l.front(8);
            assert!((first.x - (paper.width - last.right())).abs() < 1e-3);
            assert!((first.y - (paper.height - last.bottom())).abs() < 1e-3);
        }
    }

    #[test]
    fn a4_poker_positions_to_the_tenth_of_a_millimetre() {
        let l = SheetLayout::new(spec("a4", "poker", 0.0, 0.0)).unwrap();
        let f = l.front(4);
        assert!((f.x - 73.5).abs() < 0.05 && (f.y - 104.5).abs() < 0.05, "{f:?}");
    }

    #[test]
    fn backs_mirror_fronts_left_to_right() {
        let l = SheetLayout::new(spec("a4", "poker", 0.0, 2.0)).unwrap();
        assert_eq!(l.back(0, (0.0, 0.0)), l.front(2));
        assert_eq!(l.back(4, (0.0, 0.0)), l.front(4));
        let b = l.back(3, (1.5, -0.5));
        let f = l.front(5);
        assert!((b.x - f.x - 1.5).abs() < 1e-4 && (b.y - f.y + 0.5).abs() < 1e-4);
    }

    #[test]
    fn bleed_and_gutter_reduce_what_fits() {
        let l = SheetLayout::new(spec("a4", "poker", 3.0, 0.0)).unwrap();
        assert_eq!((l.cols, l.rows), (2, 3));
        let l = SheetLayout::new(spec("a4", "mini", 0.0, 0.0)).unwrap();
        assert_eq!((l.cols, l.rows), (4, 4));
    }

    #[test]
    fn a_card_larger_than_the_paper_does_not_fit() {
        let mut s = spec("a4", "poker", 0.0, 0.0);
        s.card_w = 250.0;
        assert!(matches!(SheetLayout::new(s), Err(LayoutError::DoesNotFit { .. })));
    }

    #[test]
    fn crop_marks_lie_outside_every_card() {
        let l = SheetLayout::new(spec("letter", "poker", 1.0, 3.0)).unwrap();
        let marks = l.crop_marks(7);
        assert!(!marks.is_empty());
        for m in &marks {
            for k in 0..7 {
                let c = l.front_bleed(k);
                let inside = |p: (f32, f32)| p.0 > c.x && p.0 < c.right() && p.1 > c.y && p.1 < c.bottom();
                let mid = ((m.from.0 + m.to.0) / 2.0, (m.from.1 + m.to.1) / 2.0);
                assert!(!inside(m.from) && !inside(m.to) && !inside(mid), "{m:?} over card {k}");
            }
        }
    }

    #[test]
    fn wxh_parses() {
        assert_eq!(parse_wxh("63x88"), Some((63.0, 88.0)));
        assert_eq!(parse_wxh("63.5X88.9"), Some((63.5, 88.9)));
        assert_eq!(parse_wxh("63"), None);
    }
}
