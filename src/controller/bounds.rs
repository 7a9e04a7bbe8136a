//! Bounds that hold whatever a bot does: a scenario keeps a bounded number of
//! findings and transcript lines, and a bot that floods output nobody asked
//! for, or writes more than the per-scenario byte cap, is stopped with a
//! verdict. Without them a bot repeating one valid line forever made
//! protocheck's memory and report grow without end.

use crate::outcome::{Direction, Frame, Omitted, TranscriptLine};
use crate::shared_rules::{IO_OUTPUT_FLOOD, IO_OUTPUT_LIMIT};
use crate::verdict::{Severity, Violation};
use std::collections::{BTreeMap, VecDeque};

pub use crate::shown::{KEPT_PER_RULE, TRANSCRIPT_LINE_BYTES, cut_text, group_thousands};

/// Transcript lines kept from the start of a scenario, and from its end.
pub const TRANSCRIPT_HEAD: usize = 500;
pub const TRANSCRIPT_TAIL: usize = 200;
/// Identical consecutive lines kept before the rest of the run is only
/// counted (a bot repeating `MOVE;1` gets three lines and a count).
pub const TRANSCRIPT_REPEATS: u64 = 3;
/// Lines the bot may write outside any due reply in one scenario before it
/// is stopped (`io.output-flood`). A conforming bot writes none (Kalah) or a
/// few `#` comments and blank lines (QTP), far fewer than this.
pub const MAX_UNSOLICITED_LINES: u64 = 10_000;
/// Default for `--max-output`: bytes the bot may write to stdout in one
/// scenario (`io.output-limit`). A whole game is a few KiB.
pub const DEFAULT_MAX_OUTPUT: u64 = 64 * 1024 * 1024;

/// The findings of one scenario: the first [`KEPT_PER_RULE`] of each rule in
/// the order they were found, and a count of the rest per rule.
#[derive(Debug, Default)]
pub struct Findings {
    kept: Vec<Violation>,
    per_rule: BTreeMap<&'static str, (Severity, u64)>,
    failed: bool,
    /// A failure the game does not recover from: the scenario stops.
    stops: bool,
}

impl Findings {
    /// Record a finding; `fails` says whether it counts as a failure
    /// (`--strict` makes warnings fail), also when it is not kept.
    pub fn push(&mut self, v: Violation, fails: bool) {
        self.push_failure(v, fails, fails);
    }

    /// Record a finding whose failure (if `fails`) the game recovers from
    /// unless `stops`: the verdict fails, the game goes on (dominion-text
    /// §6.2: a bad reply is consumed and play continues).
    pub fn push_failure(&mut self, v: Violation, fails: bool, stops: bool) {
        self.failed |= fails;
        self.stops |= fails && stops;
        let entry = self.per_rule.entry(v.rule).or_insert((v.severity, 0));
        entry.1 += 1;
        if entry.1 <= KEPT_PER_RULE as u64 {
            self.kept.push(v);
        }
    }

    pub fn has_failure(&self) -> bool {
        self.failed
    }

    /// Whether a failure that ends the game was recorded.
    pub fn must_stop(&self) -> bool {
        self.stops
    }

    /// The kept findings, and per rule how many more there were.
    pub fn into_parts(self) -> (Vec<Violation>, Vec<Omitted>) {
        let omitted = self
            .per_rule
            .into_iter()
            .filter(|(_, (_, n))| *n > KEPT_PER_RULE as u64)
            .map(|(rule, (severity, n))| Omitted {
                rule,
                severity,
                count: n - KEPT_PER_RULE as u64,
            })
            .collect();
        (self.kept, omitted)
    }

    /// How many findings are kept so far: the index the next one gets if it
    /// is kept.
    pub fn kept_len(&self) -> usize {
        self.kept.len()
    }

    pub fn kept_get_mut(&mut self, i: usize) -> Option<&mut Violation> {
        self.kept.get_mut(i)
    }

    /// Put `v` in place of kept finding `i` (a later event showed its true
    /// cause), counting it under its own rule; `fails` as for `push`.
    pub fn replace_kept(&mut self, i: usize, v: Violation, fails: bool) {
        let Some(old) = self.kept.get(i) else {
            return;
        };
        if let Some(entry) = self.per_rule.get_mut(old.rule) {
            entry.1 -= 1;
            if entry.1 == 0 {
                self.per_rule.remove(old.rule);
            }
        }
        self.failed |= fails;
        self.stops |= fails;
        self.per_rule.entry(v.rule).or_insert((v.severity, 0)).1 += 1;
        self.kept[i] = v;
    }

