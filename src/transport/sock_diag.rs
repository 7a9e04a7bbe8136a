//! One TCP socket looked up by its four-tuple through the kernel's
//! `sock_diag` netlink interface (Linux): its inode and state, in tens of
//! microseconds. `/proc/net/tcp` gives the same, but the kernel writes it by
//! walking every bucket of its connection tables, which takes 4 to 25 ms on
//! a busy machine: too slow to tell whose a connection is while a short
//! game runs (`peer`).

use std::io;
use std::net::SocketAddrV4;

/// `SOCK_DIAG_BY_FAMILY` (linux/sock_diag.h).
const SOCK_DIAG_BY_FAMILY: u16 = 20;
/// `NETLINK_SOCK_DIAG` (linux/netlink.h).
const NETLINK_SOCK_DIAG: libc::c_int = 4;
/// `INET_DIAG_NOCOOKIE`: look the socket up by its addresses alone.
const NO_COOKIE: u32 = !0;

/// `struct inet_diag_sockid` (linux/inet_diag.h): ports and addresses in
/// network byte order.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct SockId {
    sport: u16,
    dport: u16,
    src: [u32; 4],
    dst: [u32; 4],
    interface: u32,
    cookie: [u32; 2],
}

/// `struct inet_diag_req_v2`.
#[repr(C)]
#[derive(Clone, Copy)]
struct Request {
    family: u8,
    protocol: u8,
    ext: u8,
    pad: u8,
    states: u32,
    id: SockId,
}

/// `struct inet_diag_msg`.
#[repr(C)]
#[derive(Clone, Copy)]
struct Reply {
    family: u8,
    state: u8,
    timer: u8,
    retrans: u8,
    id: SockId,
    expires: u32,
    rqueue: u32,
    wqueue: u32,
    uid: u32,
    inode: u32,
}

/// A netlink message: its header and one request.
#[repr(C)]
struct Message {
    header: libc::nlmsghdr,
    request: Request,
}

