use protocheck::pool::StopToken;
use protocheck::transport::{guard, process, signals};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(guard::GUARDIAN_ARG) {
        std::process::exit(guard::guardian_main(&args[2..]));
    }
    process::become_subreaper();
    // A process of its own that kills this run's bots even if protocheck
    // is SIGKILLed (started with the first bot).
    guard::enable_guardian();
    // The run's one stop: SIGINT, SIGTERM and SIGHUP set it, and kill every
    // bot we started unless the command passes the stop on (grade). A
    // running suite then stops, writes its report and exits with 2;
    // anything else leaves with 2 at once (see `signals::handle_stops`).
    let stop = StopToken::new();
    let _ = signals::handle_stops(&stop);
    let code = protocheck::cli::main(args, &stop);
    signals::leave(&stop, code);
}
