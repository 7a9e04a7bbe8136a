use super::*;
use proptest::prelude::*;

fn sym(s: &str) -> Datum {
    Datum::Symbol(s.to_string())
}

fn list(items: &[&str]) -> Datum {
    Datum::List(items.iter().map(|s| sym(s)).collect())
}

/// Every outcome the reader reports for `chunks` fed in order, then end of
/// input; stops at the first error.
fn frames(chunks: &[&[u8]]) -> Vec<Result<Reply, FrameError>> {
    let mut reader = Reader::new();
    let mut out = Vec::new();
    for chunk in chunks {
        let mut rest = *chunk;
        loop {
            let (used, outcome) = reader.feed(rest);
            rest = &rest[used..];
            match outcome {
                Some(Err(e)) => {
                    out.push(Err(e));
                    return out;
                }
                Some(Ok(r)) => out.push(Ok(r)),
                None => break,
            }
        }
    }
    out.extend(reader.finish());
    out
}

fn one(text: &str) -> Result<Reply, FrameError> {
    let mut all = frames(&[text.as_bytes()]);
    assert!(all.len() <= 1, "{text:?} gave {all:?}");
    all.pop()
        .unwrap_or(Err(FrameError::Syntax("nothing".into())))
}

fn datum(text: &str) -> Datum {
    one(text).unwrap_or_else(|e| panic!("{text:?}: {e}")).datum
}

fn warning(text: &str) -> Option<Nonstandard> {
    one(text).unwrap().nonstandard
}

fn syntax(text: &str) -> bool {
    matches!(one(text), Err(FrameError::Syntax(_)))
}

#[test]
fn a_reply_ends_at_its_closing_parenthesis_without_a_newline() {
    let mut reader = Reader::new();
    let (used, outcome) = reader.feed(b"(add copper)");
    assert_eq!(used, 12);
    let reply = outcome.unwrap().unwrap();
    assert_eq!(reply.datum, list(&["add", "copper"]));
    assert_eq!(reply.nonstandard, None);
    assert_eq!(reply.len, 12);
    assert!(!reader.in_progress());
}

#[test]
fn an_unfinished_reply_waits_for_more_bytes() {
    let mut reader = Reader::new();
    assert_eq!(reader.feed(b"  (add\n"), (7, None));
    assert!(reader.in_progress());
    let (used, outcome) = reader.feed(b" copper)\n");
    assert_eq!(used, 8);
    let reply = outcome.unwrap().unwrap();
    assert_eq!(reply.datum, list(&["add", "copper"]));
    // From the first non-whitespace byte: leading spaces are not counted.
    assert_eq!(reply.len, "(add\n copper)".len());
}

#[test]
fn plays_written_together_frame_one_by_one() {
    let text = "(add copper)(add copper) (buy silver)\n(clean estate)";
    let got = frames(&[text.as_bytes()]);
    let data: Vec<String> = got
        .iter()
        .map(|r| r.as_ref().unwrap().datum.to_string())
        .collect();
    assert_eq!(
        data,
        [
            "(add copper)",
            "(add copper)",
            "(buy silver)",
            "(clean estate)"
        ]
    );
}

#[test]
fn one_byte_writes_frame_like_one_write_of_a_hundred_plays() {
    let text: String = (0..100)
        .map(|i| match i % 4 {
            0 => "(act mine copper silver)",
            1 => "[add\tcopper]\n",
            2 => " ( buy  province ) ",
            _ => "#;(x) (clean)",
        })
        .collect();
    let whole = frames(&[text.as_bytes()]);
    let bytes: Vec<&[u8]> = text.as_bytes().chunks(1).collect();
    assert_eq!(frames(&bytes), whole);
    assert_eq!(whole.len(), 100);
    assert!(whole.iter().all(Result::is_ok));
}

#[test]
fn whitespace_is_free_but_cannot_split_a_symbol() {
    assert_eq!(datum("(  add\t\n copper  )"), list(&["add", "copper"]));
    assert_eq!(warning("(  add\u{b}\u{c}\r copper  )"), None);
    assert_eq!(datum("(ad d copper)"), list(&["ad", "d", "copper"]));
}

#[test]
fn symbols_keep_their_case() {
    assert_eq!(datum("(Add Copper)"), list(&["Add", "Copper"]));
}

