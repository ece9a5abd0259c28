//! Text that fits its box: words wrap, the size shrinks until every line fits, and at the
//! smallest size the last visible line ends in an ellipsis. Nothing is drawn outside the box.
//!
//! Layout is measured in card units with unhinted outlines, so it is the same at every
//! resolution: the preview and the 300 dpi print break lines at the same words.

use ab_glyph::{Font, ScaleFont};

use super::canvas::{Canvas, R, Rgb};
use super::fonts::{self, Weight};

/// A run of text in one weight and colour.
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    pub text: String,
    pub weight: Weight,
    pub color: Rgb,
}

impl Span {
    pub fn new(text: impl Into<String>, weight: Weight, color: Rgb) -> Span {
        Span {
            text: text.into(),
            weight,
            color,
        }
    }
}

/// Horizontal alignment of lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// How a text box is filled.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Largest text height in card units.
    pub max: f32,
    /// Smallest; below it text is cut with an ellipsis.
    pub min: f32,
    pub align: Align,
    /// Centre the block vertically in its box.
    pub middle: bool,
}

impl Style {
    pub fn new(max: f32) -> Style {
        Style {
            max,
            min: (max * 0.45).min(max),
            align: Align::Left,
            middle: false,
        }
    }
    pub fn center(mut self) -> Style {
        self.align = Align::Center;
        self
    }
    pub fn middle(mut self) -> Style {
        self.middle = true;
        self
    }
    pub fn min(mut self, min: f32) -> Style {
        self.min = min.min(self.max);
        self
    }
}

const LINE: f32 = 1.12;
const PARA_GAP: f32 = 0.3;

/// One placed word (or piece of a word).
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub text: String,
    pub weight: Weight,
    pub color: Rgb,
    pub x: f32,
    pub baseline: f32,
}

/// A laid-out block: the size chosen and every word's place.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    pub size: f32,
    pub words: Vec<Placed>,
    /// True when the text did not fit even at the smallest size and was cut.
    pub truncated: bool,
    /// Height of the laid-out block.
    pub height: f32,
    /// The largest size the style allowed (`size` below it: the text was shrunk to fit).
    pub max: f32,
}

/// Width of `s` at text height `size`.
pub fn width(s: &str, weight: Weight, size: f32) -> f32 {
    let mut w = 0.0;
    let mut prev = None;
    for ch in s.chars() {
        let g = fonts::glyph(weight, ch);
        if let Some(p) = prev {
            w += fonts::kern(weight, p, g.id);
        }
        w += g.advance;
        prev = Some(g.id);
    }
    w * size
}

fn space_width() -> f32 {
    static SPACE: std::sync::OnceLock<f32> = std::sync::OnceLock::new();
    *SPACE.get_or_init(|| width(" ", Weight::Regular, 1.0))
}

fn ascent(size: f32) -> f32 {
    fonts::font(Weight::Regular).as_scaled(size).ascent()
}

#[derive(Debug, Clone)]
struct Token {
    text: String,
    /// Width at text height 1 (widths scale linearly: outlines are unhinted).
    unit_w: f32,
    weight: Weight,
    color: Rgb,
    space_before: bool,
    para_start: bool,
}

fn tokenize(paras: &[Vec<Span>]) -> Vec<Token> {
    let mut out = Vec::new();
    for p in paras {
        let mut first_of_para = true;
        let mut pending_space = false;
        for span in p {
            for (li, line) in span.text.split('\n').enumerate() {
                if li > 0 {
                    first_of_para = true;
                    pending_space = false;
                }
                let mut chars = line.char_indices().peekable();
                let mut start = None;
                while let Some((i, ch)) = chars.next() {
                    if ch.is_whitespace() {
                        if let Some(s) = start.take() {
                            push(
                                &mut out,
                                &line[s..i],
                                span,
                                &mut pending_space,
                                &mut first_of_para,
                            );
                        }
                        pending_space = true;
                    } else if start.is_none() {
                        start = Some(i);
                    }
                    if chars.peek().is_none()
                        && let Some(s) = start.take()
                    {
                        push(
                            &mut out,
                            &line[s..],
                            span,
                            &mut pending_space,
                            &mut first_of_para,
                        );
                    }
                }
            }
        }
    }
    out
}

fn push(out: &mut Vec<Token>, s: &str, span: &Span, space: &mut bool, first: &mut bool) {
    out.push(Token {
        text: s.to_string(),
        unit_w: width(s, span.weight, 1.0),
        weight: span.weight,
        color: span.color,
        space_before: *space && !*first,
        para_start: *first,
    });
    *space = false;
    *first = false;
}

