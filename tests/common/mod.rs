//! Helpers shared by the integration tests: run the real binary with a time limit.
#![allow(dead_code)]

pub mod pty;
pub mod sim;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

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

/// Runs hector with `args`, feeding `stdin`, and kills it after `limit`.
pub fn run_with(args: &[&str], stdin: &[u8], envs: &[(&str, &str)], limit: Duration) -> Run {
    let mut child = Command::new(hector())
        .args(args)
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
            let _ = child.kill();
            let _ = child.wait();
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

/// A private speech-dispatcher for one test: its own socket, pid file and configuration, an
/// sd_generic output module whose command appends `$LANGUAGE|$DATA` to a file, and ALSA's
/// "null" device (the daemon refuses to start with no audio output at all). No sound card is
/// needed. The daemon and everything it started are killed when this is dropped.
pub struct SpeechDaemon {
    pub dir: PathBuf,
    pub out: PathBuf,
    child: std::process::Child,
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

    /// A daemon whose module never finishes an utterance.
    pub fn hanging() -> SpeechDaemon {
        SpeechDaemon::with_command(|out| {
            format!("sleep 600; echo \\'$DATA\\' >> {}", out.display())
        })
    }

    fn with_command(command: impl Fn(&std::path::Path) -> String) -> SpeechDaemon {
        use std::os::unix::process::CommandExt;
        let dir = temp_dir("speechd");
        let conf = dir.join("conf");
        std::fs::create_dir_all(conf.join("modules")).expect("config dir");
        std::fs::create_dir_all(dir.join("log")).expect("log dir");
        let out = dir.join("spoken.txt");
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
                 AddVoice \"en\" \"MALE1\" \"en\"\n",
                command(&out)
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
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group, so that the modules and their commands die with it.
            .process_group(0)
            .spawn()
            .expect("speech-dispatcher is installed (scripts/setup)");
        let daemon = SpeechDaemon { dir, out, child };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !socket.exists() {
            assert!(Instant::now() < deadline, "speech-dispatcher did not start");
            thread::sleep(Duration::from_millis(20));
        }
        daemon
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
        let pgid = self.child.id();
        // "--": a negative number is a process group, not an option.
        let _ = Command::new("kill")
            .args(["-s", "KILL", "--"])
            .arg(format!("-{pgid}"))
            .status();
        let _ = self.child.wait();
        // sd_generic runs each utterance in a process of its own group: find anything still
        // running with this daemon's directory on its command line.
        let mine = self.dir.display().to_string();
        if let Ok(procs) = std::fs::read_dir("/proc") {
            for p in procs.flatten() {
                let Some(pid) = p.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
                    continue;
                };
                let cmdline = std::fs::read(p.path().join("cmdline")).unwrap_or_default();
                if String::from_utf8_lossy(&cmdline).contains(&mine) {
                    let _ = Command::new("kill")
                        .args(["-s", "KILL", "--"])
                        .arg(pid.to_string())
                        .status();
                }
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A fresh directory under the system's temporary directory.
pub fn temp_dir(what: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "hector-test-{what}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
