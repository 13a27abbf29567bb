//! The lichess surfaces tried against a hostile stand-in (tests/common/lichess.rs, 127.0.0.1
//! only), the real binary in pseudo-terminals and with pipes: a refused or redirected round
//! leaves hector idle (no core spun while it waits for the player); a reason the server leaves
//! empty is said by its status; names and text of any length are cut before they are said; a
//! round keeps at most 100 boards with memory flat; a server that closes every connection is
//! not said to be back until one holds; the watch sends no token, and a token stored for
//! lichess.org goes nowhere else; challenges are kept alive and their clocks checked; the list
//! of games asks for all of them; a token without puzzle:read is said and the puzzle still
//! comes; options that need a round are refused without one; and the arbiter's push whose
//! answer drips is given up, said once and sent again with the newest games.

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

use std::path::Path;
use std::time::{Duration, Instant};

use common::pty::Pty;
use common::{Env, temp_dir};
use lichess::{ROUND, RoundMode, Server, TOKEN};

const LIMIT: Duration = Duration::from_secs(30);

fn watch(server: &Server, dir: &Path, args: &[&str]) -> Pty {
    let mut all = vec!["watch", "--server", &server.url, "--speech", "print"];
    all.extend_from_slice(args);
    all.push("--screen-reader");
    // A token in the environment: the watch must not send it.
    Env::player(dir).token(TOKEN).spawn(&all)
}

/// Where the text hector has written so far ends: what comes after it is the answer to what
/// the test does next.
fn mark(t: &Pty) -> usize {
    t.all_output().len()
}

