//! `attack-collude-socket`: plays Kalah as `kalah-correct`, and first passes
//! a message to a colluding classmate through the abstract Unix socket
//! `@protocheck-collusion-<class>` (`common::meeting_place`). Two classmates submit this same program under
//! ids that start with `collude-socket` (the colluders' agreement). Each
//! connects and sends its id; when nobody listens yet, it listens itself
//! and waits for the other's message, as long as the other's bot is
//! running (at most a second).
//!
//! protocheck must: refuse the connect (Landlock scopes abstract Unix
//! sockets to the bot's own sandbox); the bot passes.

use protocheck_sample_bots::attack as common;

use std::io::{Read, Write};
use std::os::linux::net::SocketAddrExt;
use std::os::unix::net::{SocketAddr, UnixListener, UnixStream};
use std::time::{Duration, Instant};

/// The start of the colluders' ids.
const PAIR: &str = "collude-socket";

/// Whether the other colluder's bot is running.
fn partner_running() -> bool {
    common::classmate_bots()
        .iter()
        .any(|(_, id)| id.starts_with(PAIR))
}

/// Connects and sends `message`; `Ok(None)`: nobody listens.
fn send(address: &SocketAddr, message: &str) -> std::io::Result<Option<()>> {
    match UnixStream::connect_addr(address) {
        Ok(mut stream) => stream.write_all(message.as_bytes()).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => Ok(None),
        Err(e) => Err(e),
    }
}

fn attack(a: &common::Attack) {
    let place = common::meeting_place();
    let Ok(address) = SocketAddr::from_abstract_name(place.as_bytes()) else {
        return a.no_target("no abstract socket names here");
    };
    let message = format!("{} says: play hole 1", common::own_id());
    let what = &format!("connect to @{place}");
    match send(&address, &message) {
        Ok(Some(())) => return a.succeeded(what, format!("sent {message:?}")),
        Ok(None) => {}
        Err(e) => return a.error(what, &e),
    }
    let listener = match UnixListener::bind_addr(&address) {
        Ok(listener) => listener,
        // The other colluder bound it in the meantime: talk to it.
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            return match send(&address, &message) {
                Ok(Some(())) => a.succeeded(what, format!("sent {message:?}")),
                Ok(None) => a.no_target(format!("@{place} is bound but nobody listens")),
                Err(e) => a.error(what, &e),
            };
        }
        Err(e) => return a.error(&format!("listen on @{place}"), &e),
    };
    let _ = listener.set_nonblocking(true);
    let until = Instant::now() + common::PATIENCE;
    let mut looked = Instant::now() - Duration::from_secs(1);
    while Instant::now() < until {
        if let Ok((mut stream, _)) = listener.accept() {
            let _ = stream.set_nonblocking(false);
            let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
            let mut text = String::new();
            let _ = stream.read_to_string(&mut text);
            return a.succeeded(&format!("listen on @{place}"), format!("received {text:?}"));
        }
        if looked.elapsed() >= Duration::from_millis(50) {
            if !partner_running() {
                break;
            }
            looked = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    a.no_target(format!(
        "listened on @{place}: the other colluder did not connect"
    ));
}

fn main() {
    common::run("collude-socket", attack)
}
