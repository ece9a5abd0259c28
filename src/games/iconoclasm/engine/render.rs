//! An ASCII picture of the table: one cell per card, its face-up element in capitals for a
//! double card and lower case for a single, `.` for an empty cell inside the grid's bounds.

use super::state::State;

/// The picture, one text line per row, top row first, with row and column labels relative
/// to the first card.
pub fn picture(st: &State) -> String {
    let Some(b) = st.grid.bounds() else { return "(empty table)\n".to_string() };
    let mut out = String::from("      ");
    for col in b.left..=b.right {
        out.push_str(&format!("{col:^7}"));
    }
    out.push('\n');
    for row in b.top..=b.bottom {
        out.push_str(&format!("{row:>4}  "));
        for col in b.left..=b.right {
            let cell = match st.grid.get(super::grid::Pos::new(row, col)) {
                Some(c) => {
                    let e = st.face(c.card, c.up).name();
                    let single = st.face(c.card, c.up) == st.face(c.card, c.up.flipped());
                    if single { format!("[{e:^5}]") } else { format!("[{:^5}]", e.to_uppercase()) }
                }
                None => "   .   ".to_string(),
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    out
}
