//! `hostile-self-stop`: stops itself with SIGSTOP at once, so it neither
//! reads nor answers nor reacts to SIGTERM until continued. Game-agnostic.
//!
//! protocheck must report `io.timeout` and still get rid of the stopped bot
//! (SIGKILL works on a stopped process; protocheck also sends SIGCONT after
//! SIGTERM so that a stopped bot can act on the SIGTERM).

fn main() {
    // SAFETY: raising a signal on this process has no preconditions.
    unsafe { libc::raise(libc::SIGSTOP) };
    // Continued: leave quietly.
}
