//! Standard output that a reader may close early.

/// Write to stdout. A reader that went away (`protocheck --list | head`)
/// is not an error of protocheck's: the rest is dropped and the exit status
/// still says how the run went. (`print!` would panic on EPIPE; SIGPIPE
/// cannot be restored instead, since writes to a bot that closed its input
/// must fail with EPIPE, not kill protocheck.)
pub fn emit(text: &str) {
    emit_bytes(text.as_bytes())
}

pub fn emit_bytes(bytes: &[u8]) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(bytes).and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("protocheck: cannot write to stdout: {e}");
    }
}
