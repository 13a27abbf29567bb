//! `hector assist` in a real pseudo-terminal with two simulated boards on their own
//! pseudo-terminals: the sighted player's DGT board and the blind player's peg board. A whole
//! game, a touched piece, a flag fall, an adjournment and its resumption.

#![allow(
    clippy::expect_used,
    clippy::panic,
    unsafe_code,
    reason = "tests stop at the first surprise, and the pseudo-terminals need the system's calls; the crate's lints are for hector itself"
)]
// The binary is driven through Unix pseudo-terminals and processes (tests/common).
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::pty::Pty;
use common::sim::Simulator;
use common::{Env, run_with, temp_dir};
use shakmaty::{Chess, Position, uci::UciMove};

const LIMIT: Duration = Duration::from_secs(30);

struct Game {
    data: PathBuf,
    dgt: Simulator,
    peg: Simulator,
    /// Last: removed after the simulators have ended.
    dir: common::TempDir,
}

impl Game {
    /// The two boards, ready for hector.
    fn boards() -> Game {
        let dir = temp_dir("assist");
        let data = dir.join("data");
        let dgt = Simulator::start("dgt", &dir.join("dgt"));
        let peg = Simulator::start("peg", &dir.join("peg"));
        Game {
            data,
            dgt,
            peg,
            dir,
        }
    }

    fn env(&self) -> Env {
        Env::player_home(&self.dir)
    }

    fn spawn(&mut self, args: &[&str]) -> Pty {
        let env = self.env();
        let t = env.spawn(args);
        // Ready once it asks; what it said before is still to be read by the test.
        t.wait_in_all_output("Zug oder Befehl:", LIMIT);
        // No move before hector listens.
        self.dgt.send("await-host");
        self.peg.send("await-host");
        t
    }

    /// hector assist for Black, the blind player, with both boards.
    fn assist(&mut self, extra: &[&str]) -> Pty {
        let dgt = self.dir.join("dgt").display().to_string();
        let peg = self.dir.join("peg").display().to_string();
        let mut args = vec![
            "assist",
            "--screen-reader",
            "--blind",
            "black",
            "--peg-board",
            &peg,
            "--sighted-board",
            &dgt,
            "--white",
            "Anna Schmidt",
            "--black",
            "Bernd Weber",
        ];
        args.extend_from_slice(extra);
        self.spawn(&args)
    }

    fn hector(&self, args: &[&str]) -> String {
        let env = self.env();
        let r = env.run(args, b"", LIMIT);
        assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
        r.stdout
    }
}

