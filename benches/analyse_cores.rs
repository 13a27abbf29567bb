//! Analysis on every core, side by side in one run: the same game at the same depth judged by
//! one Stockfish thread, by one Stockfish with two threads, and by hector analyse with one
//! engine and with one engine per core (two one-thread engines taking the next position).
//!
//! cargo bench --bench analyse_cores -- [--runs N] [--depth D]
//!
//! Stockfish alone is driven here over plain UCI (position, go depth D, the positions in the
//! game's order, as hector asks); hector through the real binary with `--depth D --engines
//! N`. The configurations take turns in each run, so that a load changing during the run
//! touches all alike. Reported per configuration (medians): elapsed time, CPU time (the
//! engines' and hector's), and the time on an idle machine, estimated as the CPU time shared
//! by the threads or engines working at once (a busy machine stretches elapsed time for
//! every configuration differently; CPU time does not depend on it), each also as a ratio to
//! one Stockfish thread.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "benchmarks stop at the first surprise; the crate's lints are for hector itself"
)]

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Position};

/// The game's positions as UCI move lists (the final mate is over: not searched).
fn positions(pgn: &Path) -> Vec<Vec<String>> {
    let imported = hector::io::pgn_stream::import_from(pgn, 4).expect("game 4");
    let game = imported.game;
    let moves: Vec<String> = game
        .moves()
        .iter()
        .map(|p| p.mv.to_uci(CastlingMode::Standard).to_string())
        .collect();
    let mut out = Vec::new();
    for i in 0..=moves.len() {
        let over = game.position_at(i).is_some_and(|p| p.is_game_over());
        if !over {
            out.push(moves[..i].to_vec());
        }
    }
    out
}

/// CPU time of this process's waited-for children (and theirs).
fn children_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let after = stat.rsplit_once(')').unwrap().1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // cutime and cstime: fields 16 and 17 of the line, 14 and 15 after the name; 100 ticks a
    // second on Linux.
    let ticks = fields[13].parse::<u64>().unwrap() + fields[14].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

/// Elapsed and CPU time of one configuration.
type Took = (Duration, Duration);

/// One Stockfish with `threads` threads through every position, to `depth`.
fn stockfish(threads: u32, positions: &[Vec<String>], depth: u32) -> Took {
    let cpu = children_cpu();
    let mut child = Command::new("/usr/games/stockfish")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("stockfish");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut wait = |token: &str| {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(output.read_line(&mut line).unwrap() > 0, "stockfish ended");
            if line.starts_with(token) {
                return;
            }
        }
    };
    writeln!(input, "uci").unwrap();
    wait("uciok");
    writeln!(input, "setoption name Threads value {threads}").unwrap();
    writeln!(input, "ucinewgame\nisready").unwrap();
    wait("readyok");
    let started = Instant::now();
    for moves in positions {
        let moves = if moves.is_empty() {
            String::new()
        } else {
            format!(" moves {}", moves.join(" "))
        };
        writeln!(input, "position startpos{moves}\ngo depth {depth}").unwrap();
        wait("bestmove");
    }
    let took = started.elapsed();
    writeln!(input, "quit").unwrap();
    child.wait().unwrap();
    (took, children_cpu() - cpu)
}

/// hector analyse of the game with `engines` engines, to `depth`.
fn hector(engines: u32, depth: u32, pgn: &Path) -> Took {
    let cpu = children_cpu();
    let path = format!(
        "{}:/usr/games",
        std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into())
    );
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_hector"))
        .args([
            "analyse",
            pgn.to_str().unwrap(),
            "--game",
            "4",
            "--errors",
            "--depth",
            &depth.to_string(),
            "--engines",
            &engines.to_string(),
        ])
        .env("PATH", &path)
        .env("HECTOR_CONFIG", "")
        .output()
        .expect("run hector");
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (took, children_cpu() - cpu)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs: usize = support::arg(&args, "--runs").unwrap_or(3);
    let depth: u32 = support::arg(&args, "--depth").unwrap_or(14);
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/masters.pgn");
    let positions = positions(&pgn);
    // The name, and how many threads or engines work at once.
    let configs = [
        ("Stockfish, 1 thread", 1u32),
        ("Stockfish, 2 threads", 2),
        ("hector analyse --engines 1", 1),
        ("hector analyse --engines 2", 2),
    ];
    let mut times: Vec<Vec<Took>> = vec![Vec::new(); configs.len()];
    for run in 1..=runs {
        let took = [
            stockfish(1, &positions, depth),
            stockfish(2, &positions, depth),
            hector(1, depth, &pgn),
            hector(2, depth, &pgn),
        ];
        let line: Vec<String> = took
            .iter()
            .map(|(w, c)| format!("{:.2} s ({:.2} s CPU)", w.as_secs_f64(), c.as_secs_f64()))
            .collect();
        println!("run {run}: {}", line.join(", "));
        for (i, t) in took.into_iter().enumerate() {
            times[i].push(t);
        }
    }
    let median = |v: &[Took], pick: fn(&Took) -> Duration| {
        let mut d: Vec<Duration> = v.iter().map(pick).collect();
        d.sort();
        support::percentile(&d, 0.5)
    };
    let base_wall = median(&times[0], |t| t.0).as_secs_f64();
    let base_idle = median(&times[0], |t| t.1).as_secs_f64();
    println!(
        "{} positions, depth {depth}, {runs} runs, medians:",
        positions.len()
    );
    for ((name, parallel), t) in configs.iter().zip(&times) {
        let wall = median(t, |t| t.0).as_secs_f64();
        let cpu = median(t, |t| t.1).as_secs_f64();
        let idle = cpu / f64::from(*parallel);
        println!(
            "{name}: {wall:.2} s elapsed ({:.2}), {cpu:.2} s CPU, {idle:.2} s on an idle machine ({:.2} of one Stockfish thread)",
            wall / base_wall,
            idle / base_idle
        );
    }
}
