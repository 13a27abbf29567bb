//! `hector watch` against the local stand-in for lichess (tests/common/lichess.rs, 127.0.0.1
//! only), the real binary in a pseudo-terminal: a broadcast round's boards followed as their
//! PGN changes (keep-alive spaces between), a board chosen by name and switched, the other
//! boards named with --all-boards, a broken PGN said and skipped, a dropped stream made again
//! and said once, questions answered and moves refused; a game followed through its move
//! stream to its end.

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
use std::time::Duration;

use common::brltty::{Brltty, brltty_or_skip};
use common::pty::Pty;
use common::{Env, SpeechDaemon, assert_in_order, temp_dir};
use lichess::{ROUND, Server, WATCHED};
use shakmaty::Color;

const LIMIT: Duration = Duration::from_secs(20);

fn env(dir: &Path) -> Vec<(String, String)> {
    vec![
        ("HECTOR_CONFIG".into(), "/nonexistent".into()),
        ("HECTOR_DATA".into(), dir.join("data").display().to_string()),
        (
            "XDG_CONFIG_HOME".into(),
            dir.join("config").display().to_string(),
        ),
        ("HOME".into(), dir.display().to_string()),
    ]
}

fn spawn(server: &Server, dir: &Path, args: &[&str]) -> Pty {
    let mut all = vec!["watch", "--server", &server.url, "--speech", "print"];
    all.extend_from_slice(args);
    all.push("--screen-reader");
    let env = env(dir);
    let env: Vec<(&str, &str)> = env.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    Pty::spawn(&all, &env)
}

fn expect(t: &Pty, needle: &str) {
    t.expect(needle, LIMIT);
}

/// Waits out the backoff after which a stream given up would be asked for again (1 s, then
/// 2 s), three times over: a request in that window is one too many. Called only after hector
/// said that it saw what should stop it.
fn no_more_requests(server: &Server, what: &str, before: usize) {
    let more = server.wait(Duration::from_secs(3), |s| {
        s.requests.iter().filter(|r| r.starts_with(what)).count() > before
    });
    assert!(!more, "asked again: {:?}", server.requests());
}

fn say(t: &mut Pty, line: &str) {
    t.send(format!("{line}\r").as_bytes());
}

fn count(t: &Pty, needle: &str) -> usize {
    t.all_output().matches(needle).count()
}

fn game(white: &str, black: &str, moves: &str, result: &str) -> String {
    format!(
        "[Event \"Open\"]\n[Site \"Town\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[GameURL \"https://lichess.org/broadcast/open/round-1/{ROUND}/{white}\"]\n[BroadcastName \"Open\"]\n\n{moves} {result}"
    )
}

