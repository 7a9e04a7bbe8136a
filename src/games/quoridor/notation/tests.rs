use super::*;
use crate::games::quoridor::catalogue;
use crate::verdict::Severity;

fn cell(s: &str) -> Cell {
    parse_vertex(s).unwrap()
}

fn ids(p: &ParsedResponse) -> Vec<&'static str> {
    p.findings.iter().map(|f| f.rule.id).collect()
}

fn ok(raw: &str) -> ParsedResponse {
    parse_response(raw.as_bytes()).unwrap_or_else(|f| panic!("{raw:?}: {f:?}"))
}

#[test]
fn vertices() {
    assert_eq!(parse_vertex("e2"), Some(Cell::new(4, 1)));
    assert_eq!(parse_vertex("E2"), Some(Cell::new(4, 1)));
    assert_eq!(parse_vertex("A1"), Some(Cell::new(0, 0)));
    assert_eq!(parse_vertex("M23"), Some(Cell::new(12, 22)));
    assert_eq!(parse_vertex("y25"), Some(Cell::new(24, 24)));
    // Syntactically vertices, off a 9×9 board: the board refuses them.
    assert_eq!(parse_vertex("Z9"), Some(Cell::new(25, 8)));
    assert_eq!(parse_vertex("E10"), Some(Cell::new(4, 9)));
    assert_eq!(parse_vertex("E05"), Some(Cell::new(4, 4)));
    assert!(has_leading_zero("E05"));
    assert!(!has_leading_zero("E10"));
    for bad in [
        "", "E", "2E", "E0", "EE2", "E2x", "E-1", "E+1", "É2", "E 2", "E257",
    ] {
        assert_eq!(parse_vertex(bad), None, "{bad:?}");
    }
    assert_eq!(cell("h3").to_string(), "H3");
    assert_eq!(Cell::new(24, 24).to_string(), "Y25");
    assert_eq!(column_letter(8), Some('I'));
    assert_eq!(column_letter(26), None);
}

#[test]
fn colours_orientations_booleans() {
    for s in ["white", "w", "WHITE", "W", "White"] {
        assert_eq!(parse_colour(s), Some(Colour::White), "{s}");
    }
    for s in ["black", "b", "BLACK", "B", "bLaCk"] {
        assert_eq!(parse_colour(s), Some(Colour::Black), "{s}");
    }
    for s in ["green", "", "wh", "purple"] {
        assert_eq!(parse_colour(s), None, "{s}");
    }
    for s in ["h", "H", "horizontal", "Horizontal", "HORIZONTAL"] {
        assert_eq!(parse_orientation(s), Some(Orientation::Horizontal), "{s}");
    }
    for s in ["v", "V", "vertical", "VERTICAL", "Vertical"] {
        assert_eq!(parse_orientation(s), Some(Orientation::Vertical), "{s}");
    }
    for s in ["x", "", "hor", "vert"] {
        assert_eq!(parse_orientation(s), None, "{s}");
    }
    assert_eq!(parse_boolean("T"), Some(true));
    assert_eq!(parse_boolean("true"), Some(true));
    assert_eq!(parse_boolean("False"), Some(false));
    assert_eq!(parse_boolean("f"), Some(false));
    assert_eq!(parse_boolean("yes"), None);
    assert_eq!(Colour::White.to_string(), "white");
    assert_eq!(Orientation::Vertical.to_string(), "vertical");
}

#[test]
fn walls_and_actions() {
    let w = parse_wall("d2  H").unwrap();
    assert_eq!(w, Wall::new(Cell::new(3, 1), Orientation::Horizontal));
    assert_eq!(w.to_string(), "D2 h");
    assert_eq!(parse_wall("D2"), None);
    assert_eq!(parse_wall("D2 h x"), None);
    assert_eq!(Action::Place(w).to_string(), "D2 h");
    assert_eq!(Action::Step(cell("e9")).to_string(), "E9");
}

