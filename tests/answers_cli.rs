//! Every answer can be heard and read on its own, through the real binary in pseudo-terminals
//! of 80x24: the opponent's move is heard with its label on the full screen (through a private
//! speech-dispatcher with a capturing module), in play against the computer and a second player
//! and online; line mode prints each move once, the prompt once after the last line and no
//! empty line, wrapped at spaces to the width, as a screen reader reads the terminal (a vt100
//! screen); the full screen pages through a long answer with the cursor on it.

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

use std::time::{Duration, Instant};

use common::pty::Pty;
use common::{Env, SpeechDaemon, temp_dir};
use shakmaty::Color;

const LIMIT: Duration = Duration::from_secs(30);

/// The full screen speaks the opponent's move with its label, as line mode shows it: the
/// computer's, a second player's, and online the opponent's.
#[test]
fn the_full_screen_speaks_the_opponents_move_with_its_label() {
    let daemon = SpeechDaemon::capturing();
    let data = temp_dir("label-engine");
    let mut t = Env::player(data.path()).speech(&daemon).spawn_80x24(&[
        "play",
        "--opponent",
        "engine",
        "--level",
        "1",
        "--speech",
        "speech-dispatcher",
    ]);
    t.expect_screen("Zug oder Befehl:", LIMIT);
    t.send(b"e4\r");
    daemon.said("de|Eva vier", LIMIT);
    let reply = daemon.said("de|Computer: ", LIMIT);
    assert!(reply.len() > "de|Computer: ".len(), "{reply}");
    t.send(&[0x11]);
    t.expect_screen("Wirklich beenden?", LIMIT);
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());

    let data = temp_dir("label-keyboard");
    let mut t = Env::player(data.path()).speech(&daemon).spawn_80x24(&[
        "play",
        "--opponent",
        "keyboard",
        "--speech",
        "speech-dispatcher",
    ]);
    t.expect_screen("Zug oder Befehl:", LIMIT);
    t.send(b"e4\r");
    t.send(b"e5\r");
    daemon.said("de|Schwarz: Eva fünf", LIMIT);
    t.send(&[0x11]);
    t.expect_screen("Wirklich beenden?", LIMIT);
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());

    let server = lichess::Server::start();
    server.add_game(Color::White, "Anna", &["e2e4"]);
    let data = temp_dir("label-online");
    let mut t = Env::player(data.path())
        .speech(&daemon)
        .token(lichess::TOKEN)
        .spawn_80x24(&[
            "online",
            "--server",
            &server.url,
            "--speech",
            "speech-dispatcher",
            "play",
            "--game",
            "1",
        ]);
    t.expect_screen("Zug oder Befehl:", LIMIT);
    server.opponent_move("c7c5");
    daemon.said("de|Schwarz: Cäsar fünf", LIMIT);
    t.send(&[0x11]);
    t.expect_screen("Wirklich", LIMIT);
    t.send(b"ja\r");
    assert!(t.wait_exit(LIMIT).is_some(), "{}", t.all_output());
}

/// The terminal as a screen reader reads it: every line written, on a screen tall enough
/// that nothing scrolls away, without the blanks at its end.
fn screen_lines(t: &Pty) -> Vec<String> {
    let size = |n: u16| std::num::NonZeroU16::new(n).expect("a size");
    let mut parser = vt100::Parser::new(size(2000), size(80), 0);
    parser.process(t.all_output().as_bytes());
    let mut lines: Vec<String> = parser
        .screen()
        .contents()
        .lines()
        .map(|l| l.trim_end().to_string())
        .collect();
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}

