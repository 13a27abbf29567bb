//! `hector analyse` of a 40-move game at its default settings, through the real binary with
//! the real Stockfish.
//!
//! cargo bench --bench analyse -- [--runs N]
//!
//! The game is Byrne–Fischer, New York 1956 (41 moves, 83 positions), game 4 of
//! tests/data/masters.pgn. Reported per run: the elapsed time and the CPU time of hector and
//! the engine together (the engine is hector's child, hector the benchmark's), which does
//! not depend on what else runs on the machine.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "benchmarks stop at the first surprise; the crate's lints are for hector itself"
)]

mod support;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// CPU time of this process's waited-for children (and theirs), in clock ticks.
fn children_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let after = stat.rsplit_once(')').unwrap().1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // cutime and cstime are fields 16 and 17 of the whole line: 14 and 15 after the name.
    fields[13].parse::<u64>().unwrap() + fields[14].parse::<u64>().unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs: usize = support::arg(&args, "--runs").unwrap_or(3);
    let hector = Path::new(env!("CARGO_BIN_EXE_hector"));
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/masters.pgn");
    let path = format!(
        "{}:/usr/games",
        std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into())
    );
    // Clock ticks per second: 100 on Linux for every architecture hector builds on.
    let tick = Duration::from_millis(10);
    let mut elapsed = Vec::new();
    for run in 1..=runs {
        let cpu_before = children_ticks();
        let started = Instant::now();
        let out = Command::new(hector)
            .args([
                "analyse",
                games.to_str().unwrap(),
                "--game",
                "4",
                "--errors",
            ])
            .env("PATH", &path)
            .env("HECTOR_CONFIG", "")
            .output()
            .expect("run hector");
        let took = started.elapsed();
        let cpu = tick * u32::try_from(children_ticks() - cpu_before).unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() || !text.contains("41 Züge") {
            eprintln!(
                "hector analyse failed: {text}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            return;
        }
        println!(
            "run {run}: {:.2} s elapsed, {:.2} s CPU (hector and the engine)",
            took.as_secs_f64(),
            cpu.as_secs_f64()
        );
        elapsed.push(took);
    }
    elapsed.sort();
    println!(
        "analyse, 41 moves, default depth: median {:.2} s, best {:.2} s elapsed",
        support::percentile(&elapsed, 0.5).as_secs_f64(),
        elapsed.first().copied().unwrap_or_default().as_secs_f64()
    );
}
