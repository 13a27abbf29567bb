//! `hector clock` in a real pseudo-terminal.

// Tests and benchmarks stop at the first surprise, and the pseudo-terminals need the
// system's calls: the crate's [lints] are for hector itself.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod common;

use std::time::Duration;

use common::pty::Pty;

const LIMIT: Duration = Duration::from_secs(30);

/// The flag fall is announced within 50 ms of the true expiry: the clock starts when "Uhr
/// läuft" is printed and White's three seconds run out three seconds later.
#[test]
fn flag_fall_is_announced_on_time_in_line_mode() {
    let mut t = Pty::spawn(
        &[
            "clock",
            "--tc",
            "3",
            "--screen-reader",
            "--backend",
            "print",
            "--lang",
            "de",
        ],
        &[("HECTOR_CONFIG", "")],
    );
    assert!(
        t.wait_for("Leertaste startet", LIMIT).is_some(),
        "{}",
        t.text()
    );
    t.send(b"\n");
    let started = t
        .wait_for("Uhr läuft, Weiß am Zug", LIMIT)
        .expect("started");
    let flag = t
        .wait_for("Weiß: Zeit abgelaufen", LIMIT)
        .expect("flag announced");
    let after = flag.duration_since(started);
    assert!(
        after >= Duration::from_millis(2990) && after <= Duration::from_millis(3050),
        "flag announced {after:?} after the start; expected 3 s (+50 ms)"
    );
    // The last ten seconds are counted down, then the flag; nothing is said twice.
    let text = t.text();
    assert_eq!(text.matches("Zeit abgelaufen").count(), 1, "{text}");
    // Line mode names its typed commands, not the keys of the full screen.
    assert!(text.contains("Befehle: Enter oder start"), "{text}");
    assert!(!text.contains("Pfeil links"), "{text}");
    t.send(b"quit\n");
    assert_eq!(t.wait_exit(LIMIT), Some(0));
}

#[test]
fn full_screen_clock_runs_levers_and_answers() {
    let mut t = Pty::spawn(
        &[
            "clock",
            "--tc",
            "60+2",
            "--backend",
            "print",
            "--lang",
            "en",
        ],
        &[("HECTOR_CONFIG", "")],
    );
    assert!(
        t.wait_for_screen("The clock is not running yet", LIMIT),
        "{}",
        t.screen()
    );
    assert!(t.screen().contains("White") && t.screen().contains("Black"));
    t.send(b" ");
    assert!(
        t.wait_for_screen("Clock running, White to move", LIMIT),
        "{}",
        t.screen()
    );
    // The running side is marked by a word, not by colour alone.
    assert!(t.screen().contains("running"));
    // The times are one line of text where the cursor rests, for a braille display.
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        let (_, line) = t.cursor_row();
        if line.starts_with("White 0:59 running, Black 1:00, ") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{line:?}\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // White presses the left lever; Black's clock runs; Black presses the right lever.
    // Each press is waited for: the running clock moves to the other side of the line.
    let runs = |t: &Pty, black: bool| {
        let deadline = std::time::Instant::now() + LIMIT;
        loop {
            let (_, line) = t.cursor_row();
            let (running, black_at) = (line.find(" running"), line.find("Black"));
            if running.is_some() && black_at.is_some() && (running > black_at) == black {
                return;
            }
            assert!(std::time::Instant::now() < deadline, "{line:?}");
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    t.send(b"\x1b[D");
    runs(&t, true);
    t.send(b"\x1b[C");
    runs(&t, false);
    t.send(b"t");
    assert!(t.wait_for_screen("1 move played", LIMIT), "{}", t.screen());
    t.send(b"p");
    assert!(t.wait_for_screen("Clock stopped", LIMIT), "{}", t.screen());
    t.send(b"q");
    assert!(
        t.wait_for_screen("Press q again to quit", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"q");
    assert_eq!(t.wait_exit(LIMIT), Some(0));
}

#[test]
fn a_bad_time_control_says_what_is_wrong() {
    let r = common::run_with(
        &["clock", "--tc", "40/5400+", "--backend", "print"],
        b"",
        &[("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .contains("--tc 40/5400+: Feld 1, 40/5400+: nach + fehlt die Zeitgutschrift"),
        "{}",
        r.stderr
    );
    let r = common::run_with(
        &[
            "clock",
            "--tc",
            "40/5400+",
            "--backend",
            "print",
            "--lang",
            "en",
        ],
        b"",
        &[("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains("increment missing after +"),
        "{}",
        r.stderr
    );
}