#[test]
fn canonical_commands() {
    let w = Wall::new(cell("D2"), Orientation::Horizontal);
    let cases = [
        (Command::Name, "name"),
        (
            Command::KnownCommand("genmove".into()),
            "known_command genmove",
        ),
        (Command::ListCommands, "list_commands"),
        (Command::Quit, "quit"),
        (Command::BoardSize(9), "boardsize 9"),
        (Command::ClearBoard, "clear_board"),
        (Command::Walls(10), "walls 10"),
        (
            Command::PlayMove(Colour::Black, cell("e8")),
            "playmove black E8",
        ),
        (
            Command::PlayWall(Colour::Black, w),
            "playwall black D2 horizontal",
        ),
        (
            Command::PlayWall(Colour::White, Wall::new(cell("m23"), Orientation::Vertical)),
            "playwall white M23 vertical",
        ),
        (Command::GenMove(Colour::White), "genmove white"),
        (Command::Undo(None), "undo"),
        (Command::Undo(Some(3)), "undo 3"),
        (Command::Winner, "winner"),
        (Command::ShowBoard, "showboard"),
        (
            Command::Other("protocol_version".into()),
            "protocol_version",
        ),
    ];
    for (c, s) in cases {
        assert_eq!(c.to_string(), s);
        assert_eq!(format_command(&c), format!("{s}\n"));
        assert_eq!(parse_command(s), Ok(c.clone()), "round trip {s}");
    }
    assert_eq!(
        action_command(Colour::White, Action::Place(w)).to_string(),
        "playwall white D2 horizontal"
    );
    assert!(Command::ListCommands.multiline_answer());
    assert!(Command::ShowBoard.multiline_answer());
    assert!(!Command::Name.multiline_answer());
    assert!(Command::GenMove(Colour::Black).changes_state());
    assert!(!Command::Winner.changes_state());
    assert_eq!(QTP_COMMANDS.len(), 13);
}

#[test]
fn lenient_parsing_like_an_engine() {
    let e2 = Command::PlayMove(Colour::White, cell("E2"));
    assert_eq!(parse_command("playmove\twhite\tE2"), Ok(e2.clone()));
    assert_eq!(parse_command("playmove W e2\r\n"), Ok(e2.clone()));
    assert_eq!(parse_command("  playmove  white   e2 "), Ok(e2.clone()));
    assert_eq!(parse_command("playmove white e2 # comment"), Ok(e2));
    assert_eq!(
        parse_command("playwall B a5 H"),
        Ok(Command::PlayWall(
            Colour::Black,
            Wall::new(cell("A5"), Orientation::Horizontal)
        ))
    );
    assert_eq!(
        parse_command("playwall b e5 VERTICAL"),
        Ok(Command::PlayWall(
            Colour::Black,
            Wall::new(cell("E5"), Orientation::Vertical)
        ))
    );
    assert_eq!(parse_command("name # trailing comment"), Ok(Command::Name));
    assert_eq!(parse_command("na\u{1}me"), Ok(Command::Name));
    assert_eq!(parse_command("undo 0"), Ok(Command::Undo(Some(0))));
    // Names are case-sensitive; GTP ids are not QTP.
    assert_eq!(parse_command("NAME"), Ok(Command::Other("NAME".into())));
    assert_eq!(parse_command("1 name"), Ok(Command::Other("1 name".into())));
    assert_eq!(Command::Other("1 name".into()).name(), "1");
    for empty in ["", "   ", "# a comment", "\t", "\r", "  # x"] {
        assert_eq!(parse_command(empty), Err(CommandError::Empty), "{empty:?}");
    }
    for bad in [
        "playmove white",
        "playmove",
        "playmove green E2",
        "playmove white E",
        "playwall white E5",
        "playwall white E5 x",
        "genmove",
        "genmove purple",
        "boardsize abc",
        "boardsize",
        "boardsize -1",
        "boardsize 2147483648",
        "walls",
        "walls abc",
        "walls -1",
        "known_command",
        "undo abc",
        "undo -1",
    ] {
        assert!(
            matches!(parse_command(bad), Err(CommandError::Malformed { .. })),
            "{bad:?}: {:?}",
            parse_command(bad)
        );
    }
    assert_eq!(
        parse_command("playmove white E2 h"),
        Err(CommandError::ExtraArguments {
            command: Command::PlayMove(Colour::White, cell("E2")),
            extra: vec!["h".into()],
        })
    );
    assert_eq!(
        parse_command("boardsize 2147483647"),
        Ok(Command::BoardSize(i32::MAX as u32))
    );
}

