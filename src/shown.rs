//! What protocheck shows of the bot's messages, and how much of it: below
//! the controller, so games (which quote replies in findings) and reporters
//! (which say what was cut) share it without reaching into the controller.

/// The text of a message for transcripts and comparisons: lossy UTF-8,
/// terminators removed, CRs made visible.
pub fn message_text(bytes: &[u8]) -> String {
    let mut end = bytes.len();
    while end > 0 && bytes[end - 1] == b'\n' {
        end -= 1;
    }
    String::from_utf8_lossy(&bytes[..end]).replace('\r', "\\r")
}

/// Findings kept per rule id; later ones of the same rule are only counted.
pub const KEPT_PER_RULE: usize = 5;
/// Longest transcript line kept, in bytes of text (a 25×25 `showboard` is
/// about 2 KiB; a 64 KiB line is cut and says how long it was).
pub const TRANSCRIPT_LINE_BYTES: usize = 4096;

/// Cut `text` to at most `max` bytes (on a character boundary), saying how
/// long it was.
pub fn cut_text(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let total = text.len();
    text.truncate(end);
    text.push_str(&format!("… ({total} bytes in all)"));
}

/// `1003407` → `1,003,407`.
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
