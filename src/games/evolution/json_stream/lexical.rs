//! Byte-level pieces of the reader: the number automaton, whitespace
//! classes, and the rewrite that lets serde_json parse what the scanner
//! accepted.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpDigits,
}

impl Num {
    pub(super) fn is_final(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::ExpDigits)
    }
    /// The state after `b`, or `None` when `b` cannot continue the number.
    pub(super) fn step(self, b: u8) -> Option<Num> {
        let digit = b.is_ascii_digit();
        match (self, b) {
            (Num::Minus, b'0') => Some(Num::Zero),
            (Num::Minus, _) if digit => Some(Num::Int),
            (Num::Zero | Num::Int, b'.') => Some(Num::Dot),
            (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Some(Num::Exp),
            (Num::Int, _) if digit => Some(Num::Int),
            (Num::Dot | Num::Frac, _) if digit => Some(Num::Frac),
            (Num::Exp, b'+' | b'-') => Some(Num::ExpSign),
            (Num::Exp | Num::ExpSign | Num::ExpDigits, _) if digit => Some(Num::ExpDigits),
            _ => None,
        }
    }
}

/// JSON whitespace: space, tab, LF, CR.
pub fn is_json_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// First bytes of whitespace JSON does not allow: form feed, vertical tab,
/// and the UTF-8 lead bytes of BOM (EF), NBSP/NEL (C2), and the other Unicode
/// spaces (E1, E2, E3).
pub(super) fn is_other_whitespace_start(b: u8) -> bool {
    matches!(b, 0x0b | 0x0c | 0x1c..=0x1f | 0x85 | 0xa0 | 0xc2 | 0xe1..=0xe3 | 0xef)
}

/// Rewrite a value the scanner accepted into text serde_json parses to
/// what the reference would read: raw control bytes inside strings become
/// `\u00XX` escapes, and numbers serde_json cannot hold are saturated (see
/// [`super::JsonFrame::saturated_numbers`]). `None` when nothing needs changing;
/// the flag says whether a number was saturated.
pub(super) fn normalise(raw: &[u8]) -> (Option<Vec<u8>>, bool) {
    let mut out: Option<Vec<u8>> = None;
    let mut saturated = false;
    let (mut in_string, mut escaped) = (false, false);
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            } else if b < 0x20 {
                let o = out.get_or_insert_with(|| raw[..i].to_vec());
                o.extend_from_slice(format!("\\u{b:04x}").as_bytes());
                i += 1;
                continue;
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b'-' || b.is_ascii_digit() {
            let end = raw[i..]
                .iter()
                .position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                .map_or(raw.len(), |k| i + k);
            let text = std::str::from_utf8(&raw[i..end]).unwrap_or("0");
            let integer = !text.contains(['.', 'e', 'E']);
            let replacement = if integer && !text.starts_with('-') && text.parse::<u64>().is_err() {
                Some(u64::MAX.to_string())
            } else if !integer && text.parse::<f64>().is_ok_and(f64::is_infinite) {
                Some(
                    if text.starts_with('-') {
                        "-1e308"
                    } else {
                        "1e308"
                    }
                    .to_string(),
                )
            } else {
                None
            };
            match replacement {
                Some(r) => {
                    saturated = true;
                    let o = out.get_or_insert_with(|| raw[..i].to_vec());
                    o.extend_from_slice(r.as_bytes());
                }
                None => {
                    if let Some(o) = out.as_mut() {
                        o.extend_from_slice(&raw[i..end]);
                    }
                }
            }
            i = end;
            continue;
        }
        if let Some(o) = out.as_mut() {
            o.push(b);
        }
        i += 1;
    }
    (out, saturated)
}