#[test]
fn which_lines_get_a_response() {
    for silent in ["", "   ", "\t", "# a comment", "  # x", "\r", "\u{1}"] {
        assert!(!expects_response(silent), "{silent:?}");
    }
    for answered in [
        "name",
        "name # c",
        "  name  ",
        "na\u{1}me",
        "NAME",
        "1 name",
        "x",
    ] {
        assert!(expects_response(answered), "{answered:?}");
    }
    assert_eq!(expected_responses("name\nname\nname\n"), 3);
    assert_eq!(expected_responses("\n"), 0);
    assert_eq!(expected_responses(""), 0);
    assert_eq!(expected_responses("   \n"), 0);
    assert_eq!(expected_responses("# c\nname\n\nwinner"), 2);
    assert_eq!(preprocess_command(" a\tb # c").as_deref(), Some("a b"));
}

#[test]
fn well_formed_responses() {
    let p = ok("= \n\n");
    assert_eq!(p.response, Response::Success(String::new()));
    assert!(p.findings.is_empty());
    let p = ok("=\n\n");
    assert_eq!(p.response, Response::Success(String::new()));
    assert!(p.findings.is_empty());
    assert_eq!(
        ok("= Naive\n\n").response,
        Response::Success("Naive".into())
    );
    assert_eq!(
        ok("? illegal move\n\n").response,
        Response::Failure("illegal move".into())
    );
    assert_eq!(ok("?\n\n").response, Response::Failure(String::new()));
    // CRLF, trailing spaces and leading blank lines pass silently.
    let p = ok("\n= E2 \r\n\r\n");
    assert_eq!(p.response, Response::Success("E2".into()));
    assert!(p.findings.is_empty(), "{:?}", p.findings);
    // Both list_commands forms give the same payload.
    let a = ok("=\nname\nknown_command\n\n");
    let b = ok("= name\nknown_command\n\n");
    assert!(a.findings.is_empty() && b.findings.is_empty());
    assert_eq!(a.response, b.response);
    assert_eq!(a.response.text(), "name\nknown_command");
    assert_eq!(a.response.first_line(), "name");
    assert_eq!(
        parse_list_commands(a.response.text()),
        vec!["name".to_string(), "known_command".to_string()]
    );
    // Extra blank lines after the terminator are between responses.
    assert!(ok("= \n\n\n\n").findings.is_empty());
    assert_eq!(Response::Success("E2".into()).to_string(), "= E2");
    assert_eq!(Response::Failure(String::new()).to_string(), "?");
}

