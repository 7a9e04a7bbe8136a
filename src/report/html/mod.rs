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

mod grouped;
mod svg;

use super::RunInfo;
use super::group::{Grouping, Place};
use crate::outcome::{Direction, Frame, Picture, ScenarioResult, Status, Totals, TranscriptLine};
use crate::verdict::{Severity, Violation};
use grouped::{links, repeated_finding};
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

pub fn render(info: &RunInfo, results: &[ScenarioResult]) -> String {
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
        scenario(&mut out, index, r, results, &grouping);
    }
    out.push_str("</main>\n");
    let _ = write!(out, "<script>\n{SCRIPT}</script>\n</body>\n</html>\n");
    out
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

fn scenario(
    out: &mut String,
    index: usize,
    r: &ScenarioResult,
    results: &[ScenarioResult],
    grouping: &Grouping,
) {
    let status = status_word(r.status);
    // A scenario whose findings are all shown in full elsewhere stays
    // closed, with a pointer to them (and its transcript inside).
    let elsewhere = grouping.all_elsewhere(index, r);
    let open = matches!(r.status, Status::Failed | Status::Error) && elsewhere.is_none();
    let _ = writeln!(
        out,
        "<details class=\"scenario {status}{}\" id=\"scenario-{index}\" data-status=\"{status}\" data-rules=\"{}\"{}>",
        if elsewhere.is_some() { " grouped" } else { "" },
        escape(&scenario_rules(r).join(" ")),
        if open { " open" } else { "" }
    );
    let _ = writeln!(
        out,
        "<summary><span class=\"badge {status}\">{}</span> <span class=\"name\">{}</span> <span class=\"ms\">{} ms</span>{}</summary>",
        badge(r.status),
        escape(&r.name),
        r.duration_ms,
        match r.warnings() {
            0 => String::new(),
            n => format!(" <span class=\"warn-count\">{n} warning(s)</span>"),
        }
    );
    if let Some(firsts) = &elsewhere {
        // In the summary line, so the closed block still says where to look.
        out.truncate(out.len() - "</summary>\n".len());
        let _ = writeln!(
            out,
            " <span class=\"same-as\">the same finding{} as {}, shown in full there</span></summary>",
            if r.violations.len() == 1 { "" } else { "s" },
            links(firsts, results)
        );
    }
    let _ = writeln!(out, "<p class=\"source\">{}</p>", escape(&r.source));
    if let Some(about) = &r.about {
        let _ = writeln!(out, "<p class=\"about\">{}</p>", escape(about));
    }
    let why_not = if r.status == Status::Interrupted {
        "interrupted"
    } else {
        "skipped"
    };
    for (label, text) in [
        ("error", &r.error),
        (why_not, &r.skip_reason),
        ("replay", &r.replay),
        ("saved to", &r.saved_to),
    ] {
        if let Some(text) = text {
            let _ = writeln!(
                out,
                "<p class=\"note\"><b>{label}:</b> <code>{}</code></p>",
                escape(text)
            );
        }
    }
    // A grouped scenario keeps its step-through (closed): its game may
    // differ from the one shown in full.
    let stepped = matches!(r.status, Status::Failed | Status::Error) && !r.transcript.is_empty();
    // Findings point at their message only where there is a step-through.
    let lines = if stepped {
        finding_lines(r)
    } else {
        vec![None; r.violations.len()]
    };
    findings(out, index, r, &lines, results, grouping);
    if stepped {
        stepper(out, index, r, &lines);
    } else if !r.transcript.is_empty() {
        // Passing scenarios: the transcript only, inside the collapsed block.
        out.push_str("<ol class=\"transcript plain\">\n");
        for line in &r.transcript {
            transcript_line(out, line, "");
        }
        out.push_str("</ol>\n");
    }
    if !r.stderr_tail.is_empty() {
        let _ = writeln!(
            out,
            "<details class=\"stderr\"><summary>stderr ({} bytes; the end)</summary><pre>{}</pre></details>",
            r.stderr_bytes,
            escape(&r.stderr_tail)
        );
    }
    out.push_str("</details>\n");
}

