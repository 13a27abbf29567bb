//! `hector arbiter` in a real pseudo-terminal, supervising games whose boards are simulated
//! on pseudo-terminals (the sighted player's DGT board, the blind player's peg board): the
//! D2.8 mismatches on either board in both branches (the records agree: the board is put
//! right; they disagree: the game goes back), penalties, the log, two games at once, the
//! full-screen console.

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

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::brltty::{Brltty, brltty_or_skip};
use common::pty::Pty;
use common::sim::Simulator;
use common::{Env, SpeechDaemon, assert_in_order, run_with, temp_dir};

const LIMIT: Duration = Duration::from_secs(30);

/// The position after 1. e4, to set the boards up after a take-back.
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

struct Hall {
    /// Per game: the sighted player's DGT board and the blind player's peg board.
    boards: Vec<(Simulator, Simulator)>,
    files: Vec<PathBuf>,
    /// Last: removed after the simulators have ended.
    dir: common::TempDir,
}

impl Hall {
    /// `n` games, Black blind in each, with the time control given.
    fn new(n: usize, tc: &str) -> Hall {
        let dir = temp_dir("arbiter");
        let mut boards = Vec::new();
        let mut files = Vec::new();
        for i in 1..=n {
            let dgt = dir.join(format!("dgt{i}"));
            let peg = dir.join(format!("peg{i}"));
            boards.push((Simulator::start("dgt", &dgt), Simulator::start("peg", &peg)));
            let file = dir.join(format!("game{i}.toml"));
            std::fs::write(
                &file,
                format!(
                    "white = \"Anna Weiss{i}\"\nblack = \"Bernd Schwarz{i}\"\nblind = \"black\"\n\
                     time_control = \"{tc}\"\nevent = \"Test\"\n\
                     [peg_board]\nport = \"{}\"\n[sighted_board]\nport = \"{}\"\n",
                    peg.display(),
                    dgt.display()
                ),
            )
            .expect("game file");
            files.push(file);
        }
        Hall { boards, files, dir }
    }

    fn env(&self) -> Env {
        Env::player_home(&self.dir)
    }

    fn arbiter(&mut self, screen_reader: bool) -> Pty {
        let files: Vec<String> = self.files.iter().map(|f| f.display().to_string()).collect();
        let mut args = vec!["arbiter"];
        if screen_reader {
            args.push("--screen-reader");
        }
        args.extend(files.iter().map(String::as_str));
        let env = self.env();
        let t = env.spawn(&args);
        for (dgt, peg) in &mut self.boards {
            dgt.send("await-host");
            peg.send("await-host");
        }
        t
    }

    fn dgt(&mut self, game: usize, line: &str) {
        self.boards[game - 1].0.send(line);
    }

    fn peg(&mut self, game: usize, line: &str) {
        self.boards[game - 1].1.send(line);
    }

    fn export(&self, number: &str) -> String {
        let env = self.env();
        let r = env.run(&["export", number], b"", LIMIT);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        r.stdout
    }
}

fn wait(t: &Pty, needle: &str) {
    assert!(
        t.wait_for(needle, LIMIT).is_some(),
        "{needle:?} missing in:\n{}",
        t.all_output()
    );
}

/// Waits until `needle` has appeared `n` times.
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

