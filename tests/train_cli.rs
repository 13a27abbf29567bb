//! `hector train` through the real binary in pseudo-terminals with the real Stockfish: a game
//! of hector play with a known blunder of the player's is judged once (its analysis kept),
//! its position asked again, the move of the game answered with what it allows, the hint
//! given, the better move accepted; the progress kept from one session to the next until the
//! position is solved twice; a damaged progress file named and started afresh.

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

use std::time::Duration;

use common::pty::Pty;
use common::{Env, temp_dir};

const LIMIT: Duration = Duration::from_secs(90);

fn spawn(args: &[&str], dir: &std::path::Path) -> Pty {
    Env::player(dir).spawn(args)
}

fn typed(t: &mut Pty, line: &str) {
    // The line and Enter are one action: its echo belongs to what follows it.
    t.send(format!("{line}\r").as_bytes());
}

fn expect(t: &Pty, needle: &str) {
    t.expect(needle, LIMIT);
}

/// The position asked about: before 3... Nf6??.
/// The square named by `words` in `w` ("Gustav sieben").
fn square_named(w: &common::words::Words, words: &str) -> Option<shakmaty::Square> {
    shakmaty::Square::ALL
        .into_iter()
        .find(|&sq| w.square(sq) == words)
}

/// The two hints ("Tipp: Bauer auf Gustav sieben", then "Tipp: Bauer nach Gustav sechs")
/// read with the test's own words: the one move of that piece from there to there, which
/// must keep the game (the engine may prefer any such move).
fn hinted_move(first: &str, second: &str) -> shakmaty::Move {
    use common::words::{DE, before_blunder, holds_before_blunder};
    use shakmaty::Position;
    let read = |hint: &str, join: &str| {
        let (piece, square) = hint
            .trim_end()
            .strip_prefix("Tipp: ")
            .and_then(|h| h.split_once(join))
            .unwrap_or_else(|| panic!("a hint of a piece {join}a square: {hint:?}"));
        let role = [
            shakmaty::Role::King,
            shakmaty::Role::Queen,
            shakmaty::Role::Rook,
            shakmaty::Role::Bishop,
            shakmaty::Role::Knight,
            shakmaty::Role::Pawn,
        ]
        .into_iter()
        .find(|&r| DE.piece(r) == piece)
        .unwrap_or_else(|| panic!("no piece: {hint:?}"));
        let square = square_named(&DE, square).unwrap_or_else(|| panic!("no square: {hint:?}"));
        (role, square)
    };
    let (role, from) = read(first, " auf ");
    let (again, to) = read(second, " nach ");
    assert_eq!(role, again, "{first:?} {second:?}");
    let pos = before_blunder();
    let moves: Vec<shakmaty::Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.role() == role && m.from() == Some(from) && m.to() == to)
        .collect();
    assert_eq!(moves.len(), 1, "no one move: {first:?} {second:?}");
    assert!(
        holds_before_blunder(moves[0]),
        "the hinted move does not keep the game: {first:?} {second:?}"
    );
    moves[0]
}

/// A game of hector play where the player (Black) blunders with 3... Nf6?? and is mated.
fn blunder_game(dir: &std::path::Path) {
    let mut t = spawn(
        &[
            "play",
            "--opponent",
            "keyboard",
            "--color",
            "black",
            "--speech",
            "print",
            "--new",
            "--screen-reader",
        ],
        dir,
    );
    expect(&t, "Weiß ist am Zug");
    for mv in ["e4", "e5", "Dh5", "Sc6", "Lc4", "Sf6", "Dxf7"] {
        typed(&mut t, mv);
    }
    expect(&t, "Schachmatt");
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

fn train(dir: &std::path::Path) -> Pty {
    spawn(
        &[
            "train",
            "--movetime",
            "200",
            "--speech",
            "print",
            "--screen-reader",
        ],
        dir,
    )
}

const QUESTION: &str = "Ihr 3. Zug, Schwarz am Zug: finden Sie einen besseren Zug. In der \
                        Partie: Springer Felix sechs, grober Fehler";

#[test]
fn the_players_blunder_is_asked_until_solved_twice() {
    let home = temp_dir("train");
    blunder_game(home.path());
    let mut t = train(home.path());
    expect(&t, "Der Computer bewertet 1 Partie");
    expect(&t, "Partie 1 von 1, 4 Züge");
    expect(&t, "Training: 1 Stellung aus Ihren Partien");
    expect(&t, QUESTION);
    // The position asked about answers the questions of play.
    typed(&mut t, "feld f7");
    expect(&t, "Felix sieben: schwarzer Bauer");
    typed(&mut t, "Sf6");
    expect(
        &t,
        "Das ist der Zug der Partie: darauf Zug 4, Weiß: Dame schlägt Felix sieben",
    );
    // A square off the board is refused in words, and the position stays.
    typed(&mut t, "Ke9");
    expect(&t, "Unbekanntes Wort: Ke9");
    typed(&mut t, "feld f6");
    expect(&t, "Felix sechs: leer");
    // The hints name the piece of the engine's move and where it stands, then where it
    // goes: a move that keeps the game, whichever the engine prefers. Played, it is right
    // (the engine's own move needs no second judgement, so this holds for every answer).
    typed(&mut t, "tipp");
    let first = t.expect_span("Tipp: ", "\r\n", LIMIT);
    typed(&mut t, "tipp");
    let second = t.expect_span("Tipp: ", "\r\n", LIMIT);
    let best = hinted_move(&first, &second);
    let uci = shakmaty::uci::UciMove::from_standard(best).to_string();
    typed(&mut t, &uci);
    let said = common::words::DE.short(&common::words::before_blunder(), best);
    expect(&t, &format!("Richtig: {said}"));
    expect(&t, "Training beendet: 1 von 1 gelöst. Offen: 1 Stellung");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    // The game was judged once: its analysis is kept beside it.
    let games = home.path().join("games");
    let kept = std::fs::read_dir(&games)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "analysis"))
        })
        .count();
    assert_eq!(kept, 1, "{}", games.display());
    let progress = std::fs::read_to_string(home.path().join("training.progress")).unwrap();
    assert!(
        progress.starts_with("hector-training 1\n1 1 g8f6 "),
        "{progress}"
    );

    // The next session: the position comes back, judged no more.
    let mut t = train(home.path());
    expect(&t, QUESTION);
    assert!(!t.all_output().contains("bewertet"), "{}", t.all_output());
    typed(&mut t, &uci);
    expect(&t, "Zweimal gelöst: diese Stellung kommt nicht wieder");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());

    // Solved twice: nothing left.
    let mut t = train(home.path());
    expect(&t, "Keine Stellungen zum Üben");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