/// For each kept finding, the transcript line it was made at: from the
/// frames where they were recorded, else the last line.
fn finding_lines(r: &ScenarioResult) -> Vec<Option<usize>> {
    let mut at = vec![None; r.violations.len()];
    for (line, frame) in r.frames.iter().enumerate() {
        for &k in &frame.findings {
            if let Some(slot) = at.get_mut(k) {
                *slot = Some(line);
            }
        }
    }
    let last = r.transcript.len().checked_sub(1);
    at.into_iter().map(|a| a.or(last)).collect()
}

fn findings(
    out: &mut String,
    index: usize,
    r: &ScenarioResult,
    lines: &[Option<usize>],
    results: &[ScenarioResult],
    grouping: &Grouping,
) {
    if r.violations.is_empty() && r.omitted.is_empty() {
        return;
    }
    out.push_str("<ol class=\"findings\">\n");
    for (f, (v, line)) in r.violations.iter().zip(lines).enumerate() {
        match grouping.place(index, f) {
            Place::Repeat(first) => repeated_finding(out, v, *line, *first, results),
            place => {
                finding(out, v, *line);
                if let Place::First(others) = place {
                    // Inside the finding's own item.
                    out.truncate(out.len() - "</li>\n".len());
                    let _ = writeln!(
                        out,
                        "<p class=\"same-finding\">and {} more scenario{} with the same finding: {}</p>\n</li>",
                        others.len(),
                        if others.len() == 1 { "" } else { "s" },
                        links(others, results)
                    );
                }
            }
        }
    }
    for o in &r.omitted {
        let _ = writeln!(
            out,
            "<li class=\"finding omitted {sev}\"><code class=\"rule\">{}</code> <span class=\"sev\">[{sev}]</span> {} more finding(s) of this rule, not listed</li>",
            escape(o.rule),
            o.count,
            sev = o.severity.as_str(),
        );
    }
    out.push_str("</ol>\n");
}

fn finding(out: &mut String, v: &Violation, line: Option<usize>) {
    finding_head(out, v, line, "finding");
    out.push_str("</div>\n");
    let _ = writeln!(out, "<p class=\"message\">{}</p>", escape(&v.message));
    finding_body(out, v);
}

/// The opening of a finding's item and its head line: rule, severity, where,
/// and the button to its message. `class`: "finding", or "finding grouped"
/// for one shown in full elsewhere.
pub(super) fn finding_head(out: &mut String, v: &Violation, line: Option<usize>, class: &str) {
    let sev = v.severity.as_str();
    let data = line.map_or(String::new(), |l| format!(" data-line=\"{l}\""));
    let _ = writeln!(out, "<li class=\"{class} {sev}\"{data}>");
    let _ = write!(
        out,
        "<div class=\"head\"><code class=\"rule\">{}</code> <span class=\"sev\">[{sev}]</span>",
        escape(v.rule)
    );
    if let Some(step) = &v.step {
        let _ = write!(
            out,
            " <span class=\"at\">{}</span>",
            escape(&step.to_string())
        );
    }
    if let Some(l) = line {
        let _ = write!(
            out,
            " <button type=\"button\" class=\"goto\" data-line=\"{l}\">show message {}</button>",
            l + 1
        );
    }
}

/// A finding's spec, diff and board (after its message).
fn finding_body(out: &mut String, v: &Violation) {
    let _ = writeln!(
        out,
        "<p class=\"spec\"><b>spec:</b> {}</p>",
        escape(&v.spec)
    );
    if let (Some(expected), Some(actual)) = (&v.expected, &v.actual) {
        diff(out, expected, actual);
    } else if let Some(expected) = &v.expected {
        let _ = writeln!(
            out,
            "<p class=\"expected\"><b>expected:</b> <code>{}</code></p>",
            escape(expected)
        );
    } else if let Some(actual) = &v.actual {
        let _ = writeln!(
            out,
            "<p class=\"actual\"><b>actual:</b> <code>{}</code></p>",
            escape(actual)
        );
    }
    out.push_str("</li>\n");
}