/// Asks for the overview ("partien") until the line that begins with `line` says `state`:
/// a board's copy of a move the other board made is announced by nothing, the overview
/// shows it.
fn until_overview_says(t: &mut Pty, line: &str, state: &str) {
    let deadline = Instant::now() + LIMIT;
    loop {
        t.send("partien\r".as_bytes());
        let answer = t.expect_span(line, "\r\n", LIMIT);
        if answer.contains(state) {
            return;
        }
        assert!(Instant::now() < deadline, "{state:?} never in: {answer}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// 1. e4 made by White on the DGT board, carried out by Black on the peg board.
fn first_move(h: &mut Hall, t: &Pty, game: usize) {
    h.dgt(game, "move e2e4");
    wait_count(t, &format!("Partie {game}: Eva vier"), 1);
    h.peg(game, "move e2e4");
}

#[test]
fn records_agree_the_peg_board_is_put_right() {
    let mut h = Hall::new(1, "5400");
    let mut t = h.arbiter(true);
    wait(&t, "Schiedsrichter: 1 Partie");
    first_move(&mut h, &t, 1);
    h.peg(1, "move e7e5");
    wait(&t, "Partie 1: Eva fünf");
    h.dgt(1, "move e7e5");
    // The blind player's rook leaves its hole while White is to move: no move, the records
    // agree; once the board is quiet the arbiter hears which square is wrong.
    h.peg(1, "lift h8");
    wait(
        &t,
        "Partie 1: Achtung, Brett von Schwarz: Hector acht: schwarzer Turm fehlt. Bitte berichtigen",
    );
    h.peg(1, "place h8");
    wait(&t, "Partie 1: Brett von Schwarz stimmt wieder");
    // Typing the command again asks again; no ends nothing: only yes leaves the console.
    t.send("ende\rende\r".as_bytes());
    wait_count(&t, "Wirklich beenden? Ja oder nein", 2);
    t.send("nein\r".as_bytes());
    wait(&t, "Die Konsole bleibt offen");
    t.send("ende\rja\r".as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let pgn = h.export("1");
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "Die Bretter weichen ab, Brett von Schwarz: Hector acht: schwarzer Turm fehlt"
        ),
        "{pgn}"
    );
    assert!(
        flat.contains("Brett von Schwarz stimmt wieder mit der Aufzeichnung überein"),
        "{pgn}"
    );
}

#[test]
fn records_agree_the_dgt_board_is_put_right() {
    let mut h = Hall::new(1, "5400");
    let mut t = h.arbiter(true);
    first_move(&mut h, &t, 1);
    // Black to move; the sighted player drops a second pawn on e5 by mistake.
    h.dgt(1, "place d5 P");
    wait(
        &t,
        "Partie 1: Achtung, Brett von Weiß: David fünf: weißer Bauer, hier sollte kein Stein stehen",
    );
    h.dgt(1, "lift d5");
    wait(&t, "Partie 1: Brett von Weiß stimmt wieder");
    t.send("ende\rja\r".as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0));
}

#[test]
fn records_disagree_on_the_dgt_board_and_the_game_goes_back() {
    let mut h = Hall::new(1, "5400");
    let mut t = h.arbiter(true);
    first_move(&mut h, &t, 1);
    h.peg(1, "move e7e5");
    wait(&t, "Partie 1: Eva fünf");
    // The sighted player carries out e6 instead of e5.
    h.dgt(1, "move e7e6");
    wait(
        &t,
        "Partie 1: Achtung, Brett von Weiß: Eva sechs statt Eva fünf, die Aufzeichnungen stimmen \
         nur bis Zug 1 Weiß überein. Zurück dorthin mit: zurück",
    );
    t.send("1 zurück\r".as_bytes());
    wait(
        &t,
        "Partie 1: Partie zurück auf Zug 1 Weiß. Uhr angehalten. Beide Bretter auf diese \
         Stellung bringen, die Uhren einstellen, dann: weiter",
    );
    wait(&t, "Partie 1: Die Uhren zeigten damals Weiß 1:29:5");
    // Both boards are set up to 1. e4; the arbiter sets a clock and starts it again.
    h.dgt(1, &format!("setup {AFTER_E4}"));
    h.peg(1, &format!("setup {AFTER_E4}"));
    t.send("zeit schwarz 1:29:00\r".as_bytes());
    wait(&t, "Partie 1: Schwarz: noch 1 Stunde 29 Minuten");
    t.send("weiter\r".as_bytes());
    wait(&t, "Partie 1: Uhr läuft weiter");
    // The game goes on from there.
    h.peg(1, "move e7e5");
    wait_count(&t, "Partie 1: Eva fünf", 2);
    h.dgt(1, "move e7e5");
    // White moves once the console shows White's board with Black's e5 carried out.
    until_overview_says(
        &mut t,
        "Partie 1: Anna Weiss1 gegen",
        "Brett von Weiß: stimmt",
    );
    h.dgt(1, "move g1f3");
    wait(&t, "Partie 1: Springer Felix drei");
    t.send("protokoll\r".as_bytes());
    wait(&t, "Protokoll Partie 1");
    for needed in [
        "Die Aufzeichnungen stimmen nur bis Zug 1 Weiß überein",
        "Der Zug e5 wurde zurückgenommen",
        "Brett von Weiß: Züge bis zur letzten Übereinstimmung zurückgenommen",
        "Restzeit von Schwarz auf 1 Stunde 29 Minuten gesetzt",
        "Zug 2, Weiß: Springer Felix drei",
    ] {
        wait(&t, needed);
    }
    t.send("ende\rja\r".as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0));
}

