//! `hector online` against a local stand-in for lichess (tests/common/lichess.rs, 127.0.0.1
//! only), the real binary in a pseudo-terminal: login and logout, a whole game typed in
//! Appendix D words and journaled, the opponent's draw offer and take-back request, a stream
//! dropped in mid-game with a move made meanwhile, a 429, a revoked token, a game on the
//! simulated peg board.

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

use common::pty::Pty;
use common::sim::Simulator;
use common::{Env, temp_dir};
use lichess::{GAME, Server, TOKEN};
use shakmaty::Color;

const LIMIT: Duration = Duration::from_secs(20);

/// A temporary directory, removed when the test ends, also when it fails.
struct Dir(common::pty::TempDir);

impl Dir {
    fn new(what: &str) -> Dir {
        Dir(temp_dir(what))
    }
}

fn spawn(server: &Server, dir: &Path, args: &[&str]) -> Pty {
    let mut all = vec!["online", "--server", &server.url, "--speech", "print"];
    all.extend_from_slice(args);
    all.push("--screen-reader");
    let env = Env::player_home(dir).token(TOKEN);
    env.spawn(&all)
}

fn expect(t: &Pty, needle: &str) {
    t.expect(needle, LIMIT);
}

/// Types a line (the answers are waited for with `expect` or `heard_after`).
fn say(t: &mut Pty, line: &str) {
    t.send(format!("{line}\r").as_bytes());
}

/// Types a line and waits until hector says `needle` after it. The terminal shows the typed
/// line too, so when it holds `needle` that echo is not counted as hector's answer.
fn say_and_hear(t: &mut Pty, line: &str, needle: &str) {
    let from = t.all_output().len();
    let echoes = usize::from(line.contains(needle));
    t.send(format!("{line}\r").as_bytes());
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        let text = t.all_output();
        if text
            .get(from..)
            .is_some_and(|new| new.matches(needle).count() > echoes)
        {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "hector did not say {needle:?} after {line:?}; it said:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn count(t: &Pty, needle: &str) -> usize {
    t.all_output().matches(needle).count()
}

#[test]
fn login_checks_and_stores_the_token_unseen_and_logout_deletes_it() {
    let server = Server::start();
    let dir = Dir::new("online-login");
    let env = Env::player_home(&dir.0);
    let login = ["online", "--server", &server.url, "login"];
    let bad = env.run(&login, b"lip_wrong\n", LIMIT);
    assert_eq!(bad.code, Some(1), "{}{}", bad.stdout, bad.stderr);
    assert!(
        bad.stderr
            .contains("lichess nimmt diesen Schlüssel nicht an"),
        "{}",
        bad.stderr
    );
    let good = env.run(&login, format!("{TOKEN}\n").as_bytes(), LIMIT);
    assert_eq!(good.code, Some(0), "{}{}", good.stdout, good.stderr);
    assert!(good.stdout.contains("board:play"), "{}", good.stdout);
    assert!(
        good.stdout.contains("Angemeldet als Blind"),
        "{}",
        good.stdout
    );
    assert!(!good.stdout.contains(TOKEN) && !good.stderr.contains(TOKEN));
    // Stored for this server only: lichess.org's file stays absent.
    let file = dir.0.join("config/hector").join(server.token_file());
    assert!(!dir.0.join("config/hector/lichess-token").exists());
    let text = std::fs::read_to_string(&file).expect("the token is stored");
    assert_eq!(text.trim(), TOKEN);
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&file)
        .expect("metadata")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    // Logging out of lichess.org leaves this server's token; logging out here removes it.
    let out = env.run(&["online", "logout"], b"", LIMIT);
    assert_eq!(out.code, Some(0));
    assert!(file.exists());
    let out = env.run(&["online", "--server", &server.url, "logout"], b"", LIMIT);
    assert_eq!(out.code, Some(0));
    assert!(out.stdout.contains("Abgemeldet"), "{}", out.stdout);
    assert!(!file.exists());
    let again = env.run(&["online", "--server", &server.url, "games"], b"", LIMIT);
    assert_eq!(again.code, Some(1));
    assert!(
        again.stderr.contains("hector online login"),
        "{}",
        again.stderr
    );
}