#[test]
fn framing_findings() {
    let cases: &[(&[u8], &[&str])] = &[
        (b"=E2\n\n", &["quoridor.framing.space-after-status"]),
        (b"=  E2\n\n", &["quoridor.framing.space-after-status"]),
        (b"=1 Naive\n\n", &["quoridor.framing.space-after-status"]),
        (b"= E2\n", &["quoridor.framing.no-terminator"]),
        (b"= E2", &["quoridor.framing.no-terminator"]),
        (b"? illegal move\n", &["quoridor.framing.no-terminator"]),
        (b"= E2\n   \n", &["quoridor.framing.whitespace-line"]),
        (b"= E2\tx\n\n", &["quoridor.framing.output-chars"]),
        (b"= a\x01b\n\n", &["quoridor.framing.output-chars"]),
        (b"# thinking\n= E2\n\n", &["io.unexpected-output"]),
        (
            b"= \n\nname\nknown_command\n\n",
            &["quoridor.framing.split-response"],
        ),
        (b"= \n\n= \n\n", &["quoridor.framing.extra-response"]),
        (b"= \n\n# late\n", &["io.unexpected-output"]),
        (b"= \xff\n\n", &["io.invalid-utf8"]),
    ];
    for (raw, want) in cases {
        let p = parse_response(raw).unwrap_or_else(|f| panic!("{raw:?}: {f:?}"));
        assert_eq!(ids(&p), *want, "{:?}", String::from_utf8_lossy(raw));
    }
    assert_eq!(ok("=E2\n\n").response.text(), "E2");
    assert_eq!(ok("= E2\tx\n\n").response.text(), "E2 x");
    assert_eq!(ok("= a\x01b\n\n").response.text(), "ab");
    let long = format!("= {}\n\n", "x".repeat(MAX_LINE_BYTES + 1));
    assert_eq!(ids(&ok(&long)), ["io.line-too-long"]);
    let many = format!("=\n{}\n", "line\n".repeat(MAX_RESPONSE_LINES + 1));
    assert_eq!(ids(&ok(&many)), ["io.line-too-long"]);
    for bad in [
        "Error! out of bounds\n\n",
        "",
        "\n\n",
        "   \n",
        "# only\n\n",
        "E2\n\n",
    ] {
        let f = parse_response(bad.as_bytes()).unwrap_err();
        assert_eq!(f.rule.id, "quoridor.framing.status", "{bad:?}");
        assert_eq!(f.to_violation().severity, Severity::Fail);
    }
}

#[test]
fn stray_lines_before_the_status_line_are_warnings() {
    let p = parse_response(b"DEBUG genmove black\n\n# c\n= E2\n\n").unwrap();
    assert_eq!(p.response, Response::Success("E2".into()));
    assert_eq!(ids(&p), ["io.unexpected-output", "io.unexpected-output"]);
    assert_eq!(p.findings[0].to_violation().severity, Severity::Warn);
    assert_eq!(
        p.findings[0].message,
        "stray line before the response (the referee reads past it): \"DEBUG genmove black\""
    );
    assert_eq!(
        response_as_read(b"DEBUG\n= E2\n\n").as_deref(),
        Some("= E2")
    );
    assert_eq!(response_as_read(b"DEBUG\n\n"), None);
}

#[test]
fn every_finding_rule_is_catalogued() {
    let raws: &[&[u8]] = &[
        b"=E2\n",
        b"= E2\n \n",
        b"#c\n= \xff\t\n\nx\n= \n\n",
        b"nothing",
    ];
    for raw in raws {
        let findings = match parse_response(raw) {
            Ok(p) => p.findings,
            Err(f) => vec![f],
        };
        for f in findings {
            assert!(
                catalogue::CATALOGUE
                    .all()
                    .iter()
                    .any(|r| std::ptr::eq(*r, f.rule)),
                "{}",
                f.rule.id
            );
        }
    }
}

#[test]
fn output_lines() {
    assert_eq!(classify_output_line(""), OutputLine::Empty);
    assert_eq!(classify_output_line("   "), OutputLine::WhitespaceOnly);
    assert_eq!(classify_output_line("# x"), OutputLine::Comment);
    assert_eq!(classify_output_line("= E2"), OutputLine::Status);
    assert_eq!(classify_output_line("?"), OutputLine::Status);
    assert_eq!(classify_output_line("debug"), OutputLine::Text);
    assert_eq!(clean_output("a\r\n\tb\u{7f}"), ("a\n b".to_string(), true));
    assert_eq!(clean_output("a\r\nb"), ("a\nb".to_string(), false));
}