#[test]
fn a_rounds_board_is_followed_move_by_move_with_questions_and_a_broken_pgn_skipped() {
    let server = Server::start();
    server.set(|s| s.relay.keep_alive = Some(Duration::from_millis(150)));
    server.relay_games(&[
        game(
            "Anna",
            "Bert",
            "1. e4 { [%clk 1:30:00] } e5 { [%clk 1:29:58] }",
            "*",
        ),
        game("Carl", "Dora", "1. d4 { [%clk 1:29:00] }", "*"),
    ]);
    let dir = temp_dir("watch-round");
    let mut t = spawn(
        &server,
        dir.path(),
        &["--broadcast", ROUND, "--board", "dora"],
    );
    expect(
        &t,
        "Sie verfolgen Brett 2, Carl gegen Dora. Zuletzt: Zug 1, Weiß: David vier. Schwarz ist am Zug",
    );
    // Keep-alive spaces for a while: nothing said, no new connection (the next move is said
    // on the first stream, and no break was said).
    assert!(server.wait(LIMIT, |s| s.relay.keep_alives_sent >= 4));
    t.mark();
    server.relay_update(
        1,
        &game(
            "Carl",
            "Dora",
            "1. d4 { [%clk 1:29:00] } d5 { [%clk 1:28:30] }",
            "*",
        ),
    );
    expect(&t, "David fünf");
    assert_eq!(server.snapshot().relay.round_streams_opened, 1);
    assert_eq!(count(&t, "unterbrochen"), 0, "{}", t.all_output());
    // Another board's move is not said without --all-boards.
    server.relay_update(0, &game("Anna", "Bert", "1. e4 e5 2. Nf3", "*"));
    // A broken PGN is said and skipped; the next good one is said.
    server.relay_inject("[White \"Carl\"]\n[Black \"Dora\"]\n\n1. d4 d5 2. Kd3 *");
    expect(
        &t,
        "Eine Partie der Übertragung war unlesbar und wird übergangen",
    );
    server.relay_update(
        1,
        &game("Carl", "Dora", "1. d4 d5 2. c4 { [%clk 1:28:00] }", "*"),
    );
    expect(&t, "Cäsar vier");
    assert_eq!(count(&t, "Springer Felix drei"), 0, "{}", t.all_output());
    say(&mut t, "uhr");
    expect(&t, "Weiß 1 Stunde 28 Minuten. Schwarz 1 Stunde 28 Minuten");
    say(&mut t, "stellung 1");
    expect(&t, "Rückblick nach Zug 1, Schwarz: David fünf");
    say(&mut t, "aktuell");
    say(&mut t, "Sc6");
    expect(&t, "Hier wird nur zugesehen");
    say(&mut t, "bretter");
    expect(
        &t,
        "Brett 1, Anna gegen Bert. Brett 2, Carl gegen Dora, verfolgt",
    );
    say(&mut t, "folgen 1");
    expect(
        &t,
        "Sie verfolgen Brett 1, Anna gegen Bert. Zuletzt: Zug 2, Weiß: Springer Felix drei",
    );
    // The stream drops: said once, made again with backoff, the moves meanwhile said after.
    server.drop_streams(Duration::from_millis(2500));
    expect(&t, "Verbindung zu lichess unterbrochen. Ich verbinde neu");
    server.relay_update(0, &game("Anna", "Bert", "1. e4 e5 2. Nf3 Nc6", "*"));
    // "Back" is said once the new connection has held, so the move it brings may come first.
    t.expect_each(&["Verbindung wieder da", "Springer Cäsar sechs"], LIMIT);
    assert_eq!(
        count(&t, "Verbindung zu lichess unterbrochen"),
        1,
        "{}",
        t.all_output()
    );
    // One request at a time, with backoff: 1, 2 s… while the stream was down.
    let opened = server.snapshot().relay.round_streams_opened;
    assert!((2..=4).contains(&opened), "{opened} streams opened");
    server.relay_update(0, &game("Anna", "Bert", "1. e4 e5 2. Nf3 Nc6", "1-0"));
    expect(&t, "Brett 1, Anna gegen Bert: Anna gewinnt, 1 zu 0");
    say(&mut t, "ende");
    assert!(
        t.wait_exit(LIMIT).is_some(),
        "hector did not end:\n{}",
        t.all_output()
    );
    // No token was stored: none was sent.
    assert!(server.snapshot().authorizations.is_empty());
}

#[test]
fn every_board_is_said_with_its_name_when_all_are_followed() {
    let server = Server::start();
    server.relay_games(&[
        game("Anna", "Bert", "1. e4", "*"),
        game("Carl", "Dora", "1. d4", "*"),
    ]);
    let dir = temp_dir("watch-all");
    let mut t = spawn(
        &server,
        dir.path(),
        &["--broadcast", ROUND, "--all-boards", "--lang", "en"],
    );
    expect(&t, "Following Board 1, Anna against Bert");
    server.relay_update(1, &game("Carl", "Dora", "1. d4 Nf6", "*"));
    // Another board: its number, then the move; not both names again.
    expect(&t, "Board 2: Knight Felix six");
    server.relay_update(0, &game("Anna", "Bert", "1. e4 c5", "*"));
    // The board followed: the move with its side, without the board's name.
    expect(&t, "Black: Cesar five");
    for named in ["Carl against Dora: Knight", "Anna against Bert: Black"] {
        assert_eq!(count(&t, named), 0, "{named}\n{}", t.all_output());
    }
    say(&mut t, "quit");
    assert!(
        t.wait_exit(LIMIT).is_some(),
        "hector did not end:\n{}",
        t.all_output()
    );
}

