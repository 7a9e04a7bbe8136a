//! One scenario's block on the page: its summary line, notes, findings
//! (rule, spec, expected-vs-actual diff) and, for a failing one, the
//! step-through.

use super::grouped::links;
use super::stepper::{stepper, transcript_line};
use super::{badge, escape, prose, scenario_rules, status_word};
use crate::outcome::{ScenarioResult, Status};
use crate::report::group::{Grouping, Place};
use crate::verdict::Violation;
use std::fmt::Write;

pub(super) fn scenario(
    out: &mut String,
    index: usize,
    r: &ScenarioResult,
    results: &[ScenarioResult],
    suite_index: &[usize],
    grouping: &Grouping,
) {
    let status = status_word(r.status);
    // A scenario whose findings are all shown in full elsewhere stays
    // closed, with a pointer to them (and its transcript inside).
    let elsewhere = grouping.all_elsewhere(index, r);
    let open = matches!(r.status, Status::Failed | Status::Error) && elsewhere.is_none();
    let _ = writeln!(
        out,
        "<details class=\"scenario {status}{}\" id=\"scenario-{}\" data-status=\"{status}\" data-rules=\"{}\"{}>",
        if elsewhere.is_some() { " grouped" } else { "" },
        suite_index[index],
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
            links(firsts, results, suite_index)
        );
    }
    let _ = writeln!(out, "<p class=\"source\">{}</p>", escape(&r.source));
    if let Some(about) = &r.about {
        let _ = writeln!(out, "<p class=\"about\">{}</p>", prose(about));
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
    // differ from the one shown in full. A passing one has a step-through
    // where its pictures were kept (every game of a match's page).
    let stepped = (matches!(r.status, Status::Failed | Status::Error) || !r.frames.is_empty())
        && !r.transcript.is_empty();
    // Findings point at their message only where there is a step-through.
    let lines = if stepped {
        finding_lines(r)
    } else {
        vec![None; r.violations.len()]
    };
    findings(out, index, r, &lines, results, suite_index, grouping);
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
    suite_index: &[usize],
    grouping: &Grouping,
) {
    if r.violations.is_empty() && r.omitted.is_empty() {
        return;
    }
    out.push_str("<ol class=\"findings\">\n");
    for (f, (v, line)) in r.violations.iter().zip(lines).enumerate() {
        match grouping.place(index, f) {
            Place::Repeat(first) => repeated_finding(out, v, *line, *first, results, suite_index),
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
                        links(others, results, suite_index)
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
    let _ = writeln!(out, "<p class=\"message\">{}</p>", prose(&v.message));
    finding_body(out, v);
}

/// The opening of a finding's item and its head line: rule, severity, where,
/// and the button to its message. `class`: "finding", or "finding grouped"
/// for one shown in full elsewhere.
pub(in crate::report::html) fn finding_head(
    out: &mut String,
    v: &Violation,
    line: Option<usize>,
    class: &str,
) {
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

/// A finding shown in full in an earlier scenario: its rule, where, and a
/// link to the full one.
fn repeated_finding(
    out: &mut String,
    v: &Violation,
    line: Option<usize>,
    first: usize,
    results: &[ScenarioResult],
    suite_index: &[usize],
) {
    finding_head(out, v, line, "finding grouped");
    let _ = writeln!(
        out,
        "</div>\n<p class=\"same-as\">The same finding as {}, shown in full there.</p>\n</li>",
        links(&[first], results, suite_index)
    );
}

/// A finding's spec, diff and board (after its message).
fn finding_body(out: &mut String, v: &Violation) {
    let _ = writeln!(out, "<p class=\"spec\"><b>spec:</b> {}</p>", prose(&v.spec));
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
