//! Text from outside reaches the terminal with its control characters shown as `\xNN`: a
//! crafted journal's player names, event and opponent in `hector games` and `hector export
//! --text`, and an engine whose `id name` carries escape sequences.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::time::Duration;

use common::{Env, temp_dir};
use hector::core::record::{Entry, Header, encode_entry, encode_header};

const LIMIT: Duration = Duration::from_secs(30);

/// What a terminal would obey: ESC, BEL, CSI and OSC introducers.
fn assert_inert(what: &str, text: &str) {
    for c in ['\u{1b}', '\u{7}', '\u{9b}', '\u{9d}'] {
        assert!(
            !text.contains(c),
            "{what} sends {c:?} to the terminal: {text:?}"
        );
    }
}

#[test]
fn a_crafted_journals_names_are_shown_escaped_in_games_and_export_text() {
    let dir = temp_dir("escapes-journal");
    let games = dir.join("data/games");
    std::fs::create_dir_all(&games).unwrap();
    let mut header = Header::new(
        "2026-11-23T20:00:00Z\u{1b}[2J",
        "Anna\u{1b}]0;pwned\u{7}",
        "Bruno\u{9b}31m",
    );
    header.event = "Open\u{1b}[5m".into();
    header.opponent = "engine Evil\u{1b}[?1049h".into();
    let mut bytes = encode_header(&header).unwrap();
    bytes.extend(
        encode_entry(&Entry::Setting {
            key: "opponent".into(),
            value: "keyboard".into(),
        })
        .unwrap(),
    );
    std::fs::write(games.join("2026-11-23_200000_0001.journal"), bytes).unwrap();
    let env = Env::player_home(&dir);
    let list = env.run(&["games"], b"", LIMIT);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    assert_inert("hector games", &list.stdout);
    assert!(
        list.stdout.contains(r"Anna\x1B]0;pwned\x07") && list.stdout.contains(r"Bruno\x9B31m"),
        "{}",
        list.stdout
    );
    let text = env.run(&["export", "1", "--text"], b"", LIMIT);
    assert_eq!(text.code, Some(0), "{}", text.stderr);
    assert_inert("hector export --text", &text.stdout);
    assert!(
        text.stdout.contains(r"Anna\x1B]0;pwned\x07") && text.stdout.contains(r"Open\x1B[5m"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains(r"Evil\x1B[?1049h"), "{}", text.stdout);
    let pgn = env.run(&["export", "1"], b"", LIMIT);
    assert_inert("hector export", &pgn.stdout);
}

/// An engine that names itself with escape sequences: its name is shown, and recorded,
/// escaped.
#[test]
fn an_engines_id_name_is_shown_escaped() {
    let dir = temp_dir("escapes-engine");
    let engine = dir.join("evil-engine");
    std::fs::write(
        &engine,
        "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n    uci) printf 'id name Evil\\033]0;pwned\\007\\nuciok\\n';;\n    isready) echo readyok;;\n    go*) echo 'bestmove e7e5';;\n    quit) exit 0;;\n  esac\ndone\n",
    )
    .unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let env = Env::player_home(&dir);
    let engine_arg = format!("engine:{}", engine.display());
    let mut t = env.spawn(&[
        "play",
        "--new",
        "--opponent",
        &engine_arg,
        "--speech",
        "print",
        "--screen-reader",
    ]);
    assert!(
        t.wait_for("Zug oder Befehl", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"Eva vier\r");
    assert!(
        t.wait_for("Eva fünf", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    // Asked for, the opponent is named with its name shown escaped.
    t.send(b"gegner\r");
    assert!(
        t.wait_for(r"Gegner: Evil\x1B]0;pwned\x07, Stufe 1", LIMIT)
            .is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ende\r");
    assert!(
        t.wait_for("Wirklich", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ja\r");
    assert!(t.wait_exit(LIMIT).is_some(), "{}", t.all_output());
    assert!(
        !t.all_output().contains("Evil\u{1b}"),
        "{:?}",
        t.all_output()
    );
    let list = env.run(&["games"], b"", LIMIT);
    assert_inert("hector games", &list.stdout);
    assert!(
        list.stdout.contains(r"Evil\x1B]0;pwned\x07"),
        "{}",
        list.stdout
    );
    let text = env.run(&["export", "1", "--text"], b"", LIMIT);
    assert_inert("hector export --text", &text.stdout);
    assert!(
        text.stdout.contains(r"Evil\x1B]0;pwned\x07"),
        "{}",
        text.stdout
    );
}