#[test]
fn a_game_is_followed_through_its_move_stream_to_its_end() {
    let server = Server::start();
    server.watch_game("Anna", "Bert", &["e2e4"]);
    let dir = temp_dir("watch-game");
    let mut t = spawn(&server, dir.path(), &["--game", WATCHED]);
    // The stream's first line and its replay, read as lichess sends them: where the game
    // stands, with its last move, and nothing unreadable nor missed.
    expect(
        &t,
        "Sie verfolgen Anna gegen Bert. Zuletzt: Zug 1, Weiß: Eva vier. Schwarz ist am Zug",
    );
    server.watched_move("c7c5");
    expect(&t, "Cäsar fünf");
    server.watched_move("g1f3");
    expect(&t, "Springer Felix drei");
    say(&mut t, "uhr");
    expect(&t, "Weiß 2 Minuten 57 Sekunden");
    server.watched_end(Some(Color::White));
    expect(&t, "Anna gegen Bert: Anna gewinnt, 1 zu 0");
    expect(&t, "Die Übertragung ist zu Ende");
    for wrong in ["unlesbar", "Züge fehlten"] {
        assert!(
            !t.all_output().contains(wrong),
            "{wrong}:\n{}",
            t.all_output()
        );
    }
    // The finished game's stream is not asked for again.
    no_more_requests(&server, "GET /api/stream/game", 1);
    assert_eq!(server.snapshot().relay.game_streams_opened, 1);
    assert_eq!(count(&t, "unterbrochen"), 0, "{}", t.all_output());
    say(&mut t, "ende");
    assert!(
        t.wait_exit(LIMIT).is_some(),
        "hector did not end:\n{}",
        t.all_output()
    );
}

#[test]
fn an_unknown_round_is_said_and_not_asked_again() {
    let server = Server::start();
    let dir = temp_dir("watch-unknown");
    let mut t = spawn(&server, dir.path(), &["--broadcast", "NoSuchRound"]);
    expect(&t, "lichess liefert nichts");
    no_more_requests(&server, "GET /api/stream/broadcast", 1);
    assert_eq!(server.count("GET /api/stream/broadcast"), 1);
    say(&mut t, "ende");
    assert!(
        t.wait_exit(LIMIT).is_some(),
        "hector did not end:\n{}",
        t.all_output()
    );
}

#[test]
fn a_429_on_reconnecting_is_waited_out_a_full_minute() {
    let server = Server::start();
    server.relay_games(&[game("Anna", "Bert", "1. e4", "*")]);
    let dir = temp_dir("watch-429");
    let mut t = spawn(&server, dir.path(), &["--broadcast", ROUND]);
    expect(&t, "Sie verfolgen Brett 1, Anna gegen Bert");
    server.set(|s| {
        s.retry_after = Some("0".into());
        s.limited = u32::MAX;
    });
    server.drop_streams(Duration::ZERO);
    expect(&t, "Verbindung zu lichess unterbrochen");
    expect(&t, "lichess bittet zu warten: 60 Sekunden");
    let before = server.requests().len();
    // Every request in this window would be one too many.
    let more = server.wait(Duration::from_secs(3), |s| s.requests.len() > before);
    assert!(!more, "{:?}", server.requests());
    assert_eq!(
        count(&t, "lichess bittet zu warten"),
        1,
        "{}",
        t.all_output()
    );
    say(&mut t, "ende");
    assert!(
        t.wait_exit(LIMIT).is_some(),
        "hector did not end:\n{}",
        t.all_output()
    );
}

