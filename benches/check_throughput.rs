//! Throughput of `hector check` in MB/s of PGN, on generated games.
//!
//! cargo bench --bench check_throughput -- [--games N] [--clocks] [--repeat R] [--keep FILE]
//!
//! Generates N seeded random games (default 10,000), then replays them with the same code the
//! `check` mode runs, single-threaded, R times (default 5), and prints the best and median
//! figures. With --keep the generated file is written to FILE, e.g. to time the binary itself.

mod support;

use std::time::{Duration, Instant};

use hector::core::check::check_game;
use hector::core::pgn::Reader;
use hector::core::testkit::games::{SampleOptions, write_games};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games = support::arg(&args, "--games").unwrap_or(10_000);
    let repeat: usize = support::arg(&args, "--repeat").unwrap_or(5);
    let clocks = args.iter().any(|a| a == "--clocks");
    let text = write_games(SampleOptions {
        games,
        seed: 2026,
        clock_comments: clocks,
    });
    if let Some(path) = support::arg::<String>(&args, "--keep")
        && let Err(e) = std::fs::write(&path, &text)
    {
        eprintln!("cannot write {path}: {e}");
    }
    let bytes = text.as_bytes();
    let mut times: Vec<Duration> = Vec::with_capacity(repeat);
    let mut plies = 0usize;
    let mut checked = 0usize;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        plies = 0;
        checked = 0;
        for raw in Reader::new(bytes) {
            let report = check_game(&raw);
            assert!(
                report.is_consistent(),
                "generated game {} is inconsistent",
                report.game
            );
            plies += report.plies;
            checked += 1;
        }
        times.push(start.elapsed());
    }
    times.sort();
    // The reading of the PGN alone, without replaying the moves.
    let mut tokens = 0usize;
    let mut lex = f64::MAX;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        tokens = 0;
        for raw in Reader::new(bytes) {
            tokens += raw.movetext.len();
        }
        lex = lex.min(start.elapsed().as_secs_f64());
    }
    let mb = bytes.len() as f64 / 1e6;
    let best = times[0].as_secs_f64();
    let median = times[times.len() / 2].as_secs_f64();
    println!(
        "check_throughput: {checked} games, {plies} plies, {mb:.1} MB{}",
        if clocks {
            " (with [%clk] comments)"
        } else {
            ""
        }
    );
    println!(
        "  best   {:.3} s  {:.1} MB/s  {:.2} M plies/s",
        best,
        mb / best,
        plies as f64 / best / 1e6
    );
    println!(
        "  reading the PGN alone (best): {:.3} s  {:.1} MB/s ({tokens} movetext items)",
        lex,
        bytes.len() as f64 / 1e6 / lex
    );
    println!(
        "  median {:.3} s  {:.1} MB/s  {:.2} M plies/s",
        median,
        mb / median,
        plies as f64 / median / 1e6
    );
}
