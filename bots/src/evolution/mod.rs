//! Shared client of the sample Evolution bots (remote protocol 1.3, rules
//! digest `shared/rules/evolution.md`).
//!
//! Every Evolution sample client is this one client, [`run`] with a
//! [`Flaw`]. With [`Flaw::None`] it follows the rules digest exactly; every
//! other variant changes exactly one behaviour, the one documented on the
//! variant (and at the top of the example's file).
//!
//! What the correct client does:
//!
//! * Port: `--port <n>` (or `--port=<n>`) on the command line, else the
//!   environment variable `PROTOCHECK_PORT`; without either it exits 2. It
//!   dials `127.0.0.1` (IPv4: protocheck and the reference server listen
//!   there), retrying for up to 10 s while the connection is refused, so it
//!   can be started before the server.
//! * Sign-up: its name as a JSON string (the example's name), then it reads
//!   values until the string `"ok"`.
//! * Framing (§1.2–1.4): one streaming JSON reader for the whole connection
//!   (`protocheck::games::evolution::json_stream`), so split and coalesced TCP
//!   segments are both fine; every value it writes is compact JSON followed
//!   by one space, in a single write.
//! * Messages are told apart by array length: 4 = `start`, 2 = `choose`,
//!   5 = `feedNext` (§2.1). `start` is remembered (its hand is what the card
//!   indices of the next Action4 refer to); `choose` is answered with the
//!   course's strategy (§3.12, `protocheck::games::evolution::strategy`);
//!   `feedNext` with the strategy's feeding choice computed from the State.
//! * End: when the server closes the socket it exits 0 at once, silently.
//! * `EVO_BOT_SPACED` set (any value): every value it writes as Python's
//!   `json.dumps` does, a space after each `,` and `:`, then a newline.
//!   Not a flaw (JSON whitespace); it shows what a report makes of values
//!   written otherwise than protocheck shows them.
//!
//! The rules are protocheck's own library (`games::evolution`), which the
//! course fixtures check; the client does not track the game itself.

// Each example uses one variant and a subset of the helpers.
#![allow(dead_code)]

mod choices;