    pub fn kept_mut(&mut self) -> impl Iterator<Item = &mut Violation> {
        self.kept.iter_mut()
    }
}

/// A transcript that keeps its first [`TRANSCRIPT_HEAD`] and last
/// [`TRANSCRIPT_TAIL`] lines, each cut to [`TRANSCRIPT_LINE_BYTES`], folds
/// runs of identical lines after [`TRANSCRIPT_REPEATS`], and counts what it
/// left out.
#[derive(Debug, Default)]
pub struct Transcript {
    /// Each line with what the report draws beside it (empty frames unless
    /// the controller records pictures).
    head: Vec<(TranscriptLine, Frame)>,
    tail: VecDeque<(TranscriptLine, Frame)>,
    left_out: u64,
    /// The last line pushed and how often it came in a row.
    last: Option<(Direction, String)>,
    run: u64,
    /// When the last folded repeat arrived.
    run_ms: u64,
    /// A line protocheck sent has been pushed (kept or not).
    sent: bool,
}

impl Transcript {
    pub fn push(&mut self, mut line: TranscriptLine) {
        self.sent |= line.dir == Direction::Sent;
        cut_text(&mut line.text, TRANSCRIPT_LINE_BYTES);
        let same = self
            .last
            .as_ref()
            .is_some_and(|(dir, text)| *dir == line.dir && *text == line.text);
        if same {
            self.run += 1;
            if self.run > TRANSCRIPT_REPEATS {
                self.run_ms = line.ms;
                return;
            }
        } else {
            self.end_run();
            self.last = Some((line.dir, line.text.clone()));
            self.run = 1;
        }
        self.keep(line);
    }

    /// A run of identical lines ended: say how many were folded.
    fn end_run(&mut self) {
        if self.run > TRANSCRIPT_REPEATS {
            let folded = self.run - TRANSCRIPT_REPEATS;
            self.keep(TranscriptLine {
                dir: Direction::Note,
                text: format!(
                    "… the same line {} more time{}",
                    group_thousands(folded),
                    if folded == 1 { "" } else { "s" }
                ),
                ms: self.run_ms,
            });
        }
        self.run = 0;
    }

    fn keep(&mut self, line: TranscriptLine) {
        let kept = (line, Frame::default());
        if self.head.len() < TRANSCRIPT_HEAD {
            self.head.push(kept);
            return;
        }
        if self.tail.len() == TRANSCRIPT_TAIL {
            self.tail.pop_front();
            self.left_out += 1;
        }
        self.tail.push_back(kept);
    }

    /// Whether protocheck has sent the bot anything yet.
    pub fn has_sent(&self) -> bool {
        self.sent
    }

    /// The frame of the last line kept (a folded repeat shares the frame of
    /// the last copy kept), to draw the game after it or mark a finding.
    pub fn last_frame_mut(&mut self) -> Option<&mut Frame> {
        match self.tail.back_mut() {
            Some((_, frame)) => Some(frame),
            None => self.head.last_mut().map(|(_, frame)| frame),
        }
    }

    /// The kept lines in order, with a note where lines were left out.
    pub fn into_lines(self) -> Vec<TranscriptLine> {
        self.into_parts().0
    }

    /// The kept lines in order, with a note where lines were left out, and
    /// beside them their frames (`frames[i]` belongs to `lines[i]`).
    pub fn into_parts(mut self) -> (Vec<TranscriptLine>, Vec<Frame>) {
        self.end_run();
        let mut kept = self.head;
        if self.left_out > 0 {
            let ms = self.tail.front().map_or(0, |(l, _)| l.ms);
            let note = TranscriptLine {
                dir: Direction::Note,
                text: format!(
                    "… {} transcript lines left out (protocheck keeps the first {TRANSCRIPT_HEAD} and the last {TRANSCRIPT_TAIL}) …",
                    group_thousands(self.left_out)
                ),
                ms,
            };
            kept.push((note, Frame::default()));
        }
        kept.extend(self.tail);
        kept.into_iter().unzip()
    }
}

/// Counts what a bot writes in one scenario and says when it has gone past
/// a bound.
#[derive(Debug)]
pub struct OutputMeter {
    unsolicited: u64,
    bytes: u64,
    max_bytes: u64,
}