#[test]
fn lichess_tv_is_followed() {
    let server = Server::start();
    server.watch_game("Anna", "Bert", &["d2d4"]);
    let dir = temp_dir("watch-tv");
    let mut t = spawn(&server, dir.path(), &["--tv"]);
    expect(&t, "Sie verfolgen Anna gegen Bert. Schwarz ist am Zug");
    server.watched_move("g8f6");
    expect(&t, "Springer Felix sechs");
    say(&mut t, "brett");
    expect(&t, "Reihe sechs: Felix sechs schwarzer Springer");
    assert_eq!(server.count("GET /api/tv/feed"), 1);
    say(&mut t, "ende");
    assert!(
        t.wait_exit(LIMIT).is_some(),
        "hector did not end:\n{}",
        t.all_output()
    );
}

/// A game's stream, and TV's, that the server ends cleanly while the game runs (as lichess
/// does when it restarts): the watch says the break, opens the stream again and goes on with
/// the game's next move.
#[test]
fn a_games_stream_closed_while_the_game_runs_is_opened_again() {
    for (args, path, opening, mv, words) in [
        (
            vec!["--game", WATCHED],
            "GET /api/stream/game",
            // A game's stream starts with its last move (lichess's `lm`).
            "Sie verfolgen Anna gegen Bert. Zuletzt: Zug 1, Weiß: Eva vier. Schwarz ist am Zug",
            "c7c5",
            "Cäsar fünf",
        ),
        (
            vec!["--tv"],
            "GET /api/tv/feed",
            "Sie verfolgen Anna gegen Bert. Schwarz ist am Zug",
            "g8f6",
            "Springer Felix sechs",
        ),
    ] {
        let server = Server::start();
        server.watch_game("Anna", "Bert", &["e2e4"]);
        let dir = temp_dir("watch-closed");
        let mut t = spawn(&server, dir.path(), &args);
        expect(&t, opening);
        t.mark();
        server.close_streams_cleanly();
        expect(&t, "Verbindung zu lichess unterbrochen. Ich verbinde neu");
        expect(&t, "Verbindung wieder da");
        assert_eq!(server.count(path), 2, "{:?}", server.requests());
        t.mark();
        server.watched_move(mv);
        expect(&t, words);
        assert_eq!(count(&t, "Die Übertragung ist zu Ende"), 0);
        say(&mut t, "ende");
        assert!(
            t.wait_exit(LIMIT).is_some(),
            "hector did not end:\n{}",
            t.all_output()
        );
    }
}

/// Each kind of the watch's answers reaches the player whole and in order, through the real
/// clients: the full screen of 80x24 speaking through a speech-dispatcher whose module says a
/// sentence in a quarter of a second (an answer cut short loses its later sentences), and a
/// BRLTTY of 40 cells, which flashes each answer from its beginning.
#[test]
fn the_watchs_answers_are_heard_whole_and_flashed() {
    if !brltty_or_skip("the_watchs_answers_are_heard_whole_and_flashed") {
        return;
    }
    let limit = Duration::from_secs(60);
    let server = Server::start();
    server.watch_game("Anna", "Bert", &["e2e4"]);
    let dir = temp_dir("watch-answers");
    let daemon = SpeechDaemon::speaking_slowly();
    let display = Brltty::tt(40);
    let mut t = Env::player(dir.path())
        .speech(&daemon)
        .braille_host(&display.host())
        .spawn_80x24(&[
            "watch",
            "--server",
            &server.url,
            "--game",
            WATCHED,
            "--speech",
            "speech-dispatcher",
        ]);
    // The game followed: who plays, the last move, who is to move.
    let heard = daemon.heard_until(0, "Schwarz ist am Zug", limit);
    assert_in_order(
        &heard,
        &[
            "Sie verfolgen Anna gegen Bert.",
            "Eva vier.",
            "Schwarz ist am Zug",
        ],
    );
    display.assert_flashed("Sie verfolgen Anna gegen Bert", &heard);
    // A move of the followed game, with its colour.
    let before = daemon.spoken().len();
    server.watched_move("c7c5");
    let heard = daemon.heard_when_quiet(before, limit);
    assert!(heard.starts_with("Schwarz: Cäsar fünf"), "{heard}");
    display.assert_flashed("Schwarz: Cäsar fünf", &heard);
    // A question: both clocks, White's first.
    let before = daemon.spoken().len();
    say(&mut t, "uhr");
    let heard = daemon.heard_when_quiet(before, limit);
    assert_in_order(&heard, &["Weiß ", " Sekunden", "Schwarz ", " Sekunden"]);
    display.assert_flashed("Weiß ", &heard);
    // The end: the result, then that the broadcast is over, and only then.
    let before = daemon.spoken().len();
    server.watched_end(Some(Color::White));
    let heard = daemon.heard_until(before, "Die Übertragung ist zu Ende", limit);
    assert_in_order(
        &heard,
        &[
            "Anna gegen Bert: Anna gewinnt, 1 zu 0",
            "Die Übertragung ist zu Ende",
        ],
    );
    display.assert_flashed("Anna gegen Bert: Anna gewinnt", &heard);
    say(&mut t, "ende");
    assert!(t.wait_exit(limit).is_some(), "{}", t.all_output());
}

