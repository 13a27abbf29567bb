//! Running hector in a real pseudo-terminal, as a person at a terminal would.
//!
//! Expectations read from a cursor: `wait_for` and `expect` look only at the output after the
//! last action sent (`send`), after the previous match, or after an explicit `mark`, and a
//! match moves the cursor past it. So a phrase said before an action never satisfies a check
//! of what the action did. A helper that looks at everything received says so by its name
//! (`all_output`, `nth_seen_in_all_output`); the screen is a state, read with `screen`, and
//! `wait_for_screen` waits for a needle that the screen did not show at the cursor.

use std::io::{Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use nix::pty::{Winsize, openpty};

/// The columns of the terminals tests use unless they choose a size: wide enough that no
/// answer is wrapped (line mode wraps at the terminal's width, at spaces), so that a test finds
/// an answer whole; the wrapping itself has tests of its own at 80 columns.
pub const WIDE: u16 = 400;

/// Output received so far, each chunk with the instant it arrived.
type Received = Arc<Mutex<Vec<(Instant, Vec<u8>)>>>;

pub struct Pty {
    child: Child,
    writer: std::fs::File,
    received: Received,
    /// The terminal's size: columns, rows.
    size: (u16, u16),
    /// Where the next expectation starts reading (a byte offset into the output).
    cursor: AtomicUsize,
    /// Where the output stood at the last action or mark: the screen then is what
    /// `wait_for_screen` compares with.
    action_at: AtomicUsize,
    /// The audio libraries' runtime files (instead of /tmp/pulse-*), removed with the Pty.
    _runtime: TempDir,
}

/// The locale a test's hector starts in: "C", which names no language, so that hector speaks
/// German unless the test names one (a LANG of its own, a configuration file, --lang),
/// whatever the locale of the machine running the tests.
pub const NO_LOCALE: [(&str, &str); 3] = [("LC_ALL", ""), ("LC_MESSAGES", ""), ("LANG", "C.UTF-8")];
/// No sound cues unless a test asks for them (`HECTOR_SOUNDS` empty: hector's own files): on a
/// machine with the system's icon folder, the way to hector's files from there may lead to
/// them from a test daemon's folder too, and each move would add an icon to what it heard.
pub const NO_SOUNDS: [(&str, &str); 1] = [("HECTOR_SOUNDS", "/nonexistent/hector-test-no-sounds")];

impl Pty {
    /// Starts hector with `args` on a new terminal of [`WIDE`] x 30.
    pub fn spawn(args: &[&str], envs: &[(&str, &str)]) -> Pty {
        Pty::spawn_program(
            std::path::Path::new(env!("CARGO_BIN_EXE_hector")),
            args,
            envs,
        )
    }

    /// Starts hector with `args` on a new terminal of `cols` x `rows`.
    pub fn spawn_sized(args: &[&str], envs: &[(&str, &str)], cols: u16, rows: u16) -> Pty {
        Pty::spawn_in(
            std::path::Path::new(env!("CARGO_BIN_EXE_hector")),
            args,
            envs,
            (cols, rows),
        )
    }

    /// Starts `program` with `args` on a new terminal of [`WIDE`] x 30.
    pub fn spawn_program(program: &std::path::Path, args: &[&str], envs: &[(&str, &str)]) -> Pty {
        Pty::spawn_in(program, args, envs, (WIDE, 30))
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
        let runtime = TempDir::new("runtime");
        let mut cmd = Command::new(program);
        cmd.args(args)
            .env("XDG_RUNTIME_DIR", runtime.path())
            // No speech-dispatcher started for the test (it would outlive it); a test that
            // wants one passes its own address.
            .env(
                "SPEECHD_ADDRESS",
                format!("unix_socket:{}/no-speechd.sock", runtime.path().display()),
            )
            // Nor a braille display: a BrlAPI server that is not there.
            .env(
                "BRLAPI_HOST",
                format!(
                    ":hector-test-none-{}",
                    runtime
                        .path()
                        .file_name()
                        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
                ),
            )
            .envs(NO_LOCALE)
            .envs(NO_SOUNDS)
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
            cursor: AtomicUsize::new(0),
            action_at: AtomicUsize::new(0),
            _runtime: runtime,
        }
    }

    /// Types `bytes`: an action. Expectations after it read only the output that follows.
    pub fn send(&mut self, bytes: &[u8]) {
        self.mark();
        self.writer.write_all(bytes).expect("write to the terminal");
        let _ = self.writer.flush();
    }

    /// Waits until hector has answered `line`, typed just before, and waits for input again
    /// (plain lines): the terminal echoes a typed line; after it come hector's answer and its
    /// prompt, which it shows only when it listens again (not while the computer thinks).
    /// Reads after the cursor (the line's own echo, not an earlier one), and leaves the cursor
    /// where it is, so that the answer can be expected next. Also done when hector has ended.
    /// Fails, naming the line, when neither happens within `limit`.
    pub fn wait_answer(&mut self, line: &str, limit: Duration) {
        let echo = format!("{line}\r\n");
        let deadline = Instant::now() + limit;
        loop {
            let text = self.since_mark();
            let answered = text.rfind(&echo).is_some_and(|at| {
                let after = &text[at + echo.len()..];
                !after.is_empty() && after.ends_with(": ")
            });
            if answered || !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "no answer and prompt after {line:?} within {limit:?}:\n{text}"
            );
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// The cursor moves to the end of what was received: expectations from now on read only
    /// what comes next.
    pub fn mark(&self) {
        let len = self.received_len();
        self.cursor.store(len, Ordering::SeqCst);
        self.action_at.store(len, Ordering::SeqCst);
    }

    fn received_len(&self) -> usize {
        self.received
            .lock()
            .map(|r| r.iter().map(|(_, c)| c.len()).sum())
            .unwrap_or(0)
    }

    /// What came after the cursor, as text (the cursor does not move).
    pub fn since_mark(&self) -> String {
        let from = self.cursor.load(Ordering::SeqCst);
        let all = self.bytes(usize::MAX);
        String::from_utf8_lossy(all.get(from..).unwrap_or_default()).into_owned()
    }

    /// Everything received since hector started, as text: for messages of a failed test, and
    /// for checks that are about the whole session (something said once, never said at all).
    pub fn all_output(&self) -> String {
        let r = self.received.lock().map(|r| r.clone()).unwrap_or_default();
        let bytes: Vec<u8> = r.into_iter().flat_map(|(_, b)| b).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The screen as a person sees it now, row by row (a terminal emulator reads the output).
    pub fn screen(&self) -> String {
        self.screen_after(usize::MAX)
    }

    /// The screen as it stood when the first `len` bytes of the output were drawn.
    fn screen_after(&self, len: usize) -> String {
        let (rows, cols) = (
            std::num::NonZeroU16::MIN.saturating_add(self.size.1.saturating_sub(1)),
            std::num::NonZeroU16::MIN.saturating_add(self.size.0.saturating_sub(1)),
        );
        let mut parser = vt100::Parser::new(rows, cols, 0);
        parser.process(&self.bytes(len));
        parser.screen().contents()
    }

    /// The screen row (from 0) where the terminal's cursor stands, and its text.
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

    /// Waits until `needle` is on the screen, at most `limit`, where the screen did not show
    /// it at the last action or mark: what the action brought (a needle already shown fails
    /// the test, since such a check cannot fail). A check that something stays on the screen
    /// reads `screen()` after a sign that the action was seen.
    pub fn wait_for_screen(&self, needle: &str, limit: Duration) -> bool {
        let before = self.screen_after(self.action_at.load(Ordering::SeqCst));
        if before.contains(needle) {
            panic!(
                "{needle:?} was on the screen already before the action: a check that cannot \
                 fail\n{before}"
            );
        }
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

    /// `wait_for_screen` that fails the test, with the screen as it is.
    #[track_caller]
    pub fn expect_screen(&self, needle: &str, limit: Duration) {
        assert!(
            self.wait_for_screen(needle, limit),
            "not on the screen: {needle:?}\n{}",
            self.screen()
        );
    }

    /// Waits until `needle` comes after the cursor, at most `limit`; the instant its last byte
    /// arrived. The cursor moves past the match.
    pub fn wait_for(&self, needle: &str, limit: Duration) -> Option<Instant> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(at) = self.seen_after_cursor(needle) {
                return Some(at);
            }
            if Instant::now() > deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Waits until `needle` is anywhere in the output, at most `limit`, and fails the test
    /// otherwise; the cursor stays where it is (for a sign that hector is ready, when what it
    /// said before is still to be checked).
    pub fn wait_in_all_output(&self, needle: &str, limit: Duration) {
        let deadline = Instant::now() + limit;
        while !self.all_output().contains(needle) {
            assert!(
                Instant::now() < deadline,
                "not said: {needle:?}\n{}",
                self.all_output()
            );
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// `wait_for` that fails the test, with what came after the cursor and everything before.
    pub fn expect(&self, needle: &str, limit: Duration) {
        let from = self.cursor.load(Ordering::SeqCst);
        if self.wait_for(needle, limit).is_none() {
            let all = self.bytes(usize::MAX);
            let (before, after) = all.split_at(from.min(all.len()));
            panic!(
                "not said after the last action: {needle:?}\n--- after it:\n{}\n--- before it:\n{}",
                String::from_utf8_lossy(after),
                String::from_utf8_lossy(before)
            );
        }
    }

    /// Waits until every one of `needles` came after the cursor, in any order (news whose
    /// order is not the point); the cursor moves past the last of them.
    pub fn expect_each(&self, needles: &[&str], limit: Duration) {
        let from = self.cursor.load(Ordering::SeqCst);
        let deadline = Instant::now() + limit;
        loop {
            let all = self.bytes(usize::MAX);
            let after = all.get(from..).unwrap_or_default();
            let ends: Vec<Option<usize>> = needles
                .iter()
                .map(|n| {
                    let n = n.as_bytes();
                    after
                        .windows(n.len().max(1))
                        .position(|w| w == n)
                        .map(|i| from + i + n.len())
                })
                .collect();
            if ends.iter().all(Option::is_some) {
                let last = ends.into_iter().flatten().max().unwrap_or(from);
                self.cursor.store(last, Ordering::SeqCst);
                return;
            }
            assert!(
                Instant::now() < deadline,
                "not all said after the last action: {needles:?}\n--- after it:\n{}",
                String::from_utf8_lossy(after)
            );
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Waits for `start` after the cursor and then `end` after it; the text from `start`'s
    /// first byte to `end`'s last, as an answer to be read whole (a line: `end` "\r\n"). The
    /// cursor moves past `end`.
    pub fn expect_span(&self, start: &str, end: &str, limit: Duration) -> String {
        self.expect(start, limit);
        let from = self.cursor.load(Ordering::SeqCst) - start.len();
        self.expect(end, limit);
        let to = self.cursor.load(Ordering::SeqCst);
        let all = self.bytes(to);
        String::from_utf8_lossy(&all[from..to]).into_owned()
    }

    /// The first occurrence of `needle` after the cursor: the cursor moves past it, and the
    /// instant its last byte arrived is returned.
    fn seen_after_cursor(&self, needle: &str) -> Option<Instant> {
        let chunks: Vec<(Instant, usize)> = {
            let r = self.received.lock().ok()?;
            r.iter().map(|(at, c)| (*at, c.len())).collect()
        };
        let all = self.bytes(chunks.iter().map(|(_, len)| len).sum());
        let from = self.cursor.load(Ordering::SeqCst).min(all.len());
        let needle = needle.as_bytes();
        let end = from
            + all[from..]
                .windows(needle.len().max(1))
                .position(|w| w == needle)?
            + needle.len();
        self.cursor.store(end, Ordering::SeqCst);
        arrival(&chunks, end)
    }

    /// The instant the `n`-th (from 0) occurrence of `needle` in the whole output was
    /// complete (for measurements over a whole session).
    pub fn nth_seen_in_all_output(&self, needle: &str, n: usize) -> Option<Instant> {
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
        arrival(&chunks, end)
    }

    /// The first `len` bytes of the output.
    fn bytes(&self, len: usize) -> Vec<u8> {
        let mut all = Vec::new();
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

    /// Ctrl+Q, "ja" to the German "Wirklich beenden?", and a clean exit: how most German
    /// game tests end.
    #[track_caller]
    pub fn quit_saying_ja(&mut self, limit: Duration) {
        self.send(&[0x11]);
        assert!(
            self.wait_for_screen("Wirklich beenden?", limit),
            "{}",
            self.screen()
        );
        self.send(b"ja\r");
        assert_eq!(self.wait_exit(limit), Some(0), "{}", self.all_output());
    }

    /// Waits for the program to end, at most `limit`; kills it after that.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<i32> {
        let deadline = Instant::now() + limit;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            if Instant::now() > deadline {
                kill_tree(&mut self.child);
                return None;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// The window changes size (the program gets SIGWINCH, as from a terminal emulator).
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

/// The instant the chunk holding byte `end` (exclusive) arrived.
fn arrival(chunks: &[(Instant, usize)], end: usize) -> Option<Instant> {
    let mut seen = 0;
    for (at, len) in chunks {
        seen += len;
        if seen >= end {
            return Some(*at);
        }
    }
    None
}

impl Drop for Pty {
    fn drop(&mut self) {
        // hector and everything it started (speech, engines), also in groups of their own.
        kill_tree(&mut self.child);
    }
}

/// A fresh temporary directory that is removed with everything in it when dropped, also when
/// the test fails.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(what: &str) -> TempDir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "hector-test-{what}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }

    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl std::ops::Deref for TempDir {
    type Target = std::path::Path;

    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for TempDir {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The numbers of running processes, each with its parent's.
fn process_parents() -> Vec<(u32, u32)> {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    procs
        .flatten()
        .filter_map(|p| {
            let pid = p.file_name().to_str()?.parse::<u32>().ok()?;
            let stat = std::fs::read_to_string(p.path().join("stat")).ok()?;
            // "pid (name) state ppid ...": the name may hold spaces and parentheses.
            let after = &stat[stat.rfind(')')? + 1..];
            let ppid = after.split_whitespace().nth(1)?.parse().ok()?;
            Some((pid, ppid))
        })
        .collect()
}

/// Every process below `root`.
pub fn descendants(root: u32) -> Vec<u32> {
    let all = process_parents();
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(all.iter().filter(|(_, pp)| *pp == parent).map(|(p, _)| *p));
        i += 1;
    }
    found.remove(0);
    found
}

/// Running processes whose command line contains `needle`.
pub fn processes_mentioning(needle: &str) -> Vec<u32> {
    let me = std::process::id();
    process_parents()
        .into_iter()
        .map(|(pid, _)| pid)
        .filter(|&pid| pid != me)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(needle))
        })
        .collect()
}

/// Kills `child`, its process group and everything below it, and reaps it.
pub fn kill_tree(child: &mut std::process::Child) {
    // Ended and reaped: its number may belong to another process by now.
    if !matches!(child.try_wait(), Ok(None)) {
        return;
    }
    let mut doomed = descendants(child.id());
    doomed.push(child.id());
    let _ = Command::new("kill")
        .args(["-s", "KILL", "--"])
        .arg(format!("-{}", child.id()))
        .stderr(Stdio::null())
        .status();
    kill_all(&doomed);
    let _ = child.wait();
}

pub fn kill_all(pids: &[u32]) {
    for pid in pids {
        let _ = Command::new("kill")
            .args(["-s", "KILL", "--"])
            .arg(pid.to_string())
            .stderr(Stdio::null())
            .status();
    }
}

/// Kills every process whose command line contains `needle`, and everything below them.
pub fn kill_mentioning(needle: &str) {
    let mut doomed = Vec::new();
    for pid in processes_mentioning(needle) {
        doomed.extend(descendants(pid));
        doomed.push(pid);
    }
    kill_all(&doomed);
}
