//! The HTML report: one self-contained page (inline style and script, no
//! network, system fonts) with the run's summary, filters by status and by
//! rule id, and for every failing scenario a step-through of the game: the
//! board as SVG after every message (from the pictures the game's module
//! drew, `ScenarioResult::frames`), the transcript beside it, and the
//! failing step with its rule, spec and expected-vs-actual diff. Passing
//! and skipped scenarios are listed collapsed.
//!
//! A pure function of the results, like the other reporters. Everything the
//! bot wrote is untrusted: every text goes through [`escape`], and the data
//! the script needs lives in escaped attributes and elements, never in the
//! script itself.

mod coverage;
mod grouped;
mod scenario;
mod stepper;
mod svg;

use super::RunInfo;
use super::group::Grouping;
use crate::outcome::{ScenarioResult, Status, Totals};
use scenario::scenario;
use std::collections::BTreeMap;
use std::fmt::Write;

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");
/// Added to the page only when it lists interrupted scenarios (the page of
/// an ordinary run stays as it was).
const INTERRUPTED_STYLE: &str = ".scenario.interrupted { border-left-color: var(--warn); } .badge.interrupted { background: var(--warn); }\n";

/// Text made safe for HTML element content and quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters other than tab and newline would make the
            // document invalid; show them as the `\r` the transcript uses.
            c if c.is_control() && c != '\n' && c != '\t' => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

/// Text with Markdown code spans (`` `like this` ``) shown as code, the
/// way findings and specs are written; everything escaped. A backtick
/// without its closing one is shown as it is.
pub fn prose(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        // A run of backticks opens a span that the same run closes.
        let ticks = rest[open..].bytes().take_while(|&b| b == b'`').count();
        let fence = &rest[open..open + ticks];
        let after = &rest[open + ticks..];
        let Some(close) = find_fence(after, ticks) else {
            out.push_str(&escape(&rest[..open + ticks]));
            rest = after;
            continue;
        };
        out.push_str(&escape(&rest[..open]));
        let code = &after[..close];
        // One space of padding on both sides is the span's, not the code's.
        let code = match code.strip_prefix(' ').and_then(|c| c.strip_suffix(' ')) {
            Some(inner) if !inner.trim().is_empty() => inner,
            _ => code,
        };
        let _ = write!(out, "<code>{}</code>", escape(code));
        rest = &after[close + fence.len()..];
    }
    out.push_str(&escape(rest));
    out
}

/// Where a run of exactly `ticks` backticks starts in `text`.
fn find_fence(text: &str, ticks: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            if run == ticks {
                return Some(i);
            }
            i += run;
        } else {
            i += 1;
        }
    }
    None
}

pub fn render(info: &RunInfo, results: &[ScenarioResult]) -> String {
    let suite_order = results;
    let (ordered, suite_index) = failing_first(results);
    let results = ordered.as_slice();
    let totals = Totals::of(results);
    let mut out = String::new();
    let title = format!(
        "protocheck · {} · {} passed, {} failed",
        info.game, totals.passed, totals.failed
    );
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n\
         <title>{}</title>\n<style>\n{STYLE}{}</style>\n</head>\n<body>\n",
        escape(&title),
        if totals.interrupted > 0 {
            INTERRUPTED_STYLE
        } else {
            ""
        }
    );
    summary(&mut out, info, results, &totals);
    filters(&mut out, results);
    out.push_str("<main>\n");
    // A finding shared by several scenarios is shown in full once.
    let grouping = Grouping::of(results, |r| !r.violations.is_empty());
    for (index, r) in results.iter().enumerate() {
        scenario(&mut out, index, r, results, &suite_index, &grouping);
    }
    out.push_str("</main>\n");
    if let Some(summary) = &info.coverage {
        coverage::table(&mut out, summary, suite_order);
    }
    let _ = write!(out, "<script>\n{SCRIPT}</script>\n</body>\n</html>\n");
    out
}

/// The order of the page: scenarios that failed (or could not run as
/// written) first, then passes with warnings, plain passes, interrupted and
/// skipped ones; the suite's order within each group.
/// With each one's place in the suite: a block's id (`scenario-N`) is
/// that place, the scenario's index in the JSON report of the same run.
fn failing_first(results: &[ScenarioResult]) -> (Vec<ScenarioResult>, Vec<usize>) {
    let group = |r: &ScenarioResult| match r.status {
        Status::Failed | Status::Error => 0,
        Status::Passed if r.warnings() > 0 => 1,
        Status::Passed => 2,
        Status::Interrupted => 3,
        Status::Skipped => 4,
    };
    let mut order: Vec<usize> = (0..results.len()).collect();
    // A stable sort: the suite's order stays within a group.
    order.sort_by_key(|&i| group(&results[i]));
    let ordered = order.iter().map(|&i| results[i].clone()).collect();
    (ordered, order)
}

