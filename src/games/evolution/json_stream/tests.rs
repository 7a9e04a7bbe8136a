use super::*;
use proptest::prelude::*;
use serde_json::json;

fn small() -> JsonLimits {
    JsonLimits {
        max_bytes: 4 << 20,
        max_depth: 128,
    }
}

/// Feed `chunks` one after another, collecting values after each feed;
/// close at the end when `close` is set. Returns values and the final error.
fn run(chunks: &[&[u8]], close: bool) -> (Vec<Value>, Option<JsonStreamError>) {
    let mut r = JsonStreamReader::new(small());
    let mut out = Vec::new();
    let drain = |r: &mut JsonStreamReader, out: &mut Vec<Value>| loop {
        match r.next_frame() {
            Ok(Some(f)) => out.push(f.value),
            Ok(None) => return None,
            Err(e) => return Some(e),
        }
    };
    for c in chunks {
        r.feed(c);
        if let Some(e) = drain(&mut r, &mut out) {
            return (out, Some(e));
        }
    }
    if close {
        r.close();
        let e = drain(&mut r, &mut out);
        return (out, e);
    }
    (out, None)
}

fn all(bytes: &[u8]) -> (Vec<Value>, Option<JsonStreamError>) {
    run(&[bytes], true)
}

#[test]
fn values_follow_each_other_with_any_json_whitespace() {
    let (v, e) = all(b" \"ok\" [1,2]\r\n{\"a\":[true,false,null]}\t0 -12.5e3 ");
    assert_eq!(
        v,
        vec![
            json!("ok"),
            json!([1, 2]),
            json!({"a": [true, false, null]}),
            json!(0),
            json!(-12.5e3)
        ]
    );
    assert_eq!(e, Some(JsonStreamError::Closed));
}

#[test]
fn many_values_on_one_line_and_values_without_separators() {
    let (v, _) = all(b"[1][2]\"a\"\"b\"{}");
    assert_eq!(
        v,
        vec![json!([1]), json!([2]), json!("a"), json!("b"), json!({})]
    );
}

#[test]
fn a_top_level_number_waits_for_its_delimiter() {
    let mut r = JsonStreamReader::default();
    r.feed(b"1");
    assert_eq!(r.next_frame(), Ok(None));
    assert_eq!(r.pending(), Pending::UndelimitedScalar);
    r.feed(b"2");
    assert_eq!(r.next_frame(), Ok(None));
    assert_eq!(r.pending(), Pending::UndelimitedScalar);
    r.feed(b" ");
    let f = r.next_frame().unwrap().unwrap();
    assert_eq!(f.value, json!(12));
    assert_eq!(f.raw, b"12");
    assert_eq!(r.unread(), b" ");
    assert_eq!(r.pending(), Pending::Nothing);
    assert!(!r.has_unread_content());
}

#[test]
fn an_incomplete_number_is_partial_not_undelimited() {
    for text in [&b"-"[..], b"1.", b"1e", b"1e+"] {
        let mut r = JsonStreamReader::default();
        r.feed(text);
        assert_eq!(r.next_frame(), Ok(None));
        assert_eq!(r.pending(), Pending::Partial, "{text:?}");
    }
}

#[test]
fn literals_at_top_level_also_wait() {
    let mut r = JsonStreamReader::default();
    r.feed(b"false");
    assert_eq!(r.next_frame(), Ok(None));
    assert_eq!(r.pending(), Pending::UndelimitedScalar);
    r.feed(b"\n");
    assert_eq!(r.next_frame().unwrap().unwrap().value, json!(false));
    let mut r = JsonStreamReader::default();
    r.feed(b"fal");
    assert_eq!(r.next_frame(), Ok(None));
    assert_eq!(r.pending(), Pending::Partial);
}

#[test]
fn the_close_completes_a_trailing_scalar_and_truncates_a_partial_value() {
    let (v, e) = all(b"7");
    assert_eq!(v, vec![json!(7)]);
    assert_eq!(e, Some(JsonStreamError::Closed));
    let (v, e) = all(b"[1,");
    assert!(v.is_empty());
    assert_eq!(e, Some(JsonStreamError::Truncated { offset: 3 }));
    let (_, e) = all(b"   ");
    assert_eq!(e, Some(JsonStreamError::Closed));
}

#[test]
fn a_delimiting_byte_that_is_garbage_is_the_next_values_problem() {
    let mut r = JsonStreamReader::default();
    r.feed(b"[1]x");
    assert_eq!(r.next_frame().unwrap().unwrap().value, json!([1]));
    assert_eq!(
        r.next_frame(),
        Err(JsonStreamError::Garbage {
            offset: 3,
            byte: b'x'
        })
    );
    // Sticky.
    assert!(r.next_frame().is_err());
    let mut r = JsonStreamReader::default();
    r.feed(b"1,");
    assert_eq!(r.next_frame().unwrap().unwrap().value, json!(1));
    assert!(matches!(
        r.next_frame(),
        Err(JsonStreamError::Garbage { byte: b',', .. })
    ));
}

