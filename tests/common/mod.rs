//! Helpers shared by the integration tests: run the real binary with a time limit.
#![allow(
    dead_code,
    reason = "each test binary uses its own part of the helpers"
)]

pub mod brf;
pub mod brltty;
pub mod cues;
pub mod env;
pub mod microphone;
pub mod pty;
pub mod sim;
pub mod words;

pub use pty::{NO_LOCALE, NO_SOUNDS};

#[allow(unused_imports, reason = "not every test binary uses every helper")]
pub use env::Env;
#[allow(unused_imports, reason = "not every test binary uses every helper")]
pub use pty::{TempDir, descendants, kill_all, kill_mentioning, kill_tree, processes_mentioning};

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

#[derive(Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

pub fn hector() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_hector"))
}

pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A speech-dispatcher address where none listens: without an address of its own a test's
/// hector would start a speech-dispatcher for itself (libspeechd's autospawn), and that
/// daemon would outlive the test. Tests that want one pass the address of a [`SpeechDaemon`].
pub fn no_speech_dispatcher(runtime: &TempDir) -> String {
    format!("unix_socket:{}/no-speechd.sock", runtime.path().display())
}

/// A BrlAPI server that is not there: no test writes to a braille display it did not start.
pub fn no_braille_display(runtime: &TempDir) -> String {
    format!(
        ":hector-test-none-{}",
        runtime
            .path()
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    )
}

/// Runs hector with `args`, feeding `stdin`, and kills it after `limit`.
pub fn run_with(args: &[&str], stdin: &[u8], envs: &[(&str, &str)], limit: Duration) -> Run {
    let runtime = temp_dir("runtime");
    let mut child = Command::new(hector())
        .args(args)
        .env("XDG_RUNTIME_DIR", runtime.path())
        .env("SPEECHD_ADDRESS", no_speech_dispatcher(&runtime))
        .env("BRLAPI_HOST", no_braille_display(&runtime))
        .envs(NO_LOCALE)
        .envs(NO_SOUNDS)
        .envs(envs.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hector");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            kill_tree(&mut child);
            panic!("hector {args:?} did not finish within {limit:?}");
        }
        thread::sleep(Duration::from_millis(10));
    };
    let _ = writer.join();
    Run {
        code: status.code(),
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    }
}

pub fn run(args: &[&str]) -> Run {
    run_with(args, b"", &[], Duration::from_secs(60))
}

/// Where Debian puts game programs such as stockfish and pgn-extract.
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games"), PathBuf::from("/usr/bin")])
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// `sleep` adds up its arguments: this one adds nothing to the 600 seconds but carries the
/// test process's number, so that a `sleep` left behind by a test is found.
pub fn hanging_marker() -> String {
    format!("0.{}", std::process::id())
}

/// A private speech-dispatcher for one test: its own socket, pid file and configuration, an
/// sd_generic output module whose command appends `$LANGUAGE|$DATA` to a file, and ALSA's
/// "null" device (the daemon refuses to start with no audio output at all). No sound card is
/// needed. The daemon and everything it started are killed when this is dropped.
pub struct SpeechDaemon {
    pub dir: TempDir,
    pub out: PathBuf,
    child: std::process::Child,
    /// The utterance from which `said` reads: after the previous match or the last `mark`.
    cursor: std::sync::atomic::AtomicUsize,
}

impl SpeechDaemon {
    /// A daemon whose module writes every utterance to `out`.
    pub fn capturing() -> SpeechDaemon {
        SpeechDaemon::with_command(|out| {
            format!(
                "printf '%s|%s\\\\n' '$LANGUAGE' \\'$DATA\\' >> {}",
                out.display()
            )
        })
    }

    /// A daemon whose module writes every utterance and then takes a quarter of a second to
    /// "say" it, as a voice would: what comes meanwhile finds it speaking, and a sentence cut
    /// short loses the sentences after it.
    pub fn speaking_slowly() -> SpeechDaemon {
        SpeechDaemon::with_command(|out| {
            format!(
                "printf '%s|%s\\\\n' '$LANGUAGE' \\'$DATA\\' >> {}; sleep 0.25",
                out.display()
            )
        })
    }

