//! Grading the roster: up to `jobs` bots at once on the pool, each by its
//! own protocheck (`child`); bots graded before and unchanged since are
//! kept; a stop (Ctrl-C, SIGTERM) is passed on to the running ones, whose
//! reports are still written.

use super::child::{self, Running};
use super::folder::{self, Manifest};
use super::progress::Progress;
use super::roster::Entry;
use super::table::{self, Row};
use crate::pool::{Event, Outcome, Pool, StopToken};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long a bot's protocheck stopped for overrunning its budget gets to
/// write its report before grade kills it.
const STOP_DEADLINE: Duration = Duration::from_secs(15);

/// How long past its `--bot-time-limit` a bot's protocheck may run (it
/// stops its bot at the limit itself, then writes its report) before grade
/// stops it: the backstop for a protocheck that cannot stop its bot (see
/// `suite::budget`) or is stuck.
const BUDGET_GRACE: Duration = Duration::from_secs(30);

/// How often the live line's "slowest running" figure is redrawn.
const TICK: Duration = Duration::from_millis(250);

/// What a bot was graded with: a kept grade must have been made the same way.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Signature {
    protocheck: String,
    command: Vec<String>,
    workdir: String,
    options: Vec<String>,
    /// `--bot-time-limit`, in milliseconds (absent: none).
    #[serde(default)]
    bot_time_limit_ms: Option<u64>,
    /// The SHA-256 of the files the options name whose content decides
    /// the score (`--grading`, `--config`): a changed policy grades again.
    #[serde(default)]
    policy_files: Option<String>,
}

/// `<out>/<id>/grade.json`.
#[derive(Serialize, Deserialize)]
struct Kept {
    signature: Signature,
    /// The bot's folder as it was submitted: taken before it ran.
    #[serde(default)]
    submission: Option<Manifest>,
    /// The folder as its grading left it (with the bot's own writes).
    #[serde(default)]
    left: Option<Manifest>,
    row: Row,
}

/// What to do with a bot: keep its earlier grade, or grade it (saying why
/// when it had one).
enum Decision {
    Keep(Box<Row>, &'static str),
    Grade(Option<String>),
}

pub struct Plan<'a> {
    pub entries: &'a [Entry],
    pub options: &'a [String],
    pub out: &'a Path,
    pub jobs: usize,
    pub force: bool,
    /// `--bot-time-limit`.
    pub budget: Option<Duration>,
    /// grade's stop: no bot starts after it, and it is passed on to the
    /// running ones.
    pub stop: &'a StopToken,
}

/// Grade every entry; the rows in roster order.
pub fn grade_all(plan: &Plan) -> Vec<Row> {
    let mut rows: Vec<Option<Row>> = vec![None; plan.entries.len()];
    let mut queue = Vec::new();
    let mut progress = Progress::start(plan.entries.len());
    let earlier: Vec<Option<Result<Kept, String>>> = plan
        .entries
        .iter()
        .map(|e| earlier_grade(e, plan))
        .collect();
    let submissions = submissions(plan, &earlier);
    let mut why_graded: Vec<Option<String>> = vec![None; plan.entries.len()];
    for (i, entry) in plan.entries.iter().enumerate() {
        match decide(entry, plan, earlier[i].as_ref(), &submissions[i]) {
            Decision::Keep(row, why) => {
                progress.done(&row, why);
                let folder = child::folder(plan.out, &entry.id);
                rows[i] = Some(table::with_recorded_sandbox(*row, &folder));
            }
            Decision::Grade(why) => {
                why_graded[i] = why;
                queue.push(i);
            }
        }
    }
    // The jobs no other bot needs go to a bot's scenarios (its
    // protocheck's own `--jobs`), so a class smaller than `--jobs` still
    // uses every job. The verdicts do not depend on it: replies are judged
    // by the bot's own time.
    let pool = Pool::new(plan.jobs, plan.stop).spare_slots_to_the_last();
    let live = Live {
        state: Mutex::new((progress, BTreeMap::new(), false)),
        changed: Condvar::new(),
    };
    let outcomes = std::thread::scope(|scope| {
        if live.lock().0.live() {
            scope.spawn(|| live.tick(plan));
        }
        let outcomes = pool.run(
            queue.len(),
            |job| {
                let i = queue[job.index];
                grade_one(
                    plan,
                    i,
                    job.slots,
                    &submissions[i],
                    why_graded[i].as_deref(),
                )
            },
            &mut |event| live.record(plan, &queue, event),
        );
        live.lock().2 = true;
        live.changed.notify_all();
        outcomes
    });
    for (k, outcome) in outcomes.into_iter().enumerate() {
        let entry = &plan.entries[queue[k]];
        rows[queue[k]] = Some(match outcome {
            Outcome::Done((row, _)) => row,
            Outcome::Panicked(why) => unstarted(
                entry,
                &format!("internal error in grade (please report it): {why}"),
            ),
            // Not started: no verdict, and a later run grades them.
            Outcome::NotRun => {
                let mut row = unstarted(entry, "not graded: grade was stopped");
                row.status = "interrupted".into();
                row
            }
        });
    }
    let (progress, _, _) = live.state.into_inner().unwrap_or_else(|e| e.into_inner());
    progress.finish();
    rows.into_iter().flatten().collect()
}