#[test]
fn bare_atoms_end_at_a_delimiter_or_at_end_of_input() {
    assert_eq!(datum("clean"), sym("clean"));
    assert_eq!(datum("42"), Datum::Number("42".into()));
    assert_eq!(datum("-1.5"), Datum::Number("-1.5".into()));
    assert_eq!(datum("1/2"), Datum::Number("1/2".into()));
    assert_eq!(datum("1-2"), sym("1-2"));
    assert_eq!(datum("0-player-v1"), sym("0-player-v1"));
    let got = frames(&[b"clean(add copper)"]);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].as_ref().unwrap().datum, sym("clean"));
    assert_eq!(got[0].as_ref().unwrap().len, 5);
    assert_eq!(got[1].as_ref().unwrap().datum, list(&["add", "copper"]));
    // A Unicode delimiter split across writes after an atom.
    let got = frames(&[b"clean\xc2", b"\xa0(add copper)"]);
    assert_eq!(got.len(), 2, "{got:?}");
}

#[test]
fn strings_numbers_and_quotes_are_data() {
    assert_eq!(
        datum("(add \"cop\\\"per\")"),
        Datum::List(vec![sym("add"), Datum::Str("cop\"per".into())])
    );
    assert_eq!(
        datum("'(add copper)"),
        Datum::List(vec![sym("quote"), list(&["add", "copper"])])
    );
    assert_eq!(
        datum("`,@x"),
        Datum::List(vec![
            sym("quasiquote"),
            Datum::List(vec![sym("unquote-splicing"), sym("x")])
        ])
    );
    assert_eq!(datum("()"), Datum::List(vec![]));
}

#[test]
fn brackets_and_braces_are_parentheses_with_a_warning() {
    assert_eq!(datum("[add copper]"), list(&["add", "copper"]));
    assert_eq!(warning("[add copper]"), Some(Nonstandard::Brackets));
    assert_eq!(datum("{add copper}"), list(&["add", "copper"]));
    assert_eq!(warning("{add copper}"), Some(Nonstandard::Braces));
    assert_eq!(warning("(add copper)"), None);
}

#[test]
fn stray_and_mismatched_closers_are_syntax_errors() {
    assert!(syntax(")"));
    assert!(syntax("]"));
    assert!(syntax("(add copper]"));
    assert!(syntax("[add copper)"));
    assert!(syntax("{add copper]"));
}

#[test]
fn comments_are_skipped_with_a_warning() {
    assert_eq!(datum("; my play\n(add copper)"), list(&["add", "copper"]));
    assert_eq!(
        warning("; my play\n(add copper)"),
        Some(Nonstandard::LineComment)
    );
    assert_eq!(
        datum("#| a #| nested |# b |# (add copper)"),
        list(&["add", "copper"])
    );
    assert_eq!(
        warning("#| note |# (add copper)"),
        Some(Nonstandard::BlockComment)
    );
    assert_eq!(datum("#;(buy gold) (add copper)"), list(&["add", "copper"]));
    assert_eq!(
        warning("#;(buy gold) (add copper)"),
        Some(Nonstandard::DatumComment)
    );
    assert_eq!(datum("(add #;silver copper)"), list(&["add", "copper"]));
    assert_eq!(datum("(add copper ; why\n)"), list(&["add", "copper"]));
    // Stacked datum comments each skip one datum, as in Racket.
    assert_eq!(datum("#;#;a b (add copper)"), list(&["add", "copper"]));
    assert_eq!(datum("'#;a b").to_string(), "(quote b)");
    assert_eq!(datum("#;'a b"), sym("b"));
    assert_eq!(datum("(add #;#;(x) y copper)"), list(&["add", "copper"]));
}

#[test]
fn unterminated_strings_and_comments_are_syntax_errors_at_end_of_input() {
    assert!(syntax("(add \"copper"));
    assert!(syntax("#| never closed"));
    assert!(syntax("(add |copper"));
    assert!(syntax("(add copper"));
    assert!(syntax("'"));
    assert!(syntax("#"));
    // Only a comment: nothing to report.
    assert_eq!(frames(&[b"; just a comment"]), vec![]);
    assert_eq!(frames(&[b"   \n "]), vec![]);
}

