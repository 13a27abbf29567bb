//! The full screen as a person sees it, through the real binary in a pseudo-terminal of
//! 80x24 and 100x30 read by a terminal emulator: after `brett` and `hilfe` the help's first
//! line is on the screen, the quit question stays visible until it is answered, a refused
//! line stays in the input line, and the closing words are printed after the full screen.

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

use common::pty::Pty;
use common::{Env, temp_dir};

const LIMIT: Duration = Duration::from_secs(30);

/// A folder removed at the end, also when the test fails (the guard removes it).
struct Data(common::pty::TempDir);

fn spawn(data: &Data, cols: u16, rows: u16) -> Pty {
    Env::player(&data.0).spawn_sized(
        &["play", "--opponent", "keyboard", "--speech", "print"],
        cols,
        rows,
    )
}

fn typed(t: &mut Pty, line: &str) {
    // The line and Enter are one action: its echo belongs to what follows it.
    t.send(format!("{line}\r").as_bytes());
}

#[test]
fn every_answer_is_visible_at_80x24_and_100x30() {
    for (cols, rows) in [(80, 24), (100, 30)] {
        let data = Data(temp_dir("screen"));
        let mut t = spawn(&data, cols, rows);
        assert!(
            t.wait_for_screen("Zuletzt gesagt", LIMIT),
            "{cols}x{rows}\n{}",
            t.screen()
        );
        typed(&mut t, "brett");
        assert!(t.wait_for_screen("Reihe acht", LIMIT), "{}", t.screen());
        typed(&mut t, "hilfe");
        assert!(
            t.wait_for_screen("Züge eingeben wie gesprochen", LIMIT),
            "{cols}x{rows}: the help's first line\n{}",
            t.screen()
        );
        // A line hector refuses stays in the input line, for retyping.
        typed(&mut t, "Springer Felix vier");
        assert!(
            t.wait_for_screen("Kein Springer kann Felix vier erreichen", LIMIT),
            "{}",
            t.screen()
        );
        assert!(
            t.wait_for_screen("Zug oder Befehl: Springer Felix vier", LIMIT),
            "{cols}x{rows}: the refused line\n{}",
            t.screen()
        );
        // Typing replaces it.
        typed(&mut t, "e4");
        assert!(t.wait_for_screen("Eva vier", LIMIT), "{}", t.screen());
        // Ctrl+Q asks, and the question stays on the screen after another answer.
        t.send(&[0x11]);
        assert!(
            t.wait_for_screen("Wirklich beenden?", LIMIT),
            "{cols}x{rows}: the quit question\n{}",
            t.screen()
        );
        // Enter alone asks again; the question is still there once the screen is drawn again
        // (each drawing ends by showing the cursor).
        let drawn = t.all_output().matches("\u{1b}[?25h").count();
        t.send(b"\r");
        let deadline = std::time::Instant::now() + LIMIT;
        while t.all_output().matches("\u{1b}[?25h").count() <= drawn {
            assert!(
                std::time::Instant::now() < deadline,
                "Enter was not answered"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            t.screen().contains("Wirklich beenden?"),
            "{cols}x{rows}: the question stays until answered\n{}",
            t.screen()
        );
        typed(&mut t, "ja");
        assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
        // The closing words stay in the terminal after the full screen (the last bytes may
        // still be on their way from the terminal).
        assert!(
            t.wait_for("Die Partie ist gespeichert", LIMIT).is_some(),
            "{}",
            t.all_output()
        );
        let text = t.all_output();
        let after = text.rsplit("\u{1b}[?1049l").next().unwrap_or_default();
        assert!(
            after.contains("Die Partie ist gespeichert"),
            "{cols}x{rows}: closing words after the full screen\n{after:?}"
        );
    }
}

/// Below 80x24 the full screen goes on in lines and says so; when the window grows, the full
/// screen comes back.
#[test]
fn a_small_window_goes_on_in_lines_and_back() {
    let data = Data(temp_dir("small"));
    let mut t = spawn(&data, 60, 20);
    assert!(
        t.wait_for("Weiter in Zeilen", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    typed(&mut t, "e4");
    assert!(
        t.wait_for("Eva vier", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    // Typed keys are echoed on the prompt's line.
    t.send(b"Sf");
    t.expect("Sf", LIMIT);
    assert_eq!(t.cursor_row().1.trim_end(), "Zug oder Befehl: Sf");
    t.send(b"6\r");
    assert!(
        t.wait_for("Springer Felix sechs", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.resize(100, 30);
    assert!(
        t.wait_for_screen("Wieder als Vollbild", LIMIT),
        "{}",
        t.screen()
    );
    assert!(t.wait_for_screen("Zuletzt gesagt", LIMIT), "{}", t.screen());
    assert!(t.wait_for_screen("1. e4 Sf6", LIMIT), "{}", t.screen());
    typed(&mut t, "ende");
    assert!(
        t.wait_for_screen("Wirklich beenden?", LIMIT),
        "{}",
        t.screen()
    );
    typed(&mut t, "ja");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}
