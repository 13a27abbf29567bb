//! SIGINT, SIGTERM and SIGHUP on the full screen of every mode that has one (play, online
//! play, clock, assist, arbiter): hector ends as a quit does, with the journal written, and
//! the terminal is given back as it was: raw mode off (echo, line editing and Ctrl-C on, read
//! from the pseudo-terminal's termios), the alternate screen left and the cursor shown (read
//! by a terminal emulator from what hector wrote). And Ctrl-C at the login prompt, which
//! switches the echo off, gives it back.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;
#[path = "common/lichess.rs"]
mod lichess;

use std::os::fd::BorrowedFd;
use std::time::{Duration, Instant};

use common::pty::Pty;
use common::sim::Simulator;
use common::{Env, temp_dir};
use nix::sys::signal::Signal;
use nix::sys::termios::{InputFlags, LocalFlags, OutputFlags, Termios, tcgetattr};
use shakmaty::Color;

const LIMIT: Duration = Duration::from_secs(30);
const SIGNALS: [Signal; 3] = [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP];

fn termios(t: &Pty) -> Termios {
    // SAFETY: the master's descriptor stays open as long as `t`; on a pseudo-terminal's master
    // TCGETS reads the terminal's (the slave's) settings.
    let fd = unsafe { BorrowedFd::borrow_raw(t.raw_fd()) };
    tcgetattr(fd).expect("the terminal's settings")
}

/// The terminal as hector's output left it: alternate screen on, cursor hidden.
fn screen_state(t: &Pty) -> (bool, bool) {
    let size = |n: u16| std::num::NonZeroU16::new(n).expect("a size");
    let mut parser = vt100::Parser::new(size(30), size(100), 0);
    parser.process(t.all_output().as_bytes());
    let screen = parser.screen();
    (screen.alternate_screen(), screen.hide_cursor())
}

