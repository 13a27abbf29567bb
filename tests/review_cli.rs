//! Looking back and entering moves on the board, through the real binary in pseudo-terminals:
//! `stellung 1 weiß` answers for the old position and refuses a move until `aktuell`, in
//! lines and on the full screen (which says "Rückblick"); on the full screen Tab gives the
//! keys to the board, a piece letter finds the knight, Space and Space play it, and the
//! board's edge is said as a cue word.

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

fn spawn(dir: &std::path::Path, extra: &[&str], size: Option<(u16, u16)>) -> Pty {
    let mut args = vec![
        "play",
        "--opponent",
        "keyboard",
        "--speech",
        "print",
        "--new",
    ];
    args.extend_from_slice(extra);
    let env = Env::player(dir);
    match size {
        Some((cols, rows)) => env.spawn_sized(&args, cols, rows),
        None => env.spawn(&args),
    }
}

fn typed(t: &mut Pty, line: &str) {
    // The line and Enter are one action: its echo belongs to what follows it.
    t.send(format!("{line}\r").as_bytes());
}

fn quit(t: &mut Pty) {
    typed(t, "ende");
    typed(t, "ja");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

#[test]
fn looking_back_in_lines_answers_for_the_old_position() {
    let data = temp_dir("review-lines");
    let mut t = spawn(data.path(), &["--screen-reader"], None);
    assert!(
        t.wait_for("Weiß ist am Zug", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    typed(&mut t, "e4");
    typed(&mut t, "e5");
    assert!(
        t.wait_for("Eva fünf", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    typed(&mut t, "stellung 1 weiß");
    // The prompt says the state, for a screen reader that reads it with every line.
    assert!(
        t.wait_for("Rückblick nach Zug 1, Weiß: Eva vier\r\nRückblick: ", LIMIT)
            .is_some(),
        "{:?}",
        t.all_output()
    );
    // The board as it was: nothing on e5 yet.
    typed(&mut t, "brett");
    assert!(
        t.wait_for("Reihe fünf: leer", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    typed(&mut t, "Sf3");
    assert!(
        t.wait_for("Rückblick: erst aktuell sagen, dann ziehen", LIMIT)
            .is_some(),
        "{}",
        t.all_output()
    );
    typed(&mut t, "aktuell");
    assert!(
        t.wait_for("Aktuelle Stellung\r\nZug oder Befehl: ", LIMIT)
            .is_some(),
        "{:?}",
        t.all_output()
    );
    typed(&mut t, "feld e5");
    assert!(
        t.wait_for("Eva fünf: schwarzer Bauer", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    typed(&mut t, "Sf3");
    assert!(
        t.wait_for("Springer Felix drei", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    quit(&mut t);
}

#[test]
fn the_full_screen_shows_the_position_looked_back_at() {
    let data = temp_dir("review-screen");
    let mut t = spawn(data.path(), &[], Some((100, 30)));
    assert!(t.wait_for_screen("Zuletzt gesagt", LIMIT), "{}", t.screen());
    typed(&mut t, "e4");
    typed(&mut t, "d5");
    typed(&mut t, "exd5");
    assert!(t.wait_for_screen("schlägt", LIMIT), "{}", t.screen());
    typed(&mut t, "stellung 1");
    assert!(
        t.wait_for_screen("Rückblick: 1. Schwarz", LIMIT),
        "the heading\n{}",
        t.screen()
    );
    // The black pawn is back on d5 and the white one on e4.
    let screen = t.screen();
    let rank = |n: char| {
        screen
            .lines()
            .find(|l| l.starts_with(n))
            .unwrap_or_default()
            .to_string()
    };
    assert!(rank('5').contains('b'), "{screen}");
    assert!(rank('4').contains('B'), "{screen}");
    typed(&mut t, "vor");
    assert!(
        t.wait_for_screen("Aktuelle Stellung", LIMIT),
        "{}",
        t.screen()
    );
    assert!(!t.screen().contains("Rückblick: 1."), "{}", t.screen());
    quit(&mut t);
}

#[test]
fn tab_letters_and_space_play_a_move_on_the_board() {
    let data = temp_dir("board-entry");
    let mut t = spawn(data.path(), &[], Some((100, 30)));
    assert!(t.wait_for_screen("Zuletzt gesagt", LIMIT), "{}", t.screen());
    t.send(b"\t");
    assert!(t.wait_for_screen("Brett: ", LIMIT), "{}", t.screen());
    // S is the German knight: the next white knight from e2 is b1, then g1.
    t.send(b"s");
    assert!(
        t.wait_for_screen("Bella eins: weißer Springer", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"s");
    assert!(
        t.wait_for_screen("Gustav eins: weißer Springer", LIMIT),
        "{}",
        t.screen()
    );
    // Down from the first rank: the edge.
    t.send(b"\x1b[B");
    assert!(t.wait_for_screen("Rand", LIMIT), "{}", t.screen());
    t.send(b" ");
    assert!(
        t.wait_for_screen("Springer Gustav eins aufgenommen", LIMIT),
        "{}",
        t.screen()
    );
    // A square the knight cannot reach: refused, and the knight stays in the hand.
    t.send(b"4");
    assert!(
        t.wait_for_screen("Gustav vier: leer", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b" ");
    assert!(
        t.wait_for_screen("Springer Gustav eins bleibt aufgenommen", LIMIT),
        "{}",
        t.screen()
    );
    // A key without a use on the board says so.
    t.send(b"x");
    assert!(
        t.wait_for_screen("Diese Taste gilt nicht auf dem Brett", LIMIT),
        "{}",
        t.screen()
    );
    // 3 goes to g3, Left to f3, Space plays there.
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
    assert!(
        t.wait_for_screen("1. Sf3", LIMIT),
        "the move on the scoresheet\n{}",
        t.screen()
    );
    // Back to the input line: letters are typed again.
    t.send(b"\t");
    assert!(t.wait_for_screen("Eingabe", LIMIT), "{}", t.screen());
    quit(&mut t);
}

#[test]
fn a_promotion_on_the_board_takes_the_piece_letter() {
    let data = temp_dir("board-promotion");
    let mut t = spawn(
        data.path(),
        &["--fen", "8/4P3/8/8/8/p7/k7/4K3 w - - 0 1"],
        Some((100, 30)),
    );
    assert!(t.wait_for_screen("Zuletzt gesagt", LIMIT), "{}", t.screen());
    t.send(b"\t");
    assert!(t.wait_for_screen("Brett: ", LIMIT), "{}", t.screen());
    // B is the German pawn: the one on e7.
    t.send(b"b");
    assert!(
        t.wait_for_screen("Eva sieben: weißer Bauer", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b" ");
    t.send(b"8");
    assert!(t.wait_for_screen("Eva acht: leer", LIMIT), "{}", t.screen());
    t.send(b" ");
    assert!(
        t.wait_for_screen("Umwandlung in welche Figur?", LIMIT),
        "{}",
        t.screen()
    );
    // S: a knight.
    t.send(b"s");
    assert!(
        t.wait_for_screen("1. e8", LIMIT),
        "the promotion on the scoresheet\n{}",
        t.screen()
    );
    assert!(
        t.wait_for_screen("Umwandlung in Springer", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"\t");
    assert!(t.wait_for_screen("Eingabe", LIMIT), "{}", t.screen());
    quit(&mut t);
}