/// Waits until `needle` has appeared `n` times in the output.
fn wait_count(t: &Pty, needle: &str, n: usize) {
    let deadline = Instant::now() + LIMIT;
    while t.all_output().matches(needle).count() < n {
        assert!(
            Instant::now() < deadline,
            "{needle:?} not {n} times in:\n{}",
            t.all_output()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn mv(pos: &Chess, uci: &str) -> shakmaty::Move {
    uci.parse::<UciMove>()
        .expect("uci")
        .to_move(pos)
        .expect("legal")
}

#[test]
fn a_whole_game_on_two_boards() {
    let mut g = Game::boards();
    let mut t = g.assist(&["--tc", "10+5"]);
    assert!(t.all_output().contains(
        "hector assistiert Schwarz. Schwarz zieht auf dem Steckbrett. Weiß zieht auf dem \
         elektronischen Brett. 10 Minuten plus 5 Sekunden pro Zug"
    ));
    let mut pos = Chess::default();
    let mut executed = 0;
    // 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#: each move made on its player's board, then
    // carried out on the other. The words are the test's own (tests/common/words.rs).
    for uci in ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"] {
        let m = mv(&pos, uci);
        let words = common::words::DE.short(&pos, m);
        let white = pos.turn() == shakmaty::Color::White;
        t.mark();
        if white {
            g.dgt.send(&format!("move {uci}"));
            // The opponent's move is heard with its label, never taken for an echo.
            t.expect(&format!("Weiß: {words}"), LIMIT);
        } else {
            g.peg.send(&format!("move {uci}"));
            t.expect(&words, LIMIT);
        }
        pos.play_unchecked(m);
        if pos.is_game_over() {
            break;
        }
        if white {
            g.peg.send(&format!("move {uci}"));
            executed += 1;
            wait_count(&t, "Zug auf dem Brett ausgeführt", executed);
        } else {
            g.dgt.send(&format!("move {uci}"));
        }
    }
    t.expect("Partie beendet: Schachmatt. Weiß gewinnt", LIMIT);
    // D9d: asked for, the move count and the time used by both.
    t.send(b"uhr\r");
    let clock = t.expect_span("3 Züge gespielt. Weiß:", "\r\n", LIMIT);
    assert!(clock.contains("verbraucht"), "{clock}");
    t.send(b"ende\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    // Nothing went wrong between the boards.
    assert!(!t.all_output().contains("Achtung"), "{}", t.all_output());
    // The record: every move, the result, both players.
    let pgn = g.hector(&["export", "1"]);
    for needed in [
        "[White \"Anna Schmidt\"]",
        "[Black \"Bernd Weber\"]",
        "[Result \"1-0\"]",
        "Qxf7#",
        "[%clk",
    ] {
        assert!(pgn.contains(needed), "{needed} missing in\n{pgn}");
    }
}

#[test]
fn a_piece_touched_and_not_moved_is_reported() {
    let mut g = Game::boards();
    let mut t = g.assist(&[]);
    // The sighted player lifts the knight, puts it back, and plays a pawn.
    g.dgt.send("lift g1");
    g.dgt.send("wait 300ms");
    g.dgt.send("place g1");
    g.dgt.send("wait 300ms");
    g.dgt.send("move e2e4");
    t.expect("Eva vier", LIMIT);
    assert!(
        t.wait_for(
            "Weiß hat Springer auf Gustav eins berührt und nicht gezogen, Artikel 4.3",
            LIMIT
        )
        .is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0));
    // The touch is in the record.
    let log = std::fs::read_dir(g.data.join("games"))
        .expect("games")
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect::<String>();
    assert!(log.contains("\"type\":\"touched\""), "{log}");
}

/// The blind player puts a piece on a square no move explains: the alert names the square
/// where it stands and the one where it is missing, in the board monitor's words.
#[test]
fn a_piece_on_a_wrong_square_names_every_square_that_differs() {
    let mut g = Game::boards();
    let mut t = g.assist(&[]);
    g.dgt.send("move e2e4");
    t.expect("Eva vier", LIMIT);
    g.peg.send("move e2e4");
    wait_count(&t, "Zug auf dem Brett ausgeführt", 1);
    g.peg.send("lift g8");
    g.peg.send("wait 300ms");
    g.peg.send("place g6");
    assert!(
        t.wait_for(
            "Achtung, Brett von Schwarz: Gustav sechs: hier sollte kein Stein stehen; Gustav \
             acht: schwarzer Springer fehlt. Bitte berichtigen",
            LIMIT
        )
        .is_some(),
        "{}",
        t.all_output()
    );
    g.peg.send("lift g6");
    g.peg.send("wait 300ms");
    g.peg.send("place g8");
    t.expect("Brett von Schwarz stimmt wieder", LIMIT);
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0));
}

