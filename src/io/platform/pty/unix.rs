//! The Unix implementation: `posix_openpt`, the device in raw mode, `poll` for the
//! simulator's reads and writes.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::{AsFd, AsRawFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::pty::{PtyMaster, grantpt, posix_openpt, ptsname_r, unlockpt};
use nix::sys::termios::{SetArg, cfmakeraw, tcgetattr, tcsetattr};

/// One pseudo-terminal pair. Dropping it closes both ends: whoever has the device open sees a
/// hang-up, as when a USB board is pulled out.
#[derive(Debug)]
pub struct Pty {
    master: PtyMaster,
    /// Held open so that the master keeps working while hector closes and reopens the device;
    /// never read.
    _slave: File,
    path: PathBuf,
}

fn to_io(e: Errno) -> io::Error {
    io::Error::from(e)
}

impl Pty {
    /// A new pair, the device in raw mode (no echo, no line editing) from the start.
    pub fn open() -> io::Result<Pty> {
        let master = posix_openpt(OFlag::O_RDWR | OFlag::O_NOCTTY).map_err(to_io)?;
        grantpt(&master).map_err(to_io)?;
        unlockpt(&master).map_err(to_io)?;
        let path = PathBuf::from(ptsname_r(&master).map_err(to_io)?);
        let slave = OpenOptions::new()
            .read(true)
            .write(true)
            // Not this process's controlling terminal: the simulator runs in one already.
            .custom_flags(OFlag::O_NOCTTY.bits())
            .open(&path)?;
        let mut termios = tcgetattr(slave.as_fd()).map_err(to_io)?;
        cfmakeraw(&mut termios);
        tcsetattr(slave.as_fd(), SetArg::TCSANOW, &termios).map_err(to_io)?;
        // Writes must not block the simulator when nobody reads the device.
        fcntl(master.as_raw_fd(), FcntlArg::F_SETFL(OFlag::O_NONBLOCK)).map_err(to_io)?;
        Ok(Pty {
            master,
            _slave: slave,
            path,
        })
    }

    /// The device path, e.g. `/dev/pts/7`.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes all of `bytes` as the board; waits at most a second for room (the device's
    /// buffer is full only when nobody reads it for a long time), then gives up.
    pub fn write_all(&self, mut bytes: &[u8]) -> io::Result<()> {
        let deadline = Instant::now() + Duration::from_secs(1);
        while !bytes.is_empty() {
            match nix::unistd::write(self.master.as_fd(), bytes) {
                Ok(n) => bytes = &bytes[n..],
                Err(Errno::EAGAIN | Errno::EINTR) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            "nobody reads the simulated board",
                        ));
                    }
                    let mut fds = [PollFd::new(self.master.as_fd(), PollFlags::POLLOUT)];
                    let _ = poll(&mut fds, poll_timeout(left.min(Duration::from_millis(50))));
                }
                Err(e) => return Err(to_io(e)),
            }
        }
        Ok(())
    }

    /// What the host sent, waiting at most `timeout`; `None` when nothing came.
    pub fn read_timeout(&self, timeout: Duration) -> io::Result<Option<Vec<u8>>> {
        let mut fds = [PollFd::new(self.master.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, poll_timeout(timeout)) {
            Ok(0) | Err(Errno::EINTR) => return Ok(None),
            Ok(_) => {}
            Err(e) => return Err(to_io(e)),
        }
        let readable = fds[0]
            .revents()
            .is_some_and(|r| r.contains(PollFlags::POLLIN));
        if !readable {
            return Ok(None);
        }
        let mut buf = [0u8; 1024];
        match nix::unistd::read(self.master.as_raw_fd(), &mut buf) {
            Ok(n) => Ok(Some(buf[..n].to_vec())),
            Err(Errno::EAGAIN | Errno::EINTR) => Ok(None),
            Err(e) => Err(to_io(e)),
        }
    }
}

fn poll_timeout(d: Duration) -> PollTimeout {
    PollTimeout::try_from(d).unwrap_or(PollTimeout::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    #[test]
    fn bytes_pass_both_ways_without_echo() {
        let pty = Pty::open().expect("pty");
        let mut device = OpenOptions::new()
            .read(true)
            .write(true)
            .open(pty.path())
            .expect("open the device");
        pty.write_all(b"\x86\x00\x43\n").expect("write");
        let mut buf = [0u8; 4];
        device.read_exact(&mut buf).expect("read");
        assert_eq!(&buf, b"\x86\x00\x43\n", "raw: nothing translated");
        device.write_all(b"?\n").expect("write");
        assert_eq!(
            pty.read_timeout(Duration::from_secs(5)).expect("read"),
            Some(b"?\n".to_vec())
        );
        // Raw mode: what the board wrote is not echoed back to it.
        assert_eq!(
            pty.read_timeout(Duration::from_millis(50)).expect("read"),
            None
        );
    }
}