    /// A daemon whose module never finishes an utterance.
    pub fn hanging() -> SpeechDaemon {
        SpeechDaemon::with_command(|out| {
            // The marker on its command line lets a test find it if it were left running.
            format!(
                "sleep 600 {}; echo \\'$DATA\\' >> {}",
                hanging_marker(),
                out.display()
            )
        })
    }

    fn with_command(command: impl Fn(&std::path::Path) -> String) -> SpeechDaemon {
        use std::os::unix::process::CommandExt;
        let dir = temp_dir("speechd");
        let conf = dir.join("conf");
        std::fs::create_dir_all(conf.join("modules")).expect("config dir");
        std::fs::create_dir_all(dir.join("log")).expect("log dir");
        let out = dir.join("spoken.txt");
        // Sound icons: the module joins its icon folder and the name, and runs the audio
        // output's play command on the file (aplay for ALSA; play or paplay on others).
        // Here that command is a recorder: "icon|NAME" in the same file as the words, in the
        // order the daemon played them, for a file that is there. A name that leads nowhere
        // from this folder (hector's way from the system's icon folder, when a test names no
        // other) plays nothing, as with a real player.
        let icons = dir.join("icons");
        let bin = dir.join("bin");
        std::fs::create_dir_all(&icons).expect("icon folder");
        std::fs::create_dir_all(&bin).expect("bin folder");
        let recorder = format!(
            "#!/bin/sh\nfor f in \"$@\"; do case \"$f\" in -*) continue ;; esac\n\
             if [ -f \"$f\" ]; then printf 'icon|%s\\n' \"$(basename \"$f\" .wav)\" >> {out}; \
             printf '%s\\n' \"$f\" >> {files}; fi\n\
             done\n",
            out = out.display(),
            files = dir.join("icon-files.txt").display()
        );
        for player in ["aplay", "play", "paplay"] {
            let path = bin.join(player);
            std::fs::write(&path, &recorder).expect("recorder");
            std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
                .expect("recorder mode");
        }
        std::fs::write(
            conf.join("speechd.conf"),
            format!(
                "LogLevel 3\nLogDir \"{}\"\nAddModule \"capture\" \"sd_generic\" \"capture.conf\"\n\
                 DefaultModule capture\nAudioOutputMethod \"alsa\"\nAudioALSADevice \"null\"\n",
                dir.join("log").display()
            ),
        )
        .expect("speechd.conf");
        std::fs::write(
            conf.join("modules/capture.conf"),
            format!(
                "GenericExecuteSynth \"{}\"\nGenericLanguage \"de\" \"de\" \"utf-8\"\n\
                 GenericLanguage \"en\" \"en\" \"utf-8\"\nAddVoice \"de\" \"MALE1\" \"de\"\n\
                 AddVoice \"en\" \"MALE1\" \"en\"\nGenericSoundIconFolder \"{}/\"\n",
                command(&out),
                icons.display()
            ),
        )
        .expect("module conf");
        let socket = dir.join("speechd.sock");
        let child = Command::new("speech-dispatcher")
            .args(["-s", "-t", "0", "-c", "unix_socket", "-S"])
            .arg(&socket)
            .arg("-P")
            .arg(dir.join("speechd.pid"))
            .arg("-C")
            .arg(&conf)
            .args(["-m", "/usr/lib/speech-dispatcher-modules"])
            // The audio library's runtime files go here, not into /tmp/pulse-*.
            .env("XDG_RUNTIME_DIR", dir.path())
            // The icon recorder comes before any real player.
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    bin.display(),
                    std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into())
                ),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group, so that the modules and their commands die with it.
            .process_group(0)
            .spawn()
            .expect("speech-dispatcher is installed (scripts/setup)");
        let daemon = SpeechDaemon {
            dir,
            out,
            child,
            cursor: std::sync::atomic::AtomicUsize::new(0),
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !socket.exists() {
            assert!(Instant::now() < deadline, "speech-dispatcher did not start");
            thread::sleep(Duration::from_millis(20));
        }
        daemon
    }

    /// The folder the daemon's module plays sound icons from (hector's `[sound] icon_folder`).
    pub fn icon_folder(&self) -> PathBuf {
        self.dir.join("icons")
    }

    /// The files the module played as sound icons, in order, as it was given them.
    pub fn icon_files(&self) -> Vec<PathBuf> {
        std::fs::read_to_string(self.dir.join("icon-files.txt"))
            .map(|s| s.lines().map(PathBuf::from).collect())
            .unwrap_or_default()
    }

    /// The value for SPEECHD_ADDRESS.
    pub fn address(&self) -> String {
        format!("unix_socket:{}", self.dir.join("speechd.sock").display())
    }

    /// What the module has written so far, one utterance per line.
    pub fn spoken(&self) -> Vec<String> {
        std::fs::read_to_string(&self.out)
            .map(|s| s.lines().map(str::to_string).collect())
            .unwrap_or_default()
    }

    /// Waits until every one of `lines` has arrived, at most `limit`; returns all so far.
    pub fn wait_for_lines(&self, lines: &[&str], limit: Duration) -> Vec<String> {
        let deadline = Instant::now() + limit;
        loop {
            let spoken = self.spoken();
            if lines.iter().all(|l| spoken.iter().any(|s| s == l)) || Instant::now() > deadline {
                return spoken;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// From now on `said` reads only what is said next.
    pub fn mark(&self) {
        self.cursor
            .store(self.spoken().len(), std::sync::atomic::Ordering::SeqCst);
    }

    /// Waits until the module has said a line starting with `start` after the previous match
    /// (or mark), at most `limit`, and returns that line; fails the test with everything said
    /// when none came.
    pub fn said(&self, start: &str, limit: Duration) -> String {
        use std::sync::atomic::Ordering;
        let deadline = Instant::now() + limit;
        loop {
            let from = self.cursor.load(Ordering::SeqCst);
            if let Some((i, line)) = self
                .spoken()
                .into_iter()
                .enumerate()
                .skip(from)
                .find(|(_, l)| l.starts_with(start))
            {
                self.cursor.store(i + 1, Ordering::SeqCst);
                return line;
            }
            assert!(
                Instant::now() < deadline,
                "not said {start:?}; said:\n{}",
                self.spoken().join("\n")
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// What was said after utterance `from`, the sentences joined as one text (the module
    /// writes a sentence a line, the language first), once `last` is in it; fails the test
    /// with what was heard when it does not come within `limit`.
    pub fn heard_until(&self, from: usize, last: &str, limit: Duration) -> String {
        let deadline = Instant::now() + limit;
        loop {
            let text = self.heard_since(from);
            if text.contains(last) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "not heard {last:?}; heard:\n{text}"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// What was said after utterance `from`, once something was and then nothing more for a
    /// second and a half (six sentences of the slow module), at most `limit`.
    pub fn heard_when_quiet(&self, from: usize, limit: Duration) -> String {
        let deadline = Instant::now() + limit;
        let mut seen = from;
        let mut since = Instant::now();
        loop {
            let n = self.spoken().len();
            if n != seen {
                seen = n;
                since = Instant::now();
            } else if n > from && since.elapsed() > Duration::from_millis(1500) {
                return self.heard_since(from);
            }
            assert!(
                Instant::now() < deadline,
                "nothing heard to its end; heard:\n{}",
                self.heard_since(from)
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    fn heard_since(&self, from: usize) -> String {
        let said: Vec<String> = self
            .spoken()
            .into_iter()
            .skip(from)
            .map(|l| {
                l.split_once('|')
                    .map_or(l.clone(), |(_, t)| t.trim().to_string())
            })
            .collect();
        said.join(" ")
    }

    /// Waits until at least `n` utterances arrived, at most `limit`.
    pub fn wait_for(&self, n: usize, limit: Duration) -> Vec<String> {
        let deadline = Instant::now() + limit;
        loop {
            let lines = self.spoken();
            if lines.len() >= n || Instant::now() > deadline {
                return lines;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for SpeechDaemon {
    fn drop(&mut self) {
        // sd_generic runs each utterance in a process group of its own: everything below the
        // daemon is found by its parent, before the daemon is gone and they are re-parented.
        let mut doomed = descendants(self.child.id());
        doomed.push(self.child.id());
        // "--": a negative number is a process group, not an option.
        let _ = Command::new("kill")
            .args(["-s", "KILL", "--"])
            .arg(format!("-{}", self.child.id()))
            .stderr(Stdio::null())
            .status();
        kill_all(&doomed);
        let _ = self.child.wait();
        // With the slash: the folder "…-1" is not the folder "…-12" of another test.
        kill_mentioning(&format!("{}/", self.dir.display()));
    }
}

/// A fresh directory under the system's temporary directory, removed when dropped.
pub fn temp_dir(what: &str) -> TempDir {
    TempDir::new(what)
}

/// A started process that is killed (with its process group, when it leads one) and reaped
/// when dropped, so that a failing test leaves nothing running.
pub struct ChildGuard(pub std::process::Child);

impl ChildGuard {
    pub fn kill_group(&mut self) {
        kill_tree(&mut self.0);
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            self.kill_group();
        }
    }
}

/// Runs hector with its standard output going to `stdout` (such as /dev/full).
pub fn run_into(
    args: &[&str],
    envs: &[(&str, &str)],
    stdout: Stdio,
    limit: Duration,
) -> (Option<i32>, String) {
    let runtime = temp_dir("runtime");
    let child = Command::new(hector())
        .args(args)
        .env("XDG_RUNTIME_DIR", runtime.path())
        .env("SPEECHD_ADDRESS", no_speech_dispatcher(&runtime))
        .env("BRLAPI_HOST", no_braille_display(&runtime))
        .envs(NO_LOCALE)
        .envs(NO_SOUNDS)
        .envs(envs.iter().copied())
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hector");
    let mut guard = ChildGuard(child);
    let mut err = guard.0.stderr.take().expect("stderr");
    let err_reader = thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = wait_limited(&mut guard, limit, args);
    (status, err_reader.join().unwrap_or_default())
}

/// Runs hector, reads `keep` bytes of its standard output and then closes the pipe, as
/// `hector … | head -c1` does; returns the exit status, what was read and standard error.
pub fn run_closing_stdout(
    args: &[&str],
    envs: &[(&str, &str)],
    keep: usize,
    limit: Duration,
) -> (Option<i32>, Vec<u8>, String) {
    let runtime = temp_dir("runtime");
    let child = Command::new(hector())
        .args(args)
        .env("XDG_RUNTIME_DIR", runtime.path())
        .env("SPEECHD_ADDRESS", no_speech_dispatcher(&runtime))
        .env("BRLAPI_HOST", no_braille_display(&runtime))
        .envs(NO_LOCALE)
        .envs(NO_SOUNDS)
        .envs(envs.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hector");
    let mut guard = ChildGuard(child);
    let mut err = guard.0.stderr.take().expect("stderr");
    let err_reader = thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let mut out = guard.0.stdout.take().expect("stdout");
    let head = within(limit, "hector's first output", move || {
        let mut head = vec![0u8; keep];
        let _ = out.read_exact(&mut head);
        head
    });
    let status = wait_limited(&mut guard, limit, args);
    (status, head, err_reader.join().unwrap_or_default())
}

/// Runs a blocking read on a thread of its own and waits for it at most `limit`: a child
/// that never writes cannot hang a test. On a timeout the caller's guard kills the child as
/// the panic unwinds, which ends the read.
pub fn within<T: Send + 'static>(
    limit: Duration,
    what: &str,
    read: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(read());
    });
    match rx.recv_timeout(limit) {
        Ok(value) => value,
        Err(_) => panic!("{what}: nothing within {limit:?}"),
    }
}

fn wait_limited(guard: &mut ChildGuard, limit: Duration, args: &[&str]) -> Option<i32> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = guard.0.try_wait().expect("wait") {
            return status.code();
        }
        if Instant::now() > deadline {
            guard.kill_group();
            panic!("hector {args:?} did not finish within {limit:?}");
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// Each of `parts` is in `text`, each after the one before: what is heard is whole and in
/// order.
pub fn assert_in_order(text: &str, parts: &[&str]) {
    let mut at = 0;
    for part in parts {
        match text[at..].find(part) {
            Some(i) => at += i + part.len(),
            None => panic!("{part:?} not heard after what came before it in:\n{text}"),
        }
    }
}
