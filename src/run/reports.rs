//! The reports of a run, written where the command line asks
//! (`--report KIND[=FILE]`, `--format/--output`), every one from the same
//! results; and the grading policy that scores them.

use super::{ColorChoice, RunSpec};
use crate::fatal::Fatal;
use crate::outcome::{ScenarioResult, Totals};
use crate::report::stdout::emit;
use crate::report::{self, RunInfo, human::Style};
use std::io::IsTerminal;

/// Write every report; the person at the terminal gets the summary line.
pub(super) fn write(
    spec: &RunSpec,
    info: &RunInfo,
    results: &[ScenarioResult],
) -> Result<(), Fatal> {
    let reports = requests(spec)?;
    let lean;
    // Pictures recorded for an HTML report stay out of the others (the
    // JSON report would grow some thirty times), unless --pictures asks.
    let drawn_only_for_html = !spec.pictures && results.iter().any(|r| !r.frames.is_empty());
    let without_pictures = if drawn_only_for_html {
        lean = results
            .iter()
            .map(|r| ScenarioResult {
                frames: Vec::new(),
                ..r.clone()
            })
            .collect::<Vec<_>>();
        &lean[..]
    } else {
        results
    };
    for request in &reports {
        let to_terminal = request.path.is_none() && std::io::stdout().is_terminal();
        let style = Style {
            color: match spec.color {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => to_terminal && std::env::var_os("NO_COLOR").is_none(),
            },
            verbose: spec.verbose,
            quiet: spec.quiet,
        };
        let shown = match request.format {
            report::Format::Html => results,
            _ => without_pictures,
        };
        let text = report::render(request.format, info, shown, &style);
        match &request.path {
            Some(path) => std::fs::write(path, &text)
                .map_err(|e| Fatal::io(format!("cannot write {}", path.display()), e))?,
            None => emit(&text),
        }
    }
    // The person at the terminal gets the one line that says how it went,
    // unless the human report went to standard output; reports written to
    // files always say it (on stderr).
    let human_on_stdout = reports
        .iter()
        .any(|r| r.path.is_none() && r.format == report::Format::Human);
    let any_file = reports.iter().any(|r| r.path.is_some());
    if !human_on_stdout && (any_file || std::io::stderr().is_terminal()) {
        eprintln!("{}", report::human::summary(&Totals::of(results)));
    }
    // A GitHub report holds the annotations already: not twice.
    let github_report = reports.iter().any(|r| r.format == report::Format::Github);
    crate::actions::emit_extras(github_report, spec.no_annotations, info, results);
    Ok(())
}

/// The grading policy (`--grading FILE`, which the project file's own
/// `[grading]` table sets) and its source as reports name it (the file's
/// name, never a grader's absolute path); the default without one.
pub(super) fn policy(spec: &RunSpec) -> Result<(crate::grading::policy::Policy, String), Fatal> {
    use crate::grading::policy::Policy;
    let Some(file) = &spec.grading else {
        return Ok((Policy::default(), crate::grading::DEFAULT_SOURCE.into()));
    };
    let policy = Policy::from_file(file).map_err(|e| Fatal::usage(e.to_string()))?;
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match policy {
        Some(p) => Ok((p, format!("{name} [grading]"))),
        None => Err(Fatal::usage(format!(
            "--grading {}: the file has no [grading] table",
            file.display()
        ))),
    }
}

/// The reports the command line asks for (`--report`, `--format/--output`).
pub(super) fn requests(spec: &RunSpec) -> Result<Vec<report::request::Request>, Fatal> {
    report::request::plan(&spec.report, spec.format, spec.output.as_deref())
        .map_err(|e| Fatal::usage(e.to_string()))
}

/// A bot that could not be started still gets the grading platforms'
/// results (Gradescope: score 0 and why; PrairieLearn: not gradable, so
/// no attempt is lost); the error itself goes on as it was.
pub(super) fn unstartable(spec: &RunSpec, fatal: Fatal) -> Fatal {
    let Fatal::Bot(error) = &fatal else {
        return fatal;
    };
    let message = &error.to_string();
    let bot = spec
        .bot
        .clone()
        .or(spec.bot_cmd.clone())
        .unwrap_or_default();
    let message = report::feedback::without_paths(message, &bot);
    for request in requests(spec).unwrap_or_default() {
        let text = match request.format {
            report::Format::Gradescope => report::gradescope::unstartable(&message),
            report::Format::Prairielearn => report::prairielearn::unstartable(&message),
            _ => continue,
        };
        match &request.path {
            Some(path) => {
                if let Err(e) = std::fs::write(path, text) {
                    eprintln!("protocheck: cannot write {}: {e}", path.display());
                }
            }
            None => emit(&text),
        }
    }
    fatal
}
