//! `hector board` and `hector simulate-board` through the real binaries: the simulator makes a
//! board on a real pseudo-terminal, the monitor opens it like a serial port. Every wait has a
//! time limit; processes still running when a test ends are killed.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

use common::{hector, run, run_with};

/// Generous: the machine may be busy with other tests. Nothing waits this long when all is well.
const LIMIT: Duration = Duration::from_secs(20);

/// A running hector process whose output is read line by line.
struct Proc {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    seen: Vec<String>,
    stderr: Receiver<String>,
}

impl Proc {
    fn spawn(name: &str, args: &[&str]) -> Proc {
        Proc::spawn_with_env(name, args, &[])
    }

    fn spawn_with_env(name: &str, args: &[&str], envs: &[(&str, &str)]) -> Proc {
        let mut child = Command::new(hector())
            .args(args)
            .envs(common::NO_LOCALE)
            // No sound cues: hector would play them through whatever player this machine has.
            .envs(common::NO_SOUNDS)
            // No speech-dispatcher started for the test: it would outlive it.
            .env(
                "SPEECHD_ADDRESS",
                "unix_socket:/nonexistent/hector-test-speechd.sock",
            )
            .envs(envs.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start hector");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        let (tx, lines) = crossbeam_channel::unbounded();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let (etx, erx) = crossbeam_channel::bounded(1);
        thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            let _ = etx.send(text);
        });
        Proc {
            name: name.to_owned(),
            stdin: child.stdin.take(),
            child,
            lines,
            seen: Vec::new(),
            stderr: erx,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write a command");
        stdin.flush().expect("flush");
    }

