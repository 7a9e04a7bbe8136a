//! `attack-tcp-connect`: plays Kalah as `kalah-correct`, and first connects
//! to every TCP port that listens on this machine (`/proc/net/tcp`, state
//! LISTEN), as it would reach another scenario's Evolution port or a
//! service of the grader's.
//!
//! protocheck must: refuse every connect (Landlock allows a TCP connect only
//! to the game's own port, and a Kalah bot has none); the bot passes.

use protocheck_sample_bots::attack as common;

use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// Ports in state LISTEN (0A) in `/proc/net/tcp`.
fn listening() -> Vec<u16> {
    let text = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    let mut ports: Vec<u16> = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            (fields.get(3) == Some(&"0A")).then_some(())?;
            u16::from_str_radix(fields.get(1)?.rsplit(':').next()?, 16).ok()
        })
        .collect();
    ports.sort_unstable();
    ports.dedup();
    ports
}

fn attack(a: &common::Attack) {
    let ports = listening();
    if ports.is_empty() {
        return a.no_target("no TCP port listens on this machine");
    }
    for port in ports.into_iter().take(32) {
        let to = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let result = TcpStream::connect_timeout(&to, Duration::from_millis(200));
        a.outcome(&format!("connect to {to}"), result, |_| "connected".into());
    }
}

fn main() {
    common::run("tcp-connect", attack)
}
