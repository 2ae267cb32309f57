//! The one Markdown table writer: headers with an alignment each, rows of cells; columns
//! padded to their widest cell so the table reads in a terminal too, `|` in a cell escaped,
//! line breaks in a cell turned into spaces. Used by `report.md` and the sweep's Markdown;
//! `compare.md` can take it the same way:
//!
//! ```
//! use hotloops::report::table::{Align, Table};
//! let mut t = Table::new([("host", Align::Left), ("ratio", Align::Right)]);
//! t.row(["zen3 | lab", "0.9770"]);
//! assert_eq!(t.render(), "| host        |  ratio |\n| :---------- | -----: |\n| zen3 \\| lab | 0.9770 |\n");
//! ```

use std::fmt::Write as _;

/// A column's alignment (the colons of the separator row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// `:---` (text, ids).
    Left,
    /// `---:` (numbers).
    Right,
    /// `:---:`.
    Center,
}

/// A Markdown table being built.
#[derive(Clone, Debug, Default)]
pub struct Table {
    headers: Vec<(String, Align)>,
    rows: Vec<Vec<String>>,
}

/// A cell's text as Markdown: `|` escaped, line breaks as spaces.
pub fn escape(cell: &str) -> String {
    cell.replace('|', "\\|").replace("\r\n", " ").replace(['\n', '\r'], " ")
}

impl Table {
    /// A table with these columns.
    pub fn new<S: Into<String>>(headers: impl IntoIterator<Item = (S, Align)>) -> Table {
        Table { headers: headers.into_iter().map(|(h, a)| (h.into(), a)).collect(), rows: Vec::new() }
    }

    /// Add a column (before any row).
    pub fn column(&mut self, header: impl Into<String>, align: Align) -> &mut Table {
        self.headers.push((header.into(), align));
        self
    }

    /// Add a row; missing cells are empty, extra ones are an error of the caller and dropped
    /// (debug builds assert).
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) -> &mut Table {
        let mut r: Vec<String> = cells.into_iter().map(Into::into).collect();
        debug_assert!(r.len() <= self.headers.len(), "a row of {} cells in a table of {} columns", r.len(), self.headers.len());
        r.resize(self.headers.len(), String::new());
        self.rows.push(r);
        self
    }

    /// Rows so far.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// No rows yet?
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table as Markdown, one line per row, ending in a newline.
    pub fn render(&self) -> String {
        let header: Vec<String> = self.headers.iter().map(|(h, _)| escape(h)).collect();
        let rows: Vec<Vec<String>> = self.rows.iter().map(|r| r.iter().map(|c| escape(c)).collect()).collect();
        // At least 3 wide: the separator needs `---` (and `:-:` for centred columns).
        let widths: Vec<usize> = (0..header.len())
            .map(|i| std::iter::once(&header[i]).chain(rows.iter().map(|r| &r[i])).map(|c| c.chars().count()).max().unwrap_or(0).max(3))
            .collect();
        let mut out = String::new();
        let line = |out: &mut String, cells: &[String]| {
            out.push('|');
            for (i, c) in cells.iter().enumerate() {
                let pad = widths[i] - c.chars().count();
                let (l, r) = match self.headers[i].1 {
                    Align::Left => (0, pad),
                    Align::Right => (pad, 0),
                    Align::Center => (pad / 2, pad - pad / 2),
                };
                let _ = write!(out, " {}{c}{} |", " ".repeat(l), " ".repeat(r));
            }
            out.push('\n');
        };
        line(&mut out, &header);
        out.push('|');
        for (i, (_, a)) in self.headers.iter().enumerate() {
            let w = widths[i];
            let sep = match a {
                Align::Left => format!(":{}", "-".repeat(w - 1)),
                Align::Right => format!("{}:", "-".repeat(w - 1)),
                Align::Center => format!(":{}:", "-".repeat(w - 2)),
            };
            let _ = write!(out, " {sep} |");
        }
        out.push('\n');
        for r in &rows {
            line(&mut out, r);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pads_to_the_widest_cell_and_aligns() {
        let mut t = Table::new([("variant", Align::Left), ("ns", Align::Right), ("c", Align::Center)]);
        t.row(["`a/longer-id`", "1.5", "x"]).row(["b", "10.25", "yes"]);
        let md = t.render();
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| variant       |    ns |  c  |");
        assert_eq!(lines[1], "| :------------ | ----: | :-: |");
        assert_eq!(lines[2], "| `a/longer-id` |   1.5 |  x  |");
        assert_eq!(lines[3], "| b             | 10.25 | yes |");
        assert_eq!(lines.len(), 4);
        assert!(md.ends_with('\n'));
    }

    #[test]
    fn pipes_and_line_breaks_in_cells_do_not_break_the_table() {
        let mut t = Table::new([("a|b", Align::Left)]);
        t.column("n", Align::Right);
        t.row(["x | y", "2\nlines"]).row(["short"]);
        let md = t.render();
        assert!(md.starts_with("| a\\|b   |"), "{md}");
        assert!(md.contains("| x \\| y | 2 lines |"), "{md}");
        // A missing cell is an empty, padded one; every line has the same number of columns.
        assert!(md.contains("| short  |         |"), "{md}");
        let bars = |l: &str| l.replace("\\|", "").matches('|').count();
        assert!(md.lines().all(|l| bars(l) == 3), "{md}");
        // Widths count characters, not bytes.
        let mut u = Table::new([("±", Align::Right)]);
        u.row(["±0.25%"]);
        assert_eq!(u.render().lines().next().unwrap(), "|      ± |");
    }
}