#[test]
fn a_whole_game_against_the_computer_typed_in_appendix_d_words_is_journaled() {
    let server = Server::start();
    server.script(&["e7e5", "b8c6", "g8f6"]);
    let dir = Dir::new("online-game");
    let mut t = spawn(&server, &dir.0, &["play", "--ai", "1", "--color", "white"]);
    expect(
        &t,
        "Sie spielen Weiß gegen den lichess-Computer, Stufe 1 auf lichess",
    );
    say(&mut t, "Eva vier");
    expect(&t, "Eva fünf");
    say(&mut t, "Läufer Cäsar vier");
    expect(&t, "Springer Cäsar sechs");
    say(&mut t, "brett");
    expect(&t, "Reihe acht");
    say(&mut t, "Dame Hector fünf");
    expect(&t, "Springer Felix sechs");
    say(&mut t, "uhr");
    expect(&t, "Schwarz 15 Minuten. Zeitzuschlag 10 Sekunden pro Zug");
    say(&mut t, "Dame schlägt Felix sieben");
    expect(&t, "Schachmatt");
    assert_eq!(
        server.moves(),
        ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]
    );
    assert_eq!(server.status(), "mate");
    say(&mut t, "ende");
    assert!(
        t.wait_exit(LIMIT).is_some(),
        "hector did not end:\n{}",
        t.all_output()
    );
    let env = Env::player_home(&dir.0);
    let pgn = env.run(&["export", "1"], b"", LIMIT);
    assert_eq!(pgn.code, Some(0), "{}", pgn.stderr);
    assert!(
        pgn.stdout
            .contains(&format!("[Site \"{}/{GAME}\"]", server.url)),
        "{}",
        pgn.stdout
    );
    // The server's times after each move are in the record, as [%clk].
    assert!(
        pgn.stdout.contains("4. Qxf7# { [%clk 0:15:00] } 1-0"),
        "{}",
        pgn.stdout
    );
    // hector analyse judges the online game from its journal like any other.
    // The analysis finds stockfish in /usr/games, which the environment puts on the PATH.
    let judged = env.run(
        &["analyse", "1", "--errors", "--movetime", "50"],
        b"",
        LIMIT,
    );
    assert_eq!(judged.code, Some(0), "{}{}", judged.stdout, judged.stderr);
    assert!(
        judged
            .stdout
            .contains("Zug 3, Schwarz: Springer Felix sechs, grober Fehler"),
        "{}",
        judged.stdout
    );
}

#[test]
fn a_game_left_unfinished_is_continued_online_not_by_hector_resume() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &["e2e4", "e7e5"]);
    let dir = Dir::new("online-leave");
    let mut t = spawn(&server, &dir.0, &["play", "--game", "1"]);
    expect(&t, "Weiß ist am Zug");
    say(&mut t, "ende");
    expect(&t, "Wirklich");
    say(&mut t, "ja");
    assert!(
        t.wait_exit(LIMIT).is_some(),
        "hector did not end:\n{}",
        t.all_output()
    );
    let env = Env::player_home(&dir.0);
    let out = env.run(&["resume", "--screen-reader"], b"", LIMIT);
    assert_ne!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    assert!(!out.stdout.contains("Sie spielen"), "{}", out.stdout);
    let out = env.run(&["resume", "1", "--screen-reader"], b"", LIMIT);
    assert_ne!(out.code, Some(0), "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr
            .contains(&format!("hector online play --game {GAME}")),
        "{}",
        out.stderr
    );
}