#[test]
fn dotted_pairs_with_a_list_tail_are_lists() {
    assert_eq!(datum("(add . (copper))"), list(&["add", "copper"]));
    assert_eq!(warning("(add . (copper))"), Some(Nonstandard::Dotted));
    assert_eq!(
        datum("(add . copper)"),
        Datum::Improper(vec![sym("add")], Box::new(sym("copper")))
    );
    assert!(syntax("( . copper)"));
    assert!(syntax("(add . )"));
    assert!(syntax("(add . copper silver)"));
    assert!(syntax("."));
    assert_eq!(datum("(add ... x)"), list(&["add", "...", "x"]));
}

#[test]
fn bars_and_escapes_build_symbols() {
    assert_eq!(datum("(|add| copper)"), list(&["add", "copper"]));
    assert_eq!(datum("(add cop\\per)"), list(&["add", "copper"]));
    assert_eq!(datum("(a|dd| copper)"), list(&["add", "copper"]));
    assert_eq!(datum("(|a b| c)"), list(&["a b", "c"]));
    assert_eq!(warning("(|add| copper)"), Some(Nonstandard::BarOrEscape));
    // A bar-quoted token is a symbol, never a number.
    assert_eq!(datum("|42|"), sym("42"));
}

#[test]
fn unicode_spaces_separate_tokens_with_a_warning() {
    assert_eq!(datum("(add\u{a0}copper)"), list(&["add", "copper"]));
    assert_eq!(
        warning("(add\u{3000}copper)"),
        Some(Nonstandard::UnicodeSpace)
    );
    // Other non-ASCII characters belong to symbols.
    assert_eq!(datum("(add cöpper)"), list(&["add", "cöpper"]));
}

#[test]
fn reader_hash_forms_that_the_reference_plays() {
    assert_eq!(datum("#ci(ADD COPPER)"), list(&["add", "copper"]));
    assert_eq!(datum("(add #ci COPPER)"), list(&["add", "copper"]));
    assert_eq!(
        datum("#ci(ADD #cs(Copper) GOLD)").to_string(),
        "(add (Copper) gold)"
    );
    assert_eq!(warning("#cs(add copper)"), Some(Nonstandard::CaseMode));
    assert_eq!(datum("#0=(add copper)"), list(&["add", "copper"]));
    assert_eq!(warning("#0=(add copper)"), Some(Nonstandard::GraphLabel));
    assert_eq!(
        datum("#! a comment\n(add copper)"),
        list(&["add", "copper"])
    );
    assert_eq!(
        datum("#!/usr/bin/env x\n(add copper)"),
        list(&["add", "copper"])
    );
    assert_eq!(
        warning("#! x\n(add copper)"),
        Some(Nonstandard::HashBangComment)
    );
}

#[test]
fn other_hash_forms_are_syntax_errors() {
    for text in [
        "#t", "#f", "#(1 2)", "#\\a", "#x1F", "#\"s\"", "#'x", "#0#", "#!eof", "#cx",
    ] {
        assert!(syntax(text), "{text:?}");
    }
}

#[test]
fn invalid_utf8_is_reported_even_when_split() {
    assert_eq!(one("(add ").ok(), None);
    assert_eq!(frames(&[b"(add \xff)"]), vec![Err(FrameError::InvalidUtf8)]);
    assert_eq!(
        frames(&[b"(add \xc0\xaf)"]),
        vec![Err(FrameError::InvalidUtf8)]
    );
    assert_eq!(
        frames(&[b"(add \xed\xa0\x80)"]),
        vec![Err(FrameError::InvalidUtf8)]
    );
    assert_eq!(frames(&[b"(add \xc3"]), vec![Err(FrameError::InvalidUtf8)]);
    // A valid character split over writes is fine.
    let got = frames(&[b"(add c\xc3", b"\xb6pper)"]);
    assert_eq!(got[0].as_ref().unwrap().datum, list(&["add", "cöpper"]));
}

#[test]
fn a_reply_may_be_64_kib_and_not_one_byte_more() {
    let fits = format!("  ({})", " ".repeat(MAX_REPLY_BYTES - 2));
    assert_eq!(one(&fits).unwrap().len, MAX_REPLY_BYTES);
    let over = format!("({})", " ".repeat(MAX_REPLY_BYTES - 1));
    assert_eq!(one(&over), Err(FrameError::TooLong));
}

