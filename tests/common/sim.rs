//! The board simulator (`hector simulate-board`) as the tests drive it: a DGT or peg board on
//! a pseudo-terminal behind a stable link, commanded line by line.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};

pub struct Simulator {
    child: Child,
    stdin: ChildStdin,
}

impl Simulator {
    /// Starts a simulated board speaking `protocol` ("dgt", "peg") at `link`; returns once the
    /// device exists.
    pub fn start(protocol: &str, link: &Path) -> Simulator {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hector"))
            .args(["simulate-board", "--protocol", protocol, "--link"])
            .arg(link)
            .envs(super::NO_LOCALE)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("simulator");
        let stdout = child.stdout.take().expect("stdout");
        // Read on a thread of its own, so that a simulator that never answers cannot hang
        // the test: it is killed instead.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut first = String::new();
            let _ = BufReader::new(stdout).read_line(&mut first);
            let _ = tx.send(first);
        });
        let Ok(first) = rx.recv_timeout(std::time::Duration::from_secs(20)) else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the simulated board did not start within 20 s");
        };
        assert!(first.contains("board: "), "{first}");
        let stdin = child.stdin.take().expect("stdin");
        Simulator { child, stdin }
    }

    /// One command (move e2e4, lift g1, place g1, setup FEN, await-host …).
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("simulator command");
        let _ = self.stdin.flush();
    }
}

impl Drop for Simulator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