#[test]
fn a_wrong_move_is_answered_with_the_engines_reply_and_a_damaged_record_starts_afresh() {
    let home = temp_dir("train-wrong");
    blunder_game(home.path());
    std::fs::write(
        home.path().join("training.progress"),
        "hector-training 1\nx y\n",
    )
    .unwrap();
    let mut t = train(home.path());
    expect(
        &t,
        "ist nicht lesbar (line 2 cannot be read). Er bleibt unverändert als",
    );
    expect(&t, "erhalten; das Training beginnt neu");
    let kept: Vec<_> = std::fs::read_dir(home.path())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("training.progress.unreadable-")
        })
        .collect();
    assert_eq!(kept.len(), 1, "the damaged record is kept");
    assert_eq!(
        std::fs::read_to_string(kept[0].path()).unwrap(),
        "hector-training 1\nx y\n"
    );
    expect(&t, QUESTION);
    // 3... a6?? allows the same mate.
    typed(&mut t, "a6");
    expect(
        &t,
        "Anna sechs ist nicht besser: darauf Zug 4, Weiß: Dame schlägt Felix sieben",
    );
    typed(&mut t, "lösung");
    // The solution is a move that holds, read with the test's own words.
    let shown = t.expect_span("Die Lösung: ", ". ", LIMIT);
    let words = shown["Die Lösung: ".len()..].trim_end_matches(". ");
    if let Err(why) = common::words::better_than_blunder(&common::words::DE, words) {
        panic!("{why}: {shown}");
    }
    expect(&t, "Training beendet: 0 von 1 gelöst. Offen: 1 Stellung");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let progress = std::fs::read_to_string(home.path().join("training.progress")).unwrap();
    assert!(
        progress.starts_with("hector-training 1\n0 1 g8f6 "),
        "{progress}"
    );
}

#[test]
fn analyse_all_judges_every_game_once_and_goes_on_where_it_stopped() {
    let home = temp_dir("analyse-all");
    blunder_game(home.path());
    blunder_game(home.path());
    let env = Env::player(home.path());
    let env = env.vars();
    let all = || {
        common::run_with(
            &["analyse", "--all", "--movetime", "100", "--engines", "2"],
            b"",
            &env,
            LIMIT,
        )
    };
    let first = all();
    assert_eq!(first.code, Some(0), "{}{}", first.stdout, first.stderr);
    assert!(
        first
            .stdout
            .contains("Zu bewerten: 2 Partien; 0 schon bewertet"),
        "{}",
        first.stdout
    );
    assert!(
        first.stdout.contains("Partie 1 von 2: "),
        "{}",
        first.stdout
    );
    assert!(
        first.stdout.contains("Partie 2 von 2: "),
        "{}",
        first.stdout
    );
    assert!(
        first.stdout.contains("Fertig: 2 bewertet, 0 nicht"),
        "{}",
        first.stdout
    );
    let kept: Vec<std::path::PathBuf> = std::fs::read_dir(home.path().join("games"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "analysis"))
        .collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
    let again = all();
    assert!(
        again.stdout.contains("Alle Partien sind schon bewertet"),
        "{}",
        again.stdout
    );
    // As if stopped after the first game: only the other one is judged.
    std::fs::remove_file(&kept[0]).unwrap();
    let rest = all();
    assert!(
        rest.stdout
            .contains("Zu bewerten: 1 Partie; 1 schon bewertet"),
        "{}",
        rest.stdout
    );
    assert!(
        rest.stdout.contains("Fertig: 1 bewertet"),
        "{}",
        rest.stdout
    );
}

