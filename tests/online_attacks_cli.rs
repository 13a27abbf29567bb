//! `hector online` against a hostile or broken stand-in for lichess (tests/common/lichess.rs,
//! 127.0.0.1 only), the real binary in a pseudo-terminal: a stream that closes after its first
//! line or drips bytes without a line end, a flood of chat, a state without its status, a
//! refused token and a new login, ends the board contradicts, an abort, control characters in
//! the server's words, an event stream that goes silent while a seek waits. What is counted
//! is requests, connections, threads and memory, not time.

#![allow(
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

use std::path::Path;
use std::time::{Duration, Instant};

use common::pty::Pty;
use common::{Env, temp_dir};
use lichess::{GAME, Server, StreamMode, TOKEN};
use shakmaty::Color;

const LIMIT: Duration = Duration::from_secs(20);

fn spawn(server: &Server, dir: &Path, args: &[&str]) -> Pty {
    let mut all = vec!["online", "--server", &server.url, "--speech", "print"];
    all.extend_from_slice(args);
    all.push("--screen-reader");
    let env = Env::player_home(dir).token(TOKEN);
    env.spawn(&all)
}

fn expect_within(t: &Pty, needle: &str, limit: Duration) {
    assert!(
        t.wait_for(needle, limit).is_some(),
        "hector did not say {needle:?}; it said:\n{}",
        t.all_output()
    );
}

fn expect(t: &Pty, needle: &str) {
    expect_within(t, needle, LIMIT);
}

/// Types a line and waits until hector says `needle` after it (the echo of the typed line
/// is not counted).
fn say_and_hear(t: &mut Pty, line: &str, needle: &str) {
    let from = t.all_output().len();
    let echoes = usize::from(line.contains(needle));
    t.send(format!("{line}\r").as_bytes());
    let deadline = Instant::now() + LIMIT;
    loop {
        let text = t.all_output();
        if text
            .get(from..)
            .is_some_and(|new| new.matches(needle).count() > echoes)
        {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "hector did not say {needle:?} after {line:?}; it said:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn count(t: &Pty, needle: &str) -> usize {
    t.all_output().matches(needle).count()
}

/// A process's line of /proc/PID/status, in kB ("VmHWM:  123 kB").
fn status_kb(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("a number")
}

/// The network (TCP) sockets a process holds open: its descriptors' socket inodes that its
/// network namespace lists as TCP connections. The terminal's own socket pairs (the key
/// reader's wake-up) are not connections to a server.
fn sockets(pid: u32) -> usize {
    let mut tcp = std::collections::HashSet::new();
    for table in ["tcp", "tcp6"] {
        let text = std::fs::read_to_string(format!("/proc/{pid}/net/{table}")).unwrap_or_default();
        // The tenth column is the socket's inode.
        tcp.extend(
            text.lines()
                .skip(1)
                .filter_map(|l| l.split_whitespace().nth(9).map(str::to_string)),
        );
    }
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .expect("fd")
        .flatten()
        .filter_map(|e| std::fs::read_link(e.path()).ok())
        .filter_map(|l| {
            let l = l.to_string_lossy().into_owned();
            l.strip_prefix("socket:[")
                .and_then(|r| r.strip_suffix(']'))
                .map(str::to_string)
        })
        .filter(|inode| tcp.contains(inode))
        .count()
}

/// A stream that the server closes right after gameFull, every time: hector asks again ever
/// more rarely (the backoff starts over only after a healthy connection, not at each
/// connect) and says the connection is down once, never that it is back.
#[test]
fn a_stream_closed_after_its_first_line_is_asked_ever_more_rarely_and_said_once() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &[]);
    server.set(|s| s.stream_mode = StreamMode::CloseAfterFull);
    let dir = temp_dir("online-flap");
    let t = spawn(&server, &dir, &["play", "--game", "1"]);
    expect(&t, "Weiß ist am Zug");
    // After 1, 2 and 4 seconds of backoff: the fourth stream.
    assert!(
        server.wait(Duration::from_secs(30), |s| s.streams_opened >= 4),
        "{:?}",
        server.requests()
    );
    // The next wait is 8 seconds: in a window of 5 no two more (each 1.2 s was 4 more).
    let opened = server.snapshot().streams_opened;
    assert!(
        !server.wait(Duration::from_secs(5), |s| s.streams_opened >= opened + 2),
        "{:?}",
        server.requests()
    );
    assert_eq!(
        count(&t, "Verbindung zu lichess unterbrochen"),
        1,
        "{}",
        t.all_output()
    );
    assert_eq!(count(&t, "Verbindung wieder da"), 0, "{}", t.all_output());
}

