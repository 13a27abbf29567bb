//! `hector clock` in a real pseudo-terminal.

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

const LIMIT: Duration = Duration::from_secs(30);

/// The flag fall is announced once White's three seconds have been counted down, and only
/// then. How soon after the true expiry is measured by `cargo bench --bench clock` (flag
/// latency, docs/BENCHMARKS.md), not here: the instant this test sees "Uhr läuft" trails the
/// clock's start by however long a busy machine delays the reader (20 ms made a 50 ms window
/// fail on a bare Debian built beside two other compiles).
#[test]
fn flag_fall_is_announced_on_time_in_line_mode() {
    let mut t = Pty::spawn(
        &[
            "clock",
            "--tc",
            // Three seconds: PGN's sandclock form is seconds.
            "*3",
            "--screen-reader",
            "--backend",
            "print",
            "--lang",
            "de",
        ],
        &[("HECTOR_CONFIG", "")],
    );
    assert!(
        t.wait_for("Enter oder start startet sie", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"\n");
    t.wait_for("Uhr läuft, Weiß am Zug", LIMIT)
        .expect("started");
    t.wait_for("Weiß: Zeit abgelaufen", LIMIT)
        .expect("flag announced");
    // The last ten seconds are counted down, then the flag; nothing is said twice.
    let text = t.all_output();
    let start = text.find("Uhr läuft, Weiß am Zug").expect("start");
    let countdown: Vec<&str> = text[start..]
        .lines()
        .map(str::trim)
        .take_while(|l| !l.contains("Zeit abgelaufen"))
        .filter(|l| !l.is_empty())
        .skip(1)
        .collect();
    assert_eq!(countdown, ["2", "1"], "{text}");
    assert_eq!(text.matches("Zeit abgelaufen").count(), 1, "{text}");
    // Line mode names its typed commands, not the keys of the full screen.
    assert!(text.contains("Befehle: Enter oder start"), "{text}");
    assert!(!text.contains("Pfeil links"), "{text}");
    // The flag has fallen: nothing is lost, quit ends at once.
    t.send(b"quit\n");
    assert_eq!(t.wait_exit(LIMIT), Some(0));
}

/// Line mode answers every lever: whose clock runs now, or that the press did not count; the
/// start text names what line mode has (Enter, start), and ende asks as q does.
#[test]
fn line_mode_says_what_each_lever_did_and_asks_before_quitting() {
    for (lang, input, expected) in [
        (
            "de",
            "rechts\n\nrechts\nlinks\nlinks\nende\n\nende\nnein\nende\nja\n",
            [
                "Die Uhr läuft noch nicht. Enter oder start startet sie.",
                "Uhr läuft, Weiß am Zug",
                "Zählt nicht: die Uhr von Weiß läuft",
                "Schwarz am Zug",
                "Zählt nicht: die Uhr von Schwarz läuft",
                "Die Uhr beenden? Die Zeiten gehen verloren. Ja oder nein",
                "Die Uhr beenden? Die Zeiten gehen verloren. Ja oder nein",
                "Die Uhr beenden? Die Zeiten gehen verloren. Ja oder nein",
                "Die Uhr bleibt, wie sie ist",
                "Die Uhr beenden? Die Zeiten gehen verloren. Ja oder nein",
            ],
        ),
        (
            "en",
            "right\n\nright\nleft\nleft\nquit\n\nquit\nno\nquit\nyes\n",
            [
                "The clock is not running yet. Enter or start starts it.",
                "Clock running, White to move",
                "Not counted: White's clock is running",
                "Black to move",
                "Not counted: Black's clock is running",
                "Quit the clock? The times are lost. Yes or no",
                "Quit the clock? The times are lost. Yes or no",
                "Quit the clock? The times are lost. Yes or no",
                "The clock stays as it is",
                "Quit the clock? The times are lost. Yes or no",
            ],
        ),
    ] {
        let r = common::run_with(
            &["clock", "--tc", "5", "--screen-reader", "--lang", lang],
            input.as_bytes(),
            &[("HECTOR_CONFIG", "")],
            LIMIT,
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let lines: Vec<&str> = r.stdout.lines().skip(1).collect();
        assert_eq!(lines, expected, "{}", r.stdout);
        // The start names no Space key, which line mode does not have.
        assert!(
            !r.stdout.contains("Leertaste") && !r.stdout.contains("Space"),
            "{}",
            r.stdout
        );
    }
    // Before the start nothing is lost: ende quits at once.
    let r = common::run_with(
        &["clock", "--tc", "5", "--screen-reader"],
        b"ende\n",
        &[("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.stdout);
}

#[test]
fn full_screen_clock_runs_levers_and_answers() {
    let mut t = Pty::spawn(
        &["clock", "--tc", "1+2", "--backend", "print", "--lang", "en"],
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
    // The answer in words ("White 1 minute 1 second, Black …, 1 move played"), not the
    // status line's figures: not on the screen before the key.
    let answered = |screen: &str| {
        screen.lines().any(|l| {
            let l = l.trim_end();
            l.starts_with("White ") && l.contains(" minute") && l.ends_with(", 1 move played")
        })
    };
    assert!(!answered(&t.screen()), "{}", t.screen());
    t.send(b"t");
    let deadline = std::time::Instant::now() + LIMIT;
    while !answered(&t.screen()) {
        assert!(std::time::Instant::now() < deadline, "{}", t.screen());
        std::thread::sleep(Duration::from_millis(10));
    }
    t.send(b"p");
    assert!(t.wait_for_screen("Clock stopped", LIMIT), "{}", t.screen());
    // Quitting a clock that has run asks first: q again asks again, only j or y quits.
    t.send(b"q");
    assert!(
        t.wait_for_screen("Quit the clock? The times are lost", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"n");
    assert!(
        t.wait_for_screen("The clock stays as it is", LIMIT),
        "{}",
        t.screen()
    );
    // q twice does not quit: the clock still answers the n after them.
    t.send(b"q");
    assert!(
        t.wait_for_screen("Quit the clock? The times are lost", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"q");
    t.send(b"n");
    assert!(
        t.wait_for_screen("The clock stays as it is", LIMIT),
        "q twice must not quit:\n{}",
        t.screen()
    );
    t.send(b"q");
    assert!(
        t.wait_for_screen("Quit the clock? The times are lost", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"y");
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

/// One rule for every mode: `3+2` is minutes plus seconds, as players type it, and a base
/// too large for minutes is PGN's seconds; each mode says its reading before the clock runs.
#[test]
fn a_time_control_is_read_as_players_type_it_and_said_back() {
    let data = common::temp_dir("tc-data");
    let env = common::Env::player(&data);
    for (tc, de, en) in [
        (
            "3+2",
            "3 Minuten plus 2 Sekunden pro Zug",
            "3 minutes plus 2 seconds per move",
        ),
        (
            "300+3",
            "5 Minuten plus 3 Sekunden pro Zug",
            "5 minutes plus 3 seconds per move",
        ),
        (
            "90+30",
            "1 Stunde 30 Minuten plus 30 Sekunden pro Zug",
            "1 hour 30 minutes plus 30 seconds per move",
        ),
        (
            "5",
            "5 Minuten für die ganze Partie",
            "5 minutes for the whole game",
        ),
    ] {
        for (lang, words) in [("de", de), ("en", en)] {
            let clock = env.run(
                &["clock", "--tc", tc, "--screen-reader", "--lang", lang],
                b"zeit\nquit\n",
                LIMIT,
            );
            assert_eq!(clock.code, Some(0), "{}", clock.stderr);
            assert!(
                clock.stdout.starts_with(&format!("{words}. ")),
                "clock --tc {tc}: {}",
                clock.stdout
            );
            let play = env.run(
                &[
                    "play",
                    "--new",
                    "--opponent",
                    "keyboard",
                    "--screen-reader",
                    "--tc",
                    tc,
                    "--lang",
                    lang,
                ],
                b"uhr\nende\nja\n",
                LIMIT,
            );
            assert_eq!(play.code, Some(0), "{}", play.stderr);
            let welcome = play.stdout.lines().next().unwrap_or_default();
            assert!(
                welcome.contains(&format!(". {words}. ")),
                "play --tc {tc}: {}",
                play.stdout
            );
        }
    }
    // The clock's answer shows the minutes were minutes (White's time runs).
    let play = env.run(
        &[
            "play",
            "--new",
            "--opponent",
            "keyboard",
            "--screen-reader",
            "--tc",
            "3+2",
        ],
        b"uhr\nende\nja\n",
        LIMIT,
    );
    assert!(
        play.stdout
            .contains(", Schwarz 3 Minuten, noch kein Zug gespielt"),
        "{}",
        play.stdout
    );
}

/// The low-clock sound, as speech-dispatcher plays it: once for each side, when its time
/// first falls under --low-clock (White's while White's clock runs, Black's after the press),
/// and not again when White's clock runs on under it until the flag.
#[test]
fn the_low_clock_sound_comes_once_for_each_side() {
    use common::SpeechDaemon;
    use common::cues::{played_until, sound_config};
    let daemon = SpeechDaemon::capturing();
    let home = common::temp_dir("clock-cues");
    let config = sound_config(home.path(), &daemon, "");
    let mut t = common::Env::player(home.path())
        .speech(&daemon)
        .config_file(&config)
        // hector's own sounds, found beside the binary.
        .var("HECTOR_SOUNDS", "")
        .spawn(&[
            "clock",
            "--tc",
            // Four seconds each (PGN's sandclock form is seconds), the sound under three.
            "*4",
            "--low-clock",
            "3",
            "--screen-reader",
            "--speech",
            "speech-dispatcher",
            "--lang",
            "de",
        ]);
    played_until(&daemon, 0, "de| Befehle");
    let start = daemon.spoken().len();
    t.send(b"\n");
    played_until(&daemon, start, "de|Uhr läuft, Weiß am Zug");
    played_until(&daemon, start, "icon|low-clock");
    let press = daemon.spoken().len();
    t.send(b"\n");
    played_until(&daemon, press, "de|Schwarz am Zug");
    played_until(&daemon, press, "icon|low-clock");
    let back = daemon.spoken().len();
    t.send(b"\n");
    played_until(&daemon, back, "de|Weiß am Zug");
    let played = played_until(&daemon, start, "de|Weiß: Zeit abgelaufen");
    let cues: Vec<usize> = played
        .iter()
        .enumerate()
        .filter(|(_, l)| *l == "icon|low-clock")
        .map(|(i, _)| i)
        .collect();
    let pressed = played
        .iter()
        .position(|l| l == "de|Schwarz am Zug")
        .expect("the press");
    assert_eq!(cues.len(), 2, "{played:?}");
    assert!(cues[0] < pressed && pressed < cues[1], "{played:?}");
    t.send(b"quit\n");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}
