//! `hector study` on a large compressed file: how long a game takes to open once the index has
//! read the whole file, an early one (game 3,000) and the last, through the real binary in a
//! pseudo-terminal (the time from the typed line to the game's first words on the screen).
//!
//! cargo bench --bench study -- [--games N] [--repeat R]
//!
//! Writes N (default 40,000) seeded random games with clock comments, as .zst, to a folder of
//! its own under the system's temporary directory, removed at the end however it ends.

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
        reason = "without Unix (pseudo-terminals) only a notice is built"
    )
)]

mod support;

#[cfg(unix)]
#[path = "../tests/common/pty.rs"]
#[allow(dead_code, reason = "a benchmark uses a few of the tests' helpers")]
mod pty;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hector::core::testkit::games::{SampleOptions, write_games};

/// Removes the benchmark's folder when it ends, however it ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(unix)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = support::arg(&args, "--games").unwrap_or(40_000);
    let repeat: usize = support::arg(&args, "--repeat").unwrap_or(5);
    let dir = std::env::temp_dir().join(format!("hector-bench-study-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(dir.join("data")) {
        eprintln!("{}: {e}", dir.display());
        return;
    }
    let scratch = Scratch(dir);
    let text = write_games(SampleOptions {
        games,
        seed: 2026,
        clock_comments: true,
    });
    let file = scratch.0.join("games.pgn.zst");
    let packed = match zstd::stream::encode_all(text.as_bytes(), 3) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("zstd: {e}");
            return;
        }
    };
    if let Err(e) = std::fs::write(&file, &packed) {
        eprintln!("{}: {e}", file.display());
        return;
    }
    println!(
        "study: {games} games, {:.1} MB of PGN, {:.1} MB as .zst",
        text.len() as f64 / 1e6,
        packed.len() as f64 / 1e6
    );
    drop(text);
    let data = scratch.0.join("data").display().to_string();
    let env = [("HECTOR_CONFIG", ""), ("HECTOR_DATA", data.as_str())];
    let hector = Path::new(env!("CARGO_BIN_EXE_hector"));
    let file_arg = file.display().to_string();
    let mut t = pty::Pty::spawn_program(
        hector,
        &[
            "study",
            &file_arg,
            "--lang",
            "en",
            "--screen-reader",
            "--speech",
            "print",
        ],
        &env,
    );
    if t.wait_for("Game 1: ", Duration::from_secs(60)).is_none() {
        eprintln!("hector study did not open the first game");
        return;
    }
    // The whole file indexed first: what is measured is opening an indexed game.
    let began = Instant::now();
    loop {
        t.send(b"progress\r");
        if t.wait_for("The file is read", Duration::from_secs(2))
            .is_some()
        {
            break;
        }
        if began.elapsed() > Duration::from_secs(900) {
            eprintln!("the index did not finish in 15 minutes");
            return;
        }
    }
    println!("  indexed in {:.1} s", began.elapsed().as_secs_f64());
    for n in [3_000.min(games), games] {
        let mut times = Vec::with_capacity(repeat);
        for _ in 0..repeat {
            let sent = Instant::now();
            t.send(format!("open {n}\r").as_bytes());
            match t.wait_for(&format!("Game {n}: "), Duration::from_secs(120)) {
                Some(at) => times.push(at.saturating_duration_since(sent)),
                None => {
                    eprintln!("game {n} did not open in two minutes");
                    return;
                }
            }
        }
        times.sort();
        println!(
            "  open game {n}: median {:.1} ms, best {:.1} ms, worst {:.1} ms ({repeat} times)",
            support::percentile(&times, 0.5).as_secs_f64() * 1e3,
            times[0].as_secs_f64() * 1e3,
            times[times.len() - 1].as_secs_f64() * 1e3,
        );
    }
    t.send(b"quit\r");
    let _ = t.wait_exit(Duration::from_secs(10));
    let left = std::fs::read_dir(scratch.0.join("data"))
        .map(|d| d.count())
        .unwrap_or(0);
    println!("  files left in the data folder after quitting: {left}");
}

#[cfg(not(unix))]
fn main() {
    println!("study: the benchmark drives hector through a Unix pseudo-terminal");
}