/// A server that drips a byte every 200 ms and never ends a line: after the stall hector
/// connects again, and the connection it gave up is closed (the server sees it go), its
/// reading thread ended: no socket, no thread piles up.
#[test]
fn a_dripping_stream_is_closed_when_it_is_given_up() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &[]);
    let dir = temp_dir("online-drip");
    let t = spawn(&server, &dir, &["play", "--game", "1"]);
    expect(&t, "Weiß ist am Zug");
    server.set(|s| s.stream_mode = StreamMode::Drip);
    // The first stream is cut: its successor drips.
    server.drop_streams(Duration::ZERO);
    assert!(server.wait(LIMIT, |s| s.streams_opened >= 2));
    // Given up after the stall (20 s), then a third one.
    assert!(
        server.wait(Duration::from_secs(40), |s| s.streams_opened >= 3),
        "{:?}",
        server.requests()
    );
    assert!(
        server.wait(LIMIT, |s| s.streams_open <= 1),
        "{} streams still open",
        server.snapshot().streams_open
    );
    let readers = std::fs::read_dir(format!("/proc/{}/task", t.pid()))
        .expect("tasks")
        .flatten()
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm"))
                .is_ok_and(|c| c.starts_with("hector-lichess"))
        })
        .count();
    assert!(readers <= 1, "{readers} stream readers");
    assert!(sockets(t.pid()) <= 2, "{} connections", sockets(t.pid()));
}

/// 200,000 chat lines: hector keeps the newest hundred, says the first arrival once, and
/// its memory stays bounded (each line kept was 1 KiB and more before).
#[test]
fn a_flood_of_chat_keeps_a_bounded_number_of_lines() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &["e2e4"]);
    let dir = temp_dir("online-chat");
    let mut t = spawn(&server, &dir, &["play", "--game", "1"]);
    expect(&t, "Schwarz ist am Zug");
    server.set(|s| {
        for i in 0..200_000 {
            s.log.push(format!(
                r#"{{"type":"chatLine","room":"player","username":"Anna","text":"Nachricht {i} {}"}}"#,
                "x".repeat(100)
            ));
        }
    });
    server.opponent_move("e7e5");
    expect_within(&t, "Eva fünf", Duration::from_secs(120));
    assert_eq!(count(&t, "Nachricht von Anna"), 1, "announced once");
    let peak_mb = status_kb(t.pid(), "VmHWM:") / 1024;
    assert!(peak_mb < 64, "hector's peak memory: {peak_mb} MB");
    say_and_hear(&mut t, "chat", "Nachricht 199999");
    let text = t.all_output();
    assert!(text.contains("Nachricht 199900 "), "the hundred newest");
    assert!(!text.contains("Nachricht 199899 "), "no more");
}

/// A gameState without its status is one unreadable line: said, skipped, and the game and
/// its stream go on (it was taken as a draw by the arbiter's decision, and the stream ended).
#[test]
fn a_state_without_its_status_is_skipped_not_taken_as_an_end() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &["e2e4"]);
    let dir = temp_dir("online-nostatus");
    let t = spawn(&server, &dir, &["play", "--game", "1"]);
    expect(&t, "Schwarz ist am Zug");
    server.inject(r#"{"type":"gameState","moves":"e2e4","wtime":900000,"btime":900000}"#);
    expect(&t, "Eine Nachricht von lichess war unlesbar");
    server.opponent_move("e7e5");
    expect(&t, "Eva fünf");
    assert!(!t.all_output().contains("Remis"), "{}", t.all_output());
}

/// After a 401 on a move the move is kept and said so; the player logs in again (in another
/// window, with the real `hector online login`), and the move goes with the new token.
#[test]
fn a_move_refused_by_a_revoked_token_goes_after_the_next_login() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &[]);
    let dir = temp_dir("online-relogin");
    let mut t = spawn(&server, &dir, &["play", "--game", "1"]);
    expect(&t, "Weiß ist am Zug");
    server.revoke();
    say_and_hear(&mut t, "Eva vier", "Eva vier ist nicht gesendet");
    expect(&t, "lichess nimmt den Zugang nicht mehr an");
    say_and_hear(&mut t, "brett", "Reihe acht");
    assert!(server.moves().is_empty());
    let renewed = "lip_new_token";
    server.renew(renewed);
    let env = Env::player_home(&dir);
    let login = env.run(
        &["online", "--server", &server.url, "login"],
        format!("{renewed}\n").as_bytes(),
        LIMIT,
    );
    assert_eq!(login.code, Some(0), "{}{}", login.stdout, login.stderr);
    expect(&t, "Wieder bei lichess angemeldet");
    assert!(
        server.wait(LIMIT, |s| s
            .game
            .as_ref()
            .is_some_and(|g| g.moves == ["e2e4"])),
        "{}",
        t.all_output()
    );
    expect(&t, "Eva vier");
    assert_eq!(
        count(&t, "lichess nimmt den Zugang nicht mehr an"),
        1,
        "{}",
        t.all_output()
    );
}

