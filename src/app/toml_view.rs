//! How the card editor shows TOML: keys, strings, table headers and comments coloured, the
//! line of a parse error marked, and line numbers in a gutter. Display only: the core's
//! parser decides what the text means.

use egui::text::{LayoutJob, TextFormat};
use egui::{Color32, FontId, Galley, Pos2};

/// The colours of each part of a line.
struct Palette {
    text: Color32,
    key: Color32,
    string: Color32,
    header: Color32,
    comment: Color32,
    error_bg: Color32,
}

impl Palette {
    fn of(ui: &egui::Ui) -> Palette {
        let v = ui.visuals();
        let dark = v.dark_mode;
        let pick = |d: (u8, u8, u8), l: (u8, u8, u8)| {
            let (r, g, b) = if dark { d } else { l };
            Color32::from_rgb(r, g, b)
        };
        Palette {
            text: v.text_color(),
            key: pick((0x9c, 0xdc, 0xfe), (0x00, 0x45, 0x9e)),
            string: pick((0xce, 0x91, 0x78), (0xa3, 0x15, 0x15)),
            header: pick((0xc5, 0x86, 0xc0), (0x7a, 0x1f, 0x9e)),
            comment: v.weak_text_color(),
            error_bg: v.error_fg_color.gamma_multiply(0.18),
        }
    }
}

/// The layout of TOML `text` for the code editor, `error_line` (1-based) marked.
pub fn highlight(ui: &egui::Ui, text: &str, error_line: Option<usize>, wrap: f32) -> LayoutJob {
    let p = Palette::of(ui);
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let mut job = LayoutJob::default();
    job.wrap.max_width = wrap;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let bg = if error_line == Some(i + 1) {
            p.error_bg
        } else {
            Color32::TRANSPARENT
        };
        for (part, color) in parts(line, &p) {
            job.append(part, 0.0, format(&font, color, bg));
        }
    }
    job
}

fn format(font: &FontId, color: Color32, background: Color32) -> TextFormat {
    TextFormat {
        font_id: font.clone(),
        color,
        background,
        ..Default::default()
    }
}

/// A line cut into coloured parts (together the whole line).
fn parts<'a>(line: &'a str, p: &Palette) -> Vec<(&'a str, Color32)> {
    let trimmed = line.trim_start();
    if trimmed.starts_with('#') {
        return vec![(line, p.comment)];
    }
    if trimmed.starts_with('[') {
        return vec![(line, p.header)];
    }
    let mut out = Vec::new();
    let value_at = match line.find('=') {
        Some(eq) if !line[..eq].contains('"') => {
            out.push((&line[..eq], p.key));
            eq
        }
        _ => 0,
    };
    let rest = &line[value_at..];
    let mut start = 0;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in rest.char_indices() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                out.push((&rest[start..=i], p.string));
                start = i + 1;
                in_string = false;
            }
        } else if c == '"' {
            out.push((&rest[start..i], p.text));
            start = i;
            in_string = true;
        } else if c == '#' {
            out.push((&rest[start..i], p.text));
            out.push((&rest[i..], p.comment));
            return out;
        }
    }
    out.push((&rest[start..], if in_string { p.string } else { p.text }));
    out.retain(|(s, _)| !s.is_empty());
    out
}

/// Paints line numbers left of the text laid out in `galley` at `pos`, in the editor's left
/// margin (a wrapped line is numbered once).
pub fn line_numbers(ui: &egui::Ui, galley: &Galley, pos: Pos2) {
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let color = ui.visuals().weak_text_color();
    let right = pos.x - 10.0;
    let mut line = 1;
    let mut new_line = true;
    for row in &galley.rows {
        if new_line {
            let y = pos.y + row.rect().center().y;
            ui.painter().text(
                Pos2::new(right, y),
                egui::Align2::RIGHT_CENTER,
                line.to_string(),
                font.clone(),
                color,
            );
            line += 1;
        }
        new_line = row.ends_with_newline;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn palette() -> Palette {
        Palette {
            text: Color32::WHITE,
            key: Color32::BLUE,
            string: Color32::RED,
            header: Color32::GREEN,
            comment: Color32::GRAY,
            error_bg: Color32::TRANSPARENT,
        }
    }

    #[test]
    fn parts_cover_the_line_and_colour_keys_strings_and_comments() {
        let p = palette();
        let line = "name = \"A # not a comment \\\"x\\\"\" # note\n";
        let parts = parts(line, &p);
        assert_eq!(parts.iter().map(|(s, _)| *s).collect::<String>(), line);
        assert_eq!(parts[0], ("name ", Color32::BLUE));
        assert!(
            parts.contains(&("\"A # not a comment \\\"x\\\"\"", Color32::RED)),
            "{parts:?}"
        );
        assert!(parts.contains(&("# note\n", Color32::GRAY)), "{parts:?}");
        assert_eq!(
            super::parts("[health]\n", &p),
            vec![("[health]\n", Color32::GREEN)]
        );
        assert_eq!(
            super::parts("  # c\n", &p),
            vec![("  # c\n", Color32::GRAY)]
        );
    }
}