#[test]
fn garbage_is_reported_as_soon_as_it_arrives() {
    for (text, at) in [
        (&b"hello"[..], 0u64),
        (b"[1,]", 3),
        (b"[1 2]", 3),
        (b"{\"a\" 1}", 5),
        (b"{1:2}", 1),
        (b"'a'", 0),
        (b"NaN", 0),
        (b"01", 1),
        (b"[01]", 2),
        (b"-a", 1),
        (b"1.e3", 2),
        (b"tru ", 3),
        (b"[1}", 2),
        (b"]", 0),
        (b"\"\\x\"", 2),
        (b"\"\\u12g4\"", 5),
        (b"\"\\ud800\"", 7),
        (b"\"\\udc00\"", 6),
    ] {
        let mut r = JsonStreamReader::default();
        r.feed(text);
        match r.next_frame() {
            Err(JsonStreamError::Garbage { offset, .. }) => {
                assert_eq!(offset, at, "{}", String::from_utf8_lossy(text))
            }
            other => panic!("{}: {other:?}", String::from_utf8_lossy(text)),
        }
    }
}

#[test]
fn a_surrogate_pair_escape_is_accepted() {
    let (v, _) = all(b"\"\\ud83d\\ude00\" ");
    assert_eq!(v, vec![json!("\u{1F600}")]);
}

#[test]
fn non_json_whitespace_before_a_value_is_its_own_error() {
    for text in [
        &b"\xef\xbb\xbf[1]"[..],
        b"\x0c[1]",
        b"\x0b1 ",
        b"\xc2\xa0[]",
        b"[1] \xe2\x80\x83",
    ] {
        let (_, e) = all(text);
        assert!(
            matches!(e, Some(JsonStreamError::NonJsonWhitespace { .. })),
            "{text:?}: {e:?}"
        );
    }
}

#[test]
fn invalid_utf8_inside_a_string_is_typed() {
    for text in [
        &b"\"\xff\""[..],
        b"\"\xc3\x28\"",
        b"\"\xe0\x80\x80\"",
        b"\"\xed\xa0\x80\"",
        b"\"\xc0\xaf\"",
    ] {
        let (_, e) = all(text);
        assert!(
            matches!(e, Some(JsonStreamError::InvalidUtf8 { .. })),
            "{text:?}: {e:?}"
        );
    }
    let (v, _) = all("\"héllo €𝄞\" ".as_bytes());
    assert_eq!(v, vec![json!("héllo €𝄞")]);
}

#[test]
fn raw_control_characters_in_strings_are_accepted_and_flagged() {
    let mut r = JsonStreamReader::default();
    r.feed(b"\"a\tb\x01c\" \"plain\"");
    let f = r.next_frame().unwrap().unwrap();
    assert_eq!(f.value, json!("a\tb\u{1}c"));
    assert!(f.control_chars);
    let f = r.next_frame().unwrap().unwrap();
    assert!(!f.control_chars);
    assert_eq!(f.offset, 8);
}

#[test]
fn depth_and_size_limits() {
    let limits = JsonLimits {
        max_bytes: 16,
        max_depth: 3,
    };
    let mut r = JsonStreamReader::new(limits);
    r.feed(b"[[[1]]] [[[[");
    assert_eq!(r.next_frame().unwrap().unwrap().value, json!([[[1]]]));
    assert_eq!(
        r.next_frame(),
        Err(JsonStreamError::TooDeep {
            offset: 11,
            limit: 3
        })
    );
    let mut r = JsonStreamReader::new(limits);
    r.feed(b"  \"0123456789abcdef\"");
    assert_eq!(
        r.next_frame(),
        Err(JsonStreamError::TooBig {
            offset: 2,
            limit: 16
        })
    );
    // Exactly at the cap is fine; the leading whitespace does not count.
    let mut r = JsonStreamReader::new(limits);
    r.feed(b"         \"0123456789abcd\"");
    assert_eq!(r.next_frame().unwrap().unwrap().raw.len(), 16);
    // 200 nested arrays under Evolution's default 128-level cap.
    let mut r = JsonStreamReader::default();
    r.feed(&[b'['; 200]);
    assert!(matches!(
        r.next_frame(),
        Err(JsonStreamError::TooDeep { limit: 128, .. })
    ));
}