    /// Reads lines until one contains `needle`; fails with everything read so far.
    fn expect(&mut self, needle: &str) -> String {
        let deadline = Instant::now() + LIMIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "{}: no line with {needle:?} within {LIMIT:?}; got:\n{}",
                    self.name,
                    self.seen.join("\n")
                ),
                Err(RecvTimeoutError::Disconnected) => panic!(
                    "{}: ended without a line with {needle:?}; got:\n{}\nstderr:\n{}",
                    self.name,
                    self.seen.join("\n"),
                    self.stderr.recv_timeout(LIMIT).unwrap_or_default()
                ),
            }
        }
    }

    /// Closes standard input and waits for the end; the rest of the output is kept in `seen`.
    fn finish(&mut self) -> ExitStatus {
        self.stdin = None;
        let deadline = Instant::now() + LIMIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(2)) {
                    self.seen.push(line);
                }
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "{} did not end within {LIMIT:?}; got:\n{}",
                self.name,
                self.seen.join("\n")
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    fn count(&self, needle: &str) -> usize {
        self.seen.iter().filter(|l| l.contains(needle)).count()
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A folder of its own for each test's device link.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "hector-board-cli-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Starts a simulator and a monitor on its device, and waits until the monitor has read the
/// board and found it in order.
fn pair(dir: &TempDir, protocol: &str, sim_args: &[&str], monitor_args: &[&str]) -> (Proc, Proc) {
    let link = dir.path("board");
    let mut args = vec!["simulate-board", "--protocol", protocol, "--link", s(&link)];
    args.extend_from_slice(sim_args);
    let mut sim = Proc::spawn("simulator", &args);
    let first = sim.expect("board: ");
    assert!(first.ends_with(s(&link)), "{first}");
    let mut args = vec!["board", "monitor", s(&link), "--protocol", protocol];
    args.extend_from_slice(monitor_args);
    let mut monitor = Proc::spawn("monitor", &args);
    monitor.expect(&format!("{}, {protocol}", s(&link)));
    (sim, monitor)
}

#[test]
fn monitor_speaks_what_it_recognises() {
    let daemon = common::SpeechDaemon::capturing();
    let address = daemon.address();
    let dir = TempDir::new();
    let link = dir.path("board");
    let mut sim = Proc::spawn(
        "simulator",
        &["simulate-board", "--protocol", "peg", "--link", s(&link)],
    );
    sim.expect("board: ");
    let env = [("SPEECHD_ADDRESS", address.as_str()), ("HECTOR_CONFIG", "")];
    let args = [
        "board",
        "monitor",
        s(&link),
        "--protocol",
        "peg",
        "--speak",
        "--backend",
        "speech-dispatcher",
    ];
    let mut monitor = Proc::spawn_with_env("monitor", &args, &env);
    monitor.expect("Brett stimmt mit der Partie überein");
    sim.send("move e2e4");
    monitor.expect("Eva vier (e2e4)");
    sim.send("move Nf6");
    monitor.expect("Springer Felix sechs (g8f6)");
    let spoken = daemon.wait_for_lines(&["de|Eva vier", "de|Springer Felix sechs"], LIMIT);
    // Raw sensor lines are printed only; the sentences for the player are said.
    assert!(spoken.iter().all(|l| !l.contains("peg:")), "{spoken:?}");
    assert!(spoken.contains(&"de|Eva vier".to_string()), "{spoken:?}");
    assert!(
        spoken.contains(&"de|Springer Felix sechs".to_string()),
        "{spoken:?}"
    );
    assert!(monitor.finish().success());
    sim.send("quit");
    assert!(sim.finish().success());
}

#[test]
fn monitor_follows_a_game_on_an_occupancy_only_peg_board() {
    let dir = TempDir::new();
    let (mut sim, mut monitor) = pair(&dir, "peg", &[], &[]);
    monitor.expect("peg: board xxxxxxxx xxxxxxxx ........");
    monitor.expect("Brett stimmt mit der Partie überein");
    for (mv, said) in [
        ("e2e4", "Eva vier (e2e4)"),
        ("d5", "David fünf (d7d5)"),
        ("exd5", "Eva schlägt David fünf (e4d5)"),
        (
            "Dame David acht nach David fünf",
            "Dame schlägt David fünf (d8d5)",
        ),
        ("Nc3", "Springer Cäsar drei (b1c3)"),
        ("Qa5", "Dame Anna fünf (d5a5)"),
    ] {
        sim.send(&format!("move {mv}"));
        monitor.expect(said);
    }
    assert_eq!(monitor.count("Eva zwei: weißer Bauer berührt"), 1);
    // The captured pawns of exd5 and Qxd5, then the queen leaving for a5.
    assert_eq!(monitor.count("peg: d5 lifted"), 3);
    assert!(monitor.finish().success());
    sim.send("quit");
    assert!(sim.finish().success());
    assert!(
        !dir.path("board").exists(),
        "the link goes with the simulator"
    );
}

#[test]
fn monitor_follows_a_pgn_game_on_a_dgt_board_from_a_script() {
    let dir = TempDir::new();
    let pgn = dir.path("game.pgn");
    std::fs::write(
        &pgn,
        "[Event \"Test\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d4 exd4 *\n",
    )
    .expect("pgn");
    let script = dir.path("script.txt");
    std::fs::write(
        &script,
        format!(
            "# a short game, once hector listens\nawait-host\npause 700ms\npgn {}\nwait 1s\n",
            s(&pgn)
        ),
    )
    .expect("script");
    let (mut sim, mut monitor) = pair(&dir, "dgt", &["--script", s(&script)], &["--lang", "en"]);
    monitor.expect("dgt: board rnbqkbnr pppppppp");
    monitor.expect("Board matches the game");
    for said in [
        "Eva four (e2e4)",
        "Eva five (e7e5)",
        "Knight Felix three (g1f3)",
        "Knight Cesar six (b8c6)",
        // The bishops slide over e2 and d3 (e7 and d6) and are taken after the slide pause.
        "Bishop Cesar four (f1c4)",
        "Bishop Cesar five (f8c5)",
        "short castling (e1g1)",
        "Knight Felix six (g8f6)",
        "David four (d2d4)",
        "Eva takes David four (e5d4)",
    ] {
        monitor.expect(said);
    }
    assert_eq!(monitor.count("dgt: d3 placed B"), 1, "the slide is seen");
    assert!(sim.finish().success(), "the script ran to its end");
    monitor.expect("Board disconnected");
    assert!(monitor.finish().success());
    assert_eq!(monitor.count("missing"), 0, "no mismatch on the way");
    assert_eq!(monitor.count("should stand"), 0, "no mismatch on the way");
}

#[test]
fn a_board_that_differs_from_the_game_is_described_square_by_square_and_a_take_back_seen() {
    let dir = TempDir::new();
    let (mut sim, mut monitor) = pair(&dir, "peg", &[], &["--no-raw"]);
    monitor.expect("Brett stimmt mit der Partie überein");
    sim.send("move e4");
    monitor.expect("Eva vier (e2e4)");
    // Black puts the queen on d4 through its own pawn: no legal move shows this.
    sim.send("lift d8");
    sim.send("place d4");
    monitor.expect("David acht: schwarze Dame berührt");
    let line = monitor.expect("fehlt");
    assert_eq!(
        line,
        "David vier: hier sollte kein Stein stehen; David acht: schwarze Dame fehlt"
    );
    sim.send("lift d4");
    sim.send("place d8");
    monitor.expect("Brett stimmt wieder");
    sim.send("move e5");
    monitor.expect("Eva fünf (e7e5)");
    // Black takes the move back on the board: reported, the game is not changed.
    sim.send("lift e5");
    sim.send("place e7");
    monitor.expect("Zurücknahme: das Brett zeigt die Stellung vor dem letzten Zug");
    // The game kept e5: the pawn put back on e5 is the game again, not a new move, and
    // White's next move follows e5.
    sim.send("lift e7");
    sim.send("place e5");
    monitor.expect("Brett stimmt wieder");
    sim.send("move Nf3");
    monitor.expect("Springer Felix drei (g1f3)");
    assert_eq!(monitor.count("(e7e5)"), 1, "{:?}", monitor.seen);
    assert!(monitor.finish().success());
    assert!(
        monitor.seen.iter().all(|l| !l.starts_with("peg:")),
        "--no-raw leaves the raw lines out"
    );
}

/// Unplugs in the middle of a game, makes a move while the cable is out, plugs in again.
fn unplug_and_replug(protocol: &str) {
    let dir = TempDir::new();
    let (mut sim, mut monitor) = pair(&dir, protocol, &[], &["--lang", "en"]);
    monitor.expect("Board matches the game");
    sim.send("move e4");
    monitor.expect("Eva four (e2e4)");
    sim.send("move e5");
    monitor.expect("Eva five (e7e5)");
    sim.send("unplug");
    sim.expect("unplugged");
    monitor.expect("Board disconnected");
    // The game goes on while the board is unplugged; several reconnection attempts fail.
    sim.send("move Nf3");
    sim.send("wait 1200ms");
    sim.send("replug");
    sim.expect("plugged in again");
    monitor.expect("Board connected again");
    monitor.expect("Knight Felix three (g1f3)");
    monitor.expect("Board matches the game");
    sim.send("move Nc6");
    monitor.expect("Knight Cesar six (b8c6)");
    sim.send("move Bb5");
    monitor.expect("Bishop Bella five (f1b5)");
    assert!(monitor.finish().success());
    assert_eq!(monitor.count("Board disconnected"), 1, "reported once");
    assert_eq!(monitor.count("Board connected again"), 1);
    assert_eq!(monitor.count("(g1f3)"), 1, "the move made meanwhile, once");
    sim.send("quit");
    assert!(sim.finish().success());
}

#[test]
fn unplug_and_replug_mid_game_loses_no_move_on_a_dgt_board() {
    unplug_and_replug("dgt");
}

#[test]
fn unplug_and_replug_mid_game_loses_no_move_on_a_peg_board() {
    unplug_and_replug("peg");
}

#[test]
fn a_promotion_on_a_peg_board_waits_for_the_players_word() {
    let dir = TempDir::new();
    let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    let (mut sim, mut monitor) = pair(&dir, "peg", &["--fen", fen], &["--fen", fen]);
    monitor.expect("Brett stimmt mit der Partie überein");
    sim.send("move a8=Q");
    monitor.expect("Anna acht: Umwandlung in welche Figur?");
    monitor.send("Dame");
    let line = monitor.expect("(a7a8q)");
    assert!(line.starts_with("Anna acht, Umwandlung in Dame"), "{line}");
    assert!(monitor.finish().success());
}

#[test]
fn noise_and_faults_are_reported_and_the_game_goes_on() {
    let dir = TempDir::new();
    let (mut sim, mut monitor) = pair(&dir, "peg", &[], &["--lang", "en"]);
    monitor.expect("Board matches the game");
    sim.send("noise 40");
    monitor.expect("peg: line not understood:");
    sim.send("raw 4c 20 65 32 2a 30 30 0a");
    monitor.expect("peg: 1 line dropped");
    sim.send("line E supply low");
    monitor.expect("The board reports a fault: supply low");
    sim.send("move e4");
    monitor.expect("Eva four (e2e4)");
    assert!(monitor.finish().success());
    assert!(
        monitor
            .seen
            .iter()
            .all(|l| !l.chars().any(|c| c.is_control())),
        "no control characters reach the screen reader"
    );
}

#[test]
fn ctrl_c_ends_the_monitor_and_the_simulator_cleanly() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let dir = TempDir::new();
    let (mut sim, mut monitor) = pair(&dir, "dgt", &[], &[]);
    monitor.expect("Brett stimmt mit der Partie überein");
    for p in [&monitor, &sim] {
        let pid = Pid::from_raw(i32::try_from(p.child.id()).expect("pid"));
        kill(pid, Signal::SIGINT).expect("SIGINT");
    }
    assert!(monitor.finish().success());
    assert!(sim.finish().success());
}

