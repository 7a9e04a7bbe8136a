//! The class page's scores: each bot's score cell (sortable by its points)
//! and the class's score distribution, a histogram in inline SVG (no
//! script, no network: the page works offline).

use super::table::Row;
use crate::grading::show;
use crate::report::html::escape;
use std::fmt::Write;

/// Bins of the histogram: tenths of the maximum score.
const BINS: usize = 10;

/// The score's table cell: `7.5 / 10`, sorted by the points; a bot without
/// a score (no report) shows a dash and sorts below every score.
pub fn cell(row: &Row) -> String {
    match (row.score, row.max_score) {
        (Some(score), Some(max)) => format!(
            "<td class=\"n\" data-sort=\"{}\">{} / {}</td>",
            show(score),
            show(score),
            show(max)
        ),
        _ => "<td class=\"n\" data-sort=\"-1\">—</td>".to_string(),
    }
}

/// A score as a share of its maximum, when the bot has one (a maximum of 0
/// has no share).
fn share(row: &Row) -> Option<f64> {
    match (row.score, row.max_score) {
        (Some(score), Some(max)) if max > 0.0 => Some((score / max).clamp(0.0, 1.0)),
        _ => None,
    }
}

/// How many bots fall into each tenth of the maximum score: bin `i` holds
/// the shares from `i/10` up to (not including) `(i+1)/10`, the last one
/// the full score too.
pub fn bins(rows: &[Row]) -> [usize; BINS] {
    let mut bins = [0; BINS];
    for s in rows.iter().filter_map(share) {
        // The small allowance: 2.4 of 3 is in the 80–90 % bin, not below
        // it by float noise (scores have 4 decimal places at most).
        let i = ((s * BINS as f64 + 1e-9).floor() as usize).min(BINS - 1);
        bins[i] += 1;
    }
    bins
}

/// The section: a line with the median and the mean, then the histogram.
pub fn distribution(rows: &[Row]) -> String {
    let mut html = String::from("<h2>Scores</h2>\n");
    let mut scored: Vec<(f64, f64)> = rows
        .iter()
        .filter_map(|r| Some((r.score?, r.max_score?)))
        .collect();
    let unscored = rows.len() - scored.len();
    if scored.is_empty() {
        html += "<p>No bot has a score.</p>\n";
        return html;
    }
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    let points: Vec<f64> = scored.iter().map(|s| s.0).collect();
    let median = if points.len() % 2 == 1 {
        points[points.len() / 2]
    } else {
        (points[points.len() / 2 - 1] + points[points.len() / 2]) / 2.0
    };
    let mean = points.iter().sum::<f64>() / points.len() as f64;
    let max = scored.iter().map(|s| s.1).fold(0.0, f64::max);
    let same_max = scored.iter().all(|s| s.1 == max);
    let _ = write!(
        html,
        "<p class=\"scores\">{}: median {}, mean {}{}",
        super::counted(scored.len(), "bot with a score", "bots with a score"),
        show(median),
        show(mean),
        if same_max {
            format!(" (out of {})", show(max))
        } else {
            " (their maxima differ: the chart shows each as a share of its own)".to_string()
        }
    );
    if unscored > 0 {
        let _ = write!(
            html,
            "; {} without a score (no report)",
            super::counted(unscored, "bot", "bots")
        );
    }
    html += "</p>\n";
    html += &histogram(&bins(rows), scored.len());
    html
}