#[test]
fn records_disagree_on_the_peg_board_and_the_arbiter_has_it_corrected() {
    let mut h = Hall::new(1, "5400");
    let mut t = h.arbiter(true);
    h.dgt(1, "move d2d4");
    wait(&t, "Partie 1: David vier");
    // The blind player carries out d3 instead of d4.
    h.peg(1, "move d2d3");
    wait(
        &t,
        "Partie 1: Achtung, Brett von Schwarz: David drei statt David vier, die Aufzeichnungen \
         stimmen nur bis zum Anfang überein",
    );
    // The arbiter decides otherwise: the board is to follow the record.
    t.send("1 berichtigen schwarz\r".as_bytes());
    wait(
        &t,
        "Partie 1: Brett von Schwarz wird nach der Aufzeichnung berichtigt",
    );
    wait(
        &t,
        "Partie 1: Achtung, Brett von Schwarz: David drei: weißer Bauer, hier sollte kein Stein \
         stehen; David vier: weißer Bauer fehlt. Bitte berichtigen",
    );
    h.peg(1, "lift d3");
    h.peg(1, "place d4");
    wait(&t, "Partie 1: Brett von Schwarz stimmt wieder");
    h.peg(1, "move d7d5");
    wait(&t, "Partie 1: David fünf");
    t.send("ende\rja\r".as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0));
    let pgn = h.export("1");
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("der Schiedsrichter lässt das Brett nach der Aufzeichnung berichtigen"),
        "{pgn}"
    );
}

#[test]
fn penalties_claims_and_the_log_of_two_games() {
    let mut h = Hall::new(2, "300");
    let mut t = h.arbiter(true);
    wait(&t, "Schiedsrichter: 2 Partien");
    first_move(&mut h, &t, 2);
    h.dgt(1, "move d2d4");
    wait(&t, "Partie 1: David vier");
    // Commands need a game: named, or chosen first.
    t.send("strafe weiß\r".as_bytes());
    wait(
        &t,
        "Welche Partie? Zum Beispiel: 3 pause, oder erst 3 wählen",
    );
    t.send("2 strafe weiß\r".as_bytes());
    wait(
        &t,
        "Partie 2: 1 Minute Zeitgutschrift für Schwarz, Artikel 12.9b",
    );
    t.send("1\r".as_bytes());
    wait(&t, "Partie 1 gewählt: Anna Weiss1 gegen Bernd Schwarz1");
    t.send("regelwidrig schwarz\r".as_bytes());
    for line in [
        "Partie 1: Regelwidriger Zug von Schwarz, Artikel 7.5\r\n",
        "Partie 1: 1 Minute Zeitgutschrift für Weiß, Artikel 7.5b\r\n",
        "Partie 1: Bitte die Stellung vor dem regelwidrigen Zug wiederherstellen\r\n",
    ] {
        wait(&t, line);
    }
    // A claim by the player to move, checked: wrong here, 9.5b.
    t.send("reklamation\r".as_bytes());
    wait(
        &t,
        "Partie 1: Reklamation nicht berechtigt. Weiß bekommt 1 Minute dazu",
    );
    t.send("9 pause\r".as_bytes());
    wait(&t, "Es gibt keine Partie 9; die Partien sind 1 bis 2");
    t.send("zeit\r".as_bytes());
    wait(&t, "Für welche Farbe? weiß oder schwarz");
    t.send("partien\r".as_bytes());
    wait(
        &t,
        "Partie 2: Anna Weiss2 gegen Bernd Schwarz2. Schwarz ist am Zug.",
    );
    wait(&t, "Achtung: keine");
    t.send("protokoll 2\r".as_bytes());
    wait(&t, "Protokoll Partie 2");
    wait(&t, "1 Minute Zeitgutschrift für Schwarz, Artikel 12.9b");
    t.send("ende\rja\r".as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0));
    // Both games are recorded, the arbiter's actions as comments.
    let pgn = h.export("2");
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("1 Minute Zeitgutschrift für Schwarz, Artikel 12.9b"),
        "{pgn}"
    );
    let pgn = h.export("1");
    assert!(pgn.contains("Regelwidriger Zug von Schwarz"), "{pgn}");
}