#[test]
fn the_opponents_draw_offer_is_said_and_accepted() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &["e2e4", "e7e5"]);
    let dir = Dir::new("online-draw");
    let mut t = spawn(&server, &dir.0, &["play", "--game", "1"]);
    expect(&t, "Sie spielen Weiß gegen Anna auf lichess");
    server.opponent_offers_draw();
    expect(&t, "Anna bietet Remis an. annehmen oder ablehnen");
    say(&mut t, "annehmen");
    expect(&t, "Remis vereinbart");
    assert_eq!(server.status(), "draw");
}

#[test]
fn the_opponents_take_back_request_is_accepted_and_the_move_goes() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &["e2e4"]);
    let dir = Dir::new("online-takeback");
    let mut t = spawn(&server, &dir.0, &["play", "--game", "1"]);
    expect(&t, "Schwarz ist am Zug");
    server.opponent_move("e7e5");
    expect(&t, "Eva fünf");
    server.opponent_proposes_takeback();
    expect(&t, "Anna möchte einen Zug zurücknehmen");
    say(&mut t, "annehmen");
    expect(&t, "Zurückgenommen: ein Halbzug");
    assert_eq!(server.moves(), ["e2e4"]);
    server.opponent_move("c7c5");
    expect(&t, "Cäsar fünf");
}

#[test]
fn a_move_made_while_the_stream_was_down_is_announced_after_reconnecting() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &[]);
    let dir = Dir::new("online-drop");
    let mut t = spawn(&server, &dir.0, &["play", "--game", "1"]);
    expect(&t, "Weiß ist am Zug");
    say_and_hear(&mut t, "Eva vier", "Eva vier");
    assert!(server.wait(LIMIT, |s| {
        s.game.as_ref().is_some_and(|g| g.moves == ["e2e4"])
    }));
    server.drop_streams(Duration::from_millis(1500));
    expect(&t, "Verbindung zu lichess unterbrochen. Ich verbinde neu");
    server.opponent_move("e7e5");
    // The reply that came while down is said, and the connection's return.
    t.expect_each(&["Verbindung wieder da", "Schwarz: Eva fünf"], LIMIT);
    assert_eq!(
        count(&t, "Verbindung zu lichess unterbrochen"),
        1,
        "said once"
    );
    say_and_hear(&mut t, "Springer Felix drei", "Springer Felix drei");
    assert!(server.wait(LIMIT, |s| {
        s.game
            .as_ref()
            .is_some_and(|g| g.moves == ["e2e4", "e7e5", "g1f3"])
    }));
}

/// lichess asks for a full minute after a 429, whatever Retry-After says: "Retry-After: 0"
/// once gave thousands of requests a second. Nothing goes out meanwhile, neither the move
/// again, nor a draw offer, nor the stream made again (the move goes after the minute: the
/// unit tests of io::lichess show it with a shorter least wait).
#[test]
fn a_429_is_waited_out_a_full_minute_whatever_retry_after_says() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &[]);
    let dir = Dir::new("online-429");
    let mut t = spawn(&server, &dir.0, &["play", "--game", "1"]);
    expect(&t, "Weiß ist am Zug");
    server.set(|s| {
        s.retry_after = Some("0".into());
        s.limited = u32::MAX;
    });
    say_and_hear(
        &mut t,
        "David vier",
        "lichess bittet zu warten: 60 Sekunden",
    );
    say_and_hear(&mut t, "remis", "Remis angeboten");
    server.drop_streams(Duration::ZERO);
    expect(&t, "Verbindung zu lichess unterbrochen");
    let before = server.requests().len();
    // A window to watch: every request in it would be one too many.
    let more = server.wait(Duration::from_secs(3), |s| s.requests.len() > before);
    let requests = server.requests();
    assert!(!more, "{:?}", &requests[before.saturating_sub(3)..]);
    let actions = format!("POST /api/board/game/{GAME}/");
    assert_eq!(server.count(&actions), 1, "{requests:?}");
    assert_eq!(
        count(&t, "lichess bittet zu warten"),
        1,
        "{}",
        t.all_output()
    );
}

