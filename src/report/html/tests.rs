use super::*;
use crate::outcome::{Direction, Frame, Ink, Picture, Shape, TranscriptLine};
use crate::verdict::{RuleInfo, Severity, StepRef};

static RULE: RuleInfo = RuleInfo {
    id: "kalah.move.empty-hole",
    severity: Severity::Fail,
    spec: "The chosen hole is not empty.",
};

fn info() -> RunInfo {
    RunInfo {
        version: "0.0.0".into(),
        game: "kalah".into(),
        bot: "./bot <x>".into(),
        generated: None,
        strict: false,
        partition: None,
        workspace: None,
        environment: Default::default(),
        sandbox: crate::transport::sandbox::Layers::none("--sandbox off"),
        score: None,
        coverage: None,
    }
}

fn line(dir: Direction, text: &str) -> TranscriptLine {
    TranscriptLine {
        dir,
        text: text.into(),
        ms: 1,
    }
}

fn picture(count: &str) -> Picture {
    Picture {
        width: 20,
        height: 20,
        shapes: vec![
            Shape::Circle {
                x: 5,
                y: 5,
                r: 4,
                ink: Ink::Place,
            },
            Shape::Text {
                x: 5,
                y: 5,
                size: 8,
                text: count.into(),
                ink: Ink::Count,
            },
        ],
        caption: Some(format!("{count} seeds")),
    }
}

fn result(name: &str, status: Status) -> ScenarioResult {
    ScenarioResult {
        duration_ms: 5,
        ..ScenarioResult::new(name, "kalah", "(built-in)", status)
    }
}

/// A failing game of four lines: the board changes after the first and
/// the third, the finding is made at the fourth (the bot's reply).
fn failing() -> ScenarioResult {
    let mut r = result("fails", Status::Failed);
    r.transcript = vec![
        line(Direction::Sent, "START;South"),
        line(Direction::Received, "MOVE;1"),
        line(Direction::Sent, "CHANGE;1;..."),
        line(Direction::Received, "</script><script>alert(1)</script>"),
    ];
    r.frames = vec![
        Frame {
            picture: Some(picture("7")),
            findings: vec![],
        },
        Frame {
            picture: Some(picture("7")),
            findings: vec![],
        },
        Frame {
            picture: Some(picture("8")),
            findings: vec![],
        },
        Frame {
            picture: Some(picture("8")),
            findings: vec![0],
        },
    ];
    let mut v = RULE.violation("the bot chose <empty> hole 3");
    v.expected = Some("MOVE;1".into());
    v.actual = Some("MOVE;3<b>".into());
    v.step = Some(StepRef {
        file: "a.yaml".into(),
        line: 4,
        column: 5,
        index: Some(1),
    });
    r.violations = vec![v];
    r
}

#[test]
fn bot_output_cannot_inject_markup() {
    let html = render(&info(), &[failing()]);
    // One script element: the report's own.
    assert_eq!(html.matches("<script>").count(), 1, "{html}");
    assert_eq!(html.matches("</script>").count(), 1);
    assert!(html.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("the bot chose &lt;empty&gt; hole 3"));
    assert!(html.contains("./bot &lt;x&gt;"));
    assert!(
        !html.contains("MOVE;3<b>"),
        "the diff escapes the actual reply"
    );
}

#[test]
fn each_distinct_picture_is_drawn_once_and_lines_point_at_it() {
    let html = render(&info(), &[failing()]);
    assert_eq!(html.matches("<figure class=\"board\"").count(), 2, "{html}");
    let frames: Vec<&str> = html
        .match_indices("data-frame=\"")
        .filter(|(i, _)| {
            html[..*i].ends_with("<li class=\"sent\" ")
                || html[..*i].ends_with("<li class=\"received\" ")
        })
        .map(|(i, m)| &html[i + m.len()..i + m.len() + 1])
        .collect();
    // The line without a picture of its own shows the one before it.
    assert_eq!(frames, ["0", "0", "1", "1"]);
}

#[test]
fn the_failing_step_is_marked_and_the_stepper_starts_there() {
    let html = render(&info(), &[failing()]);
    assert!(html.contains("data-start=\"3\""), "{html}");
    assert!(html.contains("data-finding=\"fail\""));
    assert!(html.contains("<span class=\"marker\">kalah.move.empty-hole</span></li>"));
    assert!(html.contains("class=\"finding fail\" data-line=\"3\""));
    assert!(html.contains("<b>spec:</b> The chosen hole is not empty."));
    assert!(
        html.contains("<span class=\"minus\">- MOVE;<del>1</del></span>\n<span class=\"plus\">+ MOVE;<ins>3&lt;b&gt;</ins></span>"),
        "{html}"
    );
}