/// Checkmate without a winner on a board that shows no mate: the server's word and the
/// board's are both said, and nothing is called a draw.
#[test]
fn a_mate_the_board_does_not_show_is_said_with_the_boards_word() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &["e2e4"]);
    let dir = temp_dir("online-mate");
    let t = spawn(&server, &dir, &["play", "--game", "1"]);
    expect(&t, "Schwarz ist am Zug");
    server.inject(
        r#"{"type":"gameState","moves":"e2e4","wtime":900000,"btime":900000,"status":"mate"}"#,
    );
    expect(
        &t,
        "lichess meldet Schachmatt, auf dem Brett ist aber kein Matt. Das Ergebnis bleibt offen",
    );
    assert!(!t.all_output().contains("Remis"), "{}", t.all_output());
}

/// A game the opponent aborts is listed as aborted, not as in progress; the PGN has the time
/// control of the game; and a game left while it runs names the command that comes back to
/// it (hector resume has nothing to continue).
#[test]
fn an_aborted_game_is_listed_so_and_a_game_left_names_how_to_come_back() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &["e2e4"]);
    let dir = temp_dir("online-aborted");
    let mut t = spawn(&server, &dir, &["play", "--game", "1"]);
    expect(&t, "Schwarz ist am Zug");
    server.set(|s| {
        let g = s.game.as_mut().expect("a game");
        g.status = "aborted".into();
        let line = r#"{"type":"gameState","moves":"e2e4","wtime":900000,"btime":900000,"status":"aborted"}"#;
        s.log.push(line.into());
    });
    expect(&t, "Die Partie wurde abgebrochen");
    t.send(b"ende\r");
    assert!(t.wait_exit(LIMIT).is_some(), "{}", t.all_output());
    let env = Env::player_home(&dir);
    let games = env.run(&["games"], b"", LIMIT);
    assert_eq!(games.code, Some(0), "{}", games.stderr);
    assert!(games.stdout.contains("abgebrochen"), "{}", games.stdout);
    assert!(!games.stdout.contains("läuft"), "{}", games.stdout);
    let pgn = env.run(&["export", "1"], b"", LIMIT);
    assert!(
        pgn.stdout.contains("[TimeControl \"900+10\"]"),
        "{}",
        pgn.stdout
    );

    let server = Server::start();
    server.add_game(Color::White, "Anna", &["e2e4"]);
    let mut t = spawn(&server, &dir, &["play", "--game", "1"]);
    expect(&t, "Schwarz ist am Zug");
    say_and_hear(&mut t, "ende", "Wirklich");
    t.send(b"ja\r");
    expect(
        &t,
        &format!("online --server {} play --game {GAME}", server.url),
    );
    assert!(!t.all_output().contains("resume"), "{}", t.all_output());
}

/// Control characters in what the server says (a refusal's text, a player's name, chat) are
/// shown escaped: the terminal gets no escape sequence from outside.
#[test]
fn the_servers_words_reach_the_terminal_with_their_control_characters_escaped() {
    let server = Server::start();
    server.add_game(Color::White, r"Anna\u001b]0;pwned\u0007", &[]);
    server.set(|s| s.refuse_moves = Some(r"no\u001b[2J\u001b]0;pwned\u0007".into()));
    let dir = temp_dir("online-escapes");
    let mut t = spawn(&server, &dir, &["play", "--game", "1"]);
    expect(&t, "Weiß ist am Zug");
    say_and_hear(&mut t, "Eva vier", "lichess hat den Zug abgelehnt");
    server.opponent_says(r"hallo\u001b[31m");
    expect(&t, "chat liest sie vor");
    say_and_hear(&mut t, "chat", "hallo");
    let text = t.all_output();
    assert!(!text.contains("\u{1b}]0;pwned"), "{text:?}");
    assert!(!text.contains("\u{1b}[2J"), "{text:?}");
    assert!(!text.contains("hallo\u{1b}[31m"), "{text:?}");
    assert!(
        text.contains(r"lichess hat den Zug abgelehnt: no\x1B[2J\x1B]0;pwned\x07"),
        "{text:?}"
    );
    assert!(text.contains(r"Anna\x1B]0;pwned\x07"), "{text:?}");
    assert!(text.contains(r"hallo\x1B[31m"), "{text:?}");
}

/// While a seek waits, an event stream that goes silent (not even keep-alive lines) is
/// given up and opened again, and the game that starts is played.
#[test]
fn a_silent_event_stream_is_opened_again_while_a_seek_waits() {
    let server = Server::start();
    server.set(|s| s.silent_events = 1);
    let dir = temp_dir("online-silent-events");
    let t = spawn(&server, &dir, &["play", "--seek", "10+5"]);
    expect(&t, "Warte auf den Beginn der Partie");
    expect_within(
        &t,
        "Sie spielen Weiß gegen Bruno auf lichess",
        Duration::from_secs(45),
    );
    assert_eq!(server.snapshot().event_streams_opened, 2);
    assert_eq!(count(&t, "Verbindung zu lichess unterbrochen"), 1);
}