struct Line {
    words: Vec<(Token, f32, f32)>, // token, x, width
    width: f32,
    para_start: bool,
}

fn break_lines(tokens: &[Token], size: f32, max_w: f32) -> (Vec<Line>, bool) {
    let mut split = false;
    let space = space_width() * size;
    let mut lines: Vec<Line> = Vec::new();
    for t in tokens {
        let w = t.unit_w * size;
        let new_line = |para_start| Line {
            words: Vec::new(),
            width: 0.0,
            para_start,
        };
        if t.para_start || lines.is_empty() {
            lines.push(new_line(true));
        }
        let line = lines.last_mut().expect("a line exists");
        let gap = if t.space_before && !line.words.is_empty() {
            space
        } else {
            0.0
        };
        let fits_here = if line.words.is_empty() {
            w <= max_w
        } else {
            line.width + gap + w <= max_w
        };
        if fits_here {
            let x = line.width + gap;
            line.width = x + w;
            line.words.push((t.clone(), x, w));
            continue;
        }
        // Does not fit on this line: start a new one (breaking an over-long word by characters).
        if !line.words.is_empty() {
            lines.push(new_line(false));
        }
        if w <= max_w {
            let line = lines.last_mut().expect("a line exists");
            line.width = w;
            line.words.push((t.clone(), 0.0, w));
            continue;
        }
        split = true;
        let mut rest = t.text.as_str();
        while !rest.is_empty() {
            let line = lines.last_mut().expect("a line exists");
            let mut cut = rest.len();
            if width(rest, t.weight, size) > max_w {
                cut = 0;
                for (i, ch) in rest.char_indices() {
                    let end = i + ch.len_utf8();
                    if width(&rest[..end], t.weight, size) > max_w {
                        break;
                    }
                    cut = end;
                }
                if cut == 0 {
                    cut = rest.chars().next().map_or(rest.len(), char::len_utf8);
                }
            }
            let piece = &rest[..cut];
            let pw = width(piece, t.weight, size);
            line.words.push((
                Token {
                    text: piece.to_string(),
                    unit_w: pw / size,
                    ..t.clone()
                },
                0.0,
                pw,
            ));
            line.width = pw;
            rest = &rest[cut..];
            if !rest.is_empty() {
                lines.push(new_line(false));
            }
        }
    }
    (lines, split)
}

fn block_height(lines: &[Line], size: f32) -> f32 {
    if lines.is_empty() {
        return 0.0;
    }
    let paras = lines.iter().skip(1).filter(|l| l.para_start).count() as f32;
    size + (lines.len() - 1) as f32 * size * LINE + paras * size * PARA_GAP
}

/// Lays out paragraphs of spans in `r`, as large as `style.max` allows and no smaller than
/// `style.min`.
pub fn fit(paras: &[Vec<Span>], r: R, style: Style) -> Fitted {
    let tokens = tokenize(paras);
    let fits = |size: f32| {
        let (lines, split) = break_lines(&tokens, size, r.w);
        // Shrinking is preferred to breaking a word; only the smallest size may break one.
        let ok = !split && block_height(&lines, size) <= r.h;
        (ok, lines)
    };
    let (mut lo, mut hi) = (style.min.max(0.1), style.max.max(0.1));
    let (ok_max, lines_max) = fits(hi);
    let (size, mut lines) = if ok_max {
        (hi, lines_max)
    } else {
        let (ok_min, lines_min) = fits(lo);
        if !ok_min {
            (lo, lines_min)
        } else {
            let mut best = lines_min;
            for _ in 0..10 {
                let mid = (lo + hi) / 2.0;
                let (ok, l) = fits(mid);
                if ok {
                    lo = mid;
                    best = l;
                } else {
                    hi = mid;
                }
            }
            (lo, best)
        }
    };
    let mut truncated = false;
    while !lines.is_empty() && block_height(&lines, size) > r.h {
        lines.pop();
        truncated = true;
    }
    if truncated && let Some(last) = lines.last_mut() {
        ellipsize(last, size, r.w);
    }
    place(lines, size, r, style, truncated)
}