#[test]
fn a_missing_port_is_explained() {
    let dir = TempDir::new();
    let missing = dir.path("ttyACM9");
    let r = run(&["board", "monitor", s(&missing), "--protocol", "peg"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("there is no such port"), "{}", r.stderr);
    assert!(r.stderr.contains("hector board list"), "{}", r.stderr);
    std::fs::write(&missing, "a file").expect("file");
    let r = run(&["board", "monitor", s(&missing), "--protocol", "dgt"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("is not a serial port"), "{}", r.stderr);
}

#[test]
fn a_port_in_use_is_explained() {
    let dir = TempDir::new();
    let (_sim, mut monitor) = pair(&dir, "peg", &[], &[]);
    monitor.expect("Brett stimmt mit der Partie überein");
    let link = dir.path("board");
    let r = run_with(
        &["board", "monitor", s(&link), "--protocol", "peg"],
        b"",
        &[],
        LIMIT,
    );
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains("is in use by another program"),
        "{}",
        r.stderr
    );
}

#[test]
fn board_list_always_answers_in_sentences() {
    let r = run(&["board", "list"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let first = r.stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("No serial ports found") || first.contains("serial port"),
        "{}",
        r.stdout
    );
}

#[test]
fn help_texts_document_the_modes() {
    let r = run(&["simulate-board", "--help"]);
    assert_eq!(r.code, Some(0));
    for word in [
        "await-host",
        "unplug",
        "replug",
        "pgn FILE",
        "noise COUNT",
        "0x42",
    ] {
        assert!(r.stdout.contains(word), "{word}: {}", r.stdout);
    }
    let r = run(&["board", "monitor", "--help"]);
    assert_eq!(r.code, Some(0));
    for word in ["--protocol", "--baud", "--fen", "Ctrl-C", "dialout"] {
        assert!(r.stdout.contains(word), "{word}: {}", r.stdout);
    }
    let r = run(&["board", "list", "--help"]);
    assert!(r.stdout.contains("dialout"), "{}", r.stdout);
    let r = run(&[
        "simulate-board",
        "--protocol",
        "peg",
        "--script",
        "/nonexistent/x",
    ]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("cannot read the script"), "{}", r.stderr);
}

#[test]
fn script_mistakes_are_reported_with_their_line() {
    let dir = TempDir::new();
    let script = dir.path("bad.txt");
    std::fs::write(&script, "move e2e4\nmove e2e4\nlift e9\n").expect("script");
    let r = run_with(
        &[
            "simulate-board",
            "--protocol",
            "peg",
            "--link",
            s(&dir.path("board")),
            "--script",
            s(&script),
        ],
        b"",
        &[],
        LIMIT,
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("line 2: e2e4"), "{}", r.stderr);
    assert!(
        r.stderr.contains("line 3: \"e9\" is not a square"),
        "{}",
        r.stderr
    );
}
