//! The class page: its sections, escaping and counts.
use super::*;
use crate::grade::table::Skipped;

fn row(id: &str, status: &str, rules: &[&str]) -> Row {
    Row {
        id: id.into(),
        status: status.into(),
        passed: 1,
        failed: rules.len(),
        warnings: 0,
        skipped: 0,
        first_failing_rule: rules.first().map(|r| r.to_string()),
        seconds: 1.0,
        report: format!("{id}/report.html"),
        note: None,
        rules: rules.iter().map(|r| r.to_string()).collect(),
        warning_rules: Vec::new(),
        skipped_because: Vec::new(),
        sandbox: Some(crate::transport::sandbox::Layers::none("--sandbox off")),
        not_run: 0,
        score: None,
        max_score: None,
        compared: None,
        coverage: Vec::new(),
    }
}

#[test]
fn the_chart_counts_bots_per_rule_most_broken_first() {
    let rows = [
        row("a", "failed", &["k.x", "k.y"]),
        row("b", "failed", &["k.y"]),
        row("c", "passed", &[]),
    ];
    assert_eq!(
        rule_counts(&rows),
        [("k.y".to_string(), 2), ("k.x".to_string(), 1)]
    );
    let page = render(&Grades {
        protocheck: "0".into(),
        game: Some("kalah".into()),
        options: vec![],
        partition: None,
        bot_time_limit: None,
        compared_with: None,
        bots: rows.to_vec(),
    });
    assert!(page.contains("data-rule=\"k.y\" data-bots=\"2\""), "{page}");
    assert!(page.contains("data-rule=\"k.x\" data-bots=\"1\""), "{page}");
    assert!(page.contains("3 bots: 1 passed, 2 failed"));
    assert!(page.contains("k.y: 2 of 3 bots</title>"), "{page}");
}

#[test]
fn the_page_has_a_sortable_score_column_and_the_score_histogram() {
    let mut rows = vec![row("a", "passed", &[]), row("b", "failed", &["k.x"])];
    rows[0].score = Some(8.0);
    rows[0].max_score = Some(8.0);
    rows[1].score = Some(3.5);
    rows[1].max_score = Some(8.0);
    let page = render(&Grades {
        protocheck: "0".into(),
        game: Some("kalah".into()),
        options: vec![],
        partition: None,
        bot_time_limit: None,
        compared_with: None,
        bots: rows,
    });
    assert!(
        page.contains("<th>id</th><th>status</th><th>score</th><th>passed</th>"),
        "{page}"
    );
    assert!(
        page.contains("<td class=\"passed\">passed</td><td class=\"n\" data-sort=\"8\">8 / 8</td>"),
        "{page}"
    );
    assert!(page.contains("data-sort=\"3.5\">3.5 / 8</td>"), "{page}");
    let histogram = &page[page.find("<h2>Scores</h2>").expect("a score section")..];
    assert!(histogram.starts_with("<h2>Scores</h2>\n<p class=\"scores\">2 bots with a score: median 5.75, mean 5.75 (out of 8)</p>\n<svg"), "{page}");
    assert!(histogram.contains("data-from=\"40\" data-to=\"50\" data-bots=\"1\""));
    assert!(histogram.contains("data-from=\"90\" data-to=\"100\" data-bots=\"1\""));
    // Offline: nothing is fetched.
    assert!(
        !page.contains("src=") && !page.contains("http://")
            || page.matches("http://").count()
                == page.matches("http://www.w3.org/2000/svg").count()
    );
}

#[test]
fn warnings_and_skip_reasons_are_on_the_page() {
    let mut lingers = row("lin", "passed", &[]);
    lingers.warnings = 2;
    lingers.warning_rules = vec!["io.no-exit".into()];
    lingers.skipped = 18;
    let sizes = "Kalah(6,4) board, Kalah(8,8) board; a real match is always Kalah(7,7); run with --all-sizes";
    lingers.skipped_because = vec![Skipped {
        reason: sizes.into(),
        scenarios: 18,
    }];
    let mut early = row("early", "failed", &["io.timeout"]);
    early.skipped = 20;
    early.skipped_because = vec![
        Skipped {
            reason: sizes.into(),
            scenarios: 18,
        },
        Skipped {
            reason: "the run stopped <early>".into(),
            scenarios: 2,
        },
    ];
    let page = render(&Grades {
        protocheck: "0".into(),
        game: Some("kalah".into()),
        options: vec![],
        partition: None,
        bot_time_limit: None,
        compared_with: None,
        bots: vec![lingers, early],
    });
    assert!(
        page.contains("<h2>Warnings, by number of bots</h2>"),
        "{page}"
    );
    assert!(
        page.contains("<g class=\"bar warning\" data-rule=\"io.no-exit\" data-bots=\"1\">"),
        "{page}"
    );
    assert!(page.contains("<td><code>io.no-exit</code></td>"), "{page}");
    assert!(
        page.contains(&format!(
            "<li id=\"skip-1\">18 scenarios skipped for every bot (2 bots): {}</li>",
            escape(sizes)
        )),
        "{page}"
    );
    assert!(
        page.contains("<li id=\"skip-2\">2 scenarios skipped for 1 of 2 bots: the run stopped &lt;early&gt;</li>"),
        "{page}"
    );
    assert!(
        page.contains("data-sort=\"20\">20 <a href=\"#skip-1\""),
        "{page}"
    );
    assert!(
        page.contains(
            "<a href=\"#skip-2\" title=\"2 scenarios: the run stopped &lt;early&gt;\">[2]</a>"
        ),
        "{page}"
    );
}