/// The inode and state (`/proc/net/tcp`'s numbering: 1 established, …) of
/// the TCP socket whose local end is `local` and remote end is `remote`;
/// `Ok(None)` when there is none. An error when the kernel has no
/// `sock_diag` for TCP (the caller then reads `/proc/net/tcp`).
pub fn tcp_socket(local: SocketAddrV4, remote: SocketAddrV4) -> io::Result<Option<(u64, u8)>> {
    // SAFETY: plain socket call; the descriptor is closed by `Fd`.
    let fd = unsafe {
        libc::socket(
            libc::AF_NETLINK,
            libc::SOCK_DGRAM | libc::SOCK_CLOEXEC,
            NETLINK_SOCK_DIAG,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    let fd = Fd(fd);
    let mut id = SockId {
        sport: local.port().to_be(),
        dport: remote.port().to_be(),
        cookie: [NO_COOKIE; 2],
        ..SockId::default()
    };
    id.src[0] = u32::from_ne_bytes(local.ip().octets());
    id.dst[0] = u32::from_ne_bytes(remote.ip().octets());
    let message = Message {
        header: libc::nlmsghdr {
            nlmsg_len: std::mem::size_of::<Message>() as u32,
            nlmsg_type: SOCK_DIAG_BY_FAMILY,
            nlmsg_flags: libc::NLM_F_REQUEST as u16,
            nlmsg_seq: 1,
            nlmsg_pid: 0,
        },
        request: Request {
            family: libc::AF_INET as u8,
            protocol: libc::IPPROTO_TCP as u8,
            ext: 0,
            pad: 0,
            states: !0,
            id,
        },
    };
    // SAFETY: sends `size_of::<Message>()` bytes of a live, plain-data value
    // to the kernel (address: the kernel, pid 0).
    let mut kernel: libc::sockaddr_nl = unsafe { std::mem::zeroed() };
    kernel.nl_family = libc::AF_NETLINK as u16;
    let sent = unsafe {
        libc::sendto(
            fd.0,
            (&message as *const Message).cast(),
            std::mem::size_of::<Message>(),
            0,
            (&kernel as *const libc::sockaddr_nl).cast(),
            std::mem::size_of::<libc::sockaddr_nl>() as u32,
        )
    };
    if sent < 0 {
        return Err(io::Error::last_os_error());
    }
    let mut buffer = [0u64; 1024];
    // SAFETY: receives into a buffer of the length given.
    let got = unsafe {
        libc::recv(
            fd.0,
            buffer.as_mut_ptr().cast(),
            std::mem::size_of_val(&buffer),
            0,
        )
    };
    if got < 0 {
        return Err(io::Error::last_os_error());
    }
    let bytes = &bytemuck_view(&buffer)[..got as usize];
    parse_reply(bytes)
}

/// The reply: one message with the socket, or an error message (`ENOENT`:
/// no such socket).
fn parse_reply(bytes: &[u8]) -> io::Result<Option<(u64, u8)>> {
    let header_len = std::mem::size_of::<libc::nlmsghdr>();
    if bytes.len() < header_len {
        return Err(io::Error::from(io::ErrorKind::UnexpectedEof));
    }
    // SAFETY: at least a header's bytes; read unaligned.
    let header: libc::nlmsghdr = unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast()) };
    let body = &bytes[header_len.min(bytes.len())..];
    match header.nlmsg_type as libc::c_int {
        libc::NLMSG_ERROR => {
            // SAFETY: an error message starts with an i32 errno (negated).
            let code: i32 = if body.len() >= 4 {
                unsafe { std::ptr::read_unaligned(body.as_ptr().cast()) }
            } else {
                -libc::EIO
            };
            if code == -libc::ENOENT {
                Ok(None)
            } else {
                Err(io::Error::from_raw_os_error(-code))
            }
        }
        t if t == SOCK_DIAG_BY_FAMILY as libc::c_int
            && body.len() >= std::mem::size_of::<Reply>() =>
        {
            // SAFETY: enough bytes for the reply; read unaligned.
            let reply: Reply = unsafe { std::ptr::read_unaligned(body.as_ptr().cast()) };
            Ok(Some((u64::from(reply.inode), reply.state)))
        }
        _ => Err(io::Error::from(io::ErrorKind::InvalidData)),
    }
}

/// The bytes of a `u64` buffer (aligned for the reads above).
fn bytemuck_view(buffer: &[u64]) -> &[u8] {
    // SAFETY: any u64 slice is a valid u8 slice of eight times the length.
    unsafe { std::slice::from_raw_parts(buffer.as_ptr().cast(), std::mem::size_of_val(buffer)) }
}

/// Closes the netlink socket however the lookup ends.
struct Fd(libc::c_int);

impl Drop for Fd {
    fn drop(&mut self) {
        // SAFETY: our own descriptor, closed once.
        unsafe { libc::close(self.0) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, TcpListener, TcpStream};
    use std::os::fd::AsRawFd;

    /// The inode behind one of our own descriptors.
    fn inode_of(fd: i32) -> u64 {
        let link = std::fs::read_link(format!("/proc/self/fd/{fd}")).unwrap();
        let link = link.to_string_lossy();
        link.trim_start_matches("socket:[")
            .trim_end_matches(']')
            .parse()
            .unwrap()
    }

    #[test]
    fn an_open_connection_is_found_with_its_inode_and_a_missing_one_is_none() {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let server = listener.local_addr().unwrap();
        let client = TcpStream::connect(server).unwrap();
        let local = match client.local_addr().unwrap() {
            std::net::SocketAddr::V4(a) => a,
            other => panic!("{other}"),
        };
        let remote = match server {
            std::net::SocketAddr::V4(a) => a,
            other => panic!("{other}"),
        };
        let Ok(found) = tcp_socket(local, remote) else {
            // No sock_diag for TCP in this kernel: the caller reads
            // /proc/net/tcp instead (tested in `peer`).
            return;
        };
        assert_eq!(found, Some((inode_of(client.as_raw_fd()), 1)));
        let nobody = SocketAddrV4::new(Ipv4Addr::LOCALHOST, 1);
        assert_eq!(tcp_socket(nobody, remote).unwrap(), None);
    }
}