/// The sighted player's move copied onto the peg board to a square no move reaches: the alert
/// names where the piece stands wrongly and where it belongs.
#[test]
fn a_move_copied_to_the_wrong_square_names_where_it_belongs() {
    let mut g = Game::boards();
    let mut t = g.assist(&[]);
    g.dgt.send("move e2e4");
    t.expect("Eva vier", LIMIT);
    g.peg.send("lift e2");
    g.peg.send("wait 300ms");
    g.peg.send("place e5");
    assert!(
        t.wait_for(
            "Achtung, Brett von Schwarz: Eva vier: weißer Bauer fehlt; Eva fünf: hier sollte \
             kein Stein stehen. Bitte berichtigen",
            LIMIT
        )
        .is_some(),
        "{}",
        t.all_output()
    );
    g.peg.send("lift e5");
    g.peg.send("wait 300ms");
    g.peg.send("place e4");
    t.expect("Zug auf dem Brett ausgeführt", LIMIT);
    t.send(b"ende\r");
    t.expect("Wirklich beenden?", LIMIT);
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0));
}

#[test]
fn the_assistant_claims_the_win_when_the_opponents_flag_falls() {
    let mut g = Game::boards();
    // Three seconds: PGN's sandclock form is seconds.
    let mut t = g.assist(&["--tc", "*3"]);
    t.expect("Weiß: Zeit abgelaufen", LIMIT);
    t.expect("Sieg für Schwarz reklamiert, Anhang D9e", LIMIT);
    t.expect("Partie beendet: Zeitüberschreitung. Schwarz gewinnt", LIMIT);
    t.send(b"ende\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0));
}

fn envelope_path(text: &str) -> PathBuf {
    let line = text
        .lines()
        .find_map(|l| l.split("Umschlag geschrieben: ").nth(1))
        .expect("envelope written");
    PathBuf::from(line.trim())
}

#[test]
fn an_adjournment_is_sealed_and_resumed() {
    let mut g = Game::boards();
    let mut t = g.assist(&["--tc", "5400"]);
    g.dgt.send("move e2e4");
    t.expect("Eva vier", LIMIT);
    g.peg.send("move e2e4");
    t.expect("Zug auf dem Brett ausgeführt", LIMIT);
    // Black seals his move (Appendix E1); it is not played.
    t.send("abgeben Springer Cäsar sechs; Sonntag 10 Uhr, Saal 2\r".as_bytes());
    assert!(
        t.wait_for(
            "Partie abgebrochen. Schwarz gibt den 1. Zug ab, der Umschlag wird geschrieben",
            LIMIT
        )
        .is_some(),
        "{}",
        t.all_output()
    );
    t.expect("Umschlag geschrieben: ", LIMIT);
    // The path is the rest of that line: waited for to its end.
    let deadline = Instant::now() + LIMIT;
    while !t
        .all_output()
        .split("Umschlag geschrieben: ")
        .nth(1)
        .is_some_and(|rest| rest.contains('\n'))
    {
        assert!(Instant::now() < deadline, "{}", t.all_output());
        std::thread::sleep(Duration::from_millis(10));
    }
    let envelope = envelope_path(&t.all_output());
    let text = std::fs::read_to_string(&envelope).expect("envelope");
    for needed in [
        "white = \"Anna Schmidt\"",
        "black = \"Bernd Weber\"",
        "sealed_by = \"black\"",
        "move_number = 1",
        "sealed_san = \"Nc6\"",
        "resumption = \"Sonntag 10 Uhr, Saal 2\"",
        "position = \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"",
        "black_used = \"0:00:",
        "white_left = \"1:29:5",
    ] {
        assert!(text.contains(needed), "{needed} missing in\n{text}");
    }
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    drop(t);

    // Resumption: the envelope is opened and the sealed move made on both boards (E9).
    let mut t = g.spawn(&["resume", "--screen-reader"]);
    assert!(
        t.wait_for(
            "Die Partie ist abgebrochen, der Umschlag liegt bereit",
            LIMIT
        )
        .is_some(),
        "{}",
        t.all_output()
    );
    t.send("öffnen\r".as_bytes());
    assert!(
        t.wait_for(
            "Umschlag geöffnet. Abgabezug von Schwarz: Springer Cäsar sechs",
            LIMIT
        )
        .is_some(),
        "{}",
        t.all_output()
    );
    // The blind player's board first, until hector says it carried the sealed move out; the
    // sighted board's copy and White's reply then come in order on one line.
    t.mark();
    g.peg.send("move b8c6");
    t.expect("Zug auf dem Brett ausgeführt", LIMIT);
    g.dgt.send("move b8c6");
    g.dgt.send("move g1f3");
    t.expect("Springer Felix drei", LIMIT);
    assert!(!t.all_output().contains("Achtung"), "{}", t.all_output());
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0));
    let pgn = g.hector(&["export", "1"]);
    assert!(
        pgn.contains("Partie abgebrochen, Schwarz gibt den 1. Zug ab"),
        "{pgn}"
    );
    assert!(pgn.contains("Nc6"), "{pgn}");
    let _ = Path::new(&envelope);
}