/// Line mode against the computer: per move the typed line, the move, the reply with its
/// label and one prompt; no empty line; a long answer wrapped at spaces within 80 columns.
#[test]
fn line_mode_prints_each_answer_once_with_one_prompt_after_it() {
    let data = temp_dir("lines");
    let mut t = Env::player(data.path()).spawn_80x24(&[
        "play",
        "--screen-reader",
        "--opponent",
        "engine",
        "--level",
        "1",
    ]);
    let prompt = "Zug oder Befehl:";
    t.expect(prompt, LIMIT);
    let mut moves = 0;
    for typed in ["e4", "Sf3", "bewertung", "brett", "Lc4"] {
        let prompts = |t: &Pty| {
            screen_lines(t)
                .iter()
                .filter(|l| l.starts_with(prompt))
                .count()
        };
        let before = prompts(&t);
        t.send(format!("{typed}\r").as_bytes());
        // Each line is answered before the next is typed: a move by the computer's reply
        // and the prompt after it, a question by its answer and the prompt.
        let deadline = Instant::now() + LIMIT;
        loop {
            let lines = screen_lines(&t);
            let done = prompts(&t) > before && lines.last().is_some_and(|l| l.trim_end() == prompt);
            if done {
                break;
            }
            assert!(Instant::now() < deadline, "{typed}:\n{}", t.all_output());
            std::thread::sleep(Duration::from_millis(20));
        }
        if ["e4", "Sf3", "Lc4"].contains(&typed) {
            moves += 1;
        }
    }
    let lines = screen_lines(&t);
    let text = lines.join("\n");
    // No empty line, nothing wider than the terminal less one column.
    assert!(lines.iter().all(|l| !l.trim().is_empty()), "{text}");
    assert!(lines.iter().all(|l| l.chars().count() <= 79), "{text}");
    // The prompt once per line typed, plus the last one: each starts a line with what was
    // typed after it.
    let prompts: Vec<&String> = lines.iter().filter(|l| l.starts_with(prompt)).collect();
    assert_eq!(prompts.len(), 6, "{text}");
    // A move: the typed line, the move, the computer's reply with its label, the prompt.
    let at = lines
        .iter()
        .position(|l| l == "Zug oder Befehl: e4")
        .expect("the typed line");
    assert_eq!(lines[at + 1], "Eva vier", "{text}");
    assert!(lines[at + 2].starts_with("Computer: "), "{text}");
    assert!(lines[at + 3].starts_with("Zug oder Befehl: Sf3"), "{text}");
    // The computer's advice: its notice and its answer, one prompt after both.
    let at = lines
        .iter()
        .position(|l| l == "Zug oder Befehl: bewertung")
        .expect("bewertung");
    assert_eq!(lines[at + 1], "Der Computer schaut sich die Stellung an");
    assert!(
        ["plus", "minus", "Ausgeglichen"]
            .iter()
            .any(|w| lines[at + 2].contains(w)),
        "{text}"
    );
    assert!(
        lines[at + 3].starts_with("Zug oder Befehl: brett"),
        "{text}"
    );
    // The board wrapped at spaces: its lines joined again are the board's words, and no
    // word is cut.
    let at = lines
        .iter()
        .position(|l| l == "Zug oder Befehl: brett")
        .expect("brett");
    let end = lines[at + 1..]
        .iter()
        .position(|l| l.starts_with(prompt))
        .map(|i| at + 1 + i)
        .expect("the prompt after the board");
    let shown = lines[at + 1..end].join(" ");
    assert!(
        shown.starts_with("Reihe acht: Anna acht schwarzer Turm"),
        "{shown}"
    );
    assert!(lines[at + 1..end].len() > 8, "wrapped: {text}");
    for word in shown.split_whitespace() {
        let word = word.trim_end_matches([',', ':']);
        let known = common::words::DE.files.contains(&word)
            || common::words::DE.ranks.contains(&word)
            || [
                "Reihe",
                "schwarzer",
                "schwarze",
                "weißer",
                "weiße",
                "leer",
                "Turm",
                "Springer",
                "Läufer",
                "Dame",
                "König",
                "Bauer",
            ]
            .contains(&word);
        assert!(known, "a word cut by the wrapping: {word:?} in\n{text}");
    }
    assert_eq!(moves, 3);
    assert!(
        !t.all_output().contains('\u{1b}'),
        "no control sequences in line mode"
    );
    t.send(b"ende\r");
    t.expect("Wirklich beenden?", LIMIT);
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// `brett` and F1 at 80x24 on the full screen: the panel says there is more, Page Down shows
/// (and says) the rest with the cursor on it, at the end "Ende der Antwort".
#[test]
fn a_long_answer_is_paged_with_the_cursor_on_it() {
    let daemon = SpeechDaemon::capturing();
    let data = temp_dir("paging");
    let mut t = Env::player(data.path()).speech(&daemon).spawn_80x24(&[
        "play",
        "--opponent",
        "keyboard",
        "--speech",
        "speech-dispatcher",
    ]);
    t.expect_screen("Zug oder Befehl:", LIMIT);
    t.send(b"brett\r");
    t.expect_screen("weiter mit Bild ab", LIMIT);
    // Heard whole first (paging says the page, and an answer interrupts the one before).
    daemon.said("de| Reihe eins: Anna eins weißer Turm", LIMIT);
    assert!(!t.screen().contains("Reihe eins"), "{}", t.screen());
    let page_down = b"\x1b[6~";
    let mut pages = 0;
    while t.screen().contains("weiter mit Bild ab") {
        let before = t.screen();
        t.send(page_down);
        let deadline = Instant::now() + LIMIT;
        while t.screen() == before {
            assert!(
                Instant::now() < deadline,
                "Page Down changed nothing:\n{before}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        pages += 1;
        // The cursor rests on the first line of the page shown, where a braille display
        // follows it.
        let (_, row) = t.cursor_row();
        assert!(
            row.starts_with("Reihe") || row.starts_with("Springer") || row.contains("Bauer"),
            "the cursor's row: {row:?}\n{}",
            t.screen()
        );
        assert!(pages < 10, "{}", t.screen());
    }
    t.expect_screen("Reihe eins: Anna eins weißer Turm", LIMIT);
    // The page shown was said (the module writes a line a sentence): the first rank is
    // heard once with the board and once with the page.
    let deadline = Instant::now() + LIMIT;
    while daemon
        .spoken()
        .iter()
        .filter(|l| l.contains("Reihe eins: Anna eins weißer Turm"))
        .count()
        < 2
    {
        assert!(Instant::now() < deadline, "{}", daemon.spoken().join("\n"));
        std::thread::sleep(Duration::from_millis(20));
    }
    t.send(page_down);
    daemon.said("de|Ende der Antwort", LIMIT);
    // F1: the help and the keys, to their last words.
    t.send(b"\x1bOP");
    t.expect_screen("weiter mit Bild ab", LIMIT);
    for _ in 0..12 {
        if t.screen().contains("nennt den Gegner.") {
            break;
        }
        let before = t.screen();
        t.send(page_down);
        let deadline = Instant::now() + LIMIT;
        while t.screen() == before {
            assert!(
                Instant::now() < deadline,
                "Page Down changed nothing:\n{before}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    assert!(t.screen().contains("nennt den Gegner."), "{}", t.screen());
    // Any other key takes the cursor back to the board.
    t.send(b"\x1b[A");
    t.expect_screen("Eva drei", LIMIT);
    t.send(&[0x11]);
    t.expect_screen("Wirklich beenden?", LIMIT);
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}