#[test]
fn big_numbers_are_saturated_not_rejected() {
    let mut r = JsonStreamReader::default();
    r.feed(b"99999999999999999999 [1,\"99999999999999999999\",-99999999999999999999,1E400,-1e400,18446744073709551615] 7 ");
    let f = r.next_frame().unwrap().unwrap();
    assert_eq!(f.value.as_u64(), Some(u64::MAX));
    assert!(f.saturated_numbers);
    let f = r.next_frame().unwrap().unwrap();
    assert_eq!(
        f.value,
        json!([1, "99999999999999999999", -1e20, 1e308, -1e308, u64::MAX])
    );
    assert!(f.saturated_numbers);
    let f = r.next_frame().unwrap().unwrap();
    assert_eq!((f.value, f.saturated_numbers), (json!(7), false));
    // `-0` is a float for serde_json; the game reads the raw text.
    let mut r = JsonStreamReader::default();
    r.feed(b"-0 ");
    let f = r.next_frame().unwrap().unwrap();
    assert_eq!(
        (f.raw.as_slice(), f.value.as_f64()),
        (&b"-0"[..], Some(0.0))
    );
}

fn big_message() -> Vec<u8> {
    // A little over 1 MiB: an array of species-like arrays.
    let species = br#"[["food",0],["body",0],["population",1],["traits",["carnivore"]]]"#;
    let mut m = b"[".to_vec();
    while m.len() < (1 << 20) {
        m.extend_from_slice(species);
        m.push(b',');
    }
    m.extend_from_slice(b"\"end\"] ");
    m
}

#[test]
fn a_one_mebibyte_message_frames_identically_in_any_chunking_and_in_linear_work() {
    let m = big_message();
    let whole = all(&m);
    assert_eq!(whole.0.len(), 1);
    let mut r = JsonStreamReader::new(small());
    let mut got = None;
    for b in &m {
        r.feed(std::slice::from_ref(b));
        if let Some(f) = r.next_frame().unwrap() {
            got = Some(f.value);
        }
    }
    assert_eq!(got.as_ref(), Some(&whole.0[0]));
    // Every byte was consumed exactly once (the trailing space as leading
    // whitespace of a next value), however the stream was chunked.
    assert_eq!(r.bytes_scanned(), m.len() as u64);
}

#[test]
fn many_small_values_in_one_buffer_take_linear_work() {
    let mut stream = Vec::new();
    for i in 0..20_000 {
        stream.extend_from_slice(format!("{i} ").as_bytes());
    }
    let mut r = JsonStreamReader::default();
    r.feed(&stream);
    let mut n = 0;
    while let Some(f) = r.next_frame().unwrap() {
        assert_eq!(f.value, json!(n));
        n += 1;
    }
    assert_eq!(n, 20_000);
    // Each value's digits plus the delimiter that ends it (looked at once
    // as the delimiter, once as leading whitespace).
    assert!(r.bytes_scanned() <= 2 * stream.len() as u64);
}

fn split(bytes: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    let mut out = Vec::new();
    let mut last = 0;
    for c in cuts {
        out.push(bytes[last..c].to_vec());
        last = c;
    }
    out.push(bytes[last..].to_vec());
    out
}

fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<u32>().prop_map(|n| json!(n)),
        any::<i32>().prop_map(|n| json!(n)),
        any::<bool>().prop_map(Value::Bool),
        Just(Value::Null),
        "[a-z \u{e9}\u{20ac}\"\\\\]{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,3}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn chunking_never_changes_the_values(
        values in prop::collection::vec(arb_value(), 1..6),
        seps in prop::collection::vec(prop_oneof![Just(" "), Just("\n"), Just("\r\n\t "), Just("")], 6),
        cuts in prop::collection::vec(any::<usize>(), 0..12),
        pretty in any::<bool>(),
    ) {
        let mut stream = Vec::new();
        for (i, v) in values.iter().enumerate() {
            let text = if pretty { serde_json::to_string_pretty(v) } else { serde_json::to_string(v) }.unwrap();
            stream.extend_from_slice(text.as_bytes());
            // A scalar needs a delimiter before the next value.
            let sep = if seps[i].is_empty() && !(v.is_array() || v.is_object() || v.is_string()) { " " } else { seps[i] };
            stream.extend_from_slice(sep.as_bytes());
        }
        let chunks = split(&stream, &cuts);
        let refs: Vec<&[u8]> = chunks.iter().map(|c| c.as_slice()).collect();
        let (got, err) = run(&refs, true);
        prop_assert_eq!(&got, &values);
        prop_assert_eq!(err, Some(JsonStreamError::Closed));
        let (whole, _) = all(&stream);
        prop_assert_eq!(whole, got);
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_chunking_keeps_the_outcome(
        bytes in prop::collection::vec(any::<u8>(), 0..64),
        cuts in prop::collection::vec(any::<usize>(), 0..8),
    ) {
        let chunks = split(&bytes, &cuts);
        let refs: Vec<&[u8]> = chunks.iter().map(|c| c.as_slice()).collect();
        prop_assert_eq!(run(&refs, true), all(&bytes));
    }
}