#[test]
fn genmove_answers() {
    let g = parse_genmove("E2", 9).unwrap();
    assert_eq!(g.action, Action::Step(cell("E2")));
    assert!(g.findings.is_empty());
    assert_eq!(
        parse_genmove("e2", 9).unwrap().action,
        Action::Step(cell("E2"))
    );
    assert_eq!(
        parse_genmove("H12 h", 13).unwrap().action,
        Action::Place(Wall::new(cell("H12"), Orientation::Horizontal))
    );
    assert_eq!(
        parse_genmove("c6 VERTICAL", 9).unwrap().action,
        Action::Place(Wall::new(cell("C6"), Orientation::Vertical))
    );
    for (payload, n) in [
        ("E2 h extra", 1),
        ("E02", 1),
        ("E2\nmore", 1),
        ("E02 h x y", 2),
    ] {
        let g = parse_genmove(payload, 9).unwrap();
        assert_eq!(g.findings.len(), n, "{payload:?}");
        assert!(
            g.findings
                .iter()
                .all(|f| f.rule.id == "quoridor.genmove.extra-tokens")
        );
    }
    for bad in [
        "", "pass", "PASS", "resign", "J5", "E10", "E5 x", "E", "5E", "E0",
    ] {
        let f = parse_genmove(bad, 9).unwrap_err();
        assert_eq!(f.rule.id, "quoridor.genmove.syntax", "{bad:?}");
    }
    // A wall anchored on row 1 parses; legality is the rule engine's job.
    assert!(parse_genmove("E1 h", 9).is_ok());
}

#[test]
fn winner_and_known_command_answers() {
    assert_eq!(parse_winner("false"), Ok(None));
    assert_eq!(parse_winner("FALSE"), Ok(None));
    assert_eq!(parse_winner("true white"), Ok(Some(Colour::White)));
    assert_eq!(parse_winner(" True Black "), Ok(Some(Colour::Black)));
    assert_eq!(
        parse_winner(" T W").unwrap_err().to_string(),
        "\"t w\" is none of \"false\", \"true white\", \"true black\" (the referee compares exactly these strings)"
    );
    for bad in ["t w", "true", "true w", "white", "f", "true  white", ""] {
        assert!(parse_winner(bad).is_err(), "{bad:?}");
    }
    assert_eq!(format_winner(None), "false");
    assert_eq!(format_winner(Some(Colour::Black)), "true black");
    let s = |t: &str| Response::Success(t.into());
    let f = |t: &str| Response::Failure(t.into());
    assert_eq!(parse_known_command(&s("true")), Some(true));
    assert_eq!(parse_known_command(&s("t")), Some(true));
    assert_eq!(parse_known_command(&s("false")), Some(false));
    assert_eq!(parse_known_command(&f("false")), Some(false));
    assert_eq!(parse_known_command(&f("true")), None);
    assert_eq!(parse_known_command(&f("unknown command")), None);
    assert_eq!(parse_known_command(&s("yes")), None);
    assert!(is_standard_error("illegal move"));
    assert!(is_standard_error("cannot undo"));
    assert!(!is_standard_error("Illegal move"));
    assert!(!is_standard_error("invalid syntax"));
}

#[test]
fn responses_as_the_controller_reads_them() {
    // Tolerated framing is taken out: `#` and blank lines before the status
    // line, CR, trailing spaces and the terminator.
    assert_eq!(
        response_as_read(b"# thinking\n\n= C3 \r\n\r\n").as_deref(),
        Some("= C3")
    );
    assert_eq!(response_as_read(b"= \n\n").as_deref(), Some("="));
    assert_eq!(
        response_as_read(b"=\nname\nquit\n\n").as_deref(),
        Some("=\nname\nquit")
    );
    // The status line stays as written; without a terminator, all of it.
    assert_eq!(response_as_read(b"=E2").as_deref(), Some("=E2"));
    // Text after an empty line is not part of the response as read.
    assert_eq!(response_as_read(b"=\nA\n\nB\n").as_deref(), Some("=\nA"));
    // No status line before other text: nothing to read.
    assert_eq!(response_as_read(b"Error! out of bounds\n\n"), None);
    assert_eq!(response_as_read(b"\n# only a comment\n"), None);
}
