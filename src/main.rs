use protocheck::transport::{guard, process, signals};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long a stopped run may take to write its report before protocheck
/// leaves without it (a stuck report must never keep protocheck alive).
const REPORT_DEADLINE: Duration = Duration::from_secs(5);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(guard::GUARDIAN_ARG) {
        std::process::exit(guard::guardian_main(&args[2..]));
    }
    process::become_subreaper();
    // A process of its own that kills this run's bots even if protocheck
    // is SIGKILLed (started with the first bot).
    guard::enable_guardian();
    // SIGINT, SIGTERM, SIGHUP: kill every bot we started. A running suite
    // then stops, writes its report and exits with 2 (below); anything
    // else leaves with 2 at once.
    let _ = signals::on_termination(
        |signal| {
            process::kill_all_live_groups(signal);
            if !signals::reporting() {
                say_stopped(signal, "");
                std::process::exit(2);
            }
            // Said now, not after the report: a user who sees nothing
            // happen presses Ctrl-C again, and should know what that does.
            // On a thread of its own: a stderr nobody reads must not keep
            // this thread from its deadline.
            std::thread::spawn(move || {
                say_stopped(
                    signal,
                    "; writing the report (a second signal, e.g. Ctrl-C again, leaves without it)",
                )
            });
        },
        REPORT_DEADLINE,
        |signal, again| {
            process::kill_all_live_groups(signal);
            let why = match again {
                Some(second) => format!("stopped by {} again", process::signal_name(second)),
                None => format!(
                    "the report was not written within {} s of {}",
                    REPORT_DEADLINE.as_secs(),
                    process::signal_name(signal)
                ),
            };
            let _ = writeln!(
                std::io::stderr(),
                "\nprotocheck: {why}; leaving without it (all bot processes killed)"
            );
            // _exit: the main thread may be holding stdout or be inside
            // exit itself; nothing it holds may keep protocheck alive.
            // SAFETY: _exit has no preconditions.
            unsafe { libc::_exit(2) };
        },
    );
    let code = protocheck::cli::main(args);
    if let Some(stop) = process::interruption() {
        if !signals::reporting() {
            // The signal handler exits with 2 as soon as it is done: let it.
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
        process::kill_everything_left();
        say_stopped(stop.signal, "");
        std::process::exit(2);
    }
    process::kill_everything_left();
    std::process::exit(code);
}

/// The line that says why the run ends, once (`then`: what happens next).
fn say_stopped(signal: i32, then: &str) {
    static SAID: AtomicBool = AtomicBool::new(false);
    if SAID.swap(true, Ordering::SeqCst) {
        return;
    }
    // The terminal may be gone (SIGHUP): a failed write is no reason to
    // panic here.
    let _ = writeln!(
        std::io::stderr(),
        "\nprotocheck: stopped by {}; all bot processes killed{then}",
        process::signal_name(signal)
    );
}
