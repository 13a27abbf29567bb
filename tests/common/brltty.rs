//! A private BRLTTY for the braille tests: no hardware, its API on a private socket
//! (`/var/lib/BrlAPI/NAME`, the directory compiled into BRLTTY), no authorization, and the
//! display either the TTY driver on a pseudo-terminal (`-b tt`: what a 40-cell display shows
//! is read through a terminal emulator, panning keys are arrow keys written to it) or the
//! Virtual driver on a private socket (`-b vr`: its text read line by line; the only driver
//! of BRLTTY 6.5 with routing keys). Skipped with a reason where brltty is not installed;
//! under CI=true that is a failure. Stopped with SIGTERM when dropped, its socket removed.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::pty::TempDir;

/// How long BRLTTY may take to start (measured: 0.5 to 1.1 s).
const START: Duration = Duration::from_secs(15);

/// What the display shows: its text, cell by cell, and the cursor's cell (from 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    pub text: String,
    pub cursor: Option<usize>,
}

enum Display {
    /// The TTY driver's pseudo-terminal: the master, and what it shows.
    Tt {
        master: std::fs::File,
        screen: Arc<Mutex<vt100::Parser>>,
    },
    /// The Virtual driver's socket, and the last text and cells it sent.
    Vr {
        socket: UnixStream,
        shown: Arc<Mutex<Shown>>,
    },
}

pub struct Brltty {
    child: Child,
    name: String,
    display: Display,
    pub cells: usize,
    _dir: TempDir,
}

/// brltty's program, or why the test is skipped (a failure under CI=true).
pub fn brltty_or_skip(test: &str) -> bool {
    if super::find_program("brltty").is_some() || std::path::Path::new("/usr/sbin/brltty").exists()
    {
        return true;
    }
    let why = format!("{test}: skipped: brltty is not installed (scripts/setup installs it)");
    assert!(std::env::var_os("CI").is_none(), "{why}");
    eprintln!("{why}");
    false
}

fn program() -> String {
    if std::path::Path::new("/usr/sbin/brltty").exists() {
        "/usr/sbin/brltty".into()
    } else {
        "brltty".into()
    }
}

