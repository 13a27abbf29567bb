//! `hector play`: responsiveness and footprint, through the real binary in a pseudo-terminal.
//!
//! cargo bench --bench play -- [--questions N] [--idle-seconds S]
//!
//! (a) Enter to answer: a question typed in line mode ("wer", whose turn), from the byte that
//!     ends the line to the answer arriving on the terminal. hector sends the speech request
//!     just before it prints the answer, so this bounds Enter-to-speech-request from above
//!     (no engine involved).
//! (b) Idle CPU with the full-screen view open and a clock running (redrawn every second).
//! (c) Resident memory of that process.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "benchmarks stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
#![cfg_attr(
    not(unix),
    allow(
        dead_code,
        unused_imports,
        reason = "without Unix (pseudo-terminals, its clocks) only a notice is built: the measuring code and its imports go unused"
    )
)]

mod support;

#[cfg(unix)]
#[path = "../tests/common/pty.rs"]
#[allow(dead_code, reason = "a benchmark uses a few of the tests' helpers")]
mod pty;

use std::path::Path;
use std::time::{Duration, Instant};

#[cfg(unix)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let questions = support::arg(&args, "--questions").unwrap_or(300);
    let idle = support::arg(&args, "--idle-seconds").unwrap_or(20);
    let hector = Path::new(env!("CARGO_BIN_EXE_hector"));
    let data = std::env::temp_dir().join(format!("hector-bench-play-{}", std::process::id()));
    let data_text = data.display().to_string();
    let env = [("HECTOR_CONFIG", ""), ("HECTOR_DATA", data_text.as_str())];

    let mut t = pty::Pty::spawn_program(
        hector,
        &["play", "--new", "--screen-reader", "--opponent", "keyboard"],
        &env,
    );
    if t.wait_for("Zug oder Befehl:", Duration::from_secs(20))
        .is_none()
    {
        eprintln!("hector play did not start");
        return;
    }
    let mut latencies = Vec::with_capacity(questions as usize);
    for i in 0..questions {
        let seen = t.all_output().matches("Weiß ist am Zug").count();
        let sent = Instant::now();
        t.send(b"wer\r");
        let deadline = sent + Duration::from_secs(10);
        loop {
            if t.all_output().matches("Weiß ist am Zug").count() > seen {
                break;
            }
            if Instant::now() > deadline {
                eprintln!("question {i} got no answer");
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        // The instant the answer's bytes arrived, as the reader thread stamped them.
        let arrived = t
            .nth_seen_in_all_output("Weiß ist am Zug", seen)
            .unwrap_or_else(Instant::now);
        latencies.push(arrived.saturating_duration_since(sent));
    }
    latencies.sort();
    let p = |q: f64| latencies[((latencies.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "Enter to answer: {} questions, p50 {:?}, p99 {:?}, max {:?}",
        latencies.len(),
        p(0.5),
        p(0.99),
        latencies.last().copied().unwrap_or_default()
    );
    t.send(b"ende\rende\r");
    let _ = t.wait_exit(Duration::from_secs(10));

    let mut t = pty::Pty::spawn_program(
        hector,
        &["play", "--new", "--opponent", "keyboard", "--tc", "3600"],
        &env,
    );
    if !t.wait_for_screen("Zug oder Befehl", Duration::from_secs(20)) {
        eprintln!("the full screen did not come up");
        return;
    }
    std::thread::sleep(Duration::from_secs(2));
    let pid = t.pid();
    let Some(before) = support::cpu_ticks(pid) else {
        eprintln!("cannot read /proc/{pid}/stat");
        return;
    };
    std::thread::sleep(Duration::from_secs(idle));
    let after = support::cpu_ticks(pid).unwrap_or(before);
    let rss = support::rss_kib(pid).unwrap_or(0);
    let seconds = (after - before) as f64 / 100.0;
    println!(
        "idle full screen with a running clock: {idle} s used {seconds:.2} s of CPU, {:.2} % of a core; resident memory {:.1} MB",
        seconds / idle as f64 * 100.0,
        rss as f64 / 1024.0
    );
    t.send(b"\x11\x11");
    let _ = t.wait_exit(Duration::from_secs(10));
    let _ = std::fs::remove_dir_all(&data);
}

/// The benchmark drives hector through Unix pseudo-terminals: elsewhere it measures nothing.
#[cfg(not(unix))]
fn main() {
    eprintln!("this benchmark needs Unix pseudo-terminals");
}