#[test]
fn filters_list_present_statuses_and_rules() {
    let mut skipped = result("skipped", Status::Skipped);
    skipped.skip_reason = Some("outside the default run".into());
    let html = render(
        &info(),
        &[failing(), result("passes", Status::Passed), skipped],
    );
    assert!(html.contains("value=\"failed\" checked> failed (1)"));
    assert!(html.contains("value=\"passed\" checked> passed (1)"));
    assert!(html.contains("value=\"skipped\" checked> skipped (1)"));
    assert!(!html.contains("value=\"error\""));
    assert!(html.contains(
        "<option value=\"kalah.move.empty-hole\">kalah.move.empty-hole (1 scenario)</option>"
    ));
    assert!(
        html.contains("data-status=\"passed\" data-rules=\"\">"),
        "passing scenarios are collapsed"
    );
    assert!(html.contains("data-status=\"failed\" data-rules=\"kalah.move.empty-hole\" open>"));
    assert!(html.contains("3 of 3 shown"));
}

#[test]
fn interrupted_scenarios_have_their_own_status_only_in_a_stopped_run() {
    let mut cut = result("cut", Status::Interrupted);
    cut.skip_reason =
        Some("interrupted: protocheck was stopped by SIGTERM while this scenario ran".into());
    cut.transcript = vec![line(Direction::Sent, "START;South")];
    let html = render(&info(), &[result("passes", Status::Passed), cut]);
    assert!(
        html.contains("value=\"interrupted\" checked> interrupted (1)"),
        "{html}"
    );
    assert!(
        html.contains("<span class=\"badge interrupted\">INTR</span>"),
        "{html}"
    );
    assert!(html.contains(
        "<b>interrupted:</b> <code>interrupted: protocheck was stopped by SIGTERM while this scenario ran</code>"
    ));
    assert!(html.contains("<dt>interrupted</dt><dd>1</dd>"), "{html}");
    assert!(html.contains(INTERRUPTED_STYLE));
    // The transcript so far, collapsed: there is no finding to step to.
    assert!(
        html.contains("data-status=\"interrupted\" data-rules=\"\">"),
        "{html}"
    );
    let ordinary = render(&info(), &[result("passes", Status::Passed)]);
    assert!(!ordinary.contains("interrupted"), "{ordinary}");
}

#[test]
fn what_all_pictures_share_is_drawn_once() {
    let html = render(&info(), &[failing()]);
    // The circle is in both pictures: defined once, used by both.
    assert_eq!(html.matches("<circle").count(), 1, "{html}");
    assert!(html.contains("<g id=\"ground-0\">"));
    assert_eq!(html.matches("<use href=\"#ground-0\"/>").count(), 2);
    assert_eq!(html.matches("class=\"ink-count\"").count(), 2);
}

#[test]
fn a_line_the_game_cannot_draw_shows_no_board_but_a_note_keeps_it() {
    let mut r = failing();
    r.transcript
        .push(line(Direction::Note, "… the same line 9 more times"));
    r.frames.push(Frame::default());
    r.transcript.push(line(Direction::Sent, "boardsize 9"));
    r.frames.push(Frame::default());
    let html = render(&info(), &[r]);
    assert!(
        html.contains("<li class=\"note\" data-frame=\"1\">"),
        "{html}"
    );
    assert!(
        html.contains("<li class=\"sent\" data-frame=\"none\">"),
        "{html}"
    );
}

#[test]
fn a_passing_scenario_is_collapsed_without_a_step_through() {
    // As a single run keeps it: no pictures for a scenario that passed.
    let mut r = failing();
    r.status = Status::Passed;
    r.violations[0].severity = Severity::Warn;
    r.frames.clear();
    let html = render(&info(), &[r]);
    assert!(!html.contains("class=\"stepper\""));
    assert!(!html.contains("<svg"));
    assert!(html.contains("<ol class=\"transcript plain\">"));
    // Its warning is listed, without a button to a message it cannot show.
    assert!(html.contains("<li class=\"finding warn\">"), "{html}");
    assert!(!html.contains("class=\"goto\""));
    assert!(html.contains("1 warning(s)"));
}

/// A match keeps the pictures of every game: one played to its end is
/// stepped through too (still collapsed, as a passing scenario is).
#[test]
fn a_passing_scenario_with_pictures_is_stepped_through() {
    let mut r = failing();
    r.status = Status::Passed;
    r.violations[0].severity = Severity::Warn;
    let html = render(&info(), &[r]);
    assert!(html.contains("class=\"stepper\""));
    assert!(html.contains("<svg"));
    assert!(!html.contains("<ol class=\"transcript plain\">"));
}

