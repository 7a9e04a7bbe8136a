//! `hostile-env-wipe`: forks a child that calls `setsid()` and re-executes
//! `sleep` with an *empty* environment (so it carries no tag), with
//! `hostile-env-wipe:<PROTOCHECK_TEST_MARKER>` as its `argv[0]` so a test can
//! still find it; the bot exits at once. Game-agnostic.
//!
//! protocheck must report `io.crash`, and kill the untagged child anyway:
//! an orphan re-parented to protocheck that belongs to no running bot is
//! killed at the end of every scenario.

use std::ffi::CString;

fn main() {
    let marker = std::env::var("PROTOCHECK_TEST_MARKER").unwrap_or_default();
    let name = CString::new(format!("hostile-env-wipe:{marker}")).unwrap_or_default();
    let seconds = c"1000";
    let argv = [name.as_ptr(), seconds.as_ptr(), std::ptr::null()];
    let envp: [*const libc::c_char; 1] = [std::ptr::null()];
    // SAFETY: single-threaded, so fork is safe; execve gets NUL-terminated
    // arrays of C strings that outlive the call.
    unsafe {
        if libc::fork() == 0 {
            libc::setsid();
            for sleep in [c"/bin/sleep", c"/usr/bin/sleep"] {
                libc::execve(sleep.as_ptr(), argv.as_ptr(), envp.as_ptr());
            }
            libc::_exit(127);
        }
    }
}
