//! Evolution's transport, the TCP side of `transport` with this game's JSON
//! framer, through real sockets: accept deadline, a bot that exits before
//! connecting, an extra connection, and framing of 1-byte writes, several
//! values in one write and a 1 MiB value.

use super::framer::JsonFramer;
use crate::transport::tcp::LoopbackListener;
use crate::transport::tcp_connection::TcpSetup;
use crate::transport::{BotCommand, BotConnection, BotEvent, ConnectionEvent, ExitStatus, Limits};
use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpStream};
use std::time::{Duration, Instant};

fn setup(connect_within: Duration, spawn: bool) -> (TcpSetup, u16) {
    let listener = LoopbackListener::bind(0).unwrap();
    let port = listener.port().unwrap();
    (
        TcpSetup {
            listener,
            connect_within,
            spawn,
            write_timeout: Duration::from_secs(5),
            run_stop: Default::default(),
        },
        port,
    )
}

fn sh(script: &str) -> BotCommand {
    BotCommand {
        program: "sh".into(),
        args: vec!["-c".into(), script.into()],
        env: Default::default(),
        workdir: None,
    }
}

fn no_bot() -> BotCommand {
    BotCommand {
        program: "(client)".into(),
        args: Vec::new(),
        env: Default::default(),
        workdir: None,
    }
}

fn events_until(
    conn: &BotConnection,
    within: Duration,
    stop: impl Fn(&BotEvent) -> bool,
) -> Vec<BotEvent> {
    let deadline = Instant::now() + within;
    let mut out = Vec::new();
    while let Some(e) = conn.recv_until(deadline) {
        let done = stop(&e);
        out.push(e);
        if done {
            break;
        }
    }
    out
}