fn ellipsize(line: &mut Line, size: f32, max_w: f32) {
    let ell = "…";
    loop {
        let Some((tok, x, _)) = line.words.last() else {
            return;
        };
        let ew = width(ell, tok.weight, size);
        let mut text = tok.text.clone();
        let x = *x;
        while !text.is_empty() && x + width(&text, tok.weight, size) + ew > max_w {
            text.pop();
        }
        if text.is_empty() && line.words.len() > 1 {
            line.words.pop();
            continue;
        }
        let last = line.words.last_mut().expect("checked above");
        last.0.text = format!("{text}{ell}");
        last.2 = width(&last.0.text, last.0.weight, size);
        line.width = x + last.2;
        return;
    }
}

fn place(lines: Vec<Line>, size: f32, r: R, style: Style, truncated: bool) -> Fitted {
    let height = block_height(&lines, size);
    let top = if style.middle {
        r.y + (r.h - height).max(0.0) / 2.0
    } else {
        r.y
    };
    let asc = ascent(size);
    let mut y = top + asc;
    let mut words = Vec::new();
    for (i, line) in lines.into_iter().enumerate() {
        if i > 0 {
            y += size * LINE
                + if line.para_start {
                    size * PARA_GAP
                } else {
                    0.0
                };
        }
        let dx = match style.align {
            Align::Left => 0.0,
            Align::Center => (r.w - line.width) / 2.0,
            Align::Right => r.w - line.width,
        };
        for (t, x, _) in line.words {
            words.push(Placed {
                text: t.text,
                weight: t.weight,
                color: t.color,
                x: r.x + dx + x,
                baseline: y,
            });
        }
    }
    Fitted {
        size,
        words,
        truncated,
        height,
        max: style.max,
    }
}

/// Fits and draws; returns the layout (for tests and for placing what follows).
pub fn draw(c: &mut dyn Canvas, paras: &[Vec<Span>], r: R, style: Style) -> Fitted {
    let f = fit(paras, r, style);
    c.text(&f, r);
    f
}

/// One line of one style, shrunk to fit `r` (a name, a number, a label).
pub fn label(
    c: &mut dyn Canvas,
    s: &str,
    weight: Weight,
    color: Rgb,
    r: R,
    style: Style,
) -> Fitted {
    draw(c, &[vec![Span::new(s, weight, color)]], r, style)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn para(s: &str) -> Vec<Vec<Span>> {
        vec![vec![Span::new(s, Weight::Regular, Rgb::hex(0))]]
    }

    #[test]
    fn short_text_keeps_its_largest_size() {
        let f = fit(
            &para("Deal 20 damage."),
            R::new(0.0, 0.0, 40.0, 10.0),
            Style::new(3.0),
        );
        assert_eq!(f.size, 3.0);
        assert!(!f.truncated);
    }

    #[test]
    fn long_text_shrinks_and_wraps_inside_its_box() {
        let long = "Deal 20 damage to one opposing character, then roll a die. ".repeat(4);
        let r = R::new(2.0, 5.0, 30.0, 14.0);
        let f = fit(&para(&long), r, Style::new(3.0).min(0.8));
        assert!(f.size < 3.0, "size {}", f.size);
        assert!(!f.truncated);
        assert!(f.height <= r.h + 1e-3);
        for w in &f.words {
            assert!(w.x >= r.x - 1e-3);
            assert!(
                w.x + width(&w.text, w.weight, f.size) <= r.right() + 1e-3,
                "{w:?}"
            );
            assert!(w.baseline <= r.bottom());
        }
        let lines: std::collections::BTreeSet<i64> = f
            .words
            .iter()
            .map(|w| (w.baseline * 100.0) as i64)
            .collect();
        assert!(lines.len() > 1);
    }

    #[test]
    fn text_too_long_for_the_smallest_size_is_cut_with_an_ellipsis() {
        let long = "word ".repeat(500);
        let r = R::new(0.0, 0.0, 20.0, 6.0);
        let f = fit(&para(&long), r, Style::new(3.0).min(1.5));
        assert!(f.truncated);
        assert_eq!(f.size, 1.5);
        assert!(f.height <= r.h + 1e-3);
        assert!(f.words.last().unwrap().text.ends_with('…'));
    }

    #[test]
    fn an_unbreakable_word_is_split_to_the_box_width() {
        let r = R::new(0.0, 0.0, 10.0, 30.0);
        let f = fit(&para(&"x".repeat(80)), r, Style::new(3.0).min(2.0));
        for w in &f.words {
            assert!(w.x + width(&w.text, w.weight, f.size) <= r.right() + 1e-3);
        }
        let total: usize = f.words.iter().map(|w| w.text.chars().count()).sum();
        assert_eq!(total, 80);
    }
}
