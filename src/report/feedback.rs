//! Per-student feedback for the grading platforms (Gradescope,
//! PrairieLearn): short Markdown for each graded item, free of the
//! grader's paths: the bot is named by its file name, a scenario file by
//! its own name.

use super::RunInfo;
use crate::grading::Test;
use crate::outcome::{Direction, ScenarioResult, Status};
use crate::verdict::Severity;
use std::fmt::Write;

/// How many transcript lines lead up to the failing reply.
const EXCHANGE_LINES: usize = 6;

/// The bot as a student knows it: `./bot` for `/autograder/submission/bot`,
/// the command's first word only.
pub fn bot_name(bot: &str) -> String {
    let program = bot.split_whitespace().next().unwrap_or(bot);
    let name = program.rsplit('/').next().unwrap_or(program);
    format!("./{name}")
}

/// `text` with the grader's absolute paths left out: the bot's path
/// becomes its name, and any other absolute path its last component.
pub fn without_paths(text: &str, bot: &str) -> String {
    let program = bot.split_whitespace().next().unwrap_or(bot);
    let text = if program.starts_with('/') {
        text.replace(program, &bot_name(program))
    } else {
        text.to_string()
    };
    // Any other absolute path (two components or more): its last one.
    static PATH: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"(^|[\s`'"(=])/[^\s`'"():,]+/([^\s`'"():,/]+)"#)
            .expect("a valid pattern")
    });
    PATH.replace_all(&text, "$1$2").into_owned()
}

/// The scenario's results of a graded item, in report order.
/// The run's score: the policy's, or the default policy's where the run was
/// given none (both platforms grade every run).
pub fn run_score(info: &RunInfo, results: &[ScenarioResult]) -> crate::grading::Score {
    info.score.clone().unwrap_or_else(|| {
        crate::grading::score(
            &Default::default(),
            crate::grading::DEFAULT_SOURCE,
            results,
            &[],
        )
    })
}

pub fn members<'a>(test: &Test, results: &'a [ScenarioResult]) -> Vec<&'a ScenarioResult> {
    results
        .iter()
        .filter(|r| test.scenarios.contains(&r.name))
        .collect()
}

/// Every rule with a finding in the item's scenarios, each once.
pub fn rules(members: &[&ScenarioResult]) -> Vec<String> {
    let mut rules: Vec<String> = Vec::new();
    for r in members {
        for rule in r
            .violations
            .iter()
            .map(|v| v.rule)
            .chain(r.omitted.iter().map(|o| o.rule))
        {
            if !rules.iter().any(|known| known == rule) {
                rules.push(rule.to_string());
            }
        }
    }
    rules
}

/// The item's feedback in Markdown: what passed, or the first scenario
/// that lost points: its first failing finding (rule, spec sentence,
/// message), the exchange up to it, and the command that replays it.
pub fn test_output(test: &Test, results: &[ScenarioResult], info: &RunInfo) -> String {
    let members = members(test, results);
    let mut out = String::new();
    let lost = members.iter().find(|r| {
        r.status != Status::Passed || test.lost.as_deref().is_some_and(|l| l.starts_with(&r.name))
    });
    let Some(r) = lost else {
        let _ = write!(out, "Passed");
        if members.len() > 1 {
            let _ = write!(out, ": all {} scenarios", members.len());
        }
        if let Some(note) = test.lost.as_deref() {
            let _ = write!(out, " ({note})");
        }
        out.push_str(".\n");
        return out;
    };
    let _ = writeln!(out, "**{}**: {}", r.name, status_word(r));
    if let Some(about) = &r.about {
        let _ = writeln!(out, "\n{}", first_sentence(about));
    }
    let finding = r
        .violations
        .iter()
        .find(|v| v.severity == Severity::Fail)
        .or(r.violations.first());
    if let Some(v) = finding {
        let _ = writeln!(
            out,
            "\n`{}` ({}): {}",
            v.rule,
            v.severity.as_str(),
            without_paths(&v.message, &info.bot)
        );
        let _ = writeln!(out, "\n> {}", v.spec);
        if let Some(expected) = &v.expected {
            let _ = writeln!(out, "\nExpected: `{}`", expected.trim());
        }
        let exchange = exchange(r, v.actual.as_deref());
        if !exchange.is_empty() {
            let _ = writeln!(out, "\n```text\n{exchange}```");
        }
        let _ = writeln!(out, "\nExplained: `protocheck explain {}`", v.rule);
    } else if let Some(why) = r.error.as_deref().or(r.skip_reason.as_deref()) {
        let _ = writeln!(out, "\n{}", without_paths(why, &info.bot));
    }
    let _ = writeln!(out, "\nReplay: `{}`", replay(r, info));
    if members.len() > 1 {
        let passed = members
            .iter()
            .filter(|m| m.status == Status::Passed)
            .count();
        let _ = writeln!(
            out,
            "\n{passed} of {} scenarios in this test passed.",
            members.len()
        );
    }
    out
}