/// Which bound a bot crossed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overrun {
    Flood,
    Bytes,
}

impl OutputMeter {
    pub fn new(max_bytes: u64) -> OutputMeter {
        OutputMeter {
            unsolicited: 0,
            bytes: 0,
            max_bytes,
        }
    }

    /// Bytes read from the bot's stdout (any message, due or not).
    pub fn read(&mut self, n: usize) -> Option<Overrun> {
        self.bytes = self.bytes.saturating_add(n as u64);
        (self.bytes > self.max_bytes).then_some(Overrun::Bytes)
    }

    /// One message arrived that no reply was due for.
    pub fn unsolicited(&mut self) -> Option<Overrun> {
        self.unsolicited += 1;
        (self.unsolicited > MAX_UNSOLICITED_LINES).then_some(Overrun::Flood)
    }

    /// The finding for a bound that was crossed.
    pub fn violation(&self, overrun: Overrun) -> Violation {
        match overrun {
            Overrun::Flood => IO_OUTPUT_FLOOD.violation(format!(
                "the bot wrote more than {} lines nobody asked for; protocheck stopped it",
                group_thousands(MAX_UNSOLICITED_LINES)
            )),
            Overrun::Bytes => IO_OUTPUT_LIMIT.violation(format!(
                "the bot wrote more than {} bytes to stdout in this scenario (--max-output); protocheck stopped it",
                group_thousands(self.max_bytes)
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::RuleInfo;

    #[test]
    fn frames_stay_beside_their_lines_through_folds_and_cuts() {
        let mut t = Transcript::default();
        let total = TRANSCRIPT_HEAD + TRANSCRIPT_TAIL + 50;
        for i in 0..total {
            t.push(line(i as u64));
            t.last_frame_mut().unwrap().findings.push(i);
        }
        let (lines, frames) = t.into_parts();
        assert_eq!(lines.len(), frames.len());
        for (l, f) in lines.iter().zip(&frames) {
            match l.dir {
                // The note saying what was left out has a frame of its own.
                Direction::Note => assert!(f.findings.is_empty()),
                _ => assert_eq!(l.text, format!("MOVE;{}", f.findings[0])),
            }
        }
        assert_eq!(frames.last().unwrap().findings, [total - 1]);
    }

    #[test]
    fn runs_of_identical_lines_are_folded() {
        let mut t = Transcript::default();
        let spam = |ms| TranscriptLine {
            dir: Direction::Received,
            text: "MOVE;1".into(),
            ms,
        };
        t.push(line(7));
        for ms in 0..1_000_000 {
            t.push(spam(ms));
        }
        t.push(line(2));
        for ms in 0..2 {
            t.push(spam(ms));
        }
        let lines = t.into_lines();
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "MOVE;7",
                "MOVE;1",
                "MOVE;1",
                "MOVE;1",
                "… the same line 999,997 more times",
                "MOVE;2",
                "MOVE;1",
                "MOVE;1"
            ]
        );
        assert_eq!(lines[4].dir, Direction::Note);
        assert_eq!(lines[4].ms, 999_999);
    }

    fn line(i: u64) -> TranscriptLine {
        TranscriptLine {
            dir: Direction::Received,
            text: format!("MOVE;{i}"),
            ms: i,
        }
    }

    #[test]
    fn a_replaced_finding_counts_under_its_new_rule_and_fails() {
        static PROBE: RuleInfo = RuleInfo {
            id: "g.robust.x",
            severity: Severity::Warn,
            spec: "probe",
        };
        static TIMEOUT: RuleInfo = RuleInfo {
            id: "io.timeout",
            severity: Severity::Fail,
            spec: "t",
        };
        let mut f = Findings::default();
        f.push(PROBE.violation("no reply"), false);
        assert!(!f.has_failure() && !f.must_stop());
        f.replace_kept(0, TIMEOUT.violation("came late"), true);
        assert!(f.has_failure() && f.must_stop());
        let (kept, omitted) = f.into_parts();
        assert_eq!(kept.len(), 1);
        assert_eq!(
            (kept[0].rule, kept[0].severity),
            ("io.timeout", Severity::Fail)
        );
        assert!(omitted.is_empty());
    }

    #[test]
    fn findings_keep_the_first_of_each_rule_and_count_the_rest() {
        static A: RuleInfo = RuleInfo {
            id: "io.a",
            severity: Severity::Warn,
            spec: "a",
        };
        static B: RuleInfo = RuleInfo {
            id: "io.b",
            severity: Severity::Fail,
            spec: "b",
        };
        let mut f = Findings::default();
        for i in 0..1_000_000 {
            f.push(A.violation(format!("{i}")), false);
        }
        assert!(!f.has_failure());
        f.push(B.violation("one"), true);
        assert!(f.has_failure());
        let (kept, omitted) = f.into_parts();
        assert_eq!(kept.len(), KEPT_PER_RULE + 1);
        assert_eq!(kept[0].message, "0");
        assert_eq!(kept[KEPT_PER_RULE].rule, "io.b");
        assert_eq!(
            omitted,
            vec![Omitted {
                rule: "io.a",
                severity: Severity::Warn,
                count: 1_000_000 - KEPT_PER_RULE as u64
            }]
        );
    }

    #[test]
    fn a_recovered_failure_fails_the_verdict_without_stopping_the_game() {
        static F: RuleInfo = RuleInfo {
            id: "g.f",
            severity: Severity::Fail,
            spec: "f",
        };
        let mut f = Findings::default();
        f.push_failure(F.violation("recovered"), true, false);
        assert!(f.has_failure() && !f.must_stop());
        f.push_failure(F.violation("warning"), false, true);
        assert!(!f.must_stop(), "a finding that does not fail never stops");
        f.push(F.violation("fatal"), true);
        assert!(f.has_failure() && f.must_stop());
    }

    #[test]
    fn transcript_keeps_head_and_tail_and_says_what_it_left_out() {
        let mut t = Transcript::default();
        let n = 1_000_000u64;
        // Distinct lines: nothing folds.
        for i in 0..n {
            t.push(line(i));
        }
        let lines = t.into_lines();
        assert_eq!(lines.len(), TRANSCRIPT_HEAD + 1 + TRANSCRIPT_TAIL);
        assert_eq!(lines[0], line(0));
        assert_eq!(lines[TRANSCRIPT_HEAD - 1], line(TRANSCRIPT_HEAD as u64 - 1));
        let note = &lines[TRANSCRIPT_HEAD];
        assert_eq!(note.dir, Direction::Note);
        let left_out = n - (TRANSCRIPT_HEAD + TRANSCRIPT_TAIL) as u64;
        assert!(
            note.text.contains(&group_thousands(left_out)),
            "{}",
            note.text
        );
        assert_eq!(lines[TRANSCRIPT_HEAD + 1], line(n - TRANSCRIPT_TAIL as u64));
        assert_eq!(*lines.last().unwrap(), line(n - 1));
    }

    #[test]
    fn a_short_transcript_is_kept_whole() {
        let mut t = Transcript::default();
        for i in 0..(TRANSCRIPT_HEAD + TRANSCRIPT_TAIL) as u64 {
            t.push(line(i));
        }
        let lines = t.into_lines();
        assert_eq!(lines.len(), TRANSCRIPT_HEAD + TRANSCRIPT_TAIL);
        assert!(lines.iter().all(|l| l.dir == Direction::Received));
    }

    #[test]
    fn long_lines_are_cut_on_a_char_boundary() {
        let mut s = "é".repeat(5000);
        cut_text(&mut s, 4095);
        assert!(s.starts_with(&"é".repeat(2047)));
        assert!(
            s.ends_with("… (10000 bytes in all)"),
            "{}",
            &s[s.len() - 40..]
        );
        let mut short = "MOVE;1".to_string();
        cut_text(&mut short, 4096);
        assert_eq!(short, "MOVE;1");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(group_thousands(0), "0");
        assert_eq!(group_thousands(999), "999");
        assert_eq!(group_thousands(1000), "1,000");
        assert_eq!(group_thousands(1_003_407), "1,003,407");
    }

    #[test]
    fn the_meter_trips_past_each_bound() {
        let mut m = OutputMeter::new(100);
        assert_eq!(m.read(100), None);
        assert_eq!(m.read(1), Some(Overrun::Bytes));
        let mut m = OutputMeter::new(u64::MAX);
        for _ in 0..MAX_UNSOLICITED_LINES {
            assert_eq!(m.unsolicited(), None);
        }
        assert_eq!(m.unsolicited(), Some(Overrun::Flood));
        assert_eq!(m.violation(Overrun::Flood).rule, "io.output-flood");
        assert_eq!(m.violation(Overrun::Bytes).rule, "io.output-limit");
    }
}