/// With --all-boards, another board's news reaches the player as the followed board's does:
/// its move in the short form (the board's number, then the move) and its result, each heard
/// whole through the slow speech-dispatcher and flashed from its start on 40 cells of BRLTTY.
#[test]
fn another_boards_moves_are_heard_whole_and_flashed() {
    if !brltty_or_skip("another_boards_moves_are_heard_whole_and_flashed") {
        return;
    }
    let limit = Duration::from_secs(60);
    let server = Server::start();
    server.relay_games(&[
        game("Anna", "Bert", "1. e4", "*"),
        game("Carl", "Dora", "1. d4", "*"),
    ]);
    let dir = temp_dir("watch-all-answers");
    let daemon = SpeechDaemon::speaking_slowly();
    let display = Brltty::tt(40);
    let mut t = Env::player(dir.path())
        .speech(&daemon)
        .braille_host(&display.host())
        .spawn_80x24(&[
            "watch",
            "--server",
            &server.url,
            "--broadcast",
            ROUND,
            "--all-boards",
            "--speech",
            "speech-dispatcher",
        ]);
    daemon.heard_until(0, "Schwarz ist am Zug", limit);
    // Another board's move: the board's number, then the move, and nothing of its names.
    let before = daemon.spoken().len();
    server.relay_update(1, &game("Carl", "Dora", "1. d4 Nf6", "*"));
    let heard = daemon.heard_when_quiet(before, limit);
    assert_eq!(heard, "Brett 2: Springer Felix sechs", "{heard}");
    display.assert_flashed("Brett 2: Springer Felix sechs", &heard);
    // Another board's end: its number and the result in words.
    let before = daemon.spoken().len();
    server.relay_update(1, &game("Carl", "Dora", "1. d4 Nf6", "1-0"));
    let heard = daemon.heard_when_quiet(before, limit);
    assert!(
        heard.starts_with("Brett 2: Carl gewinnt, 1 zu 0"),
        "{heard}"
    );
    display.assert_flashed("Brett 2: Carl gewinnt, 1 zu 0", &heard);
    say(&mut t, "ende");
    assert!(t.wait_exit(limit).is_some(), "{}", t.all_output());
}