/// Expected vs actual: by line when either spans lines, else by character
/// (like the human report).
fn diff(out: &mut String, expected: &str, actual: &str) {
    out.push_str("<pre class=\"diff\">");
    if expected.contains('\n') || actual.contains('\n') {
        let d = similar::TextDiff::from_lines(expected, actual);
        for change in d.iter_all_changes() {
            let text = escape(change.value().trim_end_matches('\n'));
            let _ = match change.tag() {
                similar::ChangeTag::Delete => writeln!(out, "<del>- {text}</del>"),
                similar::ChangeTag::Insert => writeln!(out, "<ins>+ {text}</ins>"),
                similar::ChangeTag::Equal => writeln!(out, "  {text}"),
            };
        }
    } else {
        let d = similar::TextDiff::from_chars(expected, actual);
        // Runs of one kind of change, so each gets one mark.
        let mut runs: Vec<(similar::ChangeTag, String)> = Vec::new();
        for change in d.iter_all_changes() {
            match runs.last_mut() {
                Some((tag, text)) if *tag == change.tag() => text.push_str(change.value()),
                _ => runs.push((change.tag(), change.value().to_string())),
            }
        }
        let (mut minus, mut plus) = (String::new(), String::new());
        for (tag, text) in runs {
            let text = escape(&text);
            match tag {
                similar::ChangeTag::Equal => {
                    minus.push_str(&text);
                    plus.push_str(&text);
                }
                similar::ChangeTag::Delete => {
                    let _ = write!(minus, "<del>{text}</del>");
                }
                similar::ChangeTag::Insert => {
                    let _ = write!(plus, "<ins>{text}</ins>");
                }
            }
        }
        let _ = writeln!(
            out,
            "<span class=\"minus\">- {minus}</span>\n<span class=\"plus\">+ {plus}</span>"
        );
    }
    out.push_str("</pre>\n");
}

