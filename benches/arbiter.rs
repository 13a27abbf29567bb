//! The arbiter's console under load: 16 games at once, 32 simulated boards.
//!
//! cargo bench --bench arbiter -- [--games N] [--plies P] [--seed S]
//!
//! `hector arbiter --screen-reader` runs in a pseudo-terminal with N game files; each game's
//! two boards are simulated here on pseudo-terminals (the sighted player's DGT board, the
//! blind player's peg board), answering hector's requests as real boards do. Every game is
//! played at once, ply by ply: in each round every game's player to move makes a move on his
//! own board (all games in one burst), and the other player carries it out on his. Now and
//! then the blind player carries out a wrong move (D2.8, the records disagree), which raises
//! an alert, then puts it right (the alert is resolved).
//!
//! Measured: from the instant the last byte of a move (or of the wrong move, or of the board
//! put right) was written to the board's pseudo-terminal to the instant the line hector
//! prints for it ("Partie 3: Springer Felix drei", "Partie 3: Achtung, …", "Partie 3: Brett
//! von Schwarz stimmt wieder") arrives at the console's terminal, as the reader thread stamps
//! it. Only moves each board takes at once are measured: any move on the peg board (D2.3: a
//! peg in its new hole completes it) but king and rook moves (which may be half of castling:
//! a settle pause), and on the DGT board knight moves, pawn captures and pawn moves that
//! cannot be going further (a sliding piece is taken after the 500 ms slide pause of quiet,
//! deliberately). Other moves are played, not measured.

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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use hector::app::modes::simulate::model::{Chunk, SimBoard};
use hector::core::notation::language;
use hector::core::notation::{Form, announce};
use hector::core::testkit::games::Rng;
use hector::io::board_link::Protocol;
use hector::io::serial::Pty;
use shakmaty::{Chess, Color, Move, Position, Rank, Role};

/// A simulated board: the pseudo-terminal and the model, answered by a thread of its own.
struct Board {
    pty: Arc<Pty>,
    sim: Arc<Mutex<SimBoard>>,
}

impl Board {
    fn new(protocol: Protocol, stop: &Arc<AtomicBool>) -> Option<Board> {
        let pty = Arc::new(Pty::open().ok()?);
        let sim = Arc::new(Mutex::new(SimBoard::new(protocol, false, Chess::default())));
        let (p, s, stop) = (Arc::clone(&pty), Arc::clone(&sim), Arc::clone(stop));
        thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                match p.read_timeout(Duration::from_millis(50)) {
                    Ok(Some(bytes)) => {
                        let answers = s.lock().map(|mut m| m.answer(&bytes)).unwrap_or_default();
                        for a in answers {
                            let _ = p.write_all(&a);
                        }
                    }
                    Ok(None) => {}
                    Err(_) => thread::sleep(Duration::from_millis(20)),
                }
            }
        });
        Some(Board { pty, sim })
    }

    fn ready(&self) -> bool {
        self.sim.lock().is_ok_and(|s| s.host_ready())
    }

    /// Writes a move's sensor changes as a hand makes them; returns when the last byte went.
    fn write(&self, chunks: Vec<Chunk>) -> Instant {
        let last = chunks.len().saturating_sub(1);
        for (i, c) in chunks.into_iter().enumerate() {
            let _ = self.pty.write_all(&c);
            if i < last {
                thread::sleep(Duration::from_millis(3));
            }
        }
        Instant::now()
    }

    fn play(&self, m: Move) -> Instant {
        let chunks = self.sim.lock().map(|mut s| s.play(m)).unwrap_or_default();
        self.write(chunks)
    }

    fn setup(&self, pos: Chess) -> Instant {
        let chunks = self
            .sim
            .lock()
            .map(|mut s| s.setup(pos))
            .unwrap_or_default();
        self.write(chunks)
    }
}

/// Whether the board takes `m` the moment its last sensor change arrives.
fn immediate(pos: &Chess, m: Move, dgt: bool) -> bool {
    match m {
        Move::Normal {
            role,
            from,
            to,
            capture,
            ..
        } => match role {
            Role::King | Role::Rook => false,
            _ if !dgt => true,
            Role::Knight => true,
            Role::Pawn => {
                // A single step from the start rank may be a double step still under way.
                let start = if pos.turn() == Color::White {
                    Rank::Second
                } else {
                    Rank::Seventh
                };
                capture.is_some() || from.rank() != start || from.distance(to) == 2
            }
            _ => false,
        },
        Move::EnPassant { .. } => true,
        _ => false,
    }
}

struct Game {
    number: usize,
    dgt: Board,
    peg: Board,
    pos: Chess,
    over: bool,
}

/// Waits until the `n`-th (from 0) occurrence of `needle` has arrived; its instant.
#[cfg(unix)]
fn arrival(t: &pty::Pty, needle: &str, n: usize, limit: Duration) -> Option<Instant> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(at) = t.nth_seen_in_all_output(needle, n) {
            return Some(at);
        }
        if Instant::now() > deadline {
            return None;
        }
        thread::sleep(Duration::from_millis(2));
    }
}

