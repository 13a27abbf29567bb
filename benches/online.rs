//! `hector online`: from a move arriving on the game's stream to its announcement, through
//! the real binary in a pseudo-terminal against the local stand-in for lichess
//! (tests/common/lichess.rs, 127.0.0.1).
//!
//! cargo bench --bench online -- [--moves N]
//!
//! Each sample: the server writes the opponent's move to the open NDJSON stream; the clock
//! stops when the announcement's bytes arrive on the terminal. hector sends the speech request
//! just before it prints the words, so this bounds stream-to-speech-request from above. The
//! games are seeded random games; hector's own moves are typed (UCI) between the samples.

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

#[path = "../tests/common/lichess.rs"]
mod lichess;

use std::path::Path;
use std::time::{Duration, Instant};

use hector::core::notation::language;
use hector::core::notation::{Form, announce};
use hector::core::testkit::games::Rng;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

/// The benchmark's directory, removed however the run ends.
struct Dir(std::path::PathBuf);

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn pick(pos: &Chess, rng: &mut Rng) -> Move {
    let moves = pos.legal_moves();
    moves[(rng.next_u64() % moves.len() as u64) as usize]
}

#[cfg(unix)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let wanted = support::arg(&args, "--moves").unwrap_or(300usize);
    let Ok(de) = language("de") else {
        eprintln!("no German words");
        return;
    };
    let hector = Path::new(env!("CARGO_BIN_EXE_hector"));
    let dir = Dir(std::env::temp_dir().join(format!("hector-bench-online-{}", std::process::id())));
    let data = dir.0.join("data").display().to_string();
    let config = dir.0.join("config").display().to_string();
    let server = lichess::Server::start();
    let env = [
        ("HECTOR_CONFIG", "/nonexistent"),
        ("HECTOR_DATA", data.as_str()),
        ("XDG_CONFIG_HOME", config.as_str()),
        ("LICHESS_TOKEN", lichess::TOKEN),
    ];
    let mut rng = Rng::new(19);
    let mut latencies = Vec::with_capacity(wanted);
    let limit = Duration::from_secs(10);
    'games: while latencies.len() < wanted {
        server.add_game(Color::White, "Anna", &[]);
        let mut t = pty::Pty::spawn_program(
            hector,
            &[
                "online",
                "--server",
                &server.url,
                "--speech",
                "print",
                "play",
                "--game",
                "1",
                "--screen-reader",
            ],
            &env,
        );
        if t.wait_for("Weiß ist am Zug", limit).is_none() {
            eprintln!("hector online did not start:\n{}", t.all_output());
            return;
        }
        let mut pos = Chess::default();
        for _ in 0..40 {
            if pos.is_game_over() || latencies.len() >= wanted {
                break;
            }
            // The player's move, typed.
            let m = pick(&pos, &mut rng);
            let phrase = announce(&pos, m, de, Form::Short);
            let seen = t.all_output().matches(&phrase).count();
            t.send(format!("{}\r", m.to_uci(CastlingMode::Standard)).as_bytes());
            let deadline = Instant::now() + limit;
            while t.all_output().matches(&phrase).count() <= seen {
                if Instant::now() > deadline {
                    eprintln!("the player's move was not confirmed:\n{}", t.all_output());
                    return;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            pos.play_unchecked(m);
            if pos.is_game_over() {
                break;
            }
            // The opponent's move, on the stream.
            let r = pick(&pos, &mut rng);
            let phrase = announce(&pos, r, de, Form::Short);
            let seen = t.all_output().matches(&phrase).count();
            let sent = Instant::now();
            server.opponent_move(&r.to_uci(CastlingMode::Standard).to_string());
            let deadline = sent + limit;
            loop {
                if t.all_output().matches(&phrase).count() > seen {
                    break;
                }
                if Instant::now() > deadline {
                    eprintln!("the opponent's move was not announced:\n{}", t.all_output());
                    break 'games;
                }
                std::thread::sleep(Duration::from_micros(200));
            }
            let arrived = t
                .nth_seen_in_all_output(&phrase, seen)
                .unwrap_or_else(Instant::now);
            latencies.push(arrived.saturating_duration_since(sent));
            pos.play_unchecked(r);
        }
        t.send(b"ende\r");
        let _ = t.wait_for("Wirklich", Duration::from_secs(2));
        t.send(b"ja\r");
        let _ = t.wait_exit(limit);
    }
    latencies.sort();
    println!(
        "stream move to announcement: {} moves, p50 {:?}, p99 {:?}, max {:?}",
        latencies.len(),
        support::percentile(&latencies, 0.5),
        support::percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or_default()
    );
    drop(server);
    drop(dir);
}

/// The benchmark drives hector through Unix pseudo-terminals: elsewhere it measures nothing.
#[cfg(not(unix))]
fn main() {
    eprintln!("this benchmark needs Unix pseudo-terminals");
}
