//! A connection to protocheck's port that the bot did not make is not the
//! bot's: another program on the machine (a port scan, another bot of a
//! grade run without the sandbox, `attack-tcp-connect`) connecting first or
//! in the middle of a game must not decide the bot's verdict
//! (`transport::peer`). Linux only: elsewhere the first connection is
//! taken as the bot's (docs/sandbox.md).
#![cfg(target_os = "linux")]

use crate::common::*;
use std::io::Write;
use std::net::{Ipv4Addr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Connects to `port` again and again until `stop`, the way a port scan
/// does: half the connections send a sign-up of their own and stay open
/// for a while, half close at once. How many it made.
fn stranger(port: u16, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        let mut made = 0;
        let mut held = std::collections::VecDeque::new();
        while !stop.load(Ordering::SeqCst) {
            let to = (Ipv4Addr::LOCALHOST, port).into();
            if let Ok(mut s) = TcpStream::connect_timeout(&to, Duration::from_millis(100)) {
                made += 1;
                if made % 2 == 0 {
                    let _ = s.write_all(b"\"intruder\"\n");
                    held.push_back(s);
                    if held.len() > 8 {
                        held.pop_front();
                    }
                }
            }
            std::thread::sleep(Duration::from_millis(3));
        }
        made
    })
}

#[test]
fn connections_the_bot_did_not_make_are_closed_and_the_bot_is_judged_alone() {
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = free.local_addr().unwrap().port();
    drop(free);
    let stop = Arc::new(AtomicBool::new(false));
    let scan = stranger(port, Arc::clone(&stop));
    let bot = bot("evo-correct");
    let port_text = port.to_string();
    let o = run_json(
        &[
            "--game",
            "evolution",
            "--filter",
            "whole-game-3p*",
            "--port",
            &port_text,
            "--jobs",
            "1",
            &bot,
        ],
        &[],
    );
    stop.store(true, Ordering::SeqCst);
    let made = scan.join().unwrap();
    assert!(made > 0, "the stranger never got through");
    // Before: a stranger's connection was played as the bot (its own
    // sign-up, or none) or the bot's was "a second connection".
    assert_eq!(o.code, 0, "{}\n{}", o.messages(), o.stderr);
    assert!(o.rules().is_empty(), "{:?}", o.rules());
    assert_eq!(o.statuses(), vec!["passed"; 3]);
    // The transcript says what was closed, a few times per scenario however
    // many there were.
    for s in o.report["scenarios"].as_array().unwrap() {
        let noted = s["transcript"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|line| {
                line["text"]
                    .as_str()
                    .unwrap_or("")
                    .contains("closed unplayed")
            })
            .count();
        assert!(noted <= 3, "{noted} notes in {}", s["name"]);
    }
    assert!(o.report.to_string().contains("closed unplayed"));
}
