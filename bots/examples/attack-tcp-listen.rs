//! `attack-tcp-listen`: plays Kalah as `kalah-correct`, and first opens a
//! TCP listener on 127.0.0.1 (a port of the system's choosing): a back door
//! for another bot, or a way to take another scenario's fixed port.
//!
//! protocheck must: refuse the bind (Landlock denies TCP bind); the bot
//! passes.

use protocheck_sample_bots::attack as common;

fn attack(a: &common::Attack) {
    a.outcome(
        "listen on 127.0.0.1:0",
        std::net::TcpListener::bind("127.0.0.1:0"),
        |l| format!("listening on {:?}", l.local_addr().ok()),
    );
}

fn main() {
    common::run("tcp-listen", attack)
}