/// Vertical bars, one per tenth of the maximum score, as tall as the
/// share of the scored bots in it.
fn histogram(bins: &[usize; BINS], bots: usize) -> String {
    let (bar_w, gap, plot_h, top, bottom, left) = (54, 8, 120, 18, 36, 10);
    let width = left * 2 + BINS * (bar_w + gap);
    let height = top + plot_h + bottom;
    let tallest = bins.iter().copied().max().unwrap_or(0).max(1);
    let of_bots = super::counted(bots, "bot", "bots");
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" class=\"histogram\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n\
         <title>How the {of_bots} with a score are spread over tenths of the maximum score</title>\n\
         <line x1=\"{left}\" y1=\"{base}\" x2=\"{right}\" y2=\"{base}\" stroke=\"#888\"/>\n",
        base = top + plot_h,
        right = width - left,
    );
    for (i, &n) in bins.iter().enumerate() {
        let (from, to) = (i * 100 / BINS, (i + 1) * 100 / BINS);
        let label = format!("{from}–{to}%");
        let x = left + i * (bar_w + gap) + gap / 2;
        let h = plot_h * n / tallest;
        let y = top + plot_h - h;
        let shown = if i + 1 == BINS {
            format!("{from} % to the full score")
        } else {
            format!("{from} % to under {to} % of the maximum")
        };
        let _ = writeln!(
            svg,
            "<g class=\"bin\" data-from=\"{from}\" data-to=\"{to}\" data-bots=\"{n}\"><title>{}: {n} of {of_bots}</title>\
             <rect x=\"{x}\" y=\"{y}\" width=\"{bar_w}\" height=\"{h}\" fill=\"#2a6fb0\"/>\
             <text x=\"{cx}\" y=\"{ny}\" text-anchor=\"middle\">{count}</text>\
             <text x=\"{cx}\" y=\"{ly}\" text-anchor=\"middle\">{label}</text></g>",
            escape(&shown),
            cx = x + bar_w / 2,
            ny = y.saturating_sub(4).max(12),
            ly = top + plot_h + 16,
            count = if n > 0 { n.to_string() } else { String::new() },
        );
    }
    svg += "</svg>\n";
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(id: &str, score: Option<f64>, max: f64) -> Row {
        let mut row =
            super::super::table::row(id, super::super::table::Ended::Code(0), None, "", 0.0);
        row.score = score;
        row.max_score = score.map(|_| max);
        row
    }

    #[test]
    fn scores_fall_into_tenths_of_the_maximum_the_full_score_in_the_last() {
        let rows = [
            scored("a", Some(0.0), 10.0),
            scored("b", Some(7.0), 10.0),
            scored("c", Some(0.7), 1.0),
            scored("d", Some(6.9999), 10.0),
            scored("e", Some(10.0), 10.0),
            scored("f", Some(9.5), 10.0),
            scored("g", None, 10.0),
            scored("h", Some(0.0), 0.0),
            scored("i", Some(2.4), 3.0),
        ];
        assert_eq!(bins(&rows), [1, 0, 0, 0, 0, 0, 1, 2, 1, 2]);
    }

    #[test]
    fn the_section_says_median_and_mean_and_draws_one_bar_per_tenth() {
        let rows = [
            scored("a", Some(2.0), 8.0),
            scored("b", Some(8.0), 8.0),
            scored("c", Some(5.0), 8.0),
            scored("d", None, 8.0),
        ];
        let html = distribution(&rows);
        assert!(
            html.contains("<p class=\"scores\">3 bots with a score: median 5, mean 5 (out of 8); 1 bot without a score (no report)</p>"),
            "{html}"
        );
        assert_eq!(html.matches("<g class=\"bin\"").count(), BINS, "{html}");
        assert!(
            html.contains("data-from=\"20\" data-to=\"30\" data-bots=\"1\""),
            "{html}"
        );
        assert!(
            html.contains("data-from=\"60\" data-to=\"70\" data-bots=\"1\""),
            "{html}"
        );
        assert!(
            html.contains("data-from=\"90\" data-to=\"100\" data-bots=\"1\""),
            "{html}"
        );
        assert!(
            html.contains("data-from=\"0\" data-to=\"10\" data-bots=\"0\""),
            "{html}"
        );
        assert!(!html.contains("<script"), "{html}");
        assert_eq!(
            distribution(&[scored("x", None, 1.0)]),
            "<h2>Scores</h2>\n<p>No bot has a score.</p>\n"
        );
    }

    #[test]
    fn the_cell_sorts_by_points_and_a_bot_without_a_score_sorts_last() {
        assert_eq!(
            cell(&scored("a", Some(7.5), 10.0)),
            "<td class=\"n\" data-sort=\"7.5\">7.5 / 10</td>"
        );
        assert_eq!(
            cell(&scored("a", None, 10.0)),
            "<td class=\"n\" data-sort=\"-1\">—</td>"
        );
    }
}