fn common_args(name: &str, dir: &std::path::Path) -> Vec<String> {
    let d = dir.display().to_string();
    [
        "-n",
        "-e",
        "-q",
        "-f",
        "/dev/null",
        "-x",
        "no",
        "-s",
        "no",
        "-A",
        &format!("host=:{name},auth=none"),
        "-W",
        &d,
        "-U",
        &d,
        "-P",
        &format!("{d}/pid"),
        "-l",
        "warning",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn unique_name() -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    format!(
        "hector-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    )
}

fn spawn(args: &[String], dir: &TempDir) -> Child {
    let log = std::fs::File::create(dir.join("log")).expect("brltty log");
    Command::new(program())
        .args(args)
        // The TTY driver writes in its locale's charset: without UTF-8 an umlaut is lost.
        .env("LANG", "C.UTF-8")
        .env_remove("LC_ALL")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(log))
        .spawn()
        .expect("start brltty")
}

impl Brltty {
    /// BRLTTY with the TTY driver: a display of `cells` on a pseudo-terminal.
    pub fn tt(cells: usize) -> Brltty {
        let dir = TempDir::new("brltty");
        let name = unique_name();
        let pty = nix::pty::openpty(None, None).expect("openpty");
        let slave: OwnedFd = pty.slave;
        let slave_path = std::fs::read_link(format!(
            "/proc/self/fd/{}",
            std::os::fd::AsRawFd::as_raw_fd(&slave)
        ))
        .expect("the pty's name");
        let mut args = vec![
            "-b".to_string(),
            "tt".into(),
            "-d".into(),
            slave_path.display().to_string(),
            "-B".into(),
            format!("term=vt100,columns={cells}"),
        ];
        args.extend(common_args(&name, &dir));
        let child = spawn(&args, &dir);
        // The slave stays open in brltty; the test keeps only the master.
        drop(slave);
        let master = std::fs::File::from(pty.master);
        let mut reader = master.try_clone().expect("dup");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            std::num::NonZeroU16::new(3).expect("rows"),
            std::num::NonZeroU16::new(100).expect("columns"),
            0,
        )));
        let sink = screen.clone();
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        if let Ok(mut s) = sink.lock() {
                            s.process(&buf[..n]);
                        }
                    }
                }
            }
        });
        let b = Brltty {
            child,
            name,
            display: Display::Tt { master, screen },
            cells,
            _dir: dir,
        };
        // Ready: the driver shows BRLTTY's own "no screen" (the API starts before it, and
        // a client writing to a display still starting can make BRLTTY 6.5 abort).
        assert!(
            b.wait_for("no screen", START),
            "brltty did not start: {}",
            b.log()
        );
        b
    }

    /// BRLTTY with the Virtual driver: a display of `cells` on a socket of the test's.
    pub fn vr(cells: usize) -> Brltty {
        let dir = TempDir::new("brltty");
        let name = unique_name();
        let socket_path = dir.join("display.sock");
        let mut args = vec![
            "-b".to_string(),
            "vr".into(),
            "-d".into(),
            format!("server:{}", socket_path.display()),
        ];
        args.extend(common_args(&name, &dir));
        let mut child = spawn(&args, &dir);
        let start = Instant::now();
        let socket = loop {
            if let Ok(s) = UnixStream::connect(&socket_path) {
                break s;
            }
            if start.elapsed() > START || child.try_wait().ok().flatten().is_some() {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "brltty's virtual display did not start: {}",
                    std::fs::read_to_string(dir.join("log")).unwrap_or_default()
                );
            }
            thread::sleep(Duration::from_millis(20));
        };
        let mut writer = socket.try_clone().expect("dup");
        writer
            .write_all(format!("cells {cells}\n").as_bytes())
            .expect("tell the cells");
        let shown = Arc::new(Mutex::new(Shown::default()));
        let sink = shown.clone();
        let reader = socket.try_clone().expect("dup");
        thread::spawn(move || {
            for line in BufReader::new(reader).lines() {
                let Ok(line) = line else { return };
                let (word, rest) = line.split_once(' ').unwrap_or((&line, ""));
                let rest = rest.trim().trim_matches('"');
                let Ok(mut s) = sink.lock() else { return };
                match word {
                    "Visual" => s.text = rest.to_string(),
                    // Cells as dots, `|` between them; the cursor adds dots 7 and 8.
                    "Braille" => {
                        s.cursor = rest
                            .split('|')
                            .position(|cell| cell.contains('7') && cell.contains('8'));
                    }
                    _ => {}
                }
            }
        });
        let b = Brltty {
            child,
            name,
            display: Display::Vr {
                socket: writer,
                shown,
            },
            cells,
            _dir: dir,
        };
        assert!(
            b.wait_for("no screen", START),
            "brltty did not start: {}",
            b.log()
        );
        b
    }

    /// `BRLAPI_HOST` for hector.
    pub fn host(&self) -> String {
        format!(":{}", self.name)
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(self._dir.join("log")).unwrap_or_default()
    }

    /// What the display shows now.
    pub fn shown(&self) -> Shown {
        match &self.display {
            Display::Tt { screen, .. } => {
                let Ok(p) = screen.lock() else {
                    return Shown::default();
                };
                let s = p.screen();
                let text: String = s.rows(0, self.cells as u16).next().unwrap_or_default();
                // The terminal's cursor is on the text row at the braille cursor's cell, on
                // the row below when there is none.
                let (row, col) = s.cursor_position();
                Shown {
                    text: text.trim_end().to_string(),
                    cursor: (row == 0).then_some(usize::from(col)),
                }
            }
            Display::Vr { shown, .. } => {
                let s = shown.lock().map(|s| s.clone()).unwrap_or_default();
                Shown {
                    text: s.text.trim_end().to_string(),
                    cursor: s.cursor,
                }
            }
        }
    }

    /// Waits until the display shows `needle`.
    pub fn wait_for(&self, needle: &str, limit: Duration) -> bool {
        self.wait_until(limit, |s| s.text.contains(needle))
            .is_some()
    }

    /// Waits (up to a minute) until the display shows a text that begins with `start`: an
    /// answer flashed from its beginning. `heard` goes into the failure's message.
    pub fn assert_flashed(&self, start: &str, heard: &str) {
        assert!(
            self.wait_until(Duration::from_secs(60), |s| s.text.starts_with(start))
                .is_some(),
            "the display shows {:?}, not {start:?}; heard: {heard}",
            self.shown()
        );
    }

    /// Waits until what the display shows satisfies `ok`; what it showed then.
    pub fn wait_until(&self, limit: Duration, ok: impl Fn(&Shown) -> bool) -> Option<Shown> {
        let end = Instant::now() + limit;
        loop {
            let s = self.shown();
            if ok(&s) {
                return Some(s);
            }
            if Instant::now() >= end {
                return None;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    fn press(&mut self, tt: &[u8], vr: &str) {
        match &mut self.display {
            Display::Tt { master, .. } => {
                master.write_all(tt).expect("press a key");
            }
            Display::Vr { socket, .. } => {
                socket
                    .write_all(format!("{vr}\n").as_bytes())
                    .expect("press a key");
            }
        }
    }

    /// The display's key that shows the next part of a text.
    pub fn pan_right(&mut self) {
        // The TTY driver's terminal is in application cursor mode: vt100's right arrow.
        self.press(b"\x1bOC", "fwinrt");
    }

    pub fn pan_left(&mut self) {
        self.press(b"\x1bOD", "fwinlt");
    }

    /// The routing key over `cell` (from 0, as a display sends it; the Virtual driver only,
    /// which refuses cell 0).
    pub fn route(&mut self, cell: usize) {
        assert!(
            matches!(self.display, Display::Vr { .. }),
            "the TTY driver has no routing keys"
        );
        // The Virtual driver passes its number on as BrlAPI's argument, which counts from 0.
        self.press(b"", &format!("route {cell}"));
    }
}

impl Drop for Brltty {
    fn drop(&mut self) {
        if let Ok(pid) = i32::try_from(self.child.id()) {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGTERM,
            );
        }
        let end = Instant::now() + Duration::from_secs(5);
        while Instant::now() < end {
            if self.child.try_wait().ok().flatten().is_some() {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        // After a clean end BRLTTY removed them itself; after a kill they would stay.
        let _ = std::fs::remove_file(format!("/var/lib/BrlAPI/{}", self.name));
        let _ = std::fs::remove_file(format!("/var/lib/BrlAPI/.{}", self.name));
    }
}
