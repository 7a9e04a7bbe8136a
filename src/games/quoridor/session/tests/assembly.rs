//! How QTP responses are read: assembled per §1.4 from their lines, cut
//! by an empty line or a status line, pipelined, and as scripted
//! expectations see them.

use super::*;

#[test]
fn scripted_expectations_see_the_response_as_read() {
    let s = setup();
    assert_eq!(s.reply_as_read(b"# thinking\n= C3\r\n\r\n"), "= C3");
    // Without a status line, the raw text (the judgement already failed).
    assert_eq!(s.reply_as_read(b"Error!\n\n"), "Error!");
}

#[test]
fn a_multi_line_response_cut_by_an_empty_line_is_one_split_response() {
    let grace = Assembly::CompleteUnlessMore(TERMINATOR_GRACE);
    let mut s = setup();
    s.send("showboard").unwrap();
    // Fed line by line, as the controller does.
    let mut reply = Vec::new();
    let mut feed = |s: &mut QtpSession, piece: &[u8]| {
        let a = s.reply_part(&reply, piece);
        if a != Assembly::StartsNext {
            reply.extend_from_slice(piece);
        }
        a
    };
    assert_eq!(feed(&mut s, b"=\n"), grace);
    assert_eq!(feed(&mut s, b" A B C\n"), grace);
    // The empty line may end it, or more of the diagram may follow.
    assert_eq!(feed(&mut s, b"\n"), grace);
    assert_eq!(feed(&mut s, b" 1 . . .\n"), grace);
    assert_eq!(feed(&mut s, b"\n"), grace);
    // The next response is not part of it.
    assert_eq!(feed(&mut s, b"= x\n"), Assembly::StartsNext);
    assert_eq!(feed(&mut s, b"# next\n"), Assembly::StartsNext);
    let j = s.judge(&reply, &Expect::LegalMove, Duration::ZERO).unwrap();
    let rules: Vec<_> = j.violations.iter().map(|v| v.rule).collect();
    assert_eq!(rules, vec!["quoridor.framing.split-response"]);
    // A response the engine writes over several lines counts too; a one-line
    // response ends at its empty line at once.
    let mut s = setup();
    s.send("name").unwrap();
    assert_eq!(s.reply_part(b"", b"= x\n"), grace);
    assert_eq!(s.reply_part(b"= x\n", b"\n"), Assembly::Complete);
    assert_eq!(s.reply_part(b"= x\n", b"more\n"), grace);
    assert_eq!(s.reply_part(b"= x\nmore\n", b"\n"), grace);
    assert_eq!(s.reply_part(b"= x\nmore\n\n", b"rest\n"), grace);
}

#[test]
fn pipelined_and_silent_lines_count_replies() {
    let mut s = setup();
    assert_eq!(s.send("name\nname\nname").unwrap().replies, 3);
    assert_eq!(s.send("\n# nothing\n\nname").unwrap().replies, 1);
}