use protocheck::games::evolution::json_stream::{JsonStreamError, JsonStreamReader};
use protocheck::games::evolution::model::{Card, Species, parse_boards, parse_cards};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The one thing a sample client does wrong (`None`: nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flaw {
    /// Conforms to the rules digest.
    None,
    /// Never flushes: everything it writes stays in its output buffer until
    /// it leaves (the server closed the socket), as a buffered writer around
    /// the socket that is only flushed when closed.
    NoFlush,
    /// Not a flaw: every reply pretty-printed over several lines with CRLF
    /// line ends and a CRLF after it (§9.2 item 8, D9: must pass).
    PrettyCrlf,
    /// Writes every value with nothing after it (§1.4, §9.2 item 1): a bare
    /// VegetarianChoice number never ends for the reader.
    Undelimited,
    /// GP and GB in the older tagged form `["population", b, c]` /
    /// `["body", b, c]` (§9.2 item 2, D7).
    TaggedGrowth,
    /// After the server closes the socket it keeps polling it (a 0-byte
    /// read every 50 ms) and never exits (§9.2 item 3).
    NoExit,
    /// Signs up with a JSON object `{"name": …}` instead of a string (§2.3).
    SignupObject,
    /// Writes its sign-up name without quotes (a bare word, not JSON).
    SignupBareWord,
    /// Writes a UTF-8 byte-order mark before its sign-up (a .NET
    /// `StreamWriter` with `Encoding.UTF8` does this).
    ByteOrderMark,
    /// Builds the sign-up by string concatenation: a raw tab inside it.
    SignupRawTab,
    /// Encodes its sign-up name (`José`) in Latin-1, not UTF-8.
    Latin1Name,
    /// Every card index of its Action4 counted from 1.
    OneBasedCards,
    /// Forgets to take the food card out of the sorted hand: the same card
    /// also pays for the new board.
    FoodCardReused,
    /// Names the board created by its first BT `n + 1` instead of `n`.
    NewBoardOffByOne,
    /// Believes RT can add a trait: its fourth card gives the new board a
    /// second trait with RT at position 1 (the board has one trait).
    RtAppends,
    /// Puts up to three spare cards on its new board without checking that
    /// their traits differ.
    UncheckedTraits,
    /// Writes the food card index as a float (`2.0`).
    FloatIndex,
    /// Acknowledges every `start` with `"ok"` (no reply is due).
    AcksStart,
    /// Feeds its largest hungry species as a VegetarianChoice even when it
    /// is a carnivore.
    FeedsCarnivore,
    /// Feeds its largest non-carnivore species without checking hunger.
    FeedsFull,
    /// Asks fat-tissue to store its body size, forgetting the fat already
    /// stored.
    FatIgnoresStore,
    /// Answers `false` ("decline", as the document allows) instead of
    /// attacking.
    DeclinesAttack,
    /// Attacks the largest species of the other players without the attack
    /// test (traits ignored).
    AttacksUnchecked,
    /// Writes a VegetarianChoice as a one-element array `[s]`.
    WrapsVegetarian,
    /// Closes its socket and exits 0 right after its first Action4.
    ClosesEarly,
    /// Starts its player twice: a second connection signs up as well (and
    /// just stays open) once the first has its `"ok"`.
    ConnectsTwice,
    /// Waits for the server to speak first, never signing up.
    WaitsForServer,
    /// Dials the IPv6 loopback `::1` (what `localhost` resolves to first on
    /// most Linux hosts) and never tries 127.0.0.1; retries forever.
    DialsIpv6,
    /// Compares its first socket read with the exact bytes `"ok"`; the
    /// trailing space makes it exit 1 (§9.2 item 6).
    ExactOk,
    /// Reads the socket before looking at what it already buffered: when
    /// two messages arrive in one segment it waits for the second one
    /// forever (§9.2 item 4).
    ReadsBeforeBuffered,
    /// Once a `start` deals it a carnivore card of food value 5 or more (4
    /// of the deck's 129 cards), names as its Action4's food card the
    /// position one past its hand: a bug only some deals reach, often late
    /// (the one shrinking finds an earlier deal for).
    LateBlunder,
}

/// Runs the client named `name` (also its sign-up) with one `flaw`.
pub fn run(name: &str, flaw: Flaw) -> ExitCode {
    let Some(port) = port_from_args_or_env() else {
        eprintln!("{name}: no port: pass --port <n> or set PROTOCHECK_PORT");
        return ExitCode::from(2);
    };
    let stream = match connect(port, flaw) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{name}: cannot connect to 127.0.0.1:{port}: {e}");
            return ExitCode::from(1);
        }
    };
    match Client::new(name, flaw, stream, port).play() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::from(1)
        }
    }
}

fn port_from_args_or_env() -> Option<u16> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--port" {
            return args.get(i + 1)?.parse().ok();
        }
        if let Some(p) = args[i].strip_prefix("--port=") {
            return p.parse().ok();
        }
        i += 1;
    }
    std::env::var("PROTOCHECK_PORT").ok()?.trim().parse().ok()
}

