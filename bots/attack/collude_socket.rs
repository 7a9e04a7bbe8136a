//! `attack-collude-socket`: plays Kalah as `kalah-correct`, and first passes
//! a message to a colluding classmate (two classmates run this same
//! program) through the abstract Unix socket `@protocheck-collusion`: it
//! connects and sends its id; when nobody listens yet, it listens itself
//! and waits up to a second for the other's message.
//!
//! protocheck must: refuse the connect (Landlock scopes abstract Unix
//! sockets to the bot's own sandbox); the bot passes.

#[path = "common/mod.rs"]
mod common;

use std::io::{Read, Write};
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr, UnixListener, UnixStream};
use std::time::{Duration, Instant};

fn attack(a: &common::Attack) {
    let Ok(address) = SocketAddr::from_abstract_name(b"protocheck-collusion") else {
        return a.no_target("no abstract socket names here");
    };
    let message = format!("{} says: play hole 1", common::own_id());
    let what = "connect to @protocheck-collusion";
    match UnixStream::connect_addr(&address) {
        Ok(mut stream) => {
            let sent = stream.write_all(message.as_bytes());
            a.outcome(what, sent, |()| format!("sent {message:?}"));
            return;
        }
        Err(e) if e.kind() != std::io::ErrorKind::ConnectionRefused => return a.error(what, &e),
        Err(_) => {}
    }
    let listener = match UnixListener::bind_addr(&address) {
        Ok(listener) => listener,
        Err(e) => return a.error("listen on @protocheck-collusion", &e),
    };
    let _ = listener.set_nonblocking(true);
    let until = Instant::now() + common::PATIENCE;
    while Instant::now() < until {
        if let Ok((mut stream, _)) = listener.accept() {
            let _ = stream.set_nonblocking(false);
            let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
            let mut text = String::new();
            let _ = stream.read_to_string(&mut text);
            return a.succeeded(
                "listen on @protocheck-collusion",
                format!("received {text:?}"),
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    a.no_target("listening on @protocheck-collusion, no colluder connected within 1s");
}

fn main() {
    common::run("collude-socket", attack)
}
