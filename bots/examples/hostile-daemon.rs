//! `hostile-daemon`: daemonizes the classic way (fork, `setsid`, fork again,
//! the middle process exits, the daemon closes its standard streams and
//! moves to `/`), and the bot itself exits at once with status 0.
//! Game-agnostic.
//!
//! protocheck must report `io.crash` (the bot left before the game ended)
//! and kill the daemon, which is re-parented to protocheck (a subreaper),
//! not to init.

use std::time::Duration;

fn main() {
    // SAFETY: single-threaded, so fork is safe; the children call only
    // async-signal-safe functions and std's sleep.
    unsafe {
        if libc::fork() == 0 {
            libc::setsid();
            if libc::fork() != 0 {
                libc::_exit(0);
            }
            libc::signal(libc::SIGTERM, libc::SIG_IGN);
            libc::signal(libc::SIGHUP, libc::SIG_IGN);
            libc::chdir(c"/".as_ptr());
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
            for fd in 0..3 {
                libc::dup2(null, fd);
            }
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
    }
}