#[test]
fn a_restarted_console_continues_its_games() {
    let mut h = Hall::new(1, "5400");
    let mut t = h.arbiter(true);
    first_move(&mut h, &t, 1);
    h.peg(1, "move e7e5");
    wait(&t, "Partie 1: Eva fünf");
    t.send("ende\rja\r".as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0));
    drop(t);
    // Started again with the same file: the game and its clock go on from the record.
    let mut t = h.arbiter(true);
    wait(&t, "Schiedsrichter: 1 Partie");
    t.send("partien\r".as_bytes());
    wait(
        &t,
        "Partie 1: Anna Weiss1 gegen Bernd Schwarz1. Weiß ist am Zug.",
    );
    wait(&t, "1 Zug gespielt");
    // Once the boards have reported, the sighted player's is seen to lack e5.
    let deadline = Instant::now() + LIMIT;
    while !t
        .all_output()
        .contains("Brett von Weiß: auszuführen: Eva fünf")
    {
        assert!(Instant::now() < deadline, "{}", t.all_output());
        std::thread::sleep(Duration::from_millis(500));
        t.send("partien\r".as_bytes());
    }
    assert!(!t.all_output().contains("Achtung,"), "{}", t.all_output());
    t.send("ende\rja\r".as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0));
}

#[test]
fn a_flag_falls_in_a_supervised_game() {
    // Two seconds: PGN's sandclock form is seconds.
    let mut h = Hall::new(1, "*2");
    let mut t = h.arbiter(true);
    wait(&t, "Partie 1: Weiß: Zeit abgelaufen");
    wait(
        &t,
        "Partie 1: Partie beendet: Zeitüberschreitung. Schwarz gewinnt",
    );
    // The log and the list say the result as the watch does: the winner and the score in
    // words, never "0-1".
    t.send("protokoll\r".as_bytes());
    wait(&t, "Protokoll Partie 1");
    wait(&t, "Schwarz gewinnt, 0 zu 1: Zeitüberschreitung");
    t.send("partien\r".as_bytes());
    wait(&t, "Partie 1: Anna Weiss1 gegen");
    wait(&t, "Schwarz gewinnt, 0 zu 1");
    assert!(
        !t.all_output().contains("0-1"),
        "a result in figures: {}",
        t.all_output()
    );
    // A finished game lets the console end at once.
    t.send("ende\r".as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0));
}

#[test]
fn the_full_screen_console_lists_the_games() {
    let mut h = Hall::new(2, "5400");
    let mut t = h.arbiter(false);
    assert!(
        t.wait_for_screen("Schiedsrichter: 2 Partien", LIMIT),
        "{}",
        t.screen()
    );
    assert!(t.wait_for_screen("Nr Partie", LIMIT), "{}", t.screen());
    assert!(
        t.wait_for_screen("Weiss1 - Schwarz1", LIMIT),
        "{}",
        t.screen()
    );
    h.dgt(2, "move e2e4");
    assert!(t.wait_for_screen("1. e4", LIMIT), "{}", t.screen());
    t.send(b"2\r");
    assert!(
        t.wait_for_screen("Protokoll Partie 2", LIMIT),
        "{}",
        t.screen()
    );
    assert!(
        t.wait_for_screen("Brett von Schwarz: auszuführen: Eva vier", LIMIT),
        "{}",
        t.screen()
    );
    t.send(b"ende\r");
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0));
}