#[test]
fn help_documents_the_assistant() {
    let r = common::run(&["assist", "--help"]);
    for needed in [
        "D9",
        "D10",
        "--peg-board",
        "--sighted-board",
        "abgeben",
        "sr zurück",
    ] {
        assert!(
            r.stdout.contains(needed),
            "{needed} missing in\n{}",
            r.stdout
        );
    }
    // Without any board there is nothing to assist.
    let r = run_with(
        &["assist", "--speech", "print"],
        b"",
        &[("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("braucht ein Brett"), "{}", r.stderr);
    let r = run_with(
        &["assist", "--speech", "print", "--lang", "en"],
        b"",
        &[("HECTOR_CONFIG", "")],
        LIMIT,
    );
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("needs a board"), "{}", r.stderr);
}

/// The match's clock: each side's low-clock sound once, when its minute runs under
/// `--low-clock 59`: White's while it thinks, Black's after White's move, none before the
/// clock has run and none again while White's time runs on under it.
#[test]
fn the_low_clock_sounds_once_for_each_side() {
    use common::SpeechDaemon;
    use common::cues::{played_until, sound_config};
    let mut g = Game::boards();
    let daemon = SpeechDaemon::capturing();
    let config = sound_config(&g.dir, &daemon, "");
    let dgt = g.dir.join("dgt").display().to_string();
    let peg = g.dir.join("peg").display().to_string();
    let mut t = g
        .env()
        .speech(&daemon)
        .config_file(&config)
        // hector's own sounds, found beside the binary.
        .var("HECTOR_SOUNDS", "")
        .spawn(&[
            "assist",
            "--screen-reader",
            "--speech",
            "speech-dispatcher",
            "--blind",
            "black",
            "--peg-board",
            &peg,
            "--sighted-board",
            &dgt,
            // A minute each (PGN's sandclock form is seconds), the sound under 59 seconds.
            "--tc",
            "*60",
            "--low-clock",
            "59",
        ]);
    t.wait_in_all_output("Zug oder Befehl:", LIMIT);
    g.dgt.send("await-host");
    g.peg.send("await-host");
    let low = |played: &[String]| played.iter().filter(|l| *l == "icon|low-clock").count();
    let greeting = played_until(&daemon, 0, "de|hector assistiert Schwarz");
    assert_eq!(low(&greeting), 0, "{greeting:?}");
    played_until(&daemon, 0, "icon|low-clock");
    let moved = daemon.spoken().len();
    g.dgt.send("move e2e4");
    played_until(&daemon, moved, "de|Weiß: Eva vier");
    let black = played_until(&daemon, moved, "icon|low-clock");
    assert_eq!(low(&black), 1, "{black:?}");
    // Black answers on the peg board; White's time runs on under the threshold.
    g.peg.send("move e2e4");
    g.peg.send("move e7e5");
    let answered = played_until(&daemon, moved, "de|Eva fünf");
    g.dgt.send("move e7e5");
    std::thread::sleep(Duration::from_millis(1500));
    let asked = daemon.spoken().len();
    t.send(b"uhr\r");
    played_until(&daemon, asked, "de|");
    assert_eq!(
        low(&daemon.spoken()),
        2,
        "{answered:?} {:?}",
        daemon.spoken()
    );
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}
