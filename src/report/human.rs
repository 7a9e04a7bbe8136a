//! The human report: a line per scenario, then for each scenario that did
//! not pass: where (file:line:col), which rule, the spec sentence, a short
//! transcript, an expected-vs-actual diff, the board, and the bot's stderr.
//! The last line is always `N passed, N failed` (plus what else happened).

use super::RunInfo;
use super::group::{Grouping, Place};
use crate::outcome::{Direction, ScenarioResult, Status, Totals};
use crate::verdict::{Severity, Violation};
use std::fmt::Write;

/// Presentation choices.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    pub color: bool,
    /// Full transcripts for every scenario, not only failing ones; the
    /// board beside every warning; every skipped scenario on its own line;
    /// the time spent listening.
    pub verbose: bool,
    /// Only the scenarios that did not pass, their details, one line per
    /// warning of a scenario that passed, and the summary.
    pub quiet: bool,
}

/// ANSI colours, or nothing.
struct Paint {
    on: bool,
}

impl Paint {
    fn wrap(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    fn red(&self, t: &str) -> String {
        self.wrap("31", t)
    }
    fn green(&self, t: &str) -> String {
        self.wrap("32", t)
    }
    fn yellow(&self, t: &str) -> String {
        self.wrap("33", t)
    }
    fn bold(&self, t: &str) -> String {
        self.wrap("1", t)
    }
    fn dim(&self, t: &str) -> String {
        self.wrap("2", t)
    }
    fn red_bg(&self, t: &str) -> String {
        self.wrap("1;31;4", t)
    }
    fn green_bg(&self, t: &str) -> String {
        self.wrap("1;32;4", t)
    }
}

/// How many transcript lines a failure shows (all with `-v`).
const TRANSCRIPT_TAIL: usize = 12;
/// How many stderr lines a failure shows.
const STDERR_TAIL_LINES: usize = 8;

pub fn render(info: &RunInfo, results: &[ScenarioResult], style: &Style) -> String {
    let p = Paint { on: style.color };
    let mut out = String::new();
    if !style.quiet {
        header(&mut out, info, results, &p);
    }
    let mut skips: Vec<(&str, Vec<&ScenarioResult>)> = Vec::new();
    for r in results {
        if r.status == Status::Skipped && !style.verbose {
            // One line per reason (below), not one per scenario.
            let key = r.skip_reason.as_deref().map_or("", shared_part);
            match skips.iter_mut().find(|(k, _)| *k == key) {
                Some((_, group)) => group.push(r),
                None => skips.push((key, vec![r])),
            }
            continue;
        }
        if style.quiet && matches!(r.status, Status::Passed | Status::Skipped) {
            // Quiet hides a passing scenario, not what it was warned
            // about: one line per warning (a failure's warnings are in its
            // details below).
            for v in r.violations.iter().filter(|v| v.severity == Severity::Warn) {
                let _ = writeln!(out, "{}", warning_line(r, v, &p));
            }
            continue;
        }
        let _ = writeln!(out, "{}", status_line(r, &p));
    }
    if !style.quiet {
        for (_, group) in &skips {
            let _ = writeln!(out, "{}", skip_group_line(group, &p));
        }
    }
    let worth = |r: &ScenarioResult| match r.status {
        Status::Failed | Status::Error => true,
        Status::Passed => !style.quiet && (r.warnings() > 0 || style.verbose),
        Status::Skipped => false,
        // No verdict; the transcript so far with --verbose.
        Status::Interrupted => style.verbose,
    };
    // `-v` shows every scenario in full; otherwise a finding shared by
    // several scenarios is shown once (issue 19, item 8).
    let grouping = if style.verbose {
        Grouping::none(results)
    } else {
        Grouping::of(results, worth)
    };
    let mut after_pointer = false;
    for (index, r) in results.iter().enumerate() {
        if !worth(r) {
            continue;
        }
        if let Some(firsts) = grouping.all_elsewhere(index, r) {
            pointer(&mut out, r, &firsts, results, after_pointer, &p);
            after_pointer = true;
        } else {
            details(&mut out, index, r, results, &grouping, style, &p);
            after_pointer = false;
        }
    }
    out.push('\n');
    let listened: u64 = results.iter().map(|r| r.listened_ms).sum();
    if style.verbose
        && results
            .iter()
            .any(|r| matches!(r.status, Status::Passed | Status::Failed))
    {
        // What catching out-of-turn output cost (windows end as soon as the
        // bot is provably idle; `--silence` fixes their length).
        let _ = writeln!(
            out,
            "{}",
            p.dim(&format!(
                "listened {listened} ms in all for output sent out of turn"
            ))
        );
    }
    if let Some(note) = super::busy_machine_note(results) {
        let _ = writeln!(out, "{}", p.yellow(&note));
    }
    // Said next to the summary (also with -q), once for the run: what
    // confined the bots, and what their environment was, can decide a
    // verdict, so the report says what the bots got.
    if let Some(score) = &info.score {
        let _ = writeln!(out, "{} ({})", p.bold(&score.line()), score.policy);
    }
    if let Some(coverage) = &info.coverage {
        if style.verbose {
            out.push_str(&coverage_table(coverage));
        }
        let _ = writeln!(out, "{}", coverage.line(NEVER_SHOWN));
    }
    let _ = writeln!(out, "{}", p.dim(&info.sandbox.line()));
    if let Some(line) = info.environment.line() {
        let _ = writeln!(out, "{}", p.dim(&line));
    }
    let _ = writeln!(out, "{}", summary(&Totals::of(results)));
    out
}

/// How many ids the coverage line names that were never checked or
/// reached (`-v` gives the whole table).
const NEVER_SHOWN: usize = 8;

/// `-v`: every rule and situation with its counts.
fn coverage_table(coverage: &crate::coverage::Summary) -> String {
    let width = coverage.rows.iter().map(|r| r.id.len()).max().unwrap_or(0);
    let mut out = format!(
        "{:width$}  {:>7}  {:>7}  {:>7}\n",
        "coverage", "checked", "passed", "broken"
    );
    for r in &coverage.rows {
        let _ = match r.kind {
            crate::coverage::RowKind::Rule => writeln!(
                out,
                "{:width$}  {:>7}  {:>7}  {:>7}",
                r.id, r.checked, r.passed, r.broken
            ),
            crate::coverage::RowKind::Situation => {
                writeln!(
                    out,
                    "{:width$}  {:>7}  (situation reached)",
                    r.id, r.checked
                )
            }
        };
    }
    out
}

fn header(out: &mut String, info: &RunInfo, results: &[ScenarioResult], p: &Paint) {
    let _ = writeln!(
        out,
        "{}",
        p.bold(&format!(
            "protocheck {} · game {} · bot {}",
            info.version, info.game, info.bot
        ))
    );
    if let Some((n, seed)) = info.generated {
        let _ = writeln!(
            out,
            "{}",
            p.dim(&format!("generated games: {n} (--seed {seed})"))
        );
    }
    if let Some((shard, of)) = &info.partition {
        let _ = writeln!(
            out,
            "{}",
            p.dim(&format!(
                "partition {shard}: {} of {of} selected scenarios",
                results.len()
            ))
        );
    }
    out.push('\n');
}

fn status_line(r: &ScenarioResult, p: &Paint) -> String {
    let tag = match r.status {
        Status::Passed if r.warnings() > 0 => p.yellow("PASS"),
        Status::Passed => p.green("PASS"),
        Status::Failed => p.red("FAIL"),
        Status::Error => p.red("ERROR"),
        Status::Skipped => p.dim("SKIP"),
        Status::Interrupted => p.yellow("INTR"),
    };
    let mut line = format!("{tag:<5} {}", r.name);
    if r.warnings() > 0 {
        line.push_str(&p.yellow(&format!(
            " ({} warning{})",
            r.warnings(),
            plural(r.warnings())
        )));
    }
    if !matches!(r.status, Status::Skipped | Status::Interrupted) {
        line.push_str(&p.dim(&format!("  {} ms", r.duration_ms)));
    } else if let Some(why) = &r.skip_reason {
        line.push_str(&p.dim(&format!("  ({why})")));
    }
    line
}

/// A skip reason without its first clause (`Kalah(6,4) board; a real match
/// … ; run with --all-sizes` → `a real match …; run with --all-sizes`): what
/// the scenarios skipped for one reason share. A reason of one clause is
/// shared whole.
fn shared_part(reason: &str) -> &str {
    reason.split_once("; ").map_or(reason, |(_, rest)| rest)
}

/// One line for the scenarios skipped for one reason: the count, their own
/// clauses (the boards), and the shared rest with the option that runs them.
fn skip_group_line(group: &[&ScenarioResult], p: &Paint) -> String {
    if let [only] = group {
        return status_line(only, p);
    }
    let mut own: Vec<&str> = Vec::new();
    for r in group {
        if let Some((first, _)) = r.skip_reason.as_deref().and_then(|w| w.split_once("; "))
            && !own.contains(&first)
        {
            own.push(first);
        }
    }
    const SHOWN: usize = 4;
    let mut why = own[..own.len().min(SHOWN)].join(", ");
    if own.len() > SHOWN {
        why.push_str(", …");
    }
    let shared = group[0].skip_reason.as_deref().map_or("", shared_part);
    for part in [shared, "-v lists them"] {
        if !why.is_empty() && !part.is_empty() {
            why.push_str("; ");
        }
        why.push_str(part);
    }
    format!(
        "{:<5} {} scenarios {}",
        p.dim("SKIP"),
        group.len(),
        p.dim(&format!("({why})"))
    )
}

/// `N passed, N failed` and, where non-zero, warnings, errors, skips and
/// scenarios interrupted.
pub fn summary(t: &Totals) -> String {
    let mut s = format!("{} passed, {} failed", t.passed, t.failed);
    if t.errors > 0 {
        let _ = write!(s, ", {} error{}", t.errors, plural(t.errors));
    }
    if t.skipped > 0 {
        let _ = write!(s, ", {} skipped", t.skipped);
    }
    if t.interrupted > 0 {
        let _ = write!(s, ", {} interrupted", t.interrupted);
    }
    if t.warnings > 0 {
        let _ = write!(s, ", {} warning{}", t.warnings, plural(t.warnings));
    }
    s
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// One line for a scenario whose every finding is shown in full in an
/// earlier block: its name, its rules, and where to look. Consecutive
/// pointers share one paragraph.
fn pointer(
    out: &mut String,
    r: &ScenarioResult,
    firsts: &[usize],
    results: &[ScenarioResult],
    after_pointer: bool,
    p: &Paint,
) {
    let tag = match r.status {
        Status::Error => "ERROR",
        Status::Passed => "PASS",
        _ => "FAIL",
    };
    let mut rules: Vec<&str> = r.violations.iter().map(|v| v.rule).collect();
    rules.dedup();
    let names: Vec<&str> = firsts.iter().map(|&i| results[i].name.as_str()).collect();
    if !after_pointer {
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "{} {}: the same {} as {} (shown in full above)",
        p.dim(&format!("── {tag}")),
        r.name,
        if r.violations.len() == 1 {
            format!("finding ({})", rules.join(", "))
        } else {
            format!("findings ({})", rules.join(", "))
        },
        names.join(", ")
    );
}

fn details(
    out: &mut String,
    index: usize,
    r: &ScenarioResult,
    results: &[ScenarioResult],
    grouping: &Grouping,
    style: &Style,
    p: &Paint,
) {
    let title = match r.status {
        Status::Failed => p.red(&format!("── FAIL {} ", r.name)),
        Status::Error => p.red(&format!("── ERROR {} ", r.name)),
        _ => p.bold(&format!("── {} ", r.name)),
    };
    let _ = writeln!(
        out,
        "\n{title}{}",
        "─".repeat(60usize.saturating_sub(r.name.len() + 9))
    );
    let _ = writeln!(out, "  source: {}", r.source);
    if let Some(about) = &r.about {
        let _ = writeln!(out, "  about:  {}", about.trim());
    }
    if let Some(error) = &r.error {
        let _ = writeln!(out, "  {} {error}", p.red("scenario error:"));
    }
    for (f, v) in r.violations.iter().enumerate() {
        match grouping.place(index, f) {
            Place::Repeat(first) => {
                let at = v
                    .step
                    .as_ref()
                    .map(|s| format!("{s}  "))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  {at}{} [{}] the same finding as {} (shown in full above)",
                    p.bold(v.rule),
                    v.severity.as_str(),
                    results[*first].name
                );
            }
            place => {
                violation(out, v, &r.game, style, p);
                if let Place::First(others) = place {
                    let names: Vec<&str> =
                        others.iter().map(|&i| results[i].name.as_str()).collect();
                    let _ = writeln!(
                        out,
                        "    {} {} more scenario{} with the same finding: {}",
                        p.yellow("and"),
                        others.len(),
                        plural(others.len()),
                        names.join(", ")
                    );
                }
            }
        }
    }
    for o in &r.omitted {
        let _ = writeln!(
            out,
            "  {} and {} more `{}` finding{} (only the first {} of each rule are kept)",
            p.dim("…"),
            crate::shown::group_thousands(o.count),
            o.rule,
            if o.count == 1 { "" } else { "s" },
            crate::shown::KEPT_PER_RULE
        );
    }
    let shown = if style.verbose {
        r.transcript.len()
    } else {
        TRANSCRIPT_TAIL
    };
    if !r.transcript.is_empty() {
        let skip = r.transcript.len().saturating_sub(shown);
        let _ = writeln!(
            out,
            "  transcript{}:",
            if skip > 0 {
                format!(" (last {shown} of {})", r.transcript.len())
            } else {
                String::new()
            }
        );
        for line in &r.transcript[skip..] {
            let (mark, text) = match line.dir {
                Direction::Sent => ('>', line.text.clone()),
                Direction::Received => ('<', line.text.clone()),
                Direction::Note => ('#', p.dim(&line.text)),
            };
            let _ = writeln!(
                out,
                "    {} {mark} {text}",
                p.dim(&format!("{:>6}ms", line.ms))
            );
        }
    }
    if !r.stderr_tail.is_empty() {
        let lines: Vec<&str> = r.stderr_tail.lines().collect();
        let skip = lines.len().saturating_sub(STDERR_TAIL_LINES);
        let _ = writeln!(
            out,
            "  bot stderr ({} bytes in all, last lines):",
            r.stderr_bytes
        );
        for l in &lines[skip..] {
            let _ = writeln!(out, "    | {}", truncate(l, 160));
        }
    }
    if let Some(path) = &r.saved_to {
        let _ = writeln!(out, "  saved:  {path}");
    }
    if let Some(cmd) = &r.replay {
        let _ = writeln!(out, "  replay: {cmd}");
    }
}

/// How long a warning's message may be on its one line under `-q`.
const WARNING_LINE_MESSAGE: usize = 120;

/// `WARN  scenario  rule: message` (the message's first line, shortened).
fn warning_line(r: &ScenarioResult, v: &Violation, p: &Paint) -> String {
    let message = v.message.lines().next().unwrap_or("");
    format!(
        "{:<5} {}  {}: {}",
        p.yellow("WARN"),
        r.name,
        p.bold(v.rule),
        truncate(message, WARNING_LINE_MESSAGE)
    )
}

fn violation(out: &mut String, v: &Violation, game: &str, style: &Style, p: &Paint) {
    let sev = match v.severity {
        Severity::Fail => p.red("fail"),
        Severity::Warn => p.yellow("warn"),
    };
    let at = v
        .step
        .as_ref()
        .map(|s| format!("{s}  "))
        .unwrap_or_default();
    let _ = writeln!(out, "  {at}{} [{sev}]", p.bold(v.rule));
    let _ = writeln!(out, "    {}", v.message);
    let _ = writeln!(out, "    {} {}", p.dim("spec:"), v.spec);
    if let (Some(e), Some(a)) = (&v.expected, &v.actual) {
        let _ = writeln!(out, "    {}", p.dim("expected vs actual:"));
        diff(out, e, a, p);
    } else if let Some(a) = &v.actual {
        let _ = writeln!(out, "    actual: {a}");
    }
    // A board is drawn for a failure; for a warning only with -v (a
    // 25x25 Quoridor board per warning buried the failures).
    if let Some(board) = v
        .board
        .as_ref()
        .filter(|_| v.severity == Severity::Fail || style.verbose)
    {
        let _ = writeln!(out, "    {}", p.dim("board at this step:"));
        for line in board.lines() {
            let _ = writeln!(out, "      {line}");
        }
    }
    // Every finding, warnings too, ends with the command that explains its
    // rule; a shared `io.*` id names the game, whose version applies.
    let game_option = if v.rule.starts_with("io.") && !game.is_empty() {
        format!(" --game {game}")
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "    {} protocheck explain {}{game_option}",
        p.dim("explain:"),
        v.rule
    );
}

/// `- expected` / `+ actual`, with the differing characters marked when both
/// are single lines (similar's character diff).
fn diff(out: &mut String, expected: &str, actual: &str, p: &Paint) {
    if expected.contains('\n') || actual.contains('\n') {
        let d = similar::TextDiff::from_lines(expected, actual);
        for change in d.iter_all_changes() {
            let text = change.value().trim_end_matches('\n');
            let line = match change.tag() {
                similar::ChangeTag::Delete => p.red(&format!("- {text}")),
                similar::ChangeTag::Insert => p.green(&format!("+ {text}")),
                similar::ChangeTag::Equal => format!("  {text}"),
            };
            let _ = writeln!(out, "      {line}");
        }
        return;
    }
    let d = similar::TextDiff::from_chars(expected, actual);
    let (mut minus, mut plus) = (String::new(), String::new());
    for change in d.iter_all_changes() {
        let v = change.value();
        match change.tag() {
            similar::ChangeTag::Equal => {
                minus.push_str(&p.red(v));
                plus.push_str(&p.green(v));
            }
            similar::ChangeTag::Delete => minus.push_str(&p.red_bg(v)),
            similar::ChangeTag::Insert => plus.push_str(&p.green_bg(v)),
        }
    }
    let _ = writeln!(out, "      {} {minus}", p.red("-"));
    let _ = writeln!(out, "      {} {plus}", p.green("+"));
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

#[cfg(test)]
#[path = "human_tests.rs"]
mod tests;