/// Waits until hector has the full screen: raw mode (no echo) and the alternate screen.
fn wait_full_screen(t: &Pty, what: &str) {
    let deadline = Instant::now() + LIMIT;
    loop {
        let raw = !termios(t).local_flags.contains(LocalFlags::ECHO);
        if raw && screen_state(t).0 {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: no full screen within {LIMIT:?}:\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signal`, waits for hector to end and checks the terminal it left.
fn end_with(t: &mut Pty, signal: Signal, what: &str) {
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(t.pid()).unwrap()),
        signal,
    )
    .expect("signal");
    let code = t.wait_exit(LIMIT);
    assert_eq!(
        code,
        Some(0),
        "{what} {signal}: ended {code:?}:\n{}",
        t.all_output()
    );
    let settings = termios(t);
    for flag in [LocalFlags::ECHO, LocalFlags::ICANON, LocalFlags::ISIG] {
        assert!(
            settings.local_flags.contains(flag),
            "{what} {signal}: {flag:?} left off: {:?}",
            settings.local_flags
        );
    }
    assert!(
        settings.output_flags.contains(OutputFlags::OPOST),
        "{what} {signal}: output processing left off"
    );
    assert!(
        settings.input_flags.contains(InputFlags::ICRNL),
        "{what} {signal}: Enter left raw"
    );
    // The program has ended, but the reader of the terminal's output may not have read its
    // last bytes yet (seen under load): wait a little for them before judging the screen.
    let deadline = Instant::now() + Duration::from_secs(5);
    let (alternate, hidden) = loop {
        let state = screen_state(t);
        if state == (false, false) || Instant::now() > deadline {
            break state;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(!alternate, "{what} {signal}: still on the alternate screen");
    assert!(!hidden, "{what} {signal}: the cursor left hidden");
}

/// A game with a move made, ended by each signal: the move is in the journal, which `hector
/// games` reads as a game in progress.
#[test]
fn play_ends_as_a_quit_does_on_each_signal() {
    for signal in SIGNALS {
        let dir = temp_dir("signals-play");
        let env = Env::player_home(&dir);
        let mut t = env.spawn(&[
            "play",
            "--new",
            "--opponent",
            "keyboard",
            "--speech",
            "print",
        ]);
        wait_full_screen(&t, "play");
        t.send(b"e4\r");
        assert!(t.wait_for_screen("Eva vier", LIMIT), "{}", t.screen());
        end_with(&mut t, signal, "play");
        let games = env.run(&["games"], b"", LIMIT);
        assert!(
            games.stdout.contains("läuft noch, 1 Zug"),
            "{signal}: {}",
            games.stdout
        );
    }
}

#[test]
fn online_play_ends_as_a_quit_does_on_each_signal() {
    for signal in SIGNALS {
        let server = lichess::Server::start();
        server.add_game(Color::White, "Anna", &["e2e4", "e7e5"]);
        let dir = temp_dir("signals-online");
        let env = Env::player_home(&dir).token(lichess::TOKEN);
        let mut t = env.spawn(&[
            "online",
            "--server",
            &server.url,
            "--speech",
            "print",
            "play",
            "--game",
            "1",
        ]);
        wait_full_screen(&t, "online play");
        // The stream's second move has come: both are the game's now.
        assert!(t.wait_for_screen("1. e4 e5", LIMIT), "{}", t.screen());
        end_with(&mut t, signal, "online play");
        let games = env.run(&["games"], b"", LIMIT);
        assert!(games.stdout.contains("Anna"), "{signal}: {}", games.stdout);
        // The stream's two moves are kept.
        let moves = env.run(&["export", "1"], b"", LIMIT);
        assert!(
            moves.stdout.contains("1. e4 e5 "),
            "{signal}: {}",
            moves.stdout
        );
    }
}

#[test]
fn watch_ends_on_each_signal() {
    for signal in SIGNALS {
        let server = lichess::Server::start();
        server.relay_games(&["[White \"Anna\"]\n[Black \"Bert\"]\n\n1. e4 *".to_string()]);
        let dir = temp_dir("signals-watch");
        let env = Env::player_home(&dir);
        let mut t = env.spawn(&[
            "watch",
            "--server",
            &server.url,
            "--speech",
            "print",
            "--broadcast",
            lichess::ROUND,
        ]);
        wait_full_screen(&t, "watch");
        assert!(
            t.wait_for_screen("Anna gegen Bert", LIMIT),
            "{}",
            t.screen()
        );
        end_with(&mut t, signal, "watch");
    }
}

#[test]
fn the_clock_ends_on_each_signal() {
    for signal in SIGNALS {
        let dir = temp_dir("signals-clock");
        let env = Env::player_home(&dir);
        let mut t = env.spawn(&["clock", "--tc", "300+3", "--backend", "print"]);
        wait_full_screen(&t, "clock");
        end_with(&mut t, signal, "clock");
    }
}

#[test]
fn assist_ends_as_a_quit_does_on_each_signal() {
    for signal in SIGNALS {
        let dir = temp_dir("signals-assist");
        let _dgt = Simulator::start("dgt", &dir.join("dgt"));
        let _peg = Simulator::start("peg", &dir.join("peg"));
        let env = Env::player_home(&dir);
        let (dgt, peg) = (
            dir.join("dgt").display().to_string(),
            dir.join("peg").display().to_string(),
        );
        let mut t = env.spawn(&[
            "assist",
            "--speech",
            "print",
            "--blind",
            "black",
            "--peg-board",
            &peg,
            "--sighted-board",
            &dgt,
            "--white",
            "Anna Schmidt",
            "--black",
            "Bernd Weber",
        ]);
        wait_full_screen(&t, "assist");
        end_with(&mut t, signal, "assist");
        let games = env.run(&["games"], b"", LIMIT);
        assert!(
            games.stdout.contains("Anna Schmidt gegen Bernd Weber"),
            "{signal}: {}",
            games.stdout
        );
    }
}

#[test]
fn the_arbiter_ends_as_a_quit_does_on_each_signal() {
    for signal in SIGNALS {
        let dir = temp_dir("signals-arbiter");
        let dgt = dir.join("dgt");
        let peg = dir.join("peg");
        let _dgt = Simulator::start("dgt", &dgt);
        let _peg = Simulator::start("peg", &peg);
        let file = dir.join("game.toml");
        std::fs::write(
            &file,
            format!(
                "white = \"Anna Weiss\"\nblack = \"Bernd Schwarz\"\nblind = \"black\"\n\
                 time_control = \"5400+30\"\nevent = \"Test\"\n\
                 [peg_board]\nport = \"{}\"\n[sighted_board]\nport = \"{}\"\n",
                peg.display(),
                dgt.display()
            ),
        )
        .unwrap();
        let env = Env::player_home(&dir);
        let file = file.display().to_string();
        let mut t = env.spawn(&["arbiter", "--speech", "print", &file]);
        wait_full_screen(&t, "arbiter");
        end_with(&mut t, signal, "arbiter");
        let games = env.run(&["games"], b"", LIMIT);
        assert!(
            games.stdout.contains("Anna Weiss gegen Bernd Schwarz"),
            "{signal}: {}",
            games.stdout
        );
    }
}

/// Ctrl-C at the login prompt (echo off while the token is pasted) gives the echo back and
/// stores nothing.
#[test]
fn ctrl_c_at_the_login_prompt_gives_the_echo_back() {
    let server = lichess::Server::start();
    let dir = temp_dir("signals-login");
    let env = Env::player_home(&dir);
    let mut t = env.spawn(&["online", "--server", &server.url, "login"]);
    assert!(
        t.wait_for("Schlüssel: ", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    let deadline = Instant::now() + LIMIT;
    while termios(&t).local_flags.contains(LocalFlags::ECHO) {
        assert!(
            Instant::now() < deadline,
            "the echo stayed on for the token"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    t.send(b"lip_half\x03");
    assert_eq!(t.wait_exit(LIMIT), Some(130), "{}", t.all_output());
    assert!(termios(&t).local_flags.contains(LocalFlags::ECHO));
    assert!(!dir.join("config/hector/lichess-token").exists());
    assert!(server.requests().is_empty(), "{:?}", server.requests());
}
