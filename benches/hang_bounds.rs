//! How soon hector gives up on what hangs: the figures behind the time limits the tests only
//! bound by their run's limit (a test that timed them would fail under load).
//!
//! cargo bench --bench hang_bounds -- [--runs N]
//!
//! (a) Stockfish with 0.9 s on its own clock (`go wtime 900 btime 60000`): request to answer.
//! (b) A ten-second search stopped and replaced by a 100 ms one: request to the new answer.
//! (c) An engine that never finishes its start: `Engine::start` to its error (limit 5 s).
//! (d) An engine that never answers `go` (movetime 100 ms, grace and stop grace 300 ms each):
//!     request to the time-out event.
//! (e) `hector say` against a speech-dispatcher whose output module hangs: start to end.
//! (f) `hector say --backend espeak-ng` and `hector voices` with an espeak-ng that hangs.
//! (g) `hector check /dev/zero` and `hector export /dev/zero`: refused without reading.
//!
//! Each figure is the median and the worst of N runs (default 3).

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
        reason = "without Unix (the stand-in programs are shell scripts) only a notice is built: the measuring code and its imports go unused"
    )
)]

mod support;

#[cfg(unix)]
#[path = "../tests/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[cfg(unix)]
use hector::io::engine::{ClockTimes, Engine, EngineEvent, EngineOptions, SearchLimits, Timeouts};
#[cfg(unix)]
use shakmaty::Chess;

/// Median and worst of the runs, as one line.
fn report(what: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{what}: median {:.2} s, worst {:.2} s ({} runs)",
        support::percentile(&times, 0.5).as_secs_f64(),
        times.last().copied().unwrap_or_default().as_secs_f64(),
        times.len()
    );
}

#[cfg(unix)]
fn write_script(path: &Path, script: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, script).expect("write the stand-in");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[cfg(unix)]
fn stockfish() -> Engine {
    Engine::start(&EngineOptions {
        path: Some(common::find_program("stockfish").expect("stockfish (scripts/setup)")),
        level: 8,
        chess960: false,
    })
    .expect("Stockfish starts")
}

/// The request's answer, and how long it took from `since`.
#[cfg(unix)]
fn answer(engine: &Engine, since: Instant) -> Duration {
    match engine.events().recv_timeout(Duration::from_secs(60)) {
        Ok(EngineEvent::BestMove { .. }) => since.elapsed(),
        other => panic!("expected a move, got {other:?}"),
    }
}

