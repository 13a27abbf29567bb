//! The talking clock: drift, flag latency and idle CPU.
//!
//! cargo bench --bench clock -- [--runs N] [--idle-seconds S]
//!
//! (a) Drift: a simulated six-hour game under 40/5400+30:1800+30 (virtual time, thousands of
//!     presses at irregular millisecond instants); the clock's remaining times against an
//!     integer-millisecond reference computed from the same presses.
//! (b) Flag latency in real time: `hector clock --tc 1 --screen-reader` in a pseudo-terminal;
//!     the time from the start line to the flag line, minus one second.
//! (c) Idle CPU: the full-screen clock running (redrawing every second) for S seconds, CPU
//!     time from /proc.

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
use std::time::Duration;

use hector::core::clock::{Clock, TimeControl};
use hector::core::testkit::games::Rng;
use hector::core::time::Timestamp;
use shakmaty::Color;

fn drift() -> i64 {
    let Ok(tc) = "40/5400+30:1800+30".parse::<TimeControl>() else {
        return -1;
    };
    let mut clock = Clock::new(tc);
    let mut rng = Rng::new(6);
    let mut now_ms: u64 = 0;
    if clock.start(Timestamp::from_millis(now_ms)).is_err() {
        return -1;
    }
    // Reference: remaining milliseconds per player, by hand.
    let mut left: [i64; 2] = [5_400_000, 5_400_000];
    let mut moves = [0u32; 2];
    let mut worst = 0i64;
    let mut color = Color::White;
    while now_ms < 6 * 3600 * 1000 {
        let think = 1 + rng.below(40_000) as u64;
        now_ms += think;
        let idx = usize::from(color == Color::Black);
        left[idx] -= think as i64;
        if left[idx] <= 0 {
            break;
        }
        if clock.press(color, Timestamp::from_millis(now_ms)).is_err() {
            break;
        }
        moves[idx] += 1;
        left[idx] += 30_000;
        if moves[idx] == 40 {
            left[idx] += 1_800_000;
        }
        for (i, c) in [Color::White, Color::Black].into_iter().enumerate() {
            let got = clock
                .remaining(c, Timestamp::from_millis(now_ms))
                .as_millis() as i64;
            worst = worst.max((got - left[i]).abs());
        }
        color = !color;
    }
    println!(
        "drift: {:.1} simulated hours, {} presses, largest difference from the reference {} ms",
        now_ms as f64 / 3_600_000.0,
        moves[0] + moves[1],
        worst
    );
    worst
}

#[cfg(unix)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = support::arg(&args, "--runs").unwrap_or(10);
    let idle = support::arg(&args, "--idle-seconds").unwrap_or(20);
    let hector = Path::new(env!("CARGO_BIN_EXE_hector"));
    let env = [("HECTOR_CONFIG", "")];
    drift();

    let mut latencies = Vec::new();
    for _ in 0..runs {
        let mut t = pty::Pty::spawn_program(
            hector,
            &[
                "clock",
                "--tc",
                // One second: PGN's sandclock form is seconds.
                "*1",
                "--screen-reader",
                "--backend",
                "print",
            ],
            &env,
        );
        if t.wait_for("Enter oder start", Duration::from_secs(20))
            .is_none()
        {
            eprintln!("the clock did not start");
            return;
        }
        t.send(b"\n");
        let (Some(start), Some(flag)) = (
            t.wait_for("Uhr läuft", Duration::from_secs(20)),
            t.wait_for("Zeit abgelaufen", Duration::from_secs(20)),
        ) else {
            eprintln!("no flag");
            return;
        };
        latencies.push(
            flag.duration_since(start)
                .saturating_sub(Duration::from_secs(1)),
        );
        t.send(b"quit\n");
        let _ = t.wait_exit(Duration::from_secs(10));
    }
    latencies.sort();
    println!(
        "flag latency: {} runs, median {:?}, worst {:?}",
        latencies.len(),
        latencies[latencies.len() / 2],
        latencies.last().copied().unwrap_or_default()
    );

    let mut t = pty::Pty::spawn_program(
        hector,
        &["clock", "--tc", "3600", "--backend", "print"],
        &env,
    );
    std::thread::sleep(Duration::from_secs(2));
    t.send(b" ");
    std::thread::sleep(Duration::from_secs(1));
    let pid = t.pid();
    let Some(before) = support::cpu_ticks(pid) else {
        eprintln!("cannot read /proc/{pid}/stat");
        return;
    };
    std::thread::sleep(Duration::from_secs(idle));
    let after = support::cpu_ticks(pid).unwrap_or(before);
    // Linux counts CPU time in ticks of 1/100 s (USER_HZ).
    let seconds = (after - before) as f64 / 100.0;
    println!(
        "idle CPU: full-screen clock running for {idle} s used {:.2} s of CPU, {:.2} % of a core",
        seconds,
        seconds / idle as f64 * 100.0
    );
    t.send(b"qq");
    let _ = t.wait_exit(Duration::from_secs(10));
}

/// The benchmark drives hector through Unix pseudo-terminals: elsewhere it measures nothing.
#[cfg(not(unix))]
fn main() {
    eprintln!("this benchmark needs Unix pseudo-terminals");
}