#[test]
fn nesting_deeper_than_32_is_not_parsed() {
    let ok = format!("{}{}", "(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
    assert!(one(&ok).is_ok());
    let deep = format!("{}{}", "(".repeat(MAX_DEPTH + 1), ")".repeat(MAX_DEPTH + 1));
    assert_eq!(one(&deep), Err(FrameError::TooDeep));
    assert_eq!(
        FrameError::TooDeep.rule().id,
        "dominion-sexp.grammar.not-a-play"
    );
}

#[test]
fn an_unbalanced_64_kib_reply_costs_linear_work() {
    // Fed one byte at a time, a reader that re-scanned its buffer on every
    // write would examine about n²/2 bytes; this one examines each once.
    let text = format!("(add {}", "copper ".repeat((MAX_REPLY_BYTES - 5) / 7));
    let mut reader = Reader::new();
    for b in text.as_bytes() {
        assert_eq!(reader.feed(std::slice::from_ref(b)), (1, None));
        assert_eq!(reader.feed(&[]), (0, None));
    }
    assert_eq!(reader.work(), text.len() as u64);
    assert!(reader.in_progress());
}

#[test]
fn after_an_error_the_reader_repeats_it() {
    let mut reader = Reader::new();
    let (used, outcome) = reader.feed(b") (add copper)");
    assert_eq!(used, 1);
    let err = outcome.unwrap().unwrap_err();
    assert_eq!(err.rule().id, "dominion-sexp.frame.syntax");
    assert_eq!(reader.feed(b"(add copper)"), (0, Some(Err(err.clone()))));
    assert_eq!(reader.finish(), Some(Err(err)));
}

#[test]
fn read_one_rejects_trailing_text() {
    assert!(read_one("(add copper)\n").is_ok());
    assert!(read_one("(add copper) ; fine\n").is_ok());
    assert!(read_one("(add copper) x").is_err());
    assert!(read_one("clean(").is_err());
    assert!(read_one("(a)(b)").is_err());
    assert!(read_one("").is_err());
}

#[test]
fn data_print_back_canonically() {
    assert_eq!(datum("[  add\n copper ]").to_string(), "(add copper)");
    assert_eq!(datum("(a . b)").to_string(), "(a . b)");
    assert_eq!(datum("(a \"b\" 3)").to_string(), "(a \"b\" 3)");
}

fn reply_text() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("(add copper)".to_string()),
        Just("(act mine copper silver)".to_string()),
        Just("[buy gold]".to_string()),
        Just("(clean)".to_string()),
        Just("clean".to_string()),
        Just("42".to_string()),
        Just("\"s p\"".to_string()),
        Just("#| c |#".to_string()),
        Just("#;(x)".to_string()),
        Just("#;".to_string()),
        Just("#ci".to_string()),
        Just("`".to_string()),
        Just("; c\n".to_string()),
        Just("(|a b| c\\d)".to_string()),
        Just("\u{a0}".to_string()),
        Just("cöpper".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just(" ".to_string()),
        Just("\n".to_string()),
        Just("'".to_string()),
        Just(".".to_string()),
    ];
    proptest::collection::vec(token, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn framing_does_not_depend_on_chunking(
        text in reply_text(),
        cuts in proptest::collection::vec(0usize..200, 0..8),
    ) {
        let bytes = text.as_bytes();
        let whole = frames(&[bytes]);
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (bytes.len() + 1)).collect();
        cuts.sort_unstable();
        let mut chunks = Vec::new();
        let mut from = 0;
        for c in cuts {
            chunks.push(&bytes[from..c]);
            from = c;
        }
        chunks.push(&bytes[from..]);
        prop_assert_eq!(frames(&chunks), whole);
    }

    #[test]
    fn printed_data_read_back_the_same(
        words in proptest::collection::vec("[a-z][a-z0-9-]{0,6}", 0..6),
        nest in 0usize..4,
    ) {
        let mut d = Datum::List(words.iter().map(|w| sym(w)).collect());
        for _ in 0..nest {
            d = Datum::List(vec![sym("x"), d]);
        }
        let text = d.to_string();
        let back = read_one(&text).unwrap();
        prop_assert_eq!(back.datum, d);
        prop_assert_eq!(back.nonstandard, None);
        prop_assert_eq!(back.len, text.len());
    }
}
