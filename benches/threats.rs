//! `drohungen` (threats): the time to answer on a busy middlegame.
//!
//! cargo bench --bench threats -- [--questions N]
//!
//! (a) The session's answer: `Match::handle` of the typed line "drohungen" (the opponent's
//!     checks, found by playing every move of the opponent's turned position, and every
//!     attacked piece with its attackers and defenders), in-process, on a middlegame with all
//!     pieces but two pawns on the board.
//! (b) Through the real binary: the line typed in a pseudo-terminal (`--screen-reader`,
//!     `--fen` of the same position), from the byte that ends the line to the answer
//!     arriving. hector sends the speech request just before it prints the answer.

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

use hector::core::clock::AnnounceSettings;
use hector::core::game::Game;
use hector::core::laws::Rules;
use hector::core::machine::Machine;
use hector::core::matchplay::{ClockAnswer, Event, Match, PlayExtras, Setup, Side};
use hector::core::notation::Form;
use hector::core::notation::language;
use hector::core::time::Timestamp;
use hector::core::variant::{Variant, position_from_fen};

/// A busy middlegame (a closed Ruy Lopez): all 32 pieces, pins, pieces attacked and
/// defended on both wings, several checks for the side not to move.
const FEN: &str = "r1bq1rk1/2p1bppp/p1np1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1 b - - 0 10";

#[cfg(unix)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let questions: usize = support::arg(&args, "--questions").unwrap_or(2_000);
    let de = language("de").expect("de");
    let start = position_from_fen(FEN, Variant::Standard).expect("fen");
    let setup = Setup {
        white: Side::Keyboard,
        black: Side::Keyboard,
        local: shakmaty::Color::White,
        local_board: false,
        control: None,
        announce: AnnounceSettings::tournament(),
        form: Form::Short,
        rules: Rules::STANDARD,
        engine_level: 1,
        opponent_port: None,
        clock_answer: ClockAnswer::Remaining,
        openings: false,
        wording: Default::default(),
    };
    let game = Game::from_position(start, Variant::Standard);
    let (mut m, _) = Match::new(setup, game, de, Timestamp::ZERO);
    m.set_extras(PlayExtras {
        takeback: true,
        agreements: true,
        say_captured: false,
    });
    let mut times = Vec::with_capacity(questions);
    let mut answer = String::new();
    for _ in 0..questions {
        let sent = Instant::now();
        let effects = m.handle(Event::Line("drohungen".into()), Timestamp::ZERO);
        times.push(sent.elapsed());
        answer = format!("{effects:?}");
    }
    times.sort();
    println!(
        "in-process: {} questions, p50 {:?}, p99 {:?}, max {:?}",
        times.len(),
        support::percentile(&times, 0.5),
        support::percentile(&times, 0.99),
        times.last().copied().unwrap_or_default()
    );
    println!("answer: {answer}");

    let hector = Path::new(env!("CARGO_BIN_EXE_hector"));
    let data = std::env::temp_dir().join(format!("hector-bench-threats-{}", std::process::id()));
    let data_text = data.display().to_string();
    let env = [("HECTOR_CONFIG", ""), ("HECTOR_DATA", data_text.as_str())];
    let mut t = pty::Pty::spawn_program(
        hector,
        &[
            "play",
            "--new",
            "--screen-reader",
            "--opponent",
            "keyboard",
            "--fen",
            FEN,
        ],
        &env,
    );
    if t.wait_for("Zug oder Befehl:", Duration::from_secs(20))
        .is_none()
    {
        eprintln!("hector play did not start");
        let _ = std::fs::remove_dir_all(&data);
        return;
    }
    let needle = "Weiß kann Schach geben";
    let rounds = questions.min(300);
    let mut latencies = Vec::with_capacity(rounds);
    for i in 0..rounds {
        let seen = t.all_output().matches(needle).count();
        let sent = Instant::now();
        t.send(b"drohungen\r");
        let deadline = sent + Duration::from_secs(10);
        while t.all_output().matches(needle).count() <= seen {
            if Instant::now() > deadline {
                eprintln!("question {i} got no answer");
                let _ = std::fs::remove_dir_all(&data);
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        let arrived = t
            .nth_seen_in_all_output(needle, seen)
            .unwrap_or_else(Instant::now);
        latencies.push(arrived.saturating_duration_since(sent));
    }
    latencies.sort();
    println!(
        "through the binary: {} questions, p50 {:?}, p99 {:?}, max {:?}",
        latencies.len(),
        support::percentile(&latencies, 0.5),
        support::percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or_default()
    );
    t.send(b"ende\rja\r");
    let _ = t.wait_exit(Duration::from_secs(10));
    let _ = std::fs::remove_dir_all(&data);
}

/// The benchmark drives hector through Unix pseudo-terminals: elsewhere it measures nothing.
#[cfg(not(unix))]
fn main() {
    eprintln!("this benchmark needs Unix pseudo-terminals");
}