#[test]
fn one_bot_is_counted_in_the_singular() {
    let rows = [row("a", "error", &["k.x"])];
    assert_eq!(summary_line(&rows), "1 bot: 0 passed, 0 failed, 1 error");
    let page = render(&Grades {
        protocheck: "0".into(),
        game: None,
        options: vec![],
        partition: None,
        bot_time_limit: None,
        compared_with: None,
        bots: rows.to_vec(),
    });
    assert!(page.contains("k.x: 1 of 1 bot</title>"), "{page}");
    assert!(!page.contains("1 bots"), "{page}");
}

#[test]
fn the_time_limit_and_the_bots_it_cut_are_on_the_page() {
    let mut slow = row("slow", "passed", &[]);
    slow.not_run = 6;
    slow.skipped = 6;
    slow.skipped_because = vec![Skipped {
        reason: "not run: --bot-time-limit 2m spent".into(),
        scenarios: 6,
    }];
    let rows = vec![slow, row("quick", "passed", &[])];
    assert_eq!(
        summary_line(&rows),
        "2 bots: 2 passed, 0 failed; 1 bot cut by --bot-time-limit (graded on the scenarios they finished, the rest not run)"
    );
    let page = render(&Grades {
        protocheck: "0".into(),
        game: None,
        options: vec![],
        partition: None,
        bot_time_limit: Some("2m".into()),
        compared_with: None,
        bots: rows,
    });
    assert!(
        page.contains("<p>Each bot's time limit: <code>--bot-time-limit 2m</code>"),
        "{page}"
    );
    assert!(
        page.contains("6 scenarios skipped for 1 of 2 bots: not run: --bot-time-limit 2m spent"),
        "{page}"
    );
}

#[test]
fn ids_are_escaped_in_text_and_encoded_in_links() {
    let page = render(&Grades {
        protocheck: "0".into(),
        game: None,
        options: vec![],
        partition: None,
        bot_time_limit: None,
        compared_with: None,
        bots: vec![row("<b>&#1", "passed", &[])],
    });
    assert!(
        page.contains("<a href=\"%3Cb%3E%26%231/report.html\">&lt;b&gt;&amp;#1</a>"),
        "{page}"
    );
    assert!(!page.contains("<b>&#1"));
}
#[test]
fn the_page_says_the_class_s_sandbox_and_each_bot_s() {
    use crate::transport::sandbox::Layers;
    let grades = |bots: Vec<Row>| Grades {
        protocheck: "0".into(),
        game: Some("kalah".into()),
        options: vec![],
        partition: None,
        bot_time_limit: None,
        compared_with: None,
        bots,
    };
    let page = render(&grades(vec![
        row("a", "passed", &[]),
        row("b", "passed", &[]),
    ]));
    assert!(
        page.contains("<p class=\"sandbox\">sandbox: none (--sandbox off) (every bot)</p>"),
        "{page}"
    );
    assert!(page.contains("<th>sandbox</th>"), "{page}");
    assert!(
        page.contains("<td class=\"n\">1.0</td><td>none (--sandbox off)</td></tr>"),
        "{page}"
    );
    let mut sandboxed = row("a", "passed", &[]);
    sandboxed.sandbox = Some(Layers {
        landlock: Some(7),
        files: true,
        tcp: true,
        signals: true,
        scheduling: true,
        none_because: None,
    });
    let mut unknown = row("c", "error", &[]);
    unknown.sandbox = None;
    let page = render(&grades(vec![sandboxed, row("b", "passed", &[]), unknown]));
    assert!(
        page.contains("<p class=\"sandbox\">sandbox: landlock v7 (files, tcp, signals), seccomp (scheduling) (1 bot); none (--sandbox off) (1 bot); unknown (no report) (1 bot)</p>"),
        "{page}"
    );
}