#[cfg(unix)]
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count: usize = support::arg(&args, "--games").unwrap_or(16);
    let plies: usize = support::arg(&args, "--plies").unwrap_or(24);
    let seed: u64 = support::arg(&args, "--seed").unwrap_or(1);
    let Ok(de) = language("de") else {
        return;
    };
    let stop = Arc::new(AtomicBool::new(false));
    let dir = std::env::var_os("HECTOR_BENCH_DIR")
        .map_or_else(std::env::temp_dir, std::path::PathBuf::from)
        .join(format!("hector-bench-arbiter-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let mut games = Vec::new();
    let mut files = Vec::new();
    for number in 1..=count {
        let (Some(dgt), Some(peg)) = (
            Board::new(Protocol::Dgt, &stop),
            Board::new(Protocol::Peg, &stop),
        ) else {
            eprintln!("cannot open pseudo-terminals");
            return;
        };
        let file = dir.join(format!("game{number}.toml"));
        let text = format!(
            "white = \"W{number}\"\nblack = \"B{number}\"\nblind = \"black\"\n\
             time_control = \"5400+30\"\n[peg_board]\nport = \"{}\"\n[sighted_board]\nport = \"{}\"\n",
            peg.pty.path().display(),
            dgt.pty.path().display()
        );
        if std::fs::write(&file, text).is_err() {
            return;
        }
        files.push(file.display().to_string());
        games.push(Game {
            number,
            dgt,
            peg,
            pos: Chess::default(),
            over: false,
        });
    }
    let data = dir.join("data").display().to_string();
    let env = [("HECTOR_CONFIG", ""), ("HECTOR_DATA", data.as_str())];
    let mut cmd = vec!["arbiter", "--screen-reader", "--new"];
    cmd.extend(files.iter().map(String::as_str));
    let hector = Path::new(env!("CARGO_BIN_EXE_hector"));
    let mut t = pty::Pty::spawn_program(hector, &cmd, &env);
    let ready_by = Instant::now() + Duration::from_secs(30);
    while !games.iter().all(|g| g.dgt.ready() && g.peg.ready()) {
        if Instant::now() > ready_by {
            eprintln!("the boards were not connected:\n{}", t.all_output());
            return;
        }
        thread::sleep(Duration::from_millis(20));
    }
    thread::sleep(Duration::from_millis(300));

    let mut rng = Rng::new(seed);
    let mut moves: Vec<Duration> = Vec::new();
    let mut alerts: Vec<Duration> = Vec::new();
    let mut resolved: Vec<Duration> = Vec::new();
    let mut unmeasured = 0usize;
    let limit = Duration::from_secs(10);
    for ply in 0..plies {
        // Every game's player to move, in one burst.
        let mut waits = Vec::new();
        for g in games.iter_mut().filter(|g| !g.over) {
            let legal = g.pos.legal_moves();
            let dgt = g.pos.turn() == Color::White;
            let quick: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| immediate(&g.pos, m, dgt))
                .collect();
            let (m, measured) = if quick.is_empty() {
                (legal[rng.below(legal.len())], false)
            } else {
                (quick[rng.below(quick.len())], true)
            };
            let needle = format!(
                "Partie {}: {}\r\n",
                g.number,
                announce(&g.pos, m, de, Form::Short)
            );
            let n = t.all_output().matches(&needle).count();
            let board = if dgt { &g.dgt } else { &g.peg };
            let sent = board.play(m);
            waits.push((g.number, needle, n, sent, measured, m));
        }
        for (number, needle, n, sent, measured, m) in waits {
            let Some(arrived) = arrival(&t, &needle, n, limit) else {
                eprintln!("game {number}: no announcement {needle:?}");
                continue;
            };
            if measured {
                let d = arrived.saturating_duration_since(sent);
                moves.push(d);
            } else {
                unmeasured += 1;
            }
            let g = &mut games[number - 1];
            let before = g.pos.clone();
            g.pos.play_unchecked(m);
            let blind_executes = before.turn() == Color::White;
            // Now and then the blind player carries out a wrong move first (D2.8).
            if blind_executes && ply % 6 == 0 {
                let wrong: Vec<Move> = before
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&w| w != m && immediate(&before, w, false))
                    .collect();
                if !wrong.is_empty() {
                    let w = wrong[rng.below(wrong.len())];
                    let alert = format!("Partie {number}: Achtung, Brett von Schwarz:");
                    let k = t.all_output().matches(&alert).count();
                    let sent = g.peg.play(w);
                    if let Some(at) = arrival(&t, &alert, k, limit) {
                        alerts.push(at.saturating_duration_since(sent));
                    }
                    let right = format!("Partie {number}: Brett von Schwarz stimmt wieder\r\n");
                    let k = t.all_output().matches(&right).count();
                    let sent = g.peg.setup(before.clone());
                    if let Some(at) = arrival(&t, &right, k, limit) {
                        resolved.push(at.saturating_duration_since(sent));
                    }
                }
            }
            let other = if blind_executes { &g.peg } else { &g.dgt };
            other.play(m);
            if g.pos.is_game_over() {
                g.over = true;
            }
        }
    }
    t.send(b"ende\rende\r");
    let _ = t.wait_exit(Duration::from_secs(10));
    stop.store(true, Ordering::Relaxed);
    let _ = std::fs::remove_dir_all(&dir);

    let show = |name: &str, mut v: Vec<Duration>| {
        v.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "{name}: n={} p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            v.len(),
            ms(support::percentile(&v, 0.5)),
            ms(support::percentile(&v, 0.99)),
            ms(v.last().copied().unwrap_or_default())
        );
    };
    println!("{count} games, {} boards, {plies} plies each", count * 2);
    show("move -> announcement", moves.clone());
    show("wrong move -> alert", alerts.clone());
    show("put right -> resolved", resolved.clone());
    let mut all = moves;
    all.extend(alerts);
    all.extend(resolved);
    show("all", all);
    println!("moves played without measuring (pauses by design): {unmeasured}");
}

/// The benchmark drives hector through Unix pseudo-terminals: elsewhere it measures nothing.
#[cfg(not(unix))]
fn main() {
    eprintln!("this benchmark needs Unix pseudo-terminals");
}