/// Waits until `needle` appears after `from`.
fn after(t: &Pty, from: usize, needle: &str) {
    let deadline = Instant::now() + LIMIT;
    loop {
        let text = t.all_output();
        if text.get(from..).is_some_and(|new| new.contains(needle)) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "hector did not say {needle:?}; after {from} it said:\n{}",
            text.get(from..).unwrap_or("")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn say(t: &mut Pty, line: &str) {
    t.send(format!("{line}\r").as_bytes());
}

fn game(white: &str, black: &str, moves: &str, result: &str) -> String {
    // The game's address names it again: by its White (the first 40 characters).
    let id: String = white.chars().take(40).collect();
    format!(
        "[Event \"Open\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[GameURL \"https://lichess.org/broadcast/open/round-1/{ROUND}/{id}\"]\n\n{moves} {result}"
    )
}

/// The processor time hector has used so far, in clock ticks (utime + stime of all its
/// threads).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command's name in parentheses; utime and stime are 14 and 15.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// hector's resident memory in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap()
}

/// Waits until hector's processor time stands still: `quiet` in a row in which it used at
/// most 5 % of a core (5 ticks of 100 a second), and fails the test when that never comes.
/// Work still under way (its start, a slow machine) only delays it; a loop that spins, or
/// wakes to work more often than `quiet` allows, never settles.
fn settles(t: &Pty, what: &str, quiet: Duration) {
    let most = quiet.as_millis() as u64 / 200;
    let deadline = Instant::now() + LIMIT;
    let mut samples = std::collections::VecDeque::from([(Instant::now(), cpu_ticks(t.pid()))]);
    loop {
        std::thread::sleep(Duration::from_millis(100));
        let (now, ticks) = (Instant::now(), cpu_ticks(t.pid()));
        samples.push_back((now, ticks));
        // The oldest sample kept is the newest one at least three seconds old.
        while samples
            .get(1)
            .is_some_and(|(at, _)| now.duration_since(*at) >= quiet)
        {
            samples.pop_front();
        }
        let (at, first) = samples[0];
        if now.duration_since(at) >= quiet && ticks - first <= most {
            return;
        }
        assert!(
            now < deadline,
            "{what}: hector kept the processor busy ({} ticks in the last {:?})",
            ticks - first,
            now.duration_since(at)
        );
    }
}

#[test]
fn a_refused_or_redirected_round_is_said_with_its_reason_and_leaves_hector_idle() {
    for (mode, reason) in [
        // A 404 in hector's words; another status with the status line's meaning, as the
        // server sent no reason of its own.
        (
            RoundMode::EmptyRefusal,
            "keine solche Übertragung oder Partie",
        ),
        (RoundMode::Redirect, "abgelehnt mit HTTP 302: Found"),
    ] {
        let server = Server::start();
        server.set(|s| s.relay.round_mode = mode);
        let dir = temp_dir("hostile-refused");
        let mut t = watch(&server, dir.path(), &["--broadcast", ROUND]);
        let said = format!("lichess liefert nichts: {reason}");
        after(&t, 0, &said);
        let said_at = t.nth_seen_in_all_output(&said, 0).expect("said");
        assert!(!t.all_output().contains(": ."), "{}", t.all_output());
        settles(&t, reason, Duration::from_secs(3));
        // Asked again, the round would be asked within the first backoff (1 s): waited for
        // three times that after the refusal was said.
        let retry_by = said_at + Duration::from_secs(3);
        while Instant::now() < retry_by {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(server.count("GET /api/stream/broadcast"), 1, "{mode:?}");
        let from = mark(&t);
        say(&mut t, "bretter");
        after(&t, from, "Noch ist keine Partie angekommen");
        say(&mut t, "ende");
        assert!(t.wait_exit(LIMIT).is_some(), "{}", t.all_output());
        // The watch's streams are public: no token went with them.
        assert!(server.snapshot().authorizations.is_empty());
    }
}

#[test]
fn server_text_of_any_length_is_cut_before_it_is_said() {
    let server = Server::start();
    let long_name = "N".repeat(100_000);
    server.relay_games(&[game(&long_name, "Bert", "1. e4", "*")]);
    let dir = temp_dir("hostile-names");
    let mut t = watch(&server, dir.path(), &["--broadcast", ROUND]);
    after(&t, 0, "Sie verfolgen Brett 1, NNNN");
    // A broken game whose FEN is half a megabyte: its reason is cut too.
    let from = mark(&t);
    server.relay_inject(&format!(
        "[White \"A\"]\n[Black \"B\"]\n[SetUp \"1\"]\n[FEN \"{}\"]\n\n1. e4 *",
        "8/".repeat(250_000)
    ));
    after(&t, from, "unlesbar");
    say(&mut t, "bretter");
    after(&t, from, "gegen Bert");
    let text = t.all_output();
    assert!(text.len() < 20_000, "{} bytes said", text.len());
    assert!(
        text.lines().all(|l| l.chars().count() < 1_000),
        "a line of {} characters",
        text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
    );
    say(&mut t, "ende");
    assert!(t.wait_exit(LIMIT).is_some(), "{}", t.all_output());
}

#[test]
fn a_round_keeps_at_most_100_boards_and_its_memory_stays_flat() {
    let server = Server::start();
    server.relay_games(&[game("Anna", "Bert", "1. e4", "*")]);
    let dir = temp_dir("hostile-boards");
    let t = watch(&server, dir.path(), &["--broadcast", ROUND, "--all-boards"]);
    after(&t, 0, "Sie verfolgen Brett 1, Anna gegen Bert");
    // The baseline once its start's work is done.
    settles(&t, "the start", Duration::from_secs(1));
    let before = rss_kib(t.pid());
    let flood: Vec<String> = (0..10_000)
        .map(|i| game(&format!("Flood{i:05}"), "Black", "1. d4 d5", "*"))
        .collect();
    for g in &flood {
        server.relay_inject(g);
    }
    // After the flood, a move of the board followed: said once the flood is read.
    server.relay_update(0, &game("Anna", "Bert", "1. e4 c5", "*"));
    let deadline = Instant::now() + Duration::from_secs(120);
    while !t.all_output().contains("Cäsar fünf") {
        assert!(Instant::now() < deadline, "the flood was not read in time");
        std::thread::sleep(Duration::from_millis(50));
    }
    let grown = rss_kib(t.pid()).saturating_sub(before);
    let text = t.all_output();
    assert_eq!(
        text.matches("mehr als 100 Bretter").count(),
        1,
        "the limit is said once"
    );
    let announced = text.matches("Neues Brett").count();
    assert!(announced < 100, "{announced} new boards announced");
    assert!(grown < 12 * 1024, "memory grew by {grown} KiB");
}

#[test]
fn a_server_that_closes_every_connection_is_not_said_to_be_back_until_one_holds() {
    let server = Server::start();
    server.set(|s| s.relay.keep_alive = Some(Duration::from_millis(200)));
    server.relay_games(&[game("Anna", "Bert", "1. e4", "*")]);
    server.set(|s| s.relay.round_mode = RoundMode::CloseAfterGames);
    let dir = temp_dir("hostile-closing");
    let t = watch(&server, dir.path(), &["--broadcast", ROUND]);
    after(&t, 0, "Sie verfolgen Brett 1");
    // Connections closed at once: "interrupted" once, never "back". A third stream opened is
    // the signal that hector has met two closes and tried again after each.
    let deadline = Instant::now() + LIMIT;
    while server.snapshot().relay.round_streams_opened < 3 {
        assert!(Instant::now() < deadline, "hector did not connect again");
        std::thread::sleep(Duration::from_millis(20));
    }
    let text = t.all_output();
    assert_eq!(
        text.matches("Verbindung zu lichess unterbrochen").count(),
        1,
        "{text}"
    );
    assert_eq!(text.matches("Verbindung wieder da").count(), 0, "{text}");
    // A connection that holds is said back, once.
    let from = mark(&t);
    server.set(|s| s.relay.round_mode = RoundMode::Normal);
    after(&t, from, "Verbindung wieder da");
    // The connection holds: ten keep-alives go out on it and no stream is opened again, so
    // nothing could be back a second time.
    let (opened, sent) = {
        let s = server.snapshot();
        (s.relay.round_streams_opened, s.relay.keep_alives_sent)
    };
    let deadline = Instant::now() + LIMIT;
    while server.snapshot().relay.keep_alives_sent < sent + 10 {
        assert!(Instant::now() < deadline, "the connection did not hold");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(server.snapshot().relay.round_streams_opened, opened);
    assert_eq!(t.all_output().matches("Verbindung wieder da").count(), 1);
}

#[test]
fn a_token_stored_for_lichess_goes_to_no_other_server() {
    let server = Server::start();
    let dir = temp_dir("hostile-token");
    let config = dir.path().join("config/hector");
    std::fs::create_dir_all(&config).unwrap();
    let stored = config.join("lichess-token");
    std::fs::write(&stored, format!("{TOKEN}\n")).unwrap();
    std::fs::set_permissions(&stored, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let env = Env::player_home(dir.path());
    let r = env.run(&["online", "--server", &server.url, "games"], b"", LIMIT);
    assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("Nicht angemeldet"), "{}", r.stderr);
    assert!(server.requests().is_empty(), "{:?}", server.requests());
    assert!(server.snapshot().authorizations.is_empty());
    // Logged in there, it goes there.
    let login = env.run(
        &["online", "--server", &server.url, "login"],
        format!("{TOKEN}\n").as_bytes(),
        LIMIT,
    );
    assert_eq!(login.code, Some(0), "{}", login.stderr);
    let r = env.run(&["online", "--server", &server.url, "games"], b"", LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
}

#[test]
fn every_game_in_progress_is_listed_and_numbered() {
    let server = Server::start();
    server.add_game(shakmaty::Color::White, "Carla", &[]);
    server.set(|s| s.relay.extra_games = 12);
    let dir = temp_dir("hostile-games");
    let env = Env::player_home(dir.path()).token(TOKEN);
    let r = env.run(&["online", "--server", &server.url, "games"], b"", LIMIT);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("13. gegen Carla"),
        "the thirteenth game is listed:\n{}",
        r.stdout
    );
    assert_eq!(
        server.count("GET /api/account/playing?nb=50"),
        1,
        "{:?}",
        server.requests()
    );
}

#[test]
fn a_challenge_is_kept_alive_while_it_waits_and_its_clock_is_checked_first() {
    let server = Server::start();
    server.set(|s| s.relay.accept_after = Some(Duration::from_millis(1500)));
    let dir = temp_dir("hostile-challenge");
    let env = Env::player_home(dir.path()).token(TOKEN);
    // An increment lichess does not offer: refused before anything is sent.
    let r = env.run(
        &[
            "online",
            "--server",
            &server.url,
            "play",
            "--challenge",
            "Carla",
            "--time",
            "5+90",
            "--speech",
            "print",
            "--screen-reader",
        ],
        b"",
        LIMIT,
    );
    assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("das Inkrement höchstens 60 Sekunden"),
        "{}",
        r.stderr
    );
    assert_eq!(server.count("POST /api/challenge"), 0);
    // A real-time challenge goes with keepAliveStream and is kept open until accepted.
    let t = env.spawn(&[
        "online",
        "--server",
        &server.url,
        "play",
        "--challenge",
        "Carla",
        "--speech",
        "print",
        "--screen-reader",
    ]);
    let open = server.wait(LIMIT, |s| s.relay.challenges_open == 1);
    assert!(
        open,
        "the challenge's answer was not kept open:\n{}",
        t.all_output()
    );
    after(&t, 0, "Carla");
    assert!(
        server.wait(LIMIT, |s| s.game.is_some()),
        "the challenge was not accepted"
    );
    let s = server.snapshot();
    assert!(
        s.relay
            .forms
            .iter()
            .any(|f| f.contains("keepAliveStream=true")),
        "{:?}",
        s.relay.forms
    );
    assert_eq!(s.relay.challenges_expired, 0);
    drop(s);
    // The game itself is another test's: hector is ended with the terminal.
    drop(t);
}

#[test]
fn a_token_without_puzzle_read_is_said_and_the_puzzle_still_comes() {
    let server = Server::start();
    let dir = temp_dir("hostile-scope");
    let r = Env::player(dir.path()).token(lichess::OLD_TOKEN).run(
        &[
            "puzzle",
            "--server",
            &server.url,
            "--online",
            "--speech",
            "print",
            "--screen-reader",
        ],
        "lösung\nende\n".as_bytes(),
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("darf keine Aufgaben lesen (puzzle:read)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("Aufgabe A5w9m"), "{}", r.stdout);
    assert_eq!(server.count("GET /api/puzzle/next"), 2);
    // Asked again without the token.
    let auths = server.snapshot().authorizations;
    assert_eq!(
        auths
            .iter()
            .filter(|a| a.contains(lichess::OLD_TOKEN))
            .count(),
        2,
        "the token went with the first request and with the result only: {auths:?}"
    );
}

#[test]
fn options_of_a_round_are_refused_without_one() {
    let server = Server::start();
    let dir = temp_dir("hostile-options");
    for (args, option) in [
        (&["--tv", "--all-boards"][..], "--all-boards"),
        (&["--game", "abc", "--board", "3"][..], "--board"),
    ] {
        let mut all = vec!["watch", "--server", &server.url, "--speech", "print"];
        all.extend_from_slice(args);
        let r = Env::player(dir.path()).run(&all, b"", LIMIT);
        assert_eq!(r.code, Some(2), "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr
                .contains(&format!("{option} geht nur zusammen mit --broadcast")),
            "{}",
            r.stderr
        );
    }
    assert!(server.requests().is_empty());
}

/// The stand-in's state asked for while a change to it is under way fails at once with a
/// message, instead of waiting for itself, and the server goes on serving afterwards.
#[test]
fn the_stand_ins_state_asked_for_twice_fails_instead_of_waiting() {
    // On a thread of its own: were the second hold granted, it would wait for ever.
    let (twice_failed, limited, requests) = common::within(LIMIT, "the second hold", || {
        let server = Server::start();
        let twice = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            server.set(|s| s.limited = server.requests().len() as u32);
        }));
        server.set(|s| s.limited = 1);
        (twice.is_err(), server.snapshot().limited, server.requests())
    });
    assert!(twice_failed, "the second hold was granted");
    assert_eq!(limited, 1);
    assert!(requests.is_empty(), "{requests:?}");
}