fn summary(out: &mut String, info: &RunInfo, results: &[ScenarioResult], totals: &Totals) {
    let time: u64 = results.iter().map(|r| r.duration_ms).sum();
    out.push_str("<header>\n<h1>protocheck report</h1>\n<dl class=\"summary\">\n");
    let mut item = |term: &str, value: String, class: &str| {
        let _ = writeln!(
            out,
            "<div class=\"{class}\"><dt>{term}</dt><dd>{}</dd></div>",
            escape(&value)
        );
    };
    item("game", info.game.clone(), "game");
    item("bot", info.bot.clone(), "bot");
    item("scenarios", results.len().to_string(), "count");
    item("passed", totals.passed.to_string(), "passed");
    item("failed", totals.failed.to_string(), "failed");
    item("errors", totals.errors.to_string(), "error");
    item("skipped", totals.skipped.to_string(), "skipped");
    if totals.interrupted > 0 {
        item("interrupted", totals.interrupted.to_string(), "interrupted");
    }
    item("warnings", totals.warnings.to_string(), "warnings");
    if let Some(score) = &info.score {
        item(
            "score",
            format!(
                "{} / {} ({})",
                crate::grading::show(score.score),
                crate::grading::show(score.max_score),
                score.policy
            ),
            "score",
        );
    }
    item("time in scenarios", format!("{time} ms"), "time");
    if let Some((games, seed)) = info.generated {
        item(
            "generated",
            format!("--games {games} --seed {seed}"),
            "generated",
        );
    }
    if let Some((shard, of)) = &info.partition {
        item(
            "partition",
            format!("{shard} of {of} scenarios"),
            "partition",
        );
    }
    if info.strict {
        item("strict", "warnings fail".into(), "strict");
    }
    item(
        "sandbox",
        crate::report::sandbox_value(&info.sandbox),
        "sandbox",
    );
    if let Some(line) = info.environment.line() {
        item("environment", line, "environment");
    }
    item("protocheck", info.version.clone(), "version");
    if let Some(note) = crate::report::busy_machine_note(results) {
        item("machine", note, "warnings");
    }
    out.push_str("</dl>\n</header>\n");
}

/// Status check boxes (only the statuses present; failures and errors shown
/// first) and a choice of rule id (every rule with a finding).
fn filters(out: &mut String, results: &[ScenarioResult]) {
    let mut statuses: BTreeMap<&str, usize> = BTreeMap::new();
    let mut rules: BTreeMap<&str, usize> = BTreeMap::new();
    for r in results {
        *statuses.entry(status_word(r.status)).or_default() += 1;
        for rule in scenario_rules(r) {
            *rules.entry(rule).or_default() += 1;
        }
    }
    out.push_str("<nav id=\"filters\">\n<fieldset><legend>status</legend>\n");
    for status in ["failed", "error", "passed", "skipped", "interrupted"] {
        if let Some(n) = statuses.get(status) {
            let _ = writeln!(
                out,
                "<label class=\"{status}\"><input type=\"checkbox\" name=\"status\" value=\"{status}\" checked> {status} ({n})</label>"
            );
        }
    }
    out.push_str("</fieldset>\n<label>rule <select id=\"rule-filter\">\n<option value=\"\">all rules</option>\n");
    for (rule, n) in &rules {
        let rule = escape(rule);
        let _ = writeln!(
            out,
            "<option value=\"{rule}\">{rule} ({n} scenario{})</option>",
            if *n == 1 { "" } else { "s" }
        );
    }
    let _ = writeln!(
        out,
        "</select></label>\n<output id=\"shown\">{n} of {n} shown</output>\n</nav>",
        n = results.len()
    );
}

/// The rule ids a scenario's findings carry (kept and only counted).
fn scenario_rules(r: &ScenarioResult) -> Vec<&str> {
    let mut rules: Vec<&str> = r.violations.iter().map(|v| v.rule).collect();
    rules.extend(r.omitted.iter().map(|o| o.rule));
    rules.sort_unstable();
    rules.dedup();
    rules
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::Error => "error",
        Status::Skipped => "skipped",
        Status::Interrupted => "interrupted",
    }
}

fn badge(s: Status) -> &'static str {
    match s {
        Status::Passed => "PASS",
        Status::Failed => "FAIL",
        Status::Error => "ERROR",
        Status::Skipped => "SKIP",
        Status::Interrupted => "INTR",
    }
}

#[cfg(test)]
mod tests;
