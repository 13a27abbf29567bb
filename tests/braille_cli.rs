//! The braille display and braille paper through the real binary: hector against a private
//! BRLTTY (its TTY driver on a pseudo-terminal, or its Virtual driver where routing keys are
//! needed), playing Stockfish; the game then exported as BRF and checked cell by cell.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::time::Duration;

use common::brf;
use common::brltty::{Brltty, brltty_or_skip};
use common::pty::Pty;
use common::{Env, temp_dir};

const LIMIT: Duration = Duration::from_secs(30);

fn lou_translate_or_skip(test: &str) -> bool {
    if common::find_program("lou_translate").is_some() {
        return true;
    }
    let why = format!("{test}: skipped: liblouis-bin is not installed (scripts/setup installs it)");
    assert!(std::env::var_os("CI").is_none(), "{why}");
    eprintln!("{why}");
    false
}

/// The last line hector printed that starts with `start`.
fn printed_line(t: &Pty, start: &str) -> Option<String> {
    t.all_output()
        .lines()
        .rev()
        .map(|l| l.trim_end_matches('\r'))
        .find_map(|l| l.rfind(start).map(|at| l[at..].trim_end().to_string()))
}

#[test]
fn the_computers_reply_is_flashed_and_a_long_answer_read_to_its_end() {
    if !brltty_or_skip("the_computers_reply_is_flashed") {
        return;
    }
    let mut display = Brltty::tt(40);
    let data = temp_dir("braille-play");
    let mut t = Env::player(&data).braille_host(&display.host()).spawn(&[
        "play",
        "--screen-reader",
        "--opponent",
        "engine",
    ]);
    assert!(t.wait_for(": ", LIMIT).is_some(), "{}", t.all_output());
    // The display is hector's: the opening words are flashed on it.
    assert!(
        display.wait_for("Sie spielen Weiß", LIMIT),
        "the display shows {:?}; hector printed:\n{}",
        display.shown(),
        t.all_output()
    );
    t.send(b"e4\r");
    // The computer's labelled reply, as it was printed, is on the display.
    let reply = t
        .expect_span("Computer: ", "\r\n", LIMIT)
        .trim_end()
        .to_string();
    let first: String = reply.chars().take(20).collect();
    assert!(
        display.wait_for(&first, LIMIT),
        "after the reply {reply:?} the display shows {:?}",
        display.shown()
    );

    // A long answer: the help. The display shows it window by window, a mark at the end of
    // each while more follows; panning right reads it to its end.
    t.send(b"hilfe\r");
    t.wait_answer("hilfe", LIMIT);
    let help = printed_line(&t, "Züge eingeben").expect("the help was printed");
    // The help may go on in more lines: the display reads them all, the first one first.
    let shown = display
        .wait_until(LIMIT, |s| s.text.starts_with("Züge eingeben"))
        .unwrap_or_else(|| panic!("the display shows {:?}", display.shown()));
    let mut read = vec![shown.text.trim_end_matches('»').trim_end().to_string()];
    let mut last = shown.text;
    for _ in 0..60 {
        if !last.ends_with('»') {
            break;
        }
        display.pan_right();
        let next = display
            .wait_until(LIMIT, |s| s.text != last)
            .unwrap_or_else(|| panic!("panning did not move past {last:?}"));
        assert!(next.text.chars().count() <= 40, "{:?}", next.text);
        read.push(next.text.trim_end_matches('»').trim_end().to_string());
        last = next.text;
    }
    assert!(!last.ends_with('»'), "the end was not reached: {read:?}");
    let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let read_words = words(&read.join(" "));
    let help_words = words(&help);
    assert!(
        read_words.starts_with(&help_words),
        "read {read_words:?}, printed {help_words:?}"
    );
    // Panning left goes back.
    display.pan_left();
    assert!(
        display
            .wait_until(LIMIT, |s| s.text.ends_with('»'))
            .is_some(),
        "{:?}",
        display.shown()
    );

    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());

    // The game on braille paper: valid Braille ASCII within the page, the moves in the
    // chess code, one pair per line with its number.
    if lou_translate_or_skip("export --format brf") {
        let out = Env::player(&data).run(
            &[
                "export", "1", "--format", "brf", "--cells", "32", "--lines", "20",
            ],
            b"",
            LIMIT,
        );
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        // Read with the test's own BRF reader: pages of 32 cells by 20 lines, each numbered
        // at the right end of its last line, the legend's pages first and the game's after.
        let pages = brf::read(out.stdout.as_bytes(), 32, 20)
            .unwrap_or_else(|e| panic!("{e}:\n{}", out.stdout));
        for (i, page) in pages.iter().enumerate() {
            let last = page.last().expect("a line");
            assert!(last.ends_with(&brf::page_number(i + 1)), "{page:?}");
        }
        assert!(
            pages.len() >= 2
                && pages
                    .iter()
                    .skip(1)
                    .any(|p| p.iter().any(|l| l.starts_with("1 E4 "))),
            "{}",
            out.stdout
        );
        // The legend comes first (Kurzschrift, the German default: "Schach: Punkte 3-4-5
        // und 1-2-3-4").
        let (legend, _game) = out.stdout.split_once("\r\n1 E4 ").expect("the moves");
        assert!(
            legend.contains(":;3 PTE #C-#D-#E U #A-#B-#C-#D"),
            "{}",
            out.stdout
        );
    }
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_routing_key_moves_the_focus_and_on_it_picks_up() {
    if !brltty_or_skip("a_routing_key_moves_the_focus") {
        return;
    }
    let mut display = Brltty::vr(40);
    let data = temp_dir("braille-route");
    let mut t = Env::player(&data).braille_host(&display.host()).spawn(
        // No notice about a missing sound device flashed in between.
        &["play", "--opponent", "keyboard", "--speech", "print"],
    );
    // The opening words are flashed first; a routing key over them only ends them.
    // (A notice about the speech may follow them: each is ended the same way.)
    for _ in 0..10 {
        let shown = display
            .wait_until(LIMIT, |s| {
                !s.text.is_empty() && !s.text.contains("no screen")
            })
            .unwrap_or_else(|| panic!("nothing on the display; hector shows:\n{}", t.screen()));
        if shown.text.starts_with("2 ") {
            break;
        }
        // Cell 1 is the space after the rank's digit: no square. (The Virtual driver has no
        // routing key 0.)
        display.route(1);
        let _ = display.wait_until(Duration::from_secs(2), |s| s.text != shown.text);
    }
    // The full screen's board: the focused rank (e2 at first), the cursor on its square.
    // Cells: "2 " then the files a to h.
    let rank = display
        .wait_until(LIMIT, |s| {
            s.text.starts_with("2 BBBBBBBB") && s.cursor == Some(6)
        })
        .unwrap_or_else(|| panic!("the display shows {:?}", display.shown()));
    assert_eq!(rank.text, "2 BBBBBBBB");
    // The routing key over c2 (cell 4): the focus goes there, and hector says the square.
    display.route(4);
    assert!(
        display
            .wait_until(LIMIT, |s| s.text.starts_with("2 BBBBBBBB")
                && s.cursor == Some(4))
            .is_some(),
        "the display shows {:?}",
        display.shown()
    );
    assert!(t.wait_for_screen("Cäsar zwei", LIMIT), "{}", t.screen());
    // Again over the focused square: Space, the pawn picked up; hector's answer is flashed,
    // and under it the rank names the piece in hand.
    display.route(4);
    let answer = display
        .wait_until(LIMIT, |s| {
            !s.text.starts_with("2 BBBBBBBB") || s.text.contains("[Bc2]")
        })
        .unwrap_or_else(|| panic!("the display shows {:?}", display.shown()));
    if !answer.text.contains("[Bc2]") {
        display.route(1);
    }
    assert!(
        display.wait_for("2 BBBBBBBB [Bc2]", LIMIT),
        "the display shows {:?}; hector shows:\n{}",
        display.shown(),
        t.screen()
    );
    t.send(b"\x11");
    assert!(
        t.wait_for_screen("Wirklich beenden?", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.screen());
    let _ = std::fs::remove_dir_all(&data);
}

/// With no BrlAPI server, a game goes on as before: nothing about braille is said with
/// `auto` (the default), and `--braille on` says once that there is no display.
#[test]
fn without_a_server_the_game_goes_on() {
    let data = temp_dir("braille-none");
    let nowhere = format!(":hector-test-none-{}", std::process::id());
    let mut t = Env::player(&data).braille_host(&nowhere).spawn(&[
        "play",
        "--screen-reader",
        "--opponent",
        "keyboard",
    ]);
    assert!(t.wait_for(": ", LIMIT).is_some(), "{}", t.all_output());
    t.send(b"e4\r");
    t.wait_answer("e4", LIMIT);
    t.send(b"e5\r");
    t.wait_answer("e5", LIMIT);
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    assert!(t.all_output().contains("Eva fünf"), "{}", t.all_output());
    assert!(!t.all_output().contains("Braille"), "{}", t.all_output());

    let data = temp_dir("braille-none-on");
    let mut t = Env::player(&data).braille_host(&nowhere).spawn(&[
        "play",
        "--screen-reader",
        "--opponent",
        "keyboard",
        "--braille",
        "on",
    ]);
    assert!(
        t.wait_for("Keine Braillezeile", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"e4\r");
    t.wait_answer("e4", LIMIT);
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    assert!(t.all_output().contains("Eva vier"), "{}", t.all_output());
    assert_eq!(t.all_output().matches("Keine Braillezeile").count(), 1);
    let _ = std::fs::remove_dir_all(&data);
}

/// A transcript on braille paper, cell by cell against the page worked out by hand from the
/// UKAAF code (docs/BRAILLE.md) and liblouis's uncontracted UEB: the check sign after the
/// square (UKAAF 1.4), also after a capture; before the game, the legend of the code, which
/// names castling and promotion as hector's own choice.
#[test]
fn a_transcript_on_braille_paper_cell_by_cell() {
    if !lou_translate_or_skip("transcript --format brf") {
        return;
    }
    let dir = temp_dir("braille-transcript");
    let pgn = dir.join("mate.pgn");
    std::fs::write(
        &pgn,
        "[White \"Anna\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n\
         1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 4. Qh5+ g6 5. Qxe5 Nf6 6. Qxc7 1-0\n",
    )
    .expect("write the game");
    let out = common::run_with(
        &[
            "transcript",
            &pgn.display().to_string(),
            "--format",
            "brf",
            "--lang",
            "en",
            "--grade",
            "1",
            "--lines",
            "10",
        ],
        b"",
        &[("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let expected = format!(
        ",GAME #A3 ,ANNA AGAINST ,BOB\r\n\r\n1 E4 E5\r\n2 LC4 SC6\r\n3 L;F7>P K;F7\r\n\
         4 QH5>P G6\r\n5 Q;E5 SF6\r\n6 Q;C7\r\n,WHITE WINS\r\n{}#A\r\n\u{c}",
        " ".repeat(38)
    );
    let (legend, game) = out
        .stdout
        .rsplit_once("\u{c},GAME")
        .expect("the legend, then the game");
    assert_eq!(format!(",GAME{game}"), expected);
    for entry in [
        ",THE MOVES ARE IN THE BRAILLE CHESS CODE\r\n",
        ",CHECK3 DOTS #C-#D-#E AND #A-#B-#C-#D\r\n  AFTER THE MOVE",
        ",CASTLING AS ,O-,O AND ,O-,O-,O1",
        "HECTOR'S\r\n  OWN CHOICE",
    ] {
        assert!(legend.contains(entry), "{entry}: {legend}");
    }
    // The test's own reader: every page 40 cells by 10 lines, numbered on its last line.
    let pages = brf::read(out.stdout.as_bytes(), 40, 10).unwrap();
    assert!(pages.len() >= 2, "{}", out.stdout);
    for page in &pages {
        assert_eq!(page.len(), 10);
    }
    assert!(pages[pages.len() - 1][9].ends_with("#A"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The test's BRF reader refuses what a braille embosser would not take: it is an oracle that
/// can say no.
#[test]
fn the_brf_reader_of_the_tests_refuses_bad_pages() {
    let good = b"AB\r\nCD #A\r\n\x0c";
    assert_eq!(brf::read(good, 5, 2).map(|p| p.len()), Ok(1));
    for (bad, why) in [
        (&b"ab\r\n\x0c"[..], "Braille ASCII"),
        (b"ABCDEF\r\n\x0c", "cells"),
        (b"A\r\nB\r\nC\r\n\x0c", "lines"),
        (b"A\nB\r\n\x0c", "lone"),
        (b"A\r\n", "form feed"),
    ] {
        let e = brf::read(bad, 5, 2).expect_err("refused");
        assert!(e.contains(why), "{e}");
    }
    assert_eq!(brf::page_number(1), "#A");
    assert_eq!(brf::page_number(10), "#AJ");
    assert_eq!(brf::page_number(23), "#BC");
}