fn connect(port: u16, flaw: Flaw) -> std::io::Result<TcpStream> {
    if flaw == Flaw::DialsIpv6 {
        let addr = SocketAddr::from((Ipv6Addr::LOCALHOST, port));
        loop {
            if let Ok(s) = TcpStream::connect_timeout(&addr, Duration::from_secs(1)) {
                return Ok(s);
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let give_up = Instant::now() + Duration::from_secs(10);
    loop {
        match TcpStream::connect(addr) {
            Ok(s) => return Ok(s),
            Err(e) if Instant::now() < give_up => {
                if e.kind() != std::io::ErrorKind::ConnectionRefused {
                    return Err(e);
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(e) => return Err(e),
        }
    }
}

/// The client's view of the game: the latest `start`.
struct Client {
    name: String,
    flaw: Flaw,
    stream: TcpStream,
    port: u16,
    reader: JsonStreamReader,
    boards: Vec<Species>,
    hand: Vec<Card>,
    /// Kept open until the end ([`Flaw::ConnectsTwice`]).
    second_connection: Option<TcpStream>,
    /// What [`Flaw::NoFlush`] wrote: sent only when the client leaves.
    unflushed: Vec<u8>,
}

impl Drop for Client {
    fn drop(&mut self) {
        // The buffer is written out as the client leaves.
        let _ = self.stream.write_all(&self.unflushed);
    }
}

impl Client {
    fn new(name: &str, flaw: Flaw, stream: TcpStream, port: u16) -> Client {
        Client {
            name: name.to_string(),
            flaw,
            stream,
            port,
            reader: JsonStreamReader::default(),
            boards: Vec::new(),
            hand: Vec::new(),
            second_connection: None,
            unflushed: Vec::new(),
        }
    }

    fn play(mut self) -> Result<(), String> {
        if self.flaw == Flaw::WaitsForServer {
            // Waits for a greeting that never comes; the server closes.
            let mut byte = [0u8; 1];
            let _ = self.stream.read(&mut byte);
            return Ok(());
        }
        let signup = signup_bytes(&self.name, self.flaw);
        self.write_raw(&signup)?;
        if self.flaw == Flaw::ExactOk {
            let mut buf = [0u8; 4096];
            let n = self.stream.read(&mut buf).map_err(|e| e.to_string())?;
            if &buf[..n] != b"\"ok\"" {
                return Err(format!(
                    "unexpected reply to the sign-up: {:?}",
                    String::from_utf8_lossy(&buf[..n])
                ));
            }
        }
        let mut replied_choose = false;
        while let Some(message) = self.next_message()? {
            match &message {
                // The sign-up's acknowledgement; a second one is ignored.
                Value::String(s)
                    if s == "ok"
                        && self.flaw == Flaw::ConnectsTwice
                        && self.second_connection.is_none() =>
                {
                    self.second_connection = Some(self.sign_up_again()?);
                }
                Value::Array(items) if items.len() == 4 => self.on_start(items)?,
                Value::Array(items) if items.len() == 2 => {
                    self.on_choose()?;
                    if self.flaw == Flaw::ClosesEarly && !replied_choose {
                        let _ = self.stream.shutdown(std::net::Shutdown::Both);
                        return Ok(());
                    }
                    replied_choose = true;
                }
                Value::Array(items) if items.len() == 5 => self.on_feed_next(items)?,
                // Nothing else is sent by a dealer; a client ignores it.
                _ => {}
            }
        }
        if self.flaw == Flaw::NoExit {
            let mut buf = [0u8; 64];
            loop {
                let _ = self.stream.read(&mut buf);
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Ok(())
    }

    /// The next complete value, `None` once the server closed the socket.
    fn next_message(&mut self) -> Result<Option<Value>, String> {
        if self.flaw == Flaw::ReadsBeforeBuffered {
            // The defect: a socket read first, whatever is buffered.
            if !self.read_more()? {
                self.reader.close();
            }
        }
        loop {
            match self.reader.next_frame() {
                Ok(Some(frame)) => return Ok(Some(frame.value)),
                Ok(None) => {
                    if !self.read_more()? {
                        self.reader.close();
                    }
                }
                Err(JsonStreamError::Closed) => return Ok(None),
                Err(e) => return Err(format!("cannot read the server: {e}")),
            }
        }
    }

    /// Reads one chunk into the reader; false at end of stream.
    fn read_more(&mut self) -> Result<bool, String> {
        let mut buf = [0u8; 64 * 1024];
        loop {
            match self.stream.read(&mut buf) {
                Ok(0) => return Ok(false),
                Ok(n) => {
                    self.reader.feed(&buf[..n]);
                    return Ok(true);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                // A reset by the closing server ends the game like a close.
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return Ok(false),
                Err(e) => return Err(format!("cannot read the server: {e}")),
            }
        }
    }

    fn on_start(&mut self, items: &[Value]) -> Result<(), String> {
        self.boards = parse_boards(&items[2]).map_err(|e| format!("bad start boards: {e}"))?;
        self.hand = parse_cards(&items[3]).map_err(|e| format!("bad start hand: {e}"))?;
        if self.flaw == Flaw::AcksStart {
            self.send(&Value::from("ok"))?;
        }
        Ok(())
    }

    fn on_choose(&mut self) -> Result<(), String> {
        let reply = choices::action4(&self.boards, &self.hand, self.flaw);
        self.send(&reply)
    }

    fn on_feed_next(&mut self, items: &[Value]) -> Result<(), String> {
        let boards = parse_boards(&items[1]).map_err(|e| format!("bad State boards: {e}"))?;
        let others: Vec<Vec<Species>> = match &items[4] {
            Value::Array(players) => players
                .iter()
                .map(parse_boards)
                .collect::<Result<_, _>>()
                .map_err(|e| format!("bad State others: {e}"))?,
            _ => return Err("bad State: others is not an array".to_string()),
        };
        let reply = choices::feeding(&boards, &others, self.flaw);
        self.send(&reply)
    }

    fn sign_up_again(&self) -> Result<TcpStream, String> {
        let mut second = TcpStream::connect(SocketAddr::from((Ipv4Addr::LOCALHOST, self.port)))
            .map_err(|e| format!("second connection: {e}"))?;
        second
            .write_all(&signup_bytes(&self.name, Flaw::None))
            .map_err(|e| format!("second connection: {e}"))?;
        Ok(second)
    }

    /// One value in the client's output format, in one write.
    fn send(&mut self, value: &Value) -> Result<(), String> {
        let bytes = encode(value, self.flaw);
        self.write_raw(&bytes)
    }

    fn write_raw(&mut self, bytes: &[u8]) -> Result<(), String> {
        if self.flaw == Flaw::NoFlush {
            self.unflushed.extend_from_slice(bytes);
            return Ok(());
        }
        self.stream
            .write_all(bytes)
            .and_then(|()| self.stream.flush())
            .map_err(|e| format!("cannot write to the server: {e}"))
    }
}

/// A value as this client writes it: compact JSON and one space.
fn encode(value: &Value, flaw: Flaw) -> Vec<u8> {
    match flaw {
        Flaw::PrettyCrlf => {
            let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
            let mut text = pretty.replace('\n', "\r\n");
            text.push_str("\r\n");
            text.into_bytes()
        }
        Flaw::Undelimited => serde_json::to_vec(value).unwrap_or_default(),
        _ if std::env::var_os("EVO_BOT_SPACED").is_some() => {
            let mut text = spaced(&value.to_string());
            text.push('\n');
            text.into_bytes()
        }
        _ => {
            let mut bytes = serde_json::to_vec(value).unwrap_or_default();
            bytes.push(b' ');
            bytes
        }
    }
}

/// Compact JSON with a space after each `,` and `:` outside strings, as
/// Python's `json.dumps` writes it.
fn spaced(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let (mut in_string, mut escaped) = (false, false);
    for ch in compact.chars() {
        out.push(ch);
        if in_string {
            match ch {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if ch == '"' {
            in_string = true;
        } else if ch == ',' || ch == ':' {
            out.push(' ');
        }
    }
    out
}

/// The sign-up as this client writes it.
fn signup_bytes(name: &str, flaw: Flaw) -> Vec<u8> {
    let quoted = serde_json::to_string(name).unwrap_or_default();
    let text = match flaw {
        Flaw::SignupObject => format!("{{\"name\":{quoted}}} "),
        Flaw::SignupBareWord => format!("{name} "),
        Flaw::ByteOrderMark => format!("\u{feff}{quoted} "),
        Flaw::SignupRawTab => format!("\"{name}\tv1\" "),
        Flaw::Latin1Name => {
            let mut bytes = b"\"Jos\xe9 ".to_vec();
            bytes.extend_from_slice(name.as_bytes());
            bytes.extend_from_slice(b"\" ");
            return bytes;
        }
        _ => return encode(&Value::from(name), flaw),
    };
    text.into_bytes()
}