#[test]
fn the_walk_through_a_recorded_game_takes_the_players_side_and_saves_its_moves() {
    let home = temp_dir("walk-side");
    blunder_game(home.path());
    let mut t = spawn(
        &[
            "analyse",
            "1",
            "--walk",
            "--movetime",
            "100",
            "--screen-reader",
            "--backend",
            "print",
        ],
        home.path(),
    );
    expect(&t, "Analyse. Weiß:");
    // Black's board is read from the first rank up.
    typed(&mut t, "brett");
    t.wait_answer("brett", LIMIT);
    let text = t.since_mark();
    let one = text.find("Reihe eins").unwrap_or(usize::MAX);
    let eight = text.find("Reihe acht").unwrap_or(0);
    assert!(one < eight, "{text}");
    // Saved during the walk, the PGN has the game's moves.
    let pgn = home.path().join("walked.pgn");
    typed(&mut t, &format!("speichern {}", pgn.display()));
    expect(&t, "walked.pgn");
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let saved = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        saved.contains("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"),
        "{saved}"
    );
}

/// Lines typed while the engine judges an answer are kept and answered in order, after its
/// verdict, as play answers lines typed while the engine thinks.
#[test]
fn lines_typed_while_an_answer_is_judged_are_answered_in_order() {
    let home = temp_dir("train-ahead");
    blunder_game(home.path());
    let mut t = spawn(
        &[
            "train",
            "--movetime",
            "1500",
            "--speech",
            "print",
            "--screen-reader",
        ],
        home.path(),
    );
    // A line typed while the games are judged, before the first question: answered after it.
    expect(&t, "Partie 1 von 1, 4 Züge");
    typed(&mut t, "feld e5");
    expect(&t, "Eva fünf: schwarzer Bauer");
    let text = t.all_output();
    let asked = text.find(QUESTION).unwrap_or(usize::MAX);
    assert!(
        asked < text.find("Eva fünf: schwarzer Bauer").unwrap_or(0),
        "{text}"
    );
    let from = t.all_output().len();
    typed(&mut t, "a6");
    typed(&mut t, "feld f7");
    expect(&t, "Felix sieben: schwarzer Bauer");
    let text = t.all_output();
    let new = &text[from..];
    let verdict = new
        .find("Anna sechs ist nicht besser")
        .unwrap_or_else(|| panic!("no verdict:\n{new}"));
    let answer = new.find("Felix sieben: schwarzer Bauer").unwrap_or(0);
    assert!(verdict < answer, "answered before the verdict:\n{new}");
    assert!(!new.contains("prüft noch"), "{new}");
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// Training as speech-dispatcher plays it: the game's own move and a move not good enough
/// heard as the refusal's sound before their words, the right move as its own sound before
/// "Richtig".
#[test]
fn the_answers_are_heard_as_their_sounds_before_their_words() {
    use common::SpeechDaemon;
    use common::cues::{icon_of, played_until, sound_config};
    let home = temp_dir("train-cues");
    blunder_game(home.path());
    let daemon = SpeechDaemon::capturing();
    let config = sound_config(home.path(), &daemon, "");
    let mut t = Env::player(home.path())
        .speech(&daemon)
        .config_file(&config)
        // hector's own sounds, found beside the binary.
        .var("HECTOR_SOUNDS", "")
        .spawn(&[
            "train",
            "--movetime",
            "200",
            "--speech",
            "speech-dispatcher",
            "--screen-reader",
        ]);
    expect(&t, QUESTION);
    daemon.heard_until(0, "grober Fehler", LIMIT);
    let from = daemon.spoken().len();
    typed(&mut t, "Sf6");
    let played = played_until(&daemon, from, "de|Das ist der Zug der Partie");
    assert_eq!(played[0], "icon|illegal", "{played:?}");
    assert!(
        played[1].starts_with("de|Das ist der Zug der Partie"),
        "{played:?}"
    );
    // Each hint heard before the next action, so that what follows reads only its answer.
    let mut hint = || {
        let from = daemon.spoken().len();
        typed(&mut t, "tipp");
        let text = t.expect_span("Tipp: ", "\r\n", LIMIT);
        played_until(&daemon, from, "de|Tipp: ");
        text
    };
    let first = hint();
    let second = hint();
    let best = hinted_move(&first, &second);
    let from = daemon.spoken().len();
    typed(
        &mut t,
        &shakmaty::uci::UciMove::from_standard(best).to_string(),
    );
    let played = played_until(&daemon, from, "de|Richtig: ");
    let before = common::words::before_blunder();
    assert_eq!(played[0], icon_of(&before, best), "{played:?}");
    assert!(
        played[1].starts_with(&format!(
            "de|Richtig: {}",
            common::words::DE.short(&before, best)
        )),
        "{played:?}"
    );
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}
