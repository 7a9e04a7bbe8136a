//! Who made a connection to protocheck's port: the bot, or a stranger.
//!
//! protocheck listens on 127.0.0.1, where any local program can connect:
//! another bot of the same grade run without the sandbox, another
//! protocheck's bot scanning the machine's ports (`attack-tcp-connect`), a
//! port scanner of the grader's. Taken as the bot, such a connection decides
//! the bot's verdict (its sign-up is judged, or the bot's own connection is
//! then "a second connection"), so a verdict would depend on other programs.
//! On Linux the connecting socket's inode (`/proc/net/tcp`) is looked up
//! among the file descriptors of the bot's processes and then of every
//! process: a connection held by a process that is not the bot's is closed
//! unplayed, and so is one whose end was closed before it could be told
//! whose it was (a port scan connects and closes at once). Elsewhere, and
//! where the owner of an open end cannot be seen (its `/proc` entry is not
//! readable), the connection is taken as the bot's, as it always was.

use std::net::SocketAddr;

/// Who holds the other end of an accepted connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Peer {
    /// A process of the bot (its main process or any descendant).
    Bot,
    /// A process that is not the bot's: its pid and program name.
    Stranger { pid: i32, program: String },
    /// Its end was closed before it could be told whose it was (a port
    /// scan's connect-and-close): nobody's game can be played on it.
    Gone,
    /// Not known (not Linux, `--no-spawn`, or the owner is gone or hidden):
    /// taken as the bot's.
    Unknown,
}