#[test]
fn whitespace_only_line_answer_is_tolerated_with_a_warning() {
    let mut s = setup();
    assert_eq!(s.send("   \nname").unwrap().replies, 1);
    let j = s
        .judge(b"? unknown command\n\n", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    assert!(j.still_due);
    assert_eq!(j.violations[0].rule, "quoridor.input.whitespace-only-line");
    assert_eq!(j.violations[0].severity, Severity::Warn);
    let j = s
        .judge(b"= x\n\n", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    assert!(!j.still_due && j.violations.is_empty());
}

#[test]
fn responses_are_assembled_per_section_1_4() {
    let mut s = setup();
    s.send("name").unwrap();
    assert_eq!(s.reply_part(b"", b"\n"), Assembly::More);
    assert_eq!(
        s.reply_part(b"", b"= x\n"),
        Assembly::CompleteUnlessMore(TERMINATOR_GRACE)
    );
    assert_eq!(s.reply_part(b"= x\n", b"\n"), Assembly::Complete);
    assert_eq!(s.reply_part(b"= x\n", b"= y\n"), Assembly::StartsNext);
    assert_eq!(s.reply_part(b"", b"Error! out of bounds\n"), Assembly::More);
    // Closed by an empty line: a response without status, unless a status
    // line still follows (the referee reads past lines without `=`).
    assert_eq!(
        s.reply_part(b"Error! out of bounds\n", b"\n"),
        Assembly::CompleteUnlessMore(super::ACK_LIMIT)
    );
    s.pending.clear();
    s.send("list_commands").unwrap();
    assert_eq!(
        s.reply_part(b"=\n", b"= not a new response here\n"),
        Assembly::CompleteUnlessMore(TERMINATOR_GRACE)
    );
}

#[test]
fn a_stray_line_before_the_status_line_is_read_past_with_a_warning() {
    // The referee's readMove/readOK skip every line not starting with `=`
    // (quoridor.md §6): a debug print before the answer is stray output,
    // not a response without status.
    for (so_far, piece) in [
        (&b"DEBUG genmove black\n"[..], &b"= E8\n"[..]),
        (b"DEBUG genmove black\n\n", b"= E8\n"),
        (b"DEBUG a\n# c\nDEBUG b\n", b"= E8\n"),
    ] {
        let mut s = setup();
        s.send("genmove black").unwrap();
        assert_eq!(
            s.reply_part(b"", &so_far[..so_far.iter().position(|&b| b == b'\n').unwrap() + 1]),
            Assembly::More
        );
        assert_eq!(
            s.reply_part(so_far, piece),
            Assembly::CompleteUnlessMore(TERMINATOR_GRACE),
            "{:?}",
            String::from_utf8_lossy(so_far)
        );
        let mut reply = so_far.to_vec();
        reply.extend_from_slice(piece);
        assert_eq!(s.reply_part(&reply, b"\n"), Assembly::Complete);
        reply.push(b'\n');
        let j = s.judge(&reply, &Expect::LegalMove, Duration::ZERO).unwrap();
        let rules: Vec<(&str, Severity)> =
            j.violations.iter().map(|v| (v.rule, v.severity)).collect();
        assert!(
            !rules.is_empty()
                && rules
                    .iter()
                    .all(|r| *r == ("io.unexpected-output", Severity::Warn)),
            "{rules:?}"
        );
        assert!(
            j.violations[0].message.contains("DEBUG"),
            "{}",
            j.violations[0].message
        );
        // The answer was played: black's pawn is on E8.
        assert_eq!(crate::games::Relay::played(&s), Some("E8".to_string()));
    }
    // A status line that never comes is still a response without status.
    let mut s = setup();
    s.send("genmove black").unwrap();
    let j = s
        .judge(b"DEBUG genmove black\n\n", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    assert_eq!(j.violations[0].rule, "quoridor.framing.status");
    assert_eq!(
        j.violations[0].message,
        "`genmove black`: the response starts with neither '=' nor '?': \"DEBUG genmove black\""
    );
}

#[test]
fn after_a_missing_terminator_one_line_responses_end_at_their_status_line() {
    let mut s = setup();
    s.send("name").unwrap();
    assert_eq!(
        s.reply_part(b"", b"= x\n"),
        Assembly::CompleteUnlessMore(TERMINATOR_GRACE),
        "the first time, the terminator may still come"
    );
    let j = s
        .judge(b"= x\n", &Expect::LegalMove, Duration::ZERO)
        .unwrap();
    assert!(
        j.violations
            .iter()
            .any(|v| v.rule == "quoridor.framing.no-terminator")
    );
    s.send("name").unwrap();
    assert_eq!(s.reply_part(b"", b"= x\n"), Assembly::Complete);
    s.pending.clear();
    s.send("list_commands").unwrap();
    assert_eq!(
        s.reply_part(b"", b"= name\n"),
        Assembly::CompleteUnlessMore(TERMINATOR_GRACE),
        "a multi-line response can still be going on"
    );
}