#[test]
fn a_game_without_pictures_gets_the_transcript_alone() {
    let mut r = failing();
    r.frames.clear();
    let html = render(&info(), &[r]);
    assert!(!html.contains("<svg"));
    assert!(html.contains("this game has no picture in the report yet"));
    // Without frames the finding belongs to the last line.
    assert!(html.contains("data-start=\"3\""));
}

/// Issue 19, item 12: every game draws pictures now; a game that failed
/// before it was set up (a handshake, a sign-up) does not say it has none.
#[test]
fn a_game_never_set_up_says_so() {
    let mut r = failing();
    r.frames = vec![Frame::default(); r.transcript.len()];
    r.frames[3].findings = vec![0];
    let html = render(&info(), &[r]);
    assert!(!html.contains("<svg"));
    assert!(html.contains("No board: the game is not set up at any message of this transcript"));
    assert!(!html.contains("no picture in the report yet"));
    assert!(html.contains("data-start=\"3\""));
}

#[test]
fn no_external_resources() {
    let html = render(&info(), &[failing()]);
    for needle in ["src=", "href=", "@import", "url(", "http://", "https://"] {
        let found: Vec<_> = html
            .match_indices(needle)
            .map(|(i, _)| &html[i..(i + 60).min(html.len())])
            .collect();
        // The SVG namespace is a name, not a resource that is loaded; the
        // only references are to the shared part of the board in the page.
        assert!(
            found
                .iter()
                .all(|f| f.starts_with("http://www.w3.org/2000/svg")
                    || f.starts_with("href=\"#ground-")),
            "{needle}: {found:?}"
        );
    }
}

/// The names of the scenario blocks, in page order.
fn page_order(html: &str) -> Vec<&str> {
    html.split("<span class=\"name\">")
        .skip(1)
        .map(|rest| rest.split('<').next().unwrap())
        .collect()
}

#[test]
fn failing_scenarios_come_first_then_warnings_passes_and_skips() {
    let warned = {
        let mut r = result("passes-warned", Status::Passed);
        let mut v = RULE.violation("a warning");
        v.severity = Severity::Warn;
        r.violations = vec![v];
        r
    };
    let results = [
        result("passes-1", Status::Passed),
        result("skipped", Status::Skipped),
        failing(),
        warned,
        result("errs", Status::Error),
        result("passes-2", Status::Passed),
    ];
    let html = render(&info(), &results);
    assert_eq!(
        page_order(&html),
        [
            "fails",
            "errs",
            "passes-warned",
            "passes-1",
            "passes-2",
            "skipped"
        ]
    );
    // Ids keep the suite's order (the JSON report's index): the first
    // block on the page is the suite's third scenario.
    assert!(
        html.contains("<main>\n<details class=\"scenario failed\" id=\"scenario-2\""),
        "{html}"
    );
}

#[test]
fn code_spans_in_messages_and_specs_are_code_and_still_escaped() {
    let mut r = failing();
    r.violations[0].message =
        "the bot wrote `MOVE;0` <b>and</b> `</code><script>alert(1)</script>`; a lone ` stays"
            .into();
    r.violations[0].spec = "Send `MOVE;<n>` with ``a ` inside``.".into();
    let html = render(&info(), &[r]);
    assert!(
        html.contains(
            "<p class=\"message\">the bot wrote <code>MOVE;0</code> &lt;b&gt;and&lt;/b&gt; \
             <code>&lt;/code&gt;&lt;script&gt;alert(1)&lt;/script&gt;</code>; a lone ` stays</p>"
        ),
        "{html}"
    );
    assert!(
        html.contains(
            "<b>spec:</b> Send <code>MOVE;&lt;n&gt;</code> with <code>a ` inside</code>."
        ),
        "{html}"
    );
    assert_eq!(
        html.matches("<script>").count(),
        1,
        "only the page's own script"
    );
}

#[test]
fn prose_leaves_text_without_spans_as_escape_does() {
    for text in ["plain", "a < b & c", "one ` tick", "``", "` `", "\u{1}x"] {
        let shown = prose(text);
        if text.matches('`').count() < 2 {
            assert_eq!(shown, escape(text), "{text}");
        }
        assert!(!shown.contains('<') || shown.contains("<code>"), "{shown}");
    }
    assert_eq!(prose("` `"), "<code> </code>");
}
