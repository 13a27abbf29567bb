//! The record: how long a move waits for its journal entry to reach the disk, and how long a
//! resume takes to read and replay a long game.
//!
//! cargo bench --bench record -- [--moves N] [--runs N] [--dir PATH]
//!
//! (a) Append: `Journal::append` of N move entries (with clock times), each written and
//!     `sync_data`-ed before it returns, in a new journal under PATH (default: the system's
//!     temporary directory, which must be on the disk to be measured, not tmpfs). Also the
//!     encoding alone, to show what the disk costs.
//! (b) Resume: `io::journal::load` (read, check every record) plus `core::record::replay` of a
//!     300-move game (600 half-moves), without and with a clock checkpoint every second of
//!     thinking time; median and worst of R runs.

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hector::core::record::{Entry, Header, Times, encode_entry, encode_header, replay};
use hector::core::testkit::record::long_game;
use hector::io::journal::{Journal, load};
use shakmaty::Color;

fn arg<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
}

fn show(d: Duration) -> String {
    if d < Duration::from_micros(10) {
        format!("{} ns", d.as_nanos())
    } else if d < Duration::from_millis(10) {
        format!("{:.1} µs", d.as_secs_f64() * 1e6)
    } else {
        format!("{:.2} ms", d.as_secs_f64() * 1e3)
    }
}

fn summary(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    println!(
        "{name}: n={} p50={} p90={} p99={} max={}",
        samples.len(),
        show(support::percentile(&samples, 0.50)),
        show(support::percentile(&samples, 0.90)),
        show(support::percentile(&samples, 0.99)),
        show(samples.last().copied().unwrap_or_default()),
    );
}

/// A move entry as the play mode writes it (e4/e5 alternately: the content does not matter).
fn move_entry(i: usize) -> Entry {
    let (uci, san, by) = if i.is_multiple_of(2) {
        ("e2e4", "e4", Color::White)
    } else {
        ("e7e5", "e5", Color::Black)
    };
    Entry::Move {
        uci: uci.parse().unwrap_or(shakmaty::uci::UciMove::Null),
        san: san.parse().unwrap_or(shakmaty::san::SanPlus {
            san: shakmaty::san::San::Null,
            suffix: None,
        }),
        by,
        clock: Some(Times {
            white_ms: 5_400_000 - i as u64 * 1000,
            black_ms: 5_400_000 - i as u64 * 900,
        }),
    }
}

fn append_latency(moves: usize, dir: &Path) {
    let header = Header::new("2026-11-21T14:03:05Z", "Bench, White", "Bench, Black");
    let Ok(mut journal) = Journal::create_in(dir, &header) else {
        eprintln!("cannot create a journal in {}", dir.display());
        return;
    };
    let entries: Vec<Entry> = (0..moves).map(move_entry).collect();
    let mut encode = Vec::with_capacity(moves);
    for e in &entries {
        let t = Instant::now();
        let bytes = encode_entry(e);
        encode.push(t.elapsed());
        std::hint::black_box(bytes.ok());
    }
    let mut append = Vec::with_capacity(moves);
    for e in &entries {
        let t = Instant::now();
        if let Err(err) = journal.append(e) {
            eprintln!("append failed: {err:#}");
            return;
        }
        append.push(t.elapsed());
    }
    let path = journal.path().to_path_buf();
    drop(journal);
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "(a) append in {} ({} bytes for {moves} moves)",
        dir.display(),
        size
    );
    summary("    encode only", encode);
    summary("    append + sync_data", append);
    let _ = std::fs::remove_file(&path);
}

fn resume(runs: usize, dir: &Path, checkpoint_ms: u64) {
    let Some(game) = (1..50).find_map(|seed| long_game(600, checkpoint_ms, seed)) else {
        eprintln!("no long game found");
        return;
    };
    let mut bytes = encode_header(&game.header).unwrap_or_default();
    for e in &game.entries {
        bytes.extend(encode_entry(e).unwrap_or_default());
    }
    let path = dir.join(format!("bench-resume-{}.journal", std::process::id()));
    if std::fs::write(&path, &bytes).is_err() {
        eprintln!("cannot write {}", path.display());
        return;
    }
    let mut load_times = Vec::with_capacity(runs);
    let mut total = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        let Ok(decoded) = load(&path) else {
            eprintln!("load failed");
            return;
        };
        let loaded = t.elapsed();
        let Ok(replayed) = replay(&decoded.header, &decoded.entries) else {
            eprintln!("replay failed");
            return;
        };
        total.push(t.elapsed());
        load_times.push(loaded);
        std::hint::black_box(replayed.game.ply());
    }
    let what = if checkpoint_ms > 0 {
        "with a checkpoint per second"
    } else {
        "moves only"
    };
    println!(
        "(b) resume a 300-move game, {what}: {} entries, {} bytes",
        game.entries.len(),
        bytes.len()
    );
    summary("    load (read + decode)", load_times);
    summary("    load + replay", total);
    let _ = std::fs::remove_file(&path);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let moves = arg(&args, "--moves").unwrap_or(2000);
    let runs = arg(&args, "--runs").unwrap_or(50);
    let dir: PathBuf = arg::<String>(&args, "--dir")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            std::env::temp_dir().join(format!("hector-bench-record-{}", std::process::id()))
        });
    if std::fs::create_dir_all(&dir).is_err() {
        eprintln!("cannot create {}", dir.display());
        return;
    }
    append_latency(moves, &dir);
    resume(runs, &dir, 0);
    resume(runs, &dir, 1000);
    let _ = std::fs::remove_dir(&dir);
}