/// Who made the connection from `peer` to protocheck's `port`, for the bot
/// whose main process is `bot` (0: no process of ours, e.g. `--no-spawn`).
pub fn who_connected(bot: i32, peer: SocketAddr, port: u16) -> Peer {
    #[cfg(target_os = "linux")]
    {
        linux::who_connected(bot, peer, port)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (bot, peer, port);
        Peer::Unknown
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use super::Peer;
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

    pub(super) fn who_connected(bot: i32, peer: SocketAddr, port: u16) -> Peer {
        if bot <= 0 {
            return Peer::Unknown;
        }
        // The client's end still open, with an inode (an end its owner
        // closed is orphaned: state FIN_WAIT or later, inode 0; an end
        // reset is gone from the table).
        let inode = match client_socket(peer, port) {
            Some((inode, ESTABLISHED)) if inode != 0 => inode,
            _ => return Peer::Gone,
        };
        // Nearly always the bot's main process or a child of it holds it:
        // found from the kernel's children lists, without reading all of
        // /proc (which takes tens of milliseconds on a busy machine, and a
        // bot's second connection must be seen while its game runs).
        let tree = descendants(bot);
        if tree.iter().any(|&pid| holds_socket(pid, inode)) {
            return Peer::Bot;
        }
        // A process of the bot re-parented to protocheck (its parent
        // exited): the guard knows it by its tag.
        let mut bots = super::super::guard::processes_of_bot(bot);
        if bots
            .iter()
            .any(|&pid| !tree.contains(&pid) && holds_socket(pid, inode))
        {
            return Peer::Bot;
        }
        bots.extend(tree);
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return Peer::Unknown;
        };
        for entry in dir.flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            if !bots.contains(&pid) && holds_socket(pid, inode) {
                let program = std::fs::read_to_string(format!("/proc/{pid}/comm"))
                    .map(|c| c.trim_end().to_string())
                    .unwrap_or_default();
                return Peer::Stranger { pid, program };
            }
        }
        // Nobody holds it: either its owner is hidden from us, or it closed
        // its end while we looked (a scan's connect-and-close).
        match client_socket(peer, port) {
            Some((now, ESTABLISHED)) if now == inode => Peer::Unknown,
            _ => Peer::Gone,
        }
    }

    /// The state `/proc/net/tcp` gives an open connection.
    const ESTABLISHED: u8 = 1;

    /// The inode and state of the client's socket: the one whose local end
    /// is `peer` and whose remote end is `port` on the loopback address,
    /// asked of the kernel (`sock_diag`), or where it cannot answer, read
    /// from `/proc/net/tcp` (or `tcp6`).
    fn client_socket(peer: SocketAddr, port: u16) -> Option<(u64, u8)> {
        if let SocketAddr::V4(local) = peer {
            let remote = std::net::SocketAddrV4::new(Ipv4Addr::LOCALHOST, port);
            if let Ok(found) = super::super::sock_diag::tcp_socket(local, remote) {
                return found;
            }
        }
        let table = match peer.ip() {
            IpAddr::V4(_) => "/proc/net/tcp",
            IpAddr::V6(_) => "/proc/net/tcp6",
        };
        let text = std::fs::read_to_string(table).ok()?;
        text.lines()
            .skip(1)
            .find_map(|row| socket_of_row(row, peer, port))
    }

    /// The inode and state of one `/proc/net/tcp[6]` row when its local
    /// end is `peer` and its remote end is `port` (at a loopback address).
    pub(super) fn socket_of_row(row: &str, peer: SocketAddr, port: u16) -> Option<(u64, u8)> {
        let fields: Vec<&str> = row.split_whitespace().collect();
        let local = parse_end(fields.get(1)?)?;
        let remote = parse_end(fields.get(2)?)?;
        if local != peer || remote.port() != port || !remote.ip().is_loopback() {
            return None;
        }
        let state = u8::from_str_radix(fields.get(3)?, 16).ok()?;
        Some((fields.get(9)?.parse().ok()?, state))
    }

    /// `0100007F:9C40` (the address as the kernel's words print in this
    /// machine's byte order, the port in hex) as a socket address.
    fn parse_end(text: &str) -> Option<SocketAddr> {
        let (address, port) = text.split_once(':')?;
        let port = u16::from_str_radix(port, 16).ok()?;
        let mut bytes = Vec::with_capacity(16);
        for word in address.as_bytes().chunks(8) {
            let word = u32::from_str_radix(std::str::from_utf8(word).ok()?, 16).ok()?;
            bytes.extend_from_slice(&word.to_ne_bytes());
        }
        let ip = match bytes.len() {
            4 => IpAddr::V4(Ipv4Addr::from(<[u8; 4]>::try_from(bytes).ok()?)),
            16 => {
                let v6 = Ipv6Addr::from(<[u8; 16]>::try_from(bytes).ok()?);
                v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4)
            }
            _ => return None,
        };
        Some(SocketAddr::new(ip, port))
    }

    /// `pid` and its descendants, from each task's `children` list
    /// (`/proc/<pid>/task/<tid>/children`); a process that exits meanwhile is
    /// skipped.
    fn descendants(pid: i32) -> Vec<i32> {
        let mut found = vec![pid];
        let mut next = 0;
        while next < found.len() {
            let parent = found[next];
            next += 1;
            let Ok(tasks) = std::fs::read_dir(format!("/proc/{parent}/task")) else {
                continue;
            };
            for task in tasks.flatten() {
                let Ok(text) = std::fs::read_to_string(task.path().join("children")) else {
                    continue;
                };
                found.extend(
                    text.split_whitespace()
                        .filter_map(|c| c.parse::<i32>().ok())
                        .filter(|c| !found.contains(c))
                        .collect::<Vec<_>>(),
                );
            }
        }
        found
    }

    /// Whether one of `pid`'s file descriptors is the socket `inode`.
    fn holds_socket(pid: i32, inode: u64) -> bool {
        let wanted = format!("socket:[{inode}]");
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
            return false;
        };
        fds.flatten().any(|fd| {
            std::fs::read_link(fd.path()).is_ok_and(|target| target.as_os_str() == wanted.as_str())
        })
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, TcpListener, TcpStream};

    #[test]
    fn a_row_of_the_kernels_table_names_the_client_socket() {
        // 127.0.0.1:40000 -> 127.0.0.1:45678, inode 31337 (little-endian
        // words, as x86 and arm64 print them).
        let row = "   3: 0100007F:9C40 0100007F:B26E 01 00000000:00000000 00:00000000 00000000  1000        0 31337 1 0000000000000000 20 4 30 10 -1";
        let peer = SocketAddr::from((Ipv4Addr::LOCALHOST, 40000));
        if cfg!(target_endian = "little") {
            assert_eq!(linux::socket_of_row(row, peer, 45678), Some((31337, 1)));
        }
        assert_eq!(linux::socket_of_row(row, peer, 45679), None);
        let other = SocketAddr::from((Ipv4Addr::LOCALHOST, 40001));
        assert_eq!(linux::socket_of_row(row, other, 45678), None);
    }

    #[test]
    fn a_connection_the_bots_process_holds_is_the_bots() {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        // bash holds the connection open on descriptor 3 until killed.
        let mut command = std::process::Command::new("bash");
        command.args([
            "-c",
            &format!("exec 3<>/dev/tcp/127.0.0.1/{port}; sleep 30"),
        ]);
        let (mut bot, _known) = crate::transport::guard::KnownChild::spawn(&mut command);
        let (_server, peer) = listener.accept().unwrap();
        let who = who_connected(bot.id() as i32, peer, port);
        let _ = bot.kill();
        let _ = bot.wait();
        assert_eq!(who, Peer::Bot);
    }

    #[test]
    fn a_connection_closed_before_it_is_looked_at_is_gone() {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap());
        let (_server, peer) = listener.accept().unwrap();
        assert_eq!(who_connected(1, peer, port), Peer::Gone);
    }

    #[test]
    fn a_connection_from_a_process_that_is_not_the_bot_is_a_strangers() {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        // The "bot" is a child that connects nowhere; this test's own
        // process connects, and it is not the bot's.
        let mut command = std::process::Command::new("sleep");
        command.arg("30");
        let (mut bot, _known) = crate::transport::guard::KnownChild::spawn(&mut command);
        let _client = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
        let (_server, peer) = listener.accept().unwrap();
        let who = who_connected(bot.id() as i32, peer, port);
        let _ = bot.kill();
        let _ = bot.wait();
        match who {
            Peer::Stranger { pid, .. } => assert_eq!(pid, std::process::id() as i32),
            other => panic!("expected a stranger, got {other:?}"),
        }
        // Without a bot process there is nobody to compare with.
        assert_eq!(who_connected(0, peer, port), Peer::Unknown);
    }
}
