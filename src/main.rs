fn main() {
    protocheck::transport::process::become_subreaper();
    // Ctrl-C: kill every bot process group we started, then leave with 2.
    let _ = ctrlc::set_handler(|| {
        protocheck::transport::process::kill_all_live_groups();
        eprintln!("\nprotocheck: interrupted; all bot processes killed");
        std::process::exit(2);
    });
    std::process::exit(protocheck::cli::main(std::env::args().collect()));
}
