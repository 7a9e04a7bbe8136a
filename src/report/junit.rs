//! The JUnit XML report: one testsuite per game, one testcase per scenario;
//! a failure carries the rule id as its type so CI systems can group them.

use super::RunInfo;
use crate::outcome::{Direction, ScenarioResult, Status};
use crate::verdict::Severity;
use std::fmt::Write;

/// XML-escape text for attributes and element content. Control characters
/// other than tab/LF/CR are not allowed in XML 1.0 at all, so they are shown
/// as `\u{..}` instead of producing a file CI tools reject.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn secs(ms: u64) -> String {
    format!("{:.3}", ms as f64 / 1000.0)
}

pub fn render(info: &RunInfo, results: &[ScenarioResult]) -> String {
    let mut games: Vec<&str> = results.iter().map(|r| r.game.as_str()).collect();
    games.dedup();
    if games.is_empty() {
        games.push(&info.game);
    }
    let count = |rs: &[&ScenarioResult], s: Status| {
        rs.iter()
            .filter(|r| r.status == s || (s == Status::Skipped && r.status == Status::Interrupted))
            .count()
    };
    let all: Vec<&ScenarioResult> = results.iter().collect();
    let total_ms: u64 = results.iter().map(|r| r.duration_ms).sum();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"protocheck\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\">",
        results.len(),
        count(&all, Status::Failed),
        count(&all, Status::Error),
        count(&all, Status::Skipped),
        secs(total_ms)
    );
    for game in games {
        let rs: Vec<&ScenarioResult> = results.iter().filter(|r| r.game == game).collect();
        let ms: u64 = rs.iter().map(|r| r.duration_ms).sum();
        let _ = writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{}\">",
            esc(game),
            rs.len(),
            count(&rs, Status::Failed),
            count(&rs, Status::Error),
            count(&rs, Status::Skipped),
            secs(ms)
        );
        let _ = writeln!(
            x,
            "    <properties><property name=\"protocheck\" value=\"{}\"/><property name=\"bot\" value=\"{}\"/>{}{}{}</properties>",
            esc(&info.version),
            esc(&info.bot),
            score_properties(info.score.as_ref()),
            sandbox_property(&info.sandbox),
            environment_properties(&info.environment)
        );
        for r in rs {
            testcase(&mut x, r);
        }
        x.push_str("  </testsuite>\n");
    }
    x.push_str("</testsuites>\n");
    x
}

/// The run's score (the whole run's, on every testsuite), out of its
/// maximum, under the policy named.
fn score_properties(score: Option<&crate::grading::Score>) -> String {
    let Some(s) = score else {
        return String::new();
    };
    format!(
        "<property name=\"score\" value=\"{}\"/><property name=\"max_score\" value=\"{}\"/><property name=\"grading\" value=\"{}\"/>",
        crate::grading::show(s.score),
        crate::grading::show(s.max_score),
        esc(&s.policy)
    )
}

/// Which sandbox layers confined the bots: the human report's line
/// without its `sandbox: ` (e.g. `landlock v7 (files, tcp, signals),
/// seccomp (scheduling)` or `none (--sandbox off)`).
pub(crate) fn sandbox_property(layers: &crate::transport::sandbox::Layers) -> String {
    format!(
        "<property name=\"sandbox\" value=\"{}\"/>",
        esc(&super::sandbox_value(layers))
    )
}

/// What the bots' environment left out of protocheck's (always said, so
/// that an empty value means nothing was), kept or set (when any).
fn environment_properties(note: &crate::transport::environment::EnvNote) -> String {
    let mut x = format!(
        "<property name=\"environment.removed\" value=\"{}\"/>",
        esc(&note.removed.join(","))
    );
    for (name, list) in [
        ("environment.passed", &note.passed),
        ("environment.set", &note.set),
    ] {
        if !list.is_empty() {
            let _ = write!(
                x,
                "<property name=\"{name}\" value=\"{}\"/>",
                esc(&list.join(","))
            );
        }
    }
    x
}

fn testcase(x: &mut String, r: &ScenarioResult) {
    let _ = write!(
        x,
        "    <testcase name=\"{}\" classname=\"{}.{}\"",
        esc(&r.name),
        esc(&r.game),
        esc(&r.name),
    );
    // `file` is a path CI tools open: only a user's scenario file has one
    // (a built-in scenario lives in the binary, a generated game nowhere).
    if let Some(path) = super::user_file(&r.source, None) {
        let _ = write!(x, " file=\"{}\"", esc(&path));
    }
    let _ = writeln!(x, " time=\"{}\">", secs(r.duration_ms));
    match r.status {
        // JUnit has no "interrupted": skipped, with the reason.
        Status::Skipped | Status::Interrupted => {
            let why = r.skip_reason.as_deref().unwrap_or("not run");
            let _ = writeln!(x, "      <skipped message=\"{}\"/>", esc(why));
        }
        Status::Error => {
            let msg = r.error.clone().unwrap_or_default();
            let _ = writeln!(
                x,
                "      <error message=\"{}\" type=\"scenario.invalid\">{}</error>",
                esc(&msg),
                esc(&msg)
            );
        }
        Status::Failed => {
            let fails: Vec<_> = r
                .violations
                .iter()
                .filter(|v| v.severity == Severity::Fail)
                .collect();
            let first = fails[0];
            let mut body = String::new();
            for v in &r.violations {
                let _ = writeln!(body, "[{}] {}: {}", v.severity.as_str(), v.rule, v.message);
                if let Some(step) = &v.step {
                    let _ = writeln!(body, "  at {step}");
                }
                let _ = writeln!(body, "  spec: {}", v.spec);
                if let Some(e) = &v.expected {
                    let _ = writeln!(body, "  expected: {e}");
                }
                if let Some(a) = &v.actual {
                    let _ = writeln!(body, "  actual:   {a}");
                }
            }
            for o in &r.omitted {
                let _ = writeln!(
                    body,
                    "… and {} more {} findings (only the first {} of each rule are kept)",
                    o.count,
                    o.rule,
                    crate::shown::KEPT_PER_RULE
                );
            }
            let _ = writeln!(
                x,
                "      <failure message=\"{}: {}\" type=\"{}\">{}</failure>",
                esc(first.rule),
                esc(&first.message),
                esc(first.rule),
                esc(&body)
            );
        }
        Status::Passed => {}
    }
    if !r.transcript.is_empty() {
        let mut out = String::new();
        for line in &r.transcript {
            let mark = match line.dir {
                Direction::Sent => '>',
                Direction::Received => '<',
                Direction::Note => '#',
            };
            let _ = writeln!(out, "{mark} {}", line.text);
        }
        let _ = writeln!(x, "      <system-out>{}</system-out>", esc(&out));
    }
    if !r.stderr_tail.is_empty() {
        let _ = writeln!(x, "      <system-err>{}</system-err>", esc(&r.stderr_tail));
    }
    x.push_str("    </testcase>\n");
}

#[cfg(test)]
mod tests {
    use super::esc;

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(esc("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(esc("x\u{1}y\tz"), "x\\u{1}y\tz");
    }
}