#[cfg(unix)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs = support::arg(&args, "--runs").unwrap_or(3usize).max(1);
    let dir = common::temp_dir("bench-hang");
    let start = Chess::default();

    // (a) A short clock.
    let mut engine = stockfish();
    let clocked = SearchLimits {
        movetime: Duration::from_secs(2),
        clock: Some(ClockTimes {
            wtime: Duration::from_millis(900),
            btime: Duration::from_secs(60),
            winc: Duration::ZERO,
            binc: Duration::ZERO,
        }),
    };
    let times = (0..runs)
        .map(|_| {
            let asked = Instant::now();
            engine.request_move(&start, &[], clocked).expect("request");
            answer(&engine, asked)
        })
        .collect();
    report(
        "(a) Stockfish, 0.9 s on its clock: request to answer",
        times,
    );

    // (b) A long search replaced.
    let times = (0..runs)
        .map(|_| {
            let long = SearchLimits {
                movetime: Duration::from_secs(10),
                clock: None,
            };
            engine.request_move(&start, &[], long).expect("request");
            let asked = Instant::now();
            let short = SearchLimits {
                movetime: Duration::from_millis(100),
                clock: None,
            };
            engine.request_move(&start, &[], short).expect("request");
            answer(&engine, asked)
        })
        .collect();
    report(
        "(b) a 10 s search replaced by a 100 ms one: request to answer",
        times,
    );
    drop(engine);

    // (c) A start that never ends.
    let mute = dir.join("mute");
    write_script(
        &mute,
        "#!/bin/sh\necho 'Mute engine 0.1'\nwhile read -r line; do :; done\n",
    );
    let times = (0..runs)
        .map(|_| {
            let started = Instant::now();
            let result = Engine::start(&EngineOptions {
                path: Some(mute.clone()),
                level: 1,
                chess960: false,
            });
            assert!(result.is_err(), "the mute engine was taken");
            started.elapsed()
        })
        .collect();
    report(
        "(c) an engine that never finishes its start: start to error",
        times,
    );

    // (d) A `go` never answered.
    let silent = dir.join("silent");
    write_script(
        &silent,
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    \
         uci) echo 'id name Silent'; echo uciok ;;\n    isready) echo readyok ;;\n    \
         quit) exit 0 ;;\n  esac\ndone\n",
    );
    let times = (0..runs)
        .map(|_| {
            let mut engine = Engine::start_with(
                &EngineOptions {
                    path: Some(silent.clone()),
                    level: 3,
                    chess960: false,
                },
                Timeouts {
                    handshake: Duration::from_secs(5),
                    grace: Duration::from_millis(300),
                    stop_grace: Duration::from_millis(300),
                },
            )
            .expect("the silent engine starts");
            let limits = SearchLimits {
                movetime: Duration::from_millis(100),
                clock: None,
            };
            let asked = Instant::now();
            engine.request_move(&start, &[], limits).expect("request");
            match engine.events().recv_timeout(Duration::from_secs(30)) {
                Ok(EngineEvent::Timeout { .. }) => asked.elapsed(),
                other => panic!("expected a time-out, got {other:?}"),
            }
        })
        .collect();
    report(
        "(d) an engine that never answers go (movetime 100 ms): request to time-out",
        times,
    );

    // (e) A speech module that hangs.
    let daemon = common::SpeechDaemon::hanging();
    let address = daemon.address();
    let times = (0..runs)
        .map(|_| {
            timed(
                &["say", "--lang", "de", "Springer Felix drei"],
                &[("SPEECHD_ADDRESS", &address), ("HECTOR_CONFIG", "")],
            )
        })
        .collect();
    report(
        "(e) hector say, speech-dispatcher's module hanging: start to end",
        times,
    );
    drop(daemon);
    common::kill_mentioning(&common::hanging_marker());

    // (f) An espeak-ng that hangs.
    let bin: PathBuf = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("bin");
    write_script(
        &bin.join("espeak-ng"),
        "#!/bin/sh\nsh -c 'sleep 600; :' \"$0\"\n",
    );
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let env = [
        ("PATH", path.as_str()),
        ("HECTOR_CONFIG", ""),
        ("SPEECHD_ADDRESS", "unix_socket:/nonexistent/speechd.sock"),
    ];
    for (what, args) in [
        (
            "(f) hector say, espeak-ng hanging",
            &["say", "--backend", "espeak-ng", "Eva vier"][..],
        ),
        (
            "(f) hector voices, espeak-ng hanging",
            &["voices", "--lang", "de"][..],
        ),
    ] {
        let times = (0..runs).map(|_| timed(args, &env)).collect();
        report(&format!("{what}: start to end"), times);
        common::kill_mentioning(&format!("{}/", bin.display()));
    }

    // (g) Endless devices.
    for (what, args) in [
        ("(g) hector check /dev/zero", &["check", "/dev/zero"][..]),
        ("(g) hector export /dev/zero", &["export", "/dev/zero"][..]),
    ] {
        let times = (0..runs)
            .map(|_| timed(args, &[("HECTOR_CONFIG", "")]))
            .collect();
        report(&format!("{what}: start to refusal"), times);
    }
}

/// How long one run of hector took (its limit is a minute: a hang shows as 60 s).
#[cfg(unix)]
fn timed(args: &[&str], env: &[(&str, &str)]) -> Duration {
    let started = Instant::now();
    let r = common::run_with(args, b"", env, Duration::from_secs(60));
    let took = started.elapsed();
    assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
    took
}

/// The stand-ins are shell scripts: elsewhere the benchmark measures nothing.
#[cfg(not(unix))]
fn main() {
    eprintln!("this benchmark needs Unix shell scripts as stand-ins");
}
