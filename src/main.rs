use protocheck::transport::{guard, process, signals};
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(guard::GUARDIAN_ARG) {
        std::process::exit(guard::guardian_main(&args[2..]));
    }
    process::become_subreaper();
    // A process of its own that kills this run's bots even if protocheck
    // is SIGKILLed (started with the first bot).
    guard::enable_guardian();
    // SIGINT, SIGTERM, SIGHUP: kill every bot we started, then leave with 2.
    let _ = signals::on_termination(|signal| {
        process::kill_all_live_groups();
        // The terminal may be gone (SIGHUP): a failed write is no reason
        // to panic here.
        let _ = writeln!(
            std::io::stderr(),
            "\nprotocheck: stopped by {}; all bot processes killed",
            process::signal_name(signal)
        );
        std::process::exit(2);
    });
    let code = protocheck::cli::main(args);
    if process::interrupted() {
        // The run ended because its bots were killed by the signal handler,
        // which exits with 2 as soon as it is done: let it.
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
    process::kill_everything_left();
    std::process::exit(code);
}