#[test]
fn a_revoked_token_is_said_and_nothing_is_played() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &[]);
    let dir = Dir::new("online-401");
    let mut t = spawn(&server, &dir.0, &["play", "--game", "1"]);
    expect(&t, "Weiß ist am Zug");
    server.revoke();
    say(&mut t, "Eva vier");
    expect(
        &t,
        "lichess nimmt den Zugang nicht mehr an. Bitte neu anmelden: hector online login",
    );
    assert!(server.moves().is_empty());
    say(&mut t, "brett");
    expect(&t, "Reihe acht");
    say(&mut t, "ende");
    expect(&t, "Wirklich");
    say(&mut t, "ja");
    assert!(
        t.wait_exit(LIMIT).is_some(),
        "hector did not end:\n{}",
        t.all_output()
    );
    // Starting with a revoked token says so at once.
    let env = Env::player_home(&dir.0).token(TOKEN);
    let out = env.run(&["online", "--server", &server.url, "games"], b"", LIMIT);
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr
            .contains("lichess nimmt den Zugang nicht mehr an"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_game_on_the_simulated_peg_board() {
    let server = Server::start();
    server.script(&["e7e5", "b8c6"]);
    let dir = Dir::new("online-peg");
    let link = dir.0.join("board");
    let mut sim = Simulator::start("peg", &link);
    let link_text = link.display().to_string();
    let mut t = spawn(
        &server,
        &dir.0,
        &[
            "play",
            "--ai",
            "2",
            "--color",
            "white",
            "--board",
            &link_text,
            "--protocol",
            "peg",
        ],
    );
    expect(&t, "Weiß ist am Zug");
    sim.send("move e2e4");
    expect(&t, "Eva vier");
    expect(&t, "Eva fünf");
    // The opponent's move is carried out on the peg board, peg by peg.
    for step in ["lift e7", "place e5"] {
        sim.send(step);
    }
    expect(&t, "Zug auf dem Brett ausgeführt");
    for step in ["lift g1", "place f3"] {
        sim.send(step);
    }
    expect(&t, "Springer Felix drei");
    expect(&t, "Springer Cäsar sechs");
    assert!(server.wait(LIMIT, |s| {
        s.game
            .as_ref()
            .is_some_and(|g| g.moves == ["e2e4", "e7e5", "g1f3", "b8c6"])
    }));
    // The player's own moves, made on the board, are not asked of the board again.
    assert_eq!(
        count(&t, "Zug auf dem Brett ausgeführt"),
        1,
        "{}",
        t.all_output()
    );
    say(&mut t, "letzter");
    expect(&t, "Zuletzt: Zug 2, Schwarz: Springer Cäsar sechs");
}

#[test]
fn games_lists_the_games_in_progress_and_the_full_screen_shows_the_game() {
    let server = Server::start();
    server.add_game(Color::Black, "Anna", &["e2e4"]);
    let dir = Dir::new("online-screen");
    let env = Env::player_home(&dir.0).token(TOKEN);
    let out = env.run(&["online", "--server", &server.url, "games"], b"", LIMIT);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout.contains(&format!(
            "1. gegen Anna, Sie spielen Schwarz, Sie sind am Zug ({GAME})"
        )),
        "{}",
        out.stdout
    );
    let args = [
        "online",
        "--server",
        &server.url,
        "--speech",
        "print",
        "play",
        "--game",
        "1",
    ];
    let mut t = env.spawn(&args);
    assert!(
        t.wait_for_screen("Zug oder Befehl", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"Eva fuenf\r");
    assert!(t.wait_for_screen("Eva fünf", LIMIT), "{}", t.screen());
    assert!(server.wait(LIMIT, |s| {
        s.game.as_ref().is_some_and(|g| g.moves.len() == 2)
    }));
    // The move list shows the move sent (the clocks were shown from the start).
    assert!(t.wait_for_screen("1. e4 e5", LIMIT), "{}", t.screen());
    assert!(t.screen().contains("Schwarz 15:"), "{}", t.screen());
    t.send(b"\x11");
    assert!(t.wait_for_screen("Wirklich", LIMIT), "{}", t.screen());
}

/// On the full screen the board takes moves as in hector play: Tab, a piece letter, Space,
/// a rank digit, Left, Space sends 1. Nf3 to lichess.
#[test]
fn a_move_made_on_the_screens_board_is_sent_to_lichess() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &[]);
    let dir = Dir::new("online-board-keys");
    let env = Env::player_home(&dir.0).token(TOKEN);
    let args = [
        "online",
        "--server",
        &server.url,
        "--speech",
        "print",
        "play",
        "--game",
        "1",
    ];
    let mut t = env.spawn_sized(&args, 100, 30);
    assert!(
        t.wait_for_screen("Weiß ist am Zug", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"\t");
    assert!(t.wait_for_screen("Brett: ", LIMIT), "{}", t.screen());
    t.send(b"s");
    t.send(b"s");
    assert!(
        t.wait_for_screen("Gustav eins: weißer Springer", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b" ");
    assert!(
        t.wait_for_screen("Springer Gustav eins aufgenommen", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"3");
    assert!(
        t.wait_for_screen("Gustav drei: leer", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"\x1b[D");
    assert!(
        t.wait_for_screen("Felix drei: leer", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b" ");
    assert!(server.wait(LIMIT, |s| {
        s.game.as_ref().is_some_and(|g| g.moves == ["g1f3"])
    }));
    assert!(
        t.wait_for_screen("Springer Felix drei", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"\x11");
    assert!(t.wait_for_screen("Wirklich", LIMIT), "{}", t.screen());
}

#[test]
fn a_seek_and_a_challenge_start_games_and_a_declined_challenge_is_said() {
    let server = Server::start();
    let dir = Dir::new("online-seek");
    let mut t = spawn(&server, &dir.0, &["play", "--seek", "10+5"]);
    expect(&t, "Warte auf den Beginn der Partie");
    expect(&t, "Sie spielen Weiß gegen Bruno auf lichess");
    say(&mut t, "Eva vier");
    assert!(server.wait(LIMIT, |s| {
        s.game.as_ref().is_some_and(|g| g.moves == ["e2e4"])
    }));
    assert!(
        server
            .requests()
            .iter()
            .any(|r| r == "POST /api/board/seek")
    );
    drop(t);

    let server = Server::start();
    let t = spawn(&server, &dir.0, &["play", "--challenge", "Carla"]);
    expect(&t, "Sie spielen Weiß gegen Carla auf lichess");
    assert!(
        server
            .requests()
            .iter()
            .any(|r| r == "POST /api/challenge/Carla")
    );
    drop(t);

    let server = Server::start();
    let env = Env::player_home(&dir.0).token(TOKEN);
    let out = env.run(
        &[
            "online",
            "--server",
            &server.url,
            "play",
            "--challenge",
            "Nobody",
            "--screen-reader",
        ],
        b"",
        LIMIT,
    );
    assert_eq!(out.code, Some(1));
    assert!(
        out.stderr
            .contains("Die Herausforderung wurde abgelehnt: I'm not accepting challenges"),
        "{}{}",
        out.stdout,
        out.stderr
    );
}

/// The board API allows public seeks only for rapid and classical games, and nothing faster
/// than blitz: a faster time control is refused with the rule before anything is sent.
#[test]
fn a_time_control_the_board_api_refuses_is_refused_before_asking() {
    let server = Server::start();
    let dir = Dir::new("online-speed");
    let env = Env::player_home(&dir.0).token(TOKEN);
    for (args, said) in [
        (
            &["--seek", "3+2"][..],
            "3+2 ist zu schnell für eine offene Suche",
        ),
        (
            &["--challenge", "Carla", "--time", "1+0"][..],
            "1+0 ist zu schnell: ",
        ),
        (
            &["--seek", "schnell"][..],
            "schnell: Minuten+Sekunden, etwa 15+10",
        ),
    ] {
        let mut line = vec!["online", "--server", &server.url, "play", "--screen-reader"];
        line.extend_from_slice(args);
        let out = env.run(&line, b"", LIMIT);
        assert_eq!(out.code, Some(1), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(said), "{args:?}: {}", out.stderr);
    }
    assert!(
        !server
            .requests()
            .iter()
            .any(|r| r.starts_with("POST /api/board/seek") || r.starts_with("POST /api/challenge")),
        "{:?}",
        server.requests()
    );
}

#[test]
fn the_players_own_requests_chat_and_a_claim_when_the_opponent_left() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &["e2e4", "e7e5", "g1f3", "b8c6"]);
    let dir = Dir::new("online-requests");
    let mut t = spawn(&server, &dir.0, &["play", "--game", "1"]);
    expect(&t, "Weiß ist am Zug");
    // A draw offer, declined.
    say(&mut t, "remis");
    expect(&t, "Remis angeboten");
    assert!(server.wait(LIMIT, |s| s.game.as_ref().is_some_and(|g| g.draw[0])));
    server.opponent_answers(false);
    expect(&t, "Anna hat das Remis abgelehnt");
    // A take-back of the player's last move, accepted.
    say(&mut t, "zurück");
    expect(&t, "Rücknahme erbeten");
    assert!(server.wait(LIMIT, |s| s.game.as_ref().is_some_and(|g| g.takeback[0])));
    server.opponent_answers(true);
    expect(&t, "Zurückgenommen: 2 Halbzüge");
    assert_eq!(server.moves(), ["e2e4", "e7e5"]);
    // Chat both ways.
    server.opponent_says("Viel Glück");
    expect(&t, "Nachricht von Anna. chat liest sie vor");
    say(&mut t, "chat");
    expect(&t, "Anna: Viel Glück");
    say(&mut t, "sag Danke, gleichfalls");
    expect(&t, "Nachricht gesendet");
    assert!(server.wait(LIMIT, |s| {
        s.requests
            .iter()
            .any(|r| r == &format!("POST /api/board/game/{GAME}/chat"))
    }));
    // The opponent leaves; the win is claimed when the server allows.
    server.opponent_gone(0);
    expect(&t, "Anna ist nicht mehr verbunden");
    expect(&t, "Sie können jetzt den Sieg reklamieren: sieg");
    say(&mut t, "sieg");
    expect(&t, "Anna hat die Partie verlassen");
    expect(&t, "Partie beendet");
    assert_eq!(server.status(), "timeout");
}

#[test]
fn a_broken_or_oversized_stream_line_is_said_and_the_game_goes_on() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &["e2e4"]);
    let dir = Dir::new("online-broken");
    let t = spawn(&server, &dir.0, &["play", "--game", "1"]);
    expect(&t, "Schwarz ist am Zug");
    server.inject(r#"{"type":"gameState","moves":42"#);
    expect(
        &t,
        "Eine Nachricht von lichess war unlesbar und wird übergangen",
    );
    server.inject(&format!(
        r#"{{"type":"chatLine","text":"{}"}}"#,
        "x".repeat(1_100_000)
    ));
    expect(
        &t,
        "Eine Nachricht von lichess war länger als ein Megabyte und wird übergangen",
    );
    server.opponent_move("e7e5");
    expect(&t, "Eva fünf");
}

#[test]
fn a_correspondence_seek_is_said_back_and_left_on_lichess_and_a_real_time_one_has_its_range() {
    let server = Server::start();
    let dir = Dir::new("online-daily-seek");
    let mut t = spawn(
        &server,
        &dir.0,
        &[
            "play",
            "--seek",
            "--days",
            "3",
            "--rating-range",
            "1500-1800",
            "--rated",
        ],
    );
    expect(
        &t,
        "Offene Suche: Fernpartie, 3 Tage pro Zug, gewertet, Standardschach, Farbe zufällig, Gegner von 1500 bis 1800",
    );
    expect(&t, "Die Suche steht auf lichess, bis jemand annimmt");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let forms = server.snapshot().relay.forms;
    assert_eq!(forms.len(), 1, "{forms:?}");
    assert!(forms[0].contains("days=3"), "{forms:?}");
    assert!(forms[0].contains("ratingRange=1500-1800"), "{forms:?}");
    assert!(!forms[0].contains("time="), "{forms:?}");
    // A bad range and days with a time are refused before anything is sent.
    let mut bad = spawn(
        &server,
        &dir.0,
        &["play", "--seek", "--rating-range", "1800-1500"],
    );
    expect(&bad, "1800-1500: eine Wertungsspanne wie 1500-1800");
    assert_eq!(bad.wait_exit(LIMIT), Some(1), "{}", bad.all_output());
    let mut both = spawn(&server, &dir.0, &["play", "--seek", "15+10", "--days", "2"]);
    expect(
        &both,
        "--days ist eine Fernpartie ohne Uhr; 15+10 geht nicht zusammen damit",
    );
    assert_eq!(both.wait_exit(LIMIT), Some(1), "{}", both.all_output());
    assert_eq!(server.snapshot().relay.forms.len(), 1);
    // A real-time seek is said back with its range, and sends it.
    server.set(|s| s.relay.daily = None);
    let mut rt = spawn(
        &server,
        &dir.0,
        &[
            "play",
            "--seek",
            "15+10",
            "--rating-range",
            "1400-1900",
            "--color",
            "white",
        ],
    );
    expect(
        &rt,
        "Offene Suche: 15 Minuten plus 10 Sekunden, ungewertet, Standardschach, Sie spielen Weiß, Gegner von 1400 bis 1900",
    );
    expect(&rt, "Weiß ist am Zug");
    assert!(
        server
            .snapshot()
            .relay
            .forms
            .last()
            .is_some_and(|f| f.contains("ratingRange=1400-1900") && f.contains("time=15")),
        "{:?}",
        server.snapshot().relay.forms
    );
    say(&mut rt, "ende");
    expect(&rt, "Wirklich");
    say(&mut rt, "ja");
    assert!(rt.wait_exit(LIMIT).is_some(), "{}", rt.all_output());
    drop(t);
}

#[test]
fn a_daily_game_says_days_and_hours_and_is_left_after_a_move_without_resigning() {
    let server = Server::start();
    server.add_game(Color::White, "Anna", &["e2e4", "e7e5"]);
    server.set(|s| {
        s.relay.daily = Some(3);
        let g = s.game.as_mut().unwrap();
        g.wtime = (2 * 24 + 5) * 3_600_000;
        g.btime = 3 * 24 * 3_600_000;
    });
    let dir = Dir::new("online-daily");
    let env = Env::player_home(&dir.0).token(TOKEN);
    let list = env.run(&["online", "--server", &server.url, "games"], b"", LIMIT);
    assert!(
        list.stdout.contains(
            "1. gegen Anna, Sie spielen Weiß, Sie sind am Zug, Fernpartie, noch 2 Tage 5 Stunden"
        ),
        "{}{}",
        list.stdout,
        list.stderr
    );
    let mut t = spawn(&server, &dir.0, &["play", "--game", "1"]);
    expect(&t, "Fernpartie, 3 Tage pro Zug");
    expect(&t, "Weiß ist am Zug. Weiß noch 2 Tage 5 Stunden");
    say_and_hear(&mut t, "uhr", "Schwarz noch 3 Tage");
    say_and_hear(&mut t, "Springer Felix drei", "Springer Felix drei");
    expect(&t, "ende verlässt sie jetzt, ohne aufzugeben");
    say(&mut t, "ende");
    expect(
        &t,
        "Sie verlassen die Fernpartie, ohne aufzugeben oder abzubrechen",
    );
    expect(&t, "Zurück mit:");
    assert!(
        t.wait_exit(LIMIT).is_some(),
        "hector did not end:\n{}",
        t.all_output()
    );
    assert_eq!(server.status(), "started");
    assert_eq!(server.moves(), ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(server.count("POST /api/board/game/Xy7Gm2Qa/resign"), 0);
    assert_eq!(server.count("POST /api/board/game/Xy7Gm2Qa/abort"), 0);
    // A daily challenge is said back and its game says its days per move.
    let server = Server::start();
    let mut c = spawn(
        &server,
        &dir.0,
        &[
            "play",
            "--challenge",
            "Bruno",
            "--days",
            "7",
            "--color",
            "white",
        ],
    );
    expect(
        &c,
        "Herausforderung an Bruno: Fernpartie, 7 Tage pro Zug, ungewertet, Standardschach, Sie spielen Weiß",
    );
    expect(
        &c,
        "Sie spielen Weiß gegen Bruno auf lichess. Fernpartie, 7 Tage pro Zug",
    );
    assert!(
        server
            .snapshot()
            .relay
            .forms
            .iter()
            .any(|f| f.contains("days=7") && !f.contains("clock.limit")),
        "{:?}",
        server.snapshot().relay.forms
    );
    say(&mut c, "ende");
    assert!(
        c.wait_exit(LIMIT).is_some(),
        "hector did not end:\n{}",
        c.all_output()
    );
}

/// The server's clock: the player's low-clock sound once, when White's 31.5 s run under the
/// default 30 s; not at the start, and not again though every move the server reports
/// gives White its 31.5 s back to run under once more.
#[test]
fn the_low_clock_sounds_once_when_the_servers_time_falls_under_it() {
    use common::SpeechDaemon;
    use common::cues::{played_until, sound_config};
    let server = Server::start();
    server.add_game(Color::White, "Anna", &["e2e4", "e7e5"]);
    server.set(|s| {
        if let Some(g) = s.game.as_mut() {
            g.wtime = 31_500;
        }
    });
    server.script(&["b8c6"]);
    let dir = Dir::new("online-low-clock");
    let daemon = SpeechDaemon::capturing();
    let config = sound_config(&dir.0, &daemon, "");
    let mut t = Env::player_home(&dir.0)
        .token(TOKEN)
        .speech(&daemon)
        .config_file(&config)
        .var("HECTOR_SOUNDS", "")
        .spawn(&[
            "online",
            "--server",
            &server.url,
            "--speech",
            "speech-dispatcher",
            "play",
            "--game",
            "1",
            "--screen-reader",
        ]);
    let low = || {
        daemon
            .spoken()
            .iter()
            .filter(|l| *l == "icon|low-clock")
            .count()
    };
    let start = played_until(&daemon, 0, "de|Sie spielen Weiß gegen Anna");
    assert!(!start.iter().any(|l| l == "icon|low-clock"), "{start:?}");
    played_until(&daemon, 0, "icon|low-clock");
    assert_eq!(low(), 1, "{:?}", daemon.spoken());
    let from = daemon.spoken().len();
    say(&mut t, "Springer Felix drei");
    played_until(&daemon, from, "de|Schwarz: Springer Cäsar sechs");
    // White's time told again (31.5 s) runs under 30 s once more: no sound this time.
    std::thread::sleep(Duration::from_millis(2500));
    let from = daemon.spoken().len();
    say(&mut t, "uhr");
    let clock = played_until(&daemon, from, "de|Weiß");
    // Under the threshold again ("Weiß 29 Sekunden"), and still only the one sound.
    assert!(
        clock[0].starts_with("de|Weiß 2") && clock[0].ends_with(" Sekunden."),
        "{clock:?}"
    );
    assert_eq!(low(), 1, "{:?}", daemon.spoken());
    say(&mut t, "ende");
    expect(&t, "Wirklich");
    say(&mut t, "ja");
    assert!(t.wait_exit(LIMIT).is_some(), "{}", t.all_output());
}