#[test]
fn game_files_with_mistakes_are_explained() {
    let dir = temp_dir("arbiter-files");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "white = \"A\"\nblack = \"B\"\nblind = \"blue\"\n").expect("write");
    let env = [("HECTOR_CONFIG", ""), ("HECTOR_DATA", "/nonexistent-data")];
    let r = run_with(
        &["arbiter", "--screen-reader", &bad.display().to_string()],
        b"",
        &env,
        LIMIT,
    );
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("Partie 1 aus"), "{}", r.stderr);
    assert!(
        r.stderr.contains("missing field `peg_board`") || r.stderr.contains("blind"),
        "{}",
        r.stderr
    );
    let missing = dir.join("missing.toml");
    let r = run_with(
        &["arbiter", "--screen-reader", &missing.display().to_string()],
        b"",
        &env,
        LIMIT,
    );
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("cannot read"), "{}", r.stderr);
    let r = common::run(&["arbiter", "--help"]);
    for needed in [
        "D2.8",
        "[peg_board]",
        "zurück",
        "berichtigen",
        "strafe",
        "protokoll",
    ] {
        assert!(
            r.stdout.contains(needed),
            "{needed} missing in\n{}",
            r.stdout
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_games_are_pushed_to_a_lichess_broadcast_and_a_refused_push_is_retried() {
    let server = lichess::Server::start();
    // The round's study is not writable for the first two pushes.
    server.set(|s| s.relay.refuse_pushes = 2);
    let mut h = Hall::new(1, "5400");
    let files: Vec<String> = h.files.iter().map(|f| f.display().to_string()).collect();
    let mut args = vec![
        "arbiter",
        "--screen-reader",
        "--broadcast",
        lichess::ROUND,
        "--server",
        &server.url,
    ];
    args.extend(files.iter().map(String::as_str));
    let t = h.env().token(lichess::STUDY_TOKEN).spawn(&args);
    for (dgt, peg) in &mut h.boards {
        dgt.send("await-host");
        peg.send("await-host");
    }
    wait(&t, "Die Partien gehen an die lichess-Übertragung R0und001");
    wait(&t, "lichess nimmt die Übertragung nicht an");
    // The game goes on while lichess refuses.
    first_move(&mut h, &t, 1);
    h.peg(1, "move e7e5");
    wait(&t, "Partie 1: Eva fünf");
    h.dgt(1, "move e7e5");
    wait(&t, "lichess zeigt die Partien");
    // The push after the moves has the players' names and both moves.
    let has_moves = |s: &lichess::State| {
        s.relay.pushes.last().is_some_and(|p| {
            p.contains("1. e4 ") && p.contains("1... e5 ") && p.contains("[White \"Anna Weiss1\"]")
        })
    };
    assert!(server.wait(LIMIT, has_moves), "{:?}", server.pushes());
    h.dgt(1, "move g1f3");
    wait(&t, "Partie 1: Springer Felix drei");
    assert!(
        server.wait(LIMIT, |s| s
            .relay
            .pushes
            .last()
            .is_some_and(|p| p.contains("2. Nf3"))),
        "{:?}",
        server.pushes()
    );
    let mut t = t;
    // The arbiter's result goes too, as the game's end.
    t.send("ergebnis 1-0\r".as_bytes());
    assert!(
        server.wait(LIMIT, |s| s.relay.pushes.last().is_some_and(|p| p
            .contains("[Result \"1-0\"]")
            && p.trim_end().ends_with("1-0"))),
        "{:?}",
        server.pushes()
    );
    t.send("ende\rja\r".as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    // The token went only with the pushes, the refused ones were tried again, one at a time.
    let s = server.snapshot();
    assert!(s.relay.push_attempts >= 4, "{}", s.relay.push_attempts);
    assert!(
        s.authorizations
            .iter()
            .all(|a| a == &format!("Bearer {}", lichess::STUDY_TOKEN)),
        "{:?}",
        s.authorizations
    );
    drop(s);
    // The local record is whole.
    let pgn = h.export("1");
    for san in ["1. e4 ", " e5 ", "2. Nf3 "] {
        assert!(pgn.contains(san), "{san} {pgn}");
    }
    assert!(!t.all_output().contains(lichess::STUDY_TOKEN));
}

/// A server that refuses, then sends a push's headers and drips its body: the push is given
/// up after its deadline, the failure said once however often it fails, and the push tried
/// again with the newest games, which go out; the games go on meanwhile.
#[test]
fn a_push_whose_answer_drips_is_given_up_said_once_and_the_newest_games_go_out() {
    let server = lichess::Server::start();
    server.set(|s| {
        s.relay.refuse_pushes = 2;
        s.relay.drip_pushes = 1;
        s.relay.drip = Some(Duration::from_secs(5));
    });
    let mut h = Hall::new(1, "5400");
    let files: Vec<String> = h.files.iter().map(|f| f.display().to_string()).collect();
    let mut args = vec![
        "arbiter",
        "--screen-reader",
        "--broadcast",
        lichess::ROUND,
        "--server",
        &server.url,
    ];
    args.extend(files.iter().map(String::as_str));
    let mut t = h.env().token(lichess::STUDY_TOKEN).spawn(&args);
    for (dgt, peg) in &mut h.boards {
        dgt.send("await-host");
        peg.send("await-host");
    }
    wait(&t, "lichess nimmt die Übertragung nicht an");
    assert!(
        server.wait(LIMIT, |s| s.relay.dripped == 1),
        "no push reached the dripping answer"
    );
    // The games go on while the push hangs.
    first_move(&mut h, &t, 1);
    h.peg(1, "move e7e5");
    wait(&t, "Partie 1: Eva fünf");
    h.dgt(1, "move e7e5");
    h.dgt(1, "move g1f3");
    wait(&t, "Partie 1: Springer Felix drei");
    h.peg(1, "move g1f3");
    // Given up after its deadline and sent again: the newest games go out.
    let newest = |s: &lichess::State| {
        s.relay
            .pushes
            .last()
            .is_some_and(|p| p.contains("1. e4 ") && p.contains("2. Nf3"))
    };
    assert!(
        server.wait(Duration::from_secs(75), newest),
        "{:?}\n{}",
        server.pushes(),
        t.all_output()
    );
    wait(&t, "lichess zeigt die Partien");
    assert_eq!(
        t.all_output()
            .matches("lichess nimmt die Übertragung nicht an")
            .count(),
        1,
        "{}",
        t.all_output()
    );
    t.send("ende\rja\r".as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

#[test]
fn a_broadcast_to_a_plain_http_server_elsewhere_is_refused_and_the_games_go_on() {
    let mut h = Hall::new(1, "5400");
    let files: Vec<String> = h.files.iter().map(|f| f.display().to_string()).collect();
    let mut args = vec![
        "arbiter",
        "--screen-reader",
        "--broadcast",
        lichess::ROUND,
        "--server",
        "http://mirror.example.com:8080",
    ];
    args.extend(files.iter().map(String::as_str));
    let mut t = h.env().token(lichess::STUDY_TOKEN).spawn(&args);
    for (dgt, peg) in &mut h.boards {
        dgt.send("await-host");
        peg.send("await-host");
    }
    wait(&t, "http://mirror.example.com:8080 ist keine https-Adresse");
    first_move(&mut h, &t, 1);
    t.send("ende\rja\r".as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    assert!(!t.all_output().contains(lichess::STUDY_TOKEN));
}

/// The console's answers reach the arbiter whole and in order, through the real clients: the
/// full screen of 80x24 speaking through a speech-dispatcher whose module says a sentence in a
/// quarter of a second (an answer cut short loses its later sentences), and a BRLTTY of 40
/// cells, which flashes each answer from its beginning.
#[test]
fn the_consoles_answers_are_heard_whole_and_flashed() {
    if !brltty_or_skip("the_consoles_answers_are_heard_whole_and_flashed") {
        return;
    }
    let limit = Duration::from_secs(60);
    let mut h = Hall::new(1, "5400");
    let daemon = SpeechDaemon::speaking_slowly();
    let display = Brltty::tt(40);
    let file = h.files[0].display().to_string();
    let mut t = h
        .env()
        .speech(&daemon)
        .braille_host(&display.host())
        .spawn_sized(&["arbiter", "--speech", "speech-dispatcher", &file], 80, 24);
    for (dgt, peg) in &mut h.boards {
        dgt.send("await-host");
        peg.send("await-host");
    }
    daemon.heard_until(0, "Schiedsrichter: 1 Partie", limit);
    // A game chosen: its number and players.
    let before = daemon.spoken().len();
    t.send(b"1\r");
    let heard = daemon.heard_when_quiet(before, limit);
    assert!(
        heard.starts_with("Partie 1 gewählt: Anna Weiss1 gegen Bernd Schwarz1"),
        "{heard}"
    );
    display.assert_flashed("Partie 1 gewählt", &heard);
    // News from the boards. A move is shown with its game's number and not said: an arbiter
    // watching many games hears only what needs them.
    let before = daemon.spoken().len();
    h.dgt(1, "move e2e4");
    assert!(
        t.wait_for_screen("Partie 1: Eva vier", limit),
        "{}",
        t.screen()
    );
    std::thread::sleep(Duration::from_millis(1500));
    let spoken = daemon.spoken();
    assert_eq!(
        spoken.len(),
        before,
        "a move was said: {:?}",
        &spoken[before..]
    );
    h.peg(1, "move e2e4");
    // A board that disagrees with the record: said whole, and flashed from its start.
    let before = daemon.spoken().len();
    h.dgt(1, "place d5 P");
    let heard = daemon.heard_when_quiet(before, limit);
    assert!(
        heard.starts_with(
            "Partie 1: Achtung, Brett von Weiß: David fünf: weißer Bauer, hier sollte kein \
             Stein stehen"
        ),
        "{heard}"
    );
    display.assert_flashed("Partie 1: Achtung, Brett von Weiß", &heard);
    // Put right: said as the alarm was, and flashed; in the game's log too.
    let before = daemon.spoken().len();
    h.dgt(1, "lift d5");
    let heard = daemon.heard_when_quiet(before, limit);
    assert!(
        heard.starts_with("Partie 1: Brett von Weiß stimmt wieder"),
        "{heard}"
    );
    display.assert_flashed("Partie 1: Brett von Weiß stimmt", &heard);
    assert!(
        t.wait_for_screen("Brett von Weiß stimmt wieder mit der Aufzeichnung", limit),
        "{}",
        t.screen()
    );
    // A decision of three parts: the offence, the penalty, what the players do.
    let before = daemon.spoken().len();
    t.send("regelwidrig schwarz\r".as_bytes());
    let heard = daemon.heard_when_quiet(before, limit);
    assert_in_order(
        &heard,
        &[
            "Partie 1: Regelwidriger Zug von Schwarz, Artikel 7.5",
            " Zeitgutschrift für Weiß, Artikel 7.5b",
            "Partie 1: Bitte die Stellung vor dem regelwidrigen Zug wiederherstellen",
        ],
    );
    display.assert_flashed("Partie 1: Regelwidriger Zug", &heard);
    // The overview: the game, then what needs attention.
    let before = daemon.spoken().len();
    t.send(b"partien\r");
    let heard = daemon.heard_when_quiet(before, limit);
    assert_in_order(
        &heard,
        &["Partie 1: Anna Weiss1 gegen Bernd Schwarz1.", "Achtung"],
    );
    assert!(!heard.contains("Regelwidriger"), "{heard}");
    display.assert_flashed("Partie 1: Anna Weiss1", &heard);
    t.send(b"ende\r");
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(limit), Some(0), "{}", t.all_output());
}