/// The command that plays the scenario again against the student's bot.
fn replay(r: &ScenarioResult, info: &RunInfo) -> String {
    match &r.replay {
        Some(command) => without_paths(
            command
                .split("   (add --save-failures")
                .next()
                .unwrap_or(command),
            &info.bot,
        ),
        None => {
            let scenarios = super::user_file(&r.source, None)
                .map(|file| format!(" --scenarios {}", without_paths(&file, &info.bot)))
                .unwrap_or_default();
            format!(
                "protocheck --game {}{scenarios} --filter {} {}",
                r.game,
                r.name,
                bot_name(&info.bot)
            )
        }
    }
}

/// The transcript up to the reply the finding is about (the last line
/// received that holds it), or its end: a few lines, `>` sent, `<`
/// received, `#` what protocheck noted.
fn exchange(r: &ScenarioResult, actual: Option<&str>) -> String {
    let lines = &r.transcript;
    let end = actual
        .filter(|a| !a.trim().is_empty())
        .and_then(|a| {
            lines
                .iter()
                .rposition(|l| l.dir == Direction::Received && l.text.contains(a.trim()))
        })
        .map(|i| i + 1)
        .unwrap_or(lines.len());
    let start = end.saturating_sub(EXCHANGE_LINES);
    let mut out = String::new();
    for line in &lines[start..end] {
        let mark = match line.dir {
            Direction::Sent => '>',
            Direction::Received => '<',
            Direction::Note => '#',
        };
        // A fence inside the text would end the code block.
        let text = line.text.replace("```", "` ` `");
        let _ = writeln!(out, "{mark} {text}");
    }
    out
}

fn first_sentence(text: &str) -> &str {
    let text = text.trim();
    match text.find(". ") {
        Some(i) => &text[..=i],
        None => text,
    }
}

/// `passed`, `failed`, …, in words.
fn status_word(r: &ScenarioResult) -> &'static str {
    match r.status {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::Error => "error",
        Status::Skipped => "not run",
        Status::Interrupted => "interrupted",
    }
}

/// The summary of the whole run, in Markdown: the score, the totals, the
/// sandbox line.
pub fn summary(info: &RunInfo, results: &[ScenarioResult]) -> String {
    let mut out = String::new();
    if let Some(score) = &info.score {
        let _ = writeln!(out, "**{}** ({})\n", score.line(), score.policy);
    }
    let _ = writeln!(
        out,
        "{} ({} against protocheck {})\n",
        super::human::summary(&crate::outcome::Totals::of(results)),
        info.game,
        info.version
    );
    let _ = writeln!(out, "{}", info.sandbox.line());
    if info
        .score
        .as_ref()
        .is_some_and(|s| s.tests.iter().any(|t| t.hidden))
    {
        let _ = writeln!(
            out,
            "\nSome tests are hidden until their due date; their points are counted."
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grader_s_paths_are_left_out() {
        let bot = "/autograder/submission/my-bot --depth 3";
        assert_eq!(bot_name(bot), "./my-bot");
        assert_eq!(
            without_paths(
                "cannot start bot `/autograder/submission/my-bot`: No such file",
                bot
            ),
            "cannot start bot `./my-bot`: No such file"
        );
        assert_eq!(
            without_paths(
                "see /home/ta/course/scenarios/x.yaml:3:1 (or /tmp/a/b)",
                bot
            ),
            "see x.yaml:3:1 (or b)"
        );
        assert_eq!(
            without_paths("holes 1/7 and a/b stay", bot),
            "holes 1/7 and a/b stay"
        );
    }
}