fn messages(events: &[BotEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            BotEvent::Message { bytes, .. } => Some(String::from_utf8_lossy(bytes).into_owned()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_bot_that_never_connects_gets_never_connected_at_the_deadline() {
    let (s, _) = setup(Duration::from_millis(200), true);
    let mut conn = BotConnection::spawn_tcp(
        &sh("sleep 5"),
        Box::new(JsonFramer::new(1024)),
        &Limits::default(),
        s,
    )
    .unwrap();
    let events = events_until(&conn, Duration::from_secs(10), |e| {
        matches!(e, BotEvent::OutputClosed { .. })
    });
    assert!(
        events.iter().any(|e| matches!(
            e,
            BotEvent::Connection {
                event: ConnectionEvent::NeverConnected { exited: None, .. },
                ..
            }
        )),
        "{events:?}"
    );
    conn.terminate();
}

#[test]
fn a_bot_that_exits_before_connecting_is_reported_at_once() {
    let (s, _) = setup(Duration::from_secs(30), true);
    let started = Instant::now();
    let mut conn = BotConnection::spawn_tcp(
        &sh("exit 3"),
        Box::new(JsonFramer::new(1024)),
        &Limits::default(),
        s,
    )
    .unwrap();
    let events = events_until(&conn, Duration::from_secs(20), |e| {
        matches!(e, BotEvent::OutputClosed { .. })
    });
    assert!(
        events.iter().any(|e| matches!(
            e,
            BotEvent::Connection {
                event: ConnectionEvent::NeverConnected {
                    exited: Some(ExitStatus::Code(3)),
                    ..
                },
                ..
            }
        )),
        "{events:?}"
    );
    // Not the whole connect deadline (no timing assertion beyond "well before 30 s").
    assert!(started.elapsed() < Duration::from_secs(20));
    conn.terminate();
}

#[test]
fn the_port_reaches_the_bot_by_environment_and_argument() {
    let (s, port) = setup(Duration::from_secs(30), true);
    let mut bot = sh(
        "exec 3<>/dev/tcp/127.0.0.1/$PROTOCHECK_PORT; printf '\"%s\" ' \"$0\" >&3; cat <&3 >/dev/null",
    );
    bot.args.push("{port}".into());
    if !std::path::Path::new("/bin/bash").exists() {
        return; // /dev/tcp is a bash feature
    }
    bot.program = "bash".into();
    let mut conn =
        BotConnection::spawn_tcp(&bot, Box::new(JsonFramer::new(1024)), &Limits::default(), s)
            .unwrap();
    let events = events_until(&conn, Duration::from_secs(20), |e| {
        matches!(e, BotEvent::Message { .. })
    });
    assert_eq!(messages(&events), vec![format!("\"{port}\"\n")]);
    conn.terminate();
}

#[test]
fn a_second_connection_is_reported_and_closed_and_the_first_one_works() {
    let (s, port) = setup(Duration::from_secs(30), false);
    let mut conn = BotConnection::spawn_tcp(
        &no_bot(),
        Box::new(JsonFramer::new(1024)),
        &Limits::default(),
        s,
    )
    .unwrap();
    let mut first = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
    first.write_all(b"\"me\" ").unwrap();
    let events = events_until(&conn, Duration::from_secs(20), |e| {
        matches!(e, BotEvent::Message { .. })
    });
    assert_eq!(messages(&events), vec!["\"me\"\n"]);
    let mut second = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
    let events = events_until(&conn, Duration::from_secs(20), |e| {
        matches!(e, BotEvent::Connection { .. })
    });
    assert!(
        matches!(
            events.last(),
            Some(BotEvent::Connection {
                event: ConnectionEvent::Extra { .. },
                ..
            })
        ),
        "{events:?}"
    );
    let mut buf = [0u8; 1];
    assert_eq!(
        second.read(&mut buf).unwrap_or(0),
        0,
        "the extra connection is closed"
    );
    conn.send(b"\"ok\" ".to_vec());
    let mut got = [0u8; 5];
    first.read_exact(&mut got).unwrap();
    assert_eq!(&got, b"\"ok\" ");
    // Closing our side: the client reads end of stream.
    conn.close_input();
    assert_eq!(first.read(&mut buf).unwrap(), 0);
    drop(first);
    let events = events_until(&conn, Duration::from_secs(20), |e| {
        matches!(e, BotEvent::Exited { .. })
    });
    assert!(
        matches!(
            events.last(),
            Some(BotEvent::Exited {
                status: ExitStatus::Code(0),
                ..
            })
        ),
        "no-spawn: EOF stands for the exit: {events:?}"
    );
    conn.terminate();
}

#[test]
fn one_byte_writes_several_values_per_write_and_a_1_mib_value_frame_correctly() {
    let (s, port) = setup(Duration::from_secs(30), false);
    let cap = 2 * 1024 * 1024;
    let mut conn = BotConnection::spawn_tcp(
        &no_bot(),
        Box::new(JsonFramer::new(cap)),
        &Limits::default(),
        s,
    )
    .unwrap();
    let big = format!("[{}0]", "1,".repeat(512 * 1024));
    assert!(big.len() > 1024 * 1024);
    let client_big = big.clone();
    let client = std::thread::spawn(move || {
        let mut c = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
        c.set_nodelay(true).unwrap();
        for b in b"[0,[[1,3]],[],[[1,2]],[]]\n" {
            c.write_all(&[*b]).unwrap();
            std::thread::sleep(Duration::from_millis(1));
        }
        c.write_all(b"1 2\t\"three\"\r\n[4] ").unwrap();
        c.write_all(client_big.as_bytes()).unwrap();
        c.write_all(b" ").unwrap();
    });
    let events = events_until(&conn, Duration::from_secs(30), |e| {
        matches!(e, BotEvent::OutputClosed { .. })
    });
    client.join().unwrap();
    let values: Vec<String> = messages(&events)
        .into_iter()
        .scan(String::new(), |acc, piece| {
            acc.push_str(&piece);
            Some(if piece.ends_with('\n') {
                Some(std::mem::take(acc))
            } else {
                None
            })
        })
        .flatten()
        .collect();
    assert_eq!(
        values.len(),
        6,
        "{:?}",
        values.iter().map(|v| v.len()).collect::<Vec<_>>()
    );
    assert_eq!(values[0], "[0,[[1,3]],[],[[1,2]],[]]\n");
    assert_eq!(&values[1..5], &["1\n", "2\n", "\"three\"\n", "[4]\n"]);
    assert_eq!(values[5], format!("{big}\n"));
    conn.terminate();
}