/// The board beside the transcript, one figure per distinct picture
/// (consecutive lines that leave the game as it was share one); a note
/// without a picture of its own shows the one before it, any other line
/// without one shows no board.
fn stepper(out: &mut String, index: usize, r: &ScenarioResult, finding_lines: &[Option<usize>]) {
    let mut pictures: Vec<&Picture> = Vec::new();
    let mut frame_of_line: Vec<Option<usize>> = Vec::with_capacity(r.transcript.len());
    let no_frame = Frame::default();
    let mut shown: Option<usize> = None;
    for (i, line) in r.transcript.iter().enumerate() {
        let frame = r.frames.get(i).unwrap_or(&no_frame);
        match &frame.picture {
            Some(p) => {
                if pictures.last().is_none_or(|last| *last != p) {
                    pictures.push(p);
                }
                shown = Some(pictures.len() - 1);
            }
            // Notes (what protocheck observed, and what the transcript says
            // of lines it folded or left out) leave the game as it was.
            None if line.dir == Direction::Note => {}
            None => shown = None,
        }
        frame_of_line.push(shown);
    }
    // What all the pictures share from their start (the board, its places
    // and labels) is drawn once and used by each.
    let shared = match pictures.split_first() {
        Some((first, rest)) if !rest.is_empty() => rest.iter().fold(first.shapes.len(), |n, p| {
            if (p.width, p.height) != (first.width, first.height) {
                return 0;
            }
            n.min(
                first
                    .shapes
                    .iter()
                    .zip(&p.shapes)
                    .take_while(|(a, b)| a == b)
                    .count(),
            )
        }),
        _ => 0,
    };
    let ground_id = format!("ground-{index}");
    let ground = (shared > 0).then_some((ground_id.as_str(), shared));
    let failing: Vec<usize> = finding_lines.iter().flatten().copied().collect();
    let start = failing.first().copied().unwrap_or(r.transcript.len() - 1);
    let _ = writeln!(
        out,
        "<div class=\"stepper\" data-start=\"{start}\" data-lines=\"{}\">",
        r.transcript.len()
    );
    out.push_str("<div class=\"board-pane\">\n<div class=\"controls\">");
    out.push_str(
        "<button type=\"button\" class=\"first\" title=\"first message\">« first</button>",
    );
    out.push_str(
        "<button type=\"button\" class=\"prev\" title=\"previous message (←)\">◀ prev</button>",
    );
    let _ = write!(
        out,
        "<span class=\"pos\">{} / {}</span>",
        start + 1,
        r.transcript.len()
    );
    out.push_str(
        "<button type=\"button\" class=\"next\" title=\"next message (→)\">next ▶</button>",
    );
    out.push_str("<button type=\"button\" class=\"last\" title=\"last message\">last »</button>");
    if !failing.is_empty() {
        out.push_str("<button type=\"button\" class=\"failing\" title=\"the failing message\">failing step</button>");
    }
    out.push_str("</div>\n<div class=\"boards\">\n");
    if pictures.is_empty() && r.frames.is_empty() {
        out.push_str("<p class=\"no-board\">No board: this game has no picture in the report yet; the transcript tells the game.</p>\n");
    } else if pictures.is_empty() {
        // Frames, none with a picture: the game failed before it was set up.
        out.push_str("<p class=\"no-board\">No board: the game is not set up at any message of this transcript; the transcript tells the game.</p>\n");
    } else {
        out.push_str(
            "<p class=\"no-board\" hidden>No board at this message: the game is not set up.</p>\n",
        );
    }
    if let (Some((id, n)), Some(first)) = (ground, pictures.first()) {
        out.push_str(&svg::ground(id, &first.shapes[..n]));
        out.push('\n');
    }
    for (k, p) in pictures.iter().enumerate() {
        let _ = write!(
            out,
            "<figure class=\"board\" data-frame=\"{k}\" hidden>{}",
            svg::render(p, ground)
        );
        if let Some(c) = &p.caption {
            let _ = write!(out, "<figcaption>{}</figcaption>", escape(c));
        }
        out.push_str("</figure>\n");
    }
    out.push_str("</div>\n</div>\n<ol class=\"transcript\">\n");
    for (i, line) in r.transcript.iter().enumerate() {
        let mut attrs = format!(
            " data-frame=\"{}\"",
            frame_of_line[i].map_or("none".to_string(), |k| k.to_string())
        );
        let rules: Vec<&str> = finding_lines
            .iter()
            .zip(&r.violations)
            .filter(|(l, _)| **l == Some(i))
            .map(|(_, v)| v.rule)
            .collect();
        if !rules.is_empty() {
            let worst = r
                .violations
                .iter()
                .zip(finding_lines)
                .filter(|(_, l)| **l == Some(i))
                .map(|(v, _)| v.severity)
                .max()
                .unwrap_or(Severity::Warn);
            let _ = write!(attrs, " data-finding=\"{}\"", worst.as_str());
        }
        transcript_line(out, line, &attrs);
        if !rules.is_empty() {
            // The marker goes inside the line it belongs to.
            out.truncate(out.len() - "</li>\n".len());
            for rule in rules {
                let _ = write!(out, " <span class=\"marker\">{}</span>", escape(rule));
            }
            out.push_str("</li>\n");
        }
    }
    out.push_str("</ol>\n</div>\n");
}

fn transcript_line(out: &mut String, line: &TranscriptLine, attrs: &str) {
    let (class, arrow) = match line.dir {
        Direction::Sent => ("sent", "&gt;"),
        Direction::Received => ("received", "&lt;"),
        Direction::Note => ("note", "#"),
    };
    let _ = writeln!(
        out,
        "<li class=\"{class}\"{attrs}><span class=\"ms\">{}ms</span> <span class=\"dir\">{arrow}</span> <code>{}</code></li>",
        line.ms,
        escape(&line.text)
    );
}

#[cfg(test)]
mod tests;