/// What grade says while the pool runs: a line per graded bot, and on a
/// terminal the live line, redrawn now and then (the running bots by
/// index, with when each started; whether the pool is done).
struct Live {
    state: Mutex<(Progress, BTreeMap<usize, Instant>, bool)>,
    changed: Condvar,
}

impl Live {
    fn lock(&self) -> std::sync::MutexGuard<'_, (Progress, BTreeMap<usize, Instant>, bool)> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A bot's protocheck started or ended (`queue`: the pool's jobs'
    /// roster indices).
    fn record(&self, plan: &Plan, queue: &[usize], event: Event<'_, (Row, String)>) {
        let mut state = self.lock();
        let (progress, running, _) = &mut *state;
        match event {
            Event::Started { index, .. } => {
                running.insert(queue[index], Instant::now());
            }
            Event::Finished { index, outcome, .. } => {
                running.remove(&queue[index]);
                if let Outcome::Done((row, how)) = outcome {
                    progress.done(row, how);
                }
            }
        }
        draw(progress, running, plan);
    }

    /// Redraw the live line until the pool is done.
    fn tick(&self, plan: &Plan) {
        let mut state = self.lock();
        while !state.2 {
            state = self
                .changed
                .wait_timeout(state, TICK)
                .unwrap_or_else(|e| e.into_inner())
                .0;
            let (progress, running, _) = &mut *state;
            draw(progress, running, plan);
        }
    }
}

fn draw(progress: &mut Progress, running: &BTreeMap<usize, Instant>, plan: &Plan) {
    progress.running(
        running
            .iter()
            .map(|(&i, &started)| (plan.entries[i].id.as_str(), started)),
    );
}

/// Grade the bot at roster index `i` by a protocheck of its own with
/// `jobs` scenarios at once: its row, and how its grading went (for its
/// progress line).
fn grade_one(
    plan: &Plan,
    i: usize,
    jobs: usize,
    submission: &Manifest,
    why_graded: Option<&str>,
) -> (Row, String) {
    let entry = &plan.entries[i];
    let running = match child::start(entry, plan.options, plan.out, jobs, plan.budget) {
        Ok(r) => r,
        Err(e) => {
            let row = unstarted(entry, &format!("cannot start protocheck for it: {e}"));
            return (row, String::new());
        }
    };
    let started = running.started;
    let (status, overran) = match wait(running, plan) {
        Ok(ended) => ended,
        Err(e) => {
            let row = unstarted(entry, &format!("lost its protocheck: {e}"));
            return (row, String::new());
        }
    };
    let mut row = finish(entry, plan, status, started, submission);
    if overran {
        row.note = Some(overran_note(plan.budget));
    }
    let mut how = format!("{:.1} s", row.seconds);
    if jobs > 1 {
        how += &format!(" ({jobs} scenarios at once)");
    }
    if row.not_run > 0
        && let Some(limit) = plan.budget
    {
        how += &format!(", {} {}", row.not_run, crate::suite::budget::reason(limit));
    }
    if let Some(why) = why_graded {
        how += &format!(", graded again: {why}");
    }
    (row, how)
}

/// Wait for a bot's protocheck to end, passing grade's stop on to it at
/// once and stopping it when it runs on past its budget and grace
/// (SIGTERM: it stops its bot and writes its report; then SIGKILL); its
/// exit status, and whether grade stopped it for its budget.
fn wait(mut running: Running, plan: &Plan) -> std::io::Result<(std::process::ExitStatus, bool)> {
    let group = running.child.id() as i32;
    let (ended_tx, ended_rx) = mpsc::channel();
    let mut overran = None;
    let ended = std::thread::scope(|scope| {
        // The child stays unreaped until the stop's watcher is gone, so no
        // signal sent to its group can reach another process.
        scope.spawn(move || {
            let _ = ended_tx.send(child::wait_unreaped(group));
        });
        let _passing_on = plan
            .stop
            .watch(move |stop| child::signal(group, stop.signal));
        let mut killed = false;
        loop {
            let deadline = match (plan.budget, overran) {
                _ if killed => None,
                (Some(limit), None) => Some(running.started + limit + BUDGET_GRACE),
                (Some(_), Some(at)) => Some(at + STOP_DEADLINE),
                (None, _) => None,
            };
            let next = match deadline {
                Some(at) => ended_rx.recv_timeout(at.saturating_duration_since(Instant::now())),
                None => ended_rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            match next {
                Ok(ended) => return ended,
                Err(RecvTimeoutError::Timeout) if overran.is_none() => {
                    child::signal(group, libc::SIGTERM);
                    overran = Some(Instant::now());
                }
                Err(RecvTimeoutError::Timeout) => {
                    child::signal(group, libc::SIGKILL);
                    killed = true;
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(std::io::Error::other("its waiter is gone"));
                }
            }
        }
    });
    ended?;
    Ok((running.child.wait()?, overran.is_some()))
}

fn signature(entry: &Entry, plan: &Plan) -> Signature {
    Signature {
        protocheck: crate::build_info::LONG.into(),
        command: entry.command.clone(),
        workdir: entry.workdir.display().to_string(),
        options: plan.options.to_vec(),
        bot_time_limit_ms: plan.budget.map(|d| d.as_millis() as u64),
        policy_files: policy_files(plan.options),
    }
}

/// The digest of the files named by `--grading` and `--config` in the run
/// options (paths made absolute by `options::check`); `None` without any.
fn policy_files(options: &[String]) -> Option<String> {
    let mut files = Vec::new();
    let mut words = options.iter();
    while let Some(word) = words.next() {
        for name in ["--grading", "--config"] {
            if word == name {
                files.extend(words.next().cloned());
            } else if let Some(value) = word.strip_prefix(&format!("{name}=")) {
                files.push(value.to_string());
            }
        }
    }
    if files.is_empty() {
        return None;
    }
    let mut hash = super::sha256::Sha256::default();
    for file in files {
        hash.update(file.as_bytes());
        hash.update(&std::fs::read(&file).unwrap_or_default());
    }
    Some(hash.hex())
}

/// The folders whose change means a bot changed: its working folder,
/// and grade's output folder left out of it when it lies inside.
fn take_manifest(entry: &Entry, plan: &Plan, earlier: &[&Manifest]) -> Manifest {
    folder::manifest(
        &entry.workdir,
        &entry.files,
        &[plan.out.to_path_buf()],
        earlier,
    )
}

/// The bot's earlier grade: none, or its `grade.json` (or why that cannot
/// be read).
fn earlier_grade(entry: &Entry, plan: &Plan) -> Option<Result<Kept, String>> {
    let path = child::folder(plan.out, &entry.id).join("grade.json");
    let text = std::fs::read_to_string(path).ok()?;
    Some(serde_json::from_str(&text).map_err(|e| e.to_string()))
}

/// Every bot's submission, taken before any runs, several folders at once
/// (a large folder is read once, its unchanged files not at all when the
/// earlier grade recorded them).
fn submissions(plan: &Plan, earlier: &[Option<Result<Kept, String>>]) -> Vec<Manifest> {
    // Not stopped by grade's stop: a bot whose earlier grade is kept
    // needs its folder's content even then.
    let pool = Pool::new(plan.jobs.min(plan.entries.len()), &StopToken::new());
    let taken = pool.run(
        plan.entries.len(),
        |job| {
            let known: Vec<&Manifest> = match &earlier[job.index] {
                Some(Ok(k)) => k.submission.iter().chain(&k.left).collect(),
                _ => Vec::new(),
            };
            take_manifest(&plan.entries[job.index], plan, &known)
        },
        &mut |_| {},
    );
    // Taking it failed: an empty folder, which keeps no earlier grade.
    taken
        .into_iter()
        .map(|t| match t {
            Outcome::Done(manifest) => manifest,
            _ => Manifest::default(),
        })
        .collect()
}

/// Keep the earlier grade of a bot made the same way, not cut short, whose
/// folder is now as it was submitted then or as its grading left it; else
/// say what changed.
fn decide(
    entry: &Entry,
    plan: &Plan,
    earlier: Option<&Result<Kept, String>>,
    now: &Manifest,
) -> Decision {
    let kept = match earlier {
        None => return Decision::Grade(None),
        Some(Err(e)) => {
            return Decision::Grade(Some(format!("its grade.json could not be read ({e})")));
        }
        Some(Ok(kept)) => kept,
    };
    if plan.force {
        return Decision::Grade(Some("--force".into()));
    }
    let wanted = signature(entry, plan);
    let signed = &kept.signature;
    let changed = if signed.protocheck != wanted.protocheck {
        Some(format!(
            "protocheck's version changed ({} → {})",
            signed.protocheck, wanted.protocheck
        ))
    } else if signed.options != wanted.options {
        Some("the run options changed".to_string())
    } else if signed.policy_files != wanted.policy_files {
        Some("the grading policy changed".to_string())
    } else if signed.command != wanted.command {
        Some("its command changed".to_string())
    } else if signed.workdir != wanted.workdir {
        Some("its working folder changed".to_string())
    } else if kept.row.status == "interrupted" {
        Some("its last grading was interrupted".to_string())
    } else if let Some(why) = budget_change(
        signed.bot_time_limit_ms,
        wanted.bot_time_limit_ms,
        &kept.row,
    ) {
        Some(why)
    } else if !kept.row.report.is_empty() && !plan.out.join(&kept.row.report).is_file() {
        Some(format!("its report {} is missing", kept.row.report))
    } else {
        None
    };
    if let Some(why) = changed {
        return Decision::Grade(Some(why));
    }
    let (Some(submission), Some(left)) = (&kept.submission, &kept.left) else {
        return Decision::Grade(Some(
            "its earlier grade does not record its folder's content".into(),
        ));
    };
    if now.same_content(submission) {
        Decision::Keep(
            Box::new(kept.row.clone()),
            "kept: nothing it depends on changed",
        )
    } else if now.same_content(left) {
        Decision::Keep(
            Box::new(kept.row.clone()),
            "kept: nothing it depends on changed (only what it wrote itself while graded)",
        )
    } else {
        Decision::Grade(Some(folder::changes(now, submission, left)))
    }
}

/// A bot's protocheck ended (having written its three reports): read its
/// JSON report back, keep the row beside them.
fn finish(
    entry: &Entry,
    plan: &Plan,
    status: std::process::ExitStatus,
    started: Instant,
    submission: &Manifest,
) -> Row {
    let dir = child::folder(plan.out, &entry.id);
    let seconds = started.elapsed().as_secs_f64();
    let log = std::fs::read_to_string(dir.join("protocheck.log")).unwrap_or_default();
    let report = match std::fs::read_to_string(dir.join("report.json")) {
        Ok(text) => Some(crate::report::json::read(&text)),
        Err(_) => None,
    };
    let unreadable = match &report {
        Some(Err(e)) => Some(format!("its report.json could not be read: {e}")),
        _ => None,
    };
    let report = report.and_then(Result::ok);
    let mut row = table::row(
        &entry.id,
        child::ended(status),
        report.as_ref(),
        unreadable.as_deref().unwrap_or(&log),
        seconds,
    );
    table::count_not_run(&mut row, plan.budget);
    if report.is_none() {
        // No report to link to: the log says what happened.
        row.report = format!("{}/protocheck.log", entry.id);
    }
    let kept = Kept {
        signature: signature(entry, plan),
        left: Some(take_manifest(entry, plan, &[submission])),
        submission: Some(submission.clone()),
        row: row.clone(),
    };
    if let Ok(json) = serde_json::to_string_pretty(&kept) {
        let _ = std::fs::write(dir.join("grade.json"), json + "\n");
    }
    row
}

fn overran_note(budget: Option<Duration>) -> String {
    let limit = budget.map(crate::suite::budget::show).unwrap_or_default();
    format!(
        "stopped by grade: its protocheck ran on {} s past --bot-time-limit {limit}",
        BUDGET_GRACE.as_secs()
    )
}

/// Why a kept grade no longer holds under a new `--bot-time-limit`
/// (milliseconds; `None`: no limit). A grading the limit cut is kept only
/// under the same limit: a larger one (or none) lets more scenarios run, a
/// smaller one fewer. A grading that ran to its end is kept while it took
/// no longer than the new limit: that run, as it went, finished within it.
fn budget_change(was: Option<u64>, now: Option<u64>, row: &Row) -> Option<String> {
    if was == now {
        return None;
    }
    let show = |ms: Option<u64>| match ms {
        Some(ms) => crate::suite::budget::show(Duration::from_millis(ms)),
        None => "none".into(),
    };
    let change = format!("--bot-time-limit {} → {}", show(was), show(now));
    if row.not_run > 0 {
        return Some(format!(
            "its last grading was cut by --bot-time-limit ({change})"
        ));
    }
    match now {
        Some(ms) if row.seconds * 1000.0 > ms as f64 => Some(format!(
            "its last grading took {:.1} s, longer than the new limit ({change})",
            row.seconds
        )),
        _ => None,
    }
}

/// The row of a bot whose protocheck never ran to an end.
fn unstarted(entry: &Entry, why: &str) -> Row {
    let mut row = table::row(&entry.id, table::Ended::Code(2), None, why, 0.0);
    row.report = String::new();
    row
}

#[cfg(test)]
mod tests {
    use super::budget_change;
    use crate::grade::table::{self, Row};

    fn graded(seconds: f64, not_run: usize) -> Row {
        let mut row = table::row("b", table::Ended::Code(0), None, "", seconds);
        row.status = "passed".into();
        row.not_run = not_run;
        row
    }

    #[test]
    fn a_grading_cut_by_the_budget_is_graded_again_when_the_budget_changes() {
        let cut = graded(20.0, 6);
        assert_eq!(budget_change(Some(20_000), Some(20_000), &cut), None);
        assert_eq!(
            budget_change(Some(20_000), Some(60_000), &cut).as_deref(),
            Some("its last grading was cut by --bot-time-limit (--bot-time-limit 20s → 1m)")
        );
        assert!(budget_change(Some(20_000), None, &cut).is_some());
        assert!(budget_change(Some(20_000), Some(1_000), &cut).is_some());
    }

    #[test]
    fn a_grading_that_finished_is_kept_while_it_fits_the_new_budget() {
        let finished = graded(12.0, 0);
        assert_eq!(budget_change(Some(20_000), None, &finished), None);
        assert_eq!(budget_change(None, Some(60_000), &finished), None);
        assert_eq!(budget_change(Some(20_000), Some(15_000), &finished), None);
        assert_eq!(
            budget_change(None, Some(10_000), &finished).as_deref(),
            Some(
                "its last grading took 12.0 s, longer than the new limit (--bot-time-limit none → 10s)"
            )
        );
    }
}