/// The followed game's moves and its end as speech-dispatcher plays them: each move's sound
/// before its words (a capture's too), the end's sound before the result.
#[test]
fn a_followed_games_moves_and_end_are_heard_as_their_sounds_before_their_words() {
    use common::cues::{played_until, sound_config};
    let limit = Duration::from_secs(60);
    let server = Server::start();
    server.watch_game("Anna", "Bert", &["e2e4"]);
    let dir = temp_dir("watch-cues");
    let daemon = SpeechDaemon::capturing();
    let config = sound_config(dir.path(), &daemon, "");
    let mut t = Env::player(dir.path())
        .speech(&daemon)
        .config_file(&config)
        // hector's own sounds, found beside the binary.
        .var("HECTOR_SOUNDS", "")
        .spawn_80x24(&[
            "watch",
            "--server",
            &server.url,
            "--game",
            WATCHED,
            "--speech",
            "speech-dispatcher",
            "--screen-reader",
        ]);
    played_until(&daemon, 0, "de| Schwarz ist am Zug");
    for (uci, icon, words) in [
        ("c7c5", "icon|move", "de|Schwarz: Cäsar fünf"),
        ("d2d4", "icon|move", "de|Weiß: David vier"),
        (
            "c5d4",
            "icon|capture",
            "de|Schwarz: Cäsar schlägt David vier",
        ),
    ] {
        let from = daemon.spoken().len();
        server.watched_move(uci);
        assert_eq!(played_until(&daemon, from, "de|"), [icon, words], "{uci}");
    }
    let from = daemon.spoken().len();
    server.watched_end(Some(Color::White));
    let played = played_until(&daemon, from, "de|Die Übertragung ist zu Ende");
    assert_eq!(
        played,
        [
            "icon|end",
            "de|Anna gegen Bert: Anna gewinnt, 1 zu 0",
            "de|Die Übertragung ist zu Ende"
        ]
    );
    say(&mut t, "ende");
    assert!(t.wait_exit(limit).is_some(), "{}", t.all_output());
}

/// The followed game's clocks as its stream tells them: each side's low-clock sound once,
/// when its time falls under `--low-clock`, on the full screen and in line mode. The stand-in
/// tells 180 s less a second a move: Black, to move at 180 s, falls under 179 s as its time
/// runs; White is told 178 s with Black's reply. Neither sounds again.
#[test]
fn the_followed_games_low_clock_sounds_once_for_each_side() {
    use common::cues::{played_until, sound_config};
    let limit = Duration::from_secs(60);
    for lines in [true, false] {
        let server = Server::start();
        server.watch_game("Anna", "Bert", &["e2e4"]);
        let dir = temp_dir("watch-low-clock");
        let daemon = SpeechDaemon::capturing();
        let config = sound_config(dir.path(), &daemon, "");
        let mut args = vec![
            "watch",
            "--server",
            &server.url,
            "--game",
            WATCHED,
            "--speech",
            "speech-dispatcher",
            "--low-clock",
            "179",
        ];
        if lines {
            args.push("--screen-reader");
        }
        let mut t = Env::player(dir.path())
            .speech(&daemon)
            .config_file(&config)
            .var("HECTOR_SOUNDS", "")
            .spawn_80x24(&args);
        let low = |from: usize| {
            daemon
                .spoken()
                .iter()
                .skip(from)
                .filter(|l| *l == "icon|low-clock")
                .count()
        };
        let following = played_until(&daemon, 0, "de| Schwarz ist am Zug");
        assert!(
            !following.iter().any(|l| l == "icon|low-clock"),
            "lines {lines}: {following:?}"
        );
        // Black's time runs under 179 s: its sound, alone.
        played_until(&daemon, 0, "icon|low-clock");
        assert_eq!(low(0), 1, "lines {lines}: {:?}", daemon.spoken());
        // White is told 178 s with Black's move: its sound after the move's words.
        let from = daemon.spoken().len();
        server.watched_move("c7c5");
        assert_eq!(
            played_until(&daemon, from, "icon|low-clock"),
            ["icon|move", "de|Schwarz: Cäsar fünf", "icon|low-clock"],
            "lines {lines}"
        );
        // Both are under now and stay under: no sound again, with a move or with time.
        let from = daemon.spoken().len();
        server.watched_move("d2d4");
        played_until(&daemon, from, "de|Weiß: David vier");
        server.watched_end(Some(Color::White));
        played_until(&daemon, from, "de|Die Übertragung ist zu Ende");
        assert_eq!(low(from), 0, "lines {lines}: {:?}", daemon.spoken());
        assert_eq!(low(0), 2, "lines {lines}: {:?}", daemon.spoken());
        if lines {
            say(&mut t, "ende");
        } else {
            t.send(&[0x11]);
        }
        assert!(t.wait_exit(limit).is_some(), "{}", t.all_output());
    }
}
