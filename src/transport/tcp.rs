//! A loopback TCP listener for games whose bot is a network client
//! (Evolution: the bot connects to protocheck on 127.0.0.1). Accepting has a
//! deadline so a bot that never connects gets a verdict (`io.no-connect`)
//! instead of hanging the harness. Not wired into the controller yet.

use std::io;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// A listener on 127.0.0.1 (IPv4 only, as the rules digest §1.1 says).
#[derive(Debug)]
pub struct LoopbackListener {
    listener: TcpListener,
}

impl LoopbackListener {
    /// Listen on 127.0.0.1:`port`; port 0 lets the system choose.
    pub fn bind(port: u16) -> io::Result<LoopbackListener> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))?;
        listener.set_nonblocking(true)?;
        Ok(LoopbackListener { listener })
    }

    /// The port actually listened on.
    pub fn port(&self) -> io::Result<u16> {
        Ok(self.listener.local_addr()?.port())
    }

    /// The next connection, or `None` once `deadline` has passed. The stream
    /// returned is blocking, with Nagle's algorithm off (messages are small
    /// and a reply is awaited after each).
    pub fn accept_until(&self, deadline: Instant) -> io::Result<Option<(TcpStream, SocketAddr)>> {
        loop {
            match self.listener.accept() {
                Ok((stream, peer)) => {
                    stream.set_nonblocking(false)?;
                    stream.set_nodelay(true)?;
                    return Ok(Some((stream, peer)));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            self.wait_readable(deadline - now);
        }
    }

    /// Sleep until a connection is pending or `timeout` passes.
    #[cfg(unix)]
    fn wait_readable(&self, timeout: Duration) {
        use std::os::fd::AsRawFd;
        let mut fd = libc::pollfd {
            fd: self.listener.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = timeout.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
        // SAFETY: one valid pollfd for the duration of the call.
        unsafe {
            libc::poll(&mut fd, 1, ms);
        }
    }

    /// Elsewhere: short naps (no poll(2)); costs at most 5 ms of latency.
    #[cfg(not(unix))]
    fn wait_readable(&self, timeout: Duration) {
        std::thread::sleep(timeout.min(Duration::from_millis(5)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    #[test]
    fn a_client_thread_connects_and_bytes_flow_both_ways() {
        let listener = LoopbackListener::bind(0).unwrap();
        let port = listener.port().unwrap();
        assert_ne!(port, 0);
        let client = std::thread::spawn(move || {
            let mut s = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
            s.write_all(b"\"me\" ").unwrap();
            let mut buf = [0u8; 5];
            s.read_exact(&mut buf).unwrap();
            buf
        });
        let deadline = Instant::now() + Duration::from_secs(30);
        let (mut stream, peer) = listener.accept_until(deadline).unwrap().expect("connected");
        assert!(peer.ip().is_loopback());
        let mut buf = [0u8; 5];
        stream.read_exact(&mut buf).unwrap();
        assert_eq!(&buf, b"\"me\" ");
        stream.write_all(b"\"ok\" ").unwrap();
        assert_eq!(&client.join().unwrap(), b"\"ok\" ");
    }

    #[test]
    fn nobody_connecting_ends_at_the_deadline() {
        let listener = LoopbackListener::bind(0).unwrap();
        let deadline = Instant::now() + Duration::from_millis(50);
        assert!(listener.accept_until(deadline).unwrap().is_none());
        assert!(Instant::now() >= deadline);
        // The listener stays usable after a wait that ran out.
        let port = listener.port().unwrap();
        let _client = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
        let later = Instant::now() + Duration::from_secs(30);
        assert!(listener.accept_until(later).unwrap().is_some());
    }
}
