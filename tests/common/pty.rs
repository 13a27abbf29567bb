//! Running hector in a real pseudo-terminal, as a person at a terminal would.

use std::io::{Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use nix::pty::{Winsize, openpty};

/// Output received so far, each chunk with the instant it arrived.
type Received = Arc<Mutex<Vec<(Instant, Vec<u8>)>>>;

pub struct Pty {
    child: Child,
    writer: std::fs::File,
    received: Received,
    /// The terminal's size: columns, rows.
    size: (u16, u16),
}

impl Pty {
    /// Starts hector with `args` on a new 100x30 terminal.
    pub fn spawn(args: &[&str], envs: &[(&str, &str)]) -> Pty {
        Pty::spawn_program(
            std::path::Path::new(env!("CARGO_BIN_EXE_hector")),
            args,
            envs,
        )
    }

    /// Starts hector with `args` on a new terminal of `cols` x `rows`.
    #[allow(dead_code)]
    pub fn spawn_sized(args: &[&str], envs: &[(&str, &str)], cols: u16, rows: u16) -> Pty {
        Pty::spawn_in(
            std::path::Path::new(env!("CARGO_BIN_EXE_hector")),
            args,
            envs,
            (cols, rows),
        )
    }

    /// Starts `program` with `args` on a new 100x30 terminal.
    pub fn spawn_program(program: &std::path::Path, args: &[&str], envs: &[(&str, &str)]) -> Pty {
        Pty::spawn_in(program, args, envs, (100, 30))
    }

    fn spawn_in(
        program: &std::path::Path,
        args: &[&str],
        envs: &[(&str, &str)],
        (cols, rows): (u16, u16),
    ) -> Pty {
        let size = Winsize {
            ws_row: rows,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        let pty = openpty(Some(&size), None).expect("openpty");
        let slave: OwnedFd = pty.slave;
        let stdin = slave.try_clone().expect("dup");
        let stdout = slave.try_clone().expect("dup");
        let stderr = slave;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .envs(envs.iter().copied())
            .env("TERM", "xterm-256color")
            .stdin(Stdio::from(stdin))
            .stdout(Stdio::from(stdout))
            .stderr(Stdio::from(stderr));
        // The terminal becomes the child's controlling terminal, as in a login session.
        unsafe {
            use std::os::unix::process::CommandExt;
            cmd.pre_exec(|| {
                nix::unistd::setsid().map_err(std::io::Error::from)?;
                if nix::libc::ioctl(0, nix::libc::TIOCSCTTY, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("start hector");
        let master = std::fs::File::from(pty.master);
        let writer = master.try_clone().expect("dup master");
        let received: Received = Arc::default();
        let sink = received.clone();
        thread::spawn(move || {
            let mut master = master;
            let mut buf = [0u8; 4096];
            loop {
                match master.read(&mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        if let Ok(mut r) = sink.lock() {
                            r.push((Instant::now(), buf[..n].to_vec()));
                        }
                    }
                }
            }
        });
        Pty {
            child,
            writer,
            received,
            size: (cols, rows),
        }
    }

    pub fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("write to the terminal");
        let _ = self.writer.flush();
    }

    /// Everything received, as text.
    pub fn text(&self) -> String {
        let r = self.received.lock().map(|r| r.clone()).unwrap_or_default();
        let bytes: Vec<u8> = r.into_iter().flat_map(|(_, b)| b).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The screen as a person sees it now, row by row (a terminal emulator reads the output).
    pub fn screen(&self) -> String {
        let (rows, cols) = (
            std::num::NonZeroU16::MIN.saturating_add(self.size.1.saturating_sub(1)),
            std::num::NonZeroU16::MIN.saturating_add(self.size.0.saturating_sub(1)),
        );
        let mut parser = vt100::Parser::new(rows, cols, 0);
        if let Ok(r) = self.received.lock() {
            for (_, chunk) in r.iter() {
                parser.process(chunk);
            }
        }
        parser.screen().contents()
    }

    /// The screen row (from 0) where the terminal's cursor stands, and its text.
    #[allow(dead_code)]
    pub fn cursor_row(&self) -> (u16, String) {
        let (rows, cols) = (
            std::num::NonZeroU16::MIN.saturating_add(self.size.1.saturating_sub(1)),
            std::num::NonZeroU16::MIN.saturating_add(self.size.0.saturating_sub(1)),
        );
        let mut parser = vt100::Parser::new(rows, cols, 0);
        if let Ok(r) = self.received.lock() {
            for (_, chunk) in r.iter() {
                parser.process(chunk);
            }
        }
        let (row, _) = parser.screen().cursor_position();
        let text = parser
            .screen()
            .contents()
            .lines()
            .nth(usize::from(row))
            .unwrap_or_default()
            .to_string();
        (row, text)
    }

    /// Waits until `needle` is on the screen, at most `limit`.
    pub fn wait_for_screen(&self, needle: &str, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        loop {
            if self.screen().contains(needle) {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// The instant `needle` first appeared in the output, waiting at most `limit`.
    pub fn wait_for(&self, needle: &str, limit: Duration) -> Option<Instant> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(at) = self.first_seen(needle) {
                return Some(at);
            }
            if Instant::now() > deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// The instant the `n`-th (from 0) occurrence of `needle` was complete in the output.
    pub fn nth_seen(&self, needle: &str, n: usize) -> Option<Instant> {
        // Copied out at once: the reader thread, which stamps the arrivals, must not wait.
        let chunks: Vec<(Instant, usize)> = {
            let r = self.received.lock().ok()?;
            r.iter().map(|(at, c)| (*at, c.len())).collect()
        };
        let all = self.bytes(chunks.iter().map(|(_, len)| len).sum());
        let needle = needle.as_bytes();
        let end = all
            .windows(needle.len().max(1))
            .enumerate()
            .filter(|(_, w)| *w == needle)
            .nth(n)
            .map(|(i, _)| i + needle.len())?;
        let mut seen = 0;
        for (at, len) in chunks {
            seen += len;
            if seen >= end {
                return Some(at);
            }
        }
        None
    }

    /// The first `len` bytes of the output.
    fn bytes(&self, len: usize) -> Vec<u8> {
        let mut all = Vec::with_capacity(len);
        if let Ok(r) = self.received.lock() {
            for (_, chunk) in r.iter() {
                if all.len() >= len {
                    break;
                }
                all.extend_from_slice(chunk);
            }
        }
        all.truncate(len);
        all
    }

    fn first_seen(&self, needle: &str) -> Option<Instant> {
        self.nth_seen(needle, 0)
    }

    /// Waits for the program to end, at most `limit`; kills it after that.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<i32> {
        let deadline = Instant::now() + limit;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                return None;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// The window changes size (the program gets SIGWINCH, as from a terminal emulator).
    #[allow(dead_code)]
    pub fn resize(&mut self, cols: u16, rows: u16) {
        let size = Winsize {
            ws_row: rows,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: TIOCSWINSZ reads one Winsize from a valid pointer on the pty's master.
        let done =
            unsafe { nix::libc::ioctl(self.writer.as_raw_fd(), nix::libc::TIOCSWINSZ, &size) };
        assert_eq!(done, 0, "TIOCSWINSZ");
        self.size = (cols, rows);
    }

    pub fn raw_fd(&self) -> i32 {
        self.writer.as_raw_fd()
    }

    /// The process id of the program.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
