//! The walk through an analysed game, through the real binary in pseudo-terminals with the
//! real Stockfish: `hector analyse GAME --walk` stops at the known blunder, says and shows
//! the better line, returns, steps and answers the questions of play for the position looked
//! at; `analyse` typed after a game of `hector play` judges it and opens the same walk.

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
#[path = "common/lichess.rs"]
mod lichess;

use std::time::Duration;

use common::brltty::{Brltty, brltty_or_skip};
use common::pty::Pty;
use common::words::{DE, de_square_answer, play_line};
use common::{Env, SpeechDaemon, assert_in_order, data, temp_dir};
use shakmaty::{Chess, Position, san::San};

const LIMIT: Duration = Duration::from_secs(60);

/// Types `line` and Enter as one action: what follows is the answer (the line's echo
/// included, which `wait_answer` reads).
fn typed(t: &mut Pty, line: &str) {
    t.send(format!("{line}\r").as_bytes());
}

fn expect(t: &Pty, needle: &str) {
    t.expect(needle, LIMIT);
}

/// The position after `sans` from the start.
fn after(sans: &[&str]) -> Chess {
    let mut pos = Chess::default();
    for san in sans {
        let m = san
            .parse::<San>()
            .unwrap()
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("{san}: {e}"));
        pos.play_unchecked(m);
    }
    pos
}

/// Types `besser` and reads the line said ("Besser: Zug 3, Schwarz: Gustav sechs; Zug 4,
/// Weiß: Dame Felix drei; Schwarz: Springer Felix sechs. Weiß steht …") with the test's own words, played from `before`
/// (the position looked at); then asks for squares where the line's end differs from
/// `before` and expects the end's pieces there: the board walked into the line, which a
/// `besser` that only spoke would not have done. The line's first move, in words, and the
/// squares it changed.
fn better_line_is_shown(
    t: &mut Pty,
    before: &Chess,
    first_number: &str,
) -> (String, Vec<shakmaty::Square>) {
    typed(t, "besser");
    t.wait_answer("besser", LIMIT);
    let said = t.since_mark();
    let start = format!("Besser: Zug {first_number}, ");
    let at = said
        .find(&start)
        .unwrap_or_else(|| panic!("no better line:\n{said}"));
    let rest = &said[at + "Besser: ".len()..];
    // The line ends where the evaluation begins: the first ". " after a move's words.
    let mut end = rest.len();
    let mut from = 0;
    while let Some(i) = rest[from..].find(". ") {
        let dot = from + i;
        if !rest[..dot].ends_with(|c: char| c.is_ascii_digit()) {
            end = dot;
            break;
        }
        from = dot + 2;
    }
    let line = &rest[..end];
    let (end_pos, moves) =
        play_line(before, &DE, line).unwrap_or_else(|| panic!("a line of legal moves: {line}"));
    assert!(!moves.is_empty(), "{line}");
    let changed: Vec<shakmaty::Square> = shakmaty::Square::ALL
        .into_iter()
        .filter(|&sq| before.board().piece_at(sq) != end_pos.board().piece_at(sq))
        .collect();
    assert!(!changed.is_empty(), "{line}");
    for &sq in &changed {
        typed(t, &format!("feld {sq}"));
        expect(t, &de_square_answer(&end_pos, sq));
    }
    (
        line.split(';')
            .next()
            .and_then(|m| m.rsplit_once(": "))
            .map_or("", |(_, m)| m)
            .to_string(),
        changed,
    )
}

#[test]
fn the_walk_stops_at_the_blunder_and_shows_the_better_line() {
    let home = temp_dir("walk");
    let file = data("blunder.pgn");
    let mut t = Env::player(home.path()).spawn(&[
        "analyse",
        file.to_str().unwrap(),
        "--walk",
        // A fixed depth on one engine walking the game in order gives the same line every
        // run (its end is checked below); a time limit does not under load, and engines
        // sharing the positions differ in their hash.
        "--depth",
        "12",
        "--engines",
        "1",
        "--screen-reader",
        // The name every mode gives the speech output (analyse's old --backend is kept).
        "--speech",
        "print",
    ]);
    expect(&t, "bewertet die Partie: 4 Züge");
    expect(
        &t,
        "Analyse. Weiß: 0 Ungenauigkeiten, 0 Fehler, 0 grobe Fehler. Schwarz:",
    );
    expect(&t, "1 grober Fehler");
    typed(&mut t, "fehler");
    expect(
        &t,
        "Vor Zug 3, Schwarz: gespielt wurde Springer Felix sechs, grober Fehler. besser nennt \
         den besseren Zug",
    );
    // The position before the blunder answers every question.
    typed(&mut t, "feld f6");
    expect(&t, "Felix sechs: leer");
    // The engine may prefer any of the moves that keep the game (3... g6, Qe7, Qf6); the
    // board at the end of its line is the one shown.
    let before = after(&["e4", "e5", "Qh5", "Nc6", "Bc4"]);
    let (said, changed) = better_line_is_shown(&mut t, &before, "3");
    typed(&mut t, "zurück");
    expect(
        &t,
        "Zurück in der Partie. Rückblick nach Zug 3, Weiß: Läufer Cäsar vier",
    );
    // Back in the game: the squares the line changed are as they were.
    for sq in changed {
        typed(&mut t, &format!("feld {sq}"));
        expect(&t, &de_square_answer(&before, sq));
    }
    typed(&mut t, "vor");
    expect(
        &t,
        "Rückblick nach Zug 3, Schwarz: Springer Felix sechs, grober Fehler",
    );
    typed(&mut t, "bewertung");
    expect(&t, "Weiß setzt in einem Zug matt");
    typed(&mut t, "Dxf7");
    expect(&t, "In der Analyse wird nicht gezogen");
    typed(&mut t, "fehler");
    expect(&t, "Danach kein Fehler mehr");
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{said}\n{}", t.all_output());
    // Nothing was recorded: the walk made no journal.
    let games = home.path().join("games");
    let made = std::fs::read_dir(&games).map_or(0, |d| d.count());
    assert_eq!(made, 0, "{}", games.display());
}

#[test]
fn analyse_after_a_game_of_play_opens_the_walk() {
    let home = temp_dir("walk-play");
    let mut t = Env::player(home.path()).spawn(&[
        "play",
        "--opponent",
        "keyboard",
        "--speech",
        "print",
        "--new",
        "--screen-reader",
    ]);
    expect(&t, "Weiß ist am Zug");
    typed(&mut t, "fehler");
    expect(&t, "Die Analyse gibt es nach der Partie");
    // The fool's mate: 2. g4 is White's blunder.
    for mv in ["f3", "e5", "g4", "Dh4"] {
        typed(&mut t, mv);
    }
    expect(&t, "Schachmatt");
    typed(&mut t, "analyse");
    expect(&t, "Der Computer bewertet die Partie, 2 Züge. Bitte warten");
    expect(&t, "Analyse. Weiß:");
    expect(
        &t,
        "1 grober Fehler. Schwarz: 0 Ungenauigkeiten, 0 Fehler, 0 grobe Fehler",
    );
    typed(&mut t, "fehler");
    expect(&t, "Vor Zug 2, Weiß: gespielt wurde Gustav vier");
    // The position before 2. g4 answers, not the game's end (where the queen gives mate
    // from h4 and a pawn stands on g4).
    typed(&mut t, "feld g4");
    expect(&t, "Gustav vier: leer");
    typed(&mut t, "feld h4");
    expect(&t, "Hector vier: leer");
    let before = after(&["f3", "e5"]);
    better_line_is_shown(&mut t, &before, "2");
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// Each answer of the walk reaches the player whole and in order, through the real clients:
/// the full screen of 80x24 speaking through a speech-dispatcher whose module says a sentence
/// in a quarter of a second (an answer cut short loses its later sentences), and a BRLTTY of
/// 40 cells, which flashes each answer from its beginning.
#[test]
fn the_walks_answers_are_heard_whole_and_flashed() {
    if !brltty_or_skip("the_walks_answers_are_heard_whole_and_flashed") {
        return;
    }
    let home = temp_dir("walk-answers");
    let daemon = SpeechDaemon::speaking_slowly();
    let display = Brltty::tt(40);
    let file = data("blunder.pgn");
    let mut t = Env::player(home.path())
        .speech(&daemon)
        .braille_host(&display.host())
        .spawn_sized(
            &[
                "analyse",
                file.to_str().unwrap(),
                "--walk",
                "--depth",
                "12",
                "--engines",
                "1",
                "--speech",
                "speech-dispatcher",
            ],
            80,
            24,
        );
    // The judgement of the whole game: both sides, then what to type.
    let heard = daemon.heard_until(0, "hilfe sagt mehr", LIMIT);
    assert_in_order(
        &heard,
        &[
            "Analyse. Weiß: 0 Ungenauigkeiten, 0 Fehler, 0 grobe Fehler.",
            "Schwarz: 0 Ungenauigkeiten, 0 Fehler, 1 grober Fehler.",
            "fehler springt zum nächsten Fehler",
        ],
    );
    display.assert_flashed("Analyse. Weiß:", &heard);
    // The mistake: the move played, then what to ask.
    let before = daemon.spoken().len();
    typed(&mut t, "fehler");
    let heard = daemon.heard_when_quiet(before, LIMIT);
    assert_in_order(
        &heard,
        &[
            "Vor Zug 3, Schwarz: gespielt wurde Springer Felix sechs, grober Fehler.",
            "besser nennt den besseren Zug",
        ],
    );
    assert!(!heard.contains("Analyse."), "{heard}");
    display.assert_flashed("Vor Zug 3, Schwarz", &heard);
    // The better line, every move of it, and after it the judgement of where it leads.
    let before = daemon.spoken().len();
    typed(&mut t, "besser");
    let heard = daemon.heard_when_quiet(before, LIMIT);
    assert_in_order(&heard, &["Besser: Zug 3, Schwarz: ", "; Zug 5, Weiß: "]);
    let last = heard
        .rsplit(". ")
        .next()
        .unwrap_or_default()
        .trim_end_matches('.');
    assert!(
        ["Ausgeglichen", " steht ", " setzt in "]
            .iter()
            .any(|w| last.contains(w)),
        "the line is not followed by its judgement: {heard}"
    );
    display.assert_flashed("Besser: Zug 3", &heard);
    // Back: the position looked at, said once.
    let before = daemon.spoken().len();
    typed(&mut t, "zurück");
    let heard = daemon.heard_when_quiet(before, LIMIT);
    assert!(heard.starts_with("Zurück in der Partie."), "{heard}");
    assert!(!heard.contains("Besser:"), "{heard}");
    display.assert_flashed("Zurück in der Partie", &heard);
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// `hector study`: the games of an annotated PGN (tests/data/study.pgn: variations three deep,
/// comments, NAGs, clocks, a game with a bad move in a variation, one that cannot be set up)
/// listed, found and opened; the first walked into its variations and out, every move with
/// what the file says of it; questions for the position reached; a move of the player's own
/// saved to a new file that pgn-extract reads, the original unchanged.
#[test]
fn study_walks_a_files_variations_and_saves_the_players_own() {
    let home = temp_dir("study");
    let file = home.path().join("studie.pgn");
    std::fs::copy(data("study.pgn"), &file).unwrap();
    let original = std::fs::read(&file).unwrap();
    let mut t = Env::player(home.path()).spawn(&[
        "study",
        file.to_str().unwrap(),
        "--screen-reader",
        "--speech",
        "print",
    ]);
    expect(&t, "Partie 1: Anna gegen Bert, Hold Cup. 5 Halbzüge");
    expect(&t, "Kommentar: Eine Lehrpartie");
    let step = |t: &mut Pty, line: &str, answer: &str| {
        typed(t, line);
        t.wait_answer(line, LIMIT);
        expect(t, answer);
    };
    step(&mut t, "vor", "Zug 1, Weiß: Eva vier");
    expect(&t, "Kommentar: Der Königsbauer");
    expect(&t, "Uhr: 1 Stunde 30 Minuten");
    expect(&t, "Bewertung: Weiß steht etwas besser, plus 0,3");
    step(&mut t, "vor", "Zug 1, Schwarz: Eva fünf");
    expect(&t, "guter Zug");
    expect(&t, "Uhr: 1 Stunde 29 Minuten");
    expect(
        &t,
        "Zwei Varianten: Springer Felix drei, oder Läufer Cäsar vier",
    );
    step(&mut t, "uhr", "Weiß 1 Stunde 30 Minuten");
    expect(&t, "Schwarz 1 Stunde 29 Minuten");
    step(
        &mut t,
        "variante 2",
        "Variante 2: Zug 2, Weiß: Läufer Cäsar vier",
    );
    expect(&t, "interessanter Zug");
    expect(&t, "Kommentar: Der Läufer");
    step(
        &mut t,
        "variante 2",
        "Variante 2: Zug 2, Schwarz: Läufer Cäsar fünf",
    );
    step(
        &mut t,
        "variante 2",
        "Variante 2: Zug 3, Weiß: Springer Felix drei",
    );
    step(&mut t, "vor", "Zug 3, Schwarz: David sechs");
    expect(&t, "zweifelhafter Zug");
    // Three variations deep, every question answers for the position reached.
    step(&mut t, "feld d6", "David sechs: schwarzer Bauer");
    step(&mut t, "feld c4", "Cäsar vier: weißer Läufer");
    step(&mut t, "letzter", "Zuletzt: Zug 3, Schwarz: David sechs");
    step(
        &mut t,
        "zurück",
        "Zurück in der übergeordneten Linie. Zug 2, Schwarz: Läufer Cäsar fünf",
    );
    step(&mut t, "vor", "Zug 3, Weiß: Dame Hector fünf");
    step(
        &mut t,
        "zurück",
        "Zurück in der übergeordneten Linie. Zug 2, Weiß: Läufer Cäsar vier",
    );
    step(
        &mut t,
        "zurück",
        "Zurück in der übergeordneten Linie. Zug 1, Schwarz: Eva fünf",
    );
    step(&mut t, "zurück", "Schon in der Hauptlinie");
    step(&mut t, "feld c4", "Cäsar vier: leer");
    // A typed move the file has follows it; another starts the player's own variation.
    step(
        &mut t,
        "Sf3",
        "In der Datei: Zug 2, Weiß: Springer Felix drei",
    );
    step(
        &mut t,
        "Sc6",
        "In der Datei: Zug 2, Schwarz: Springer Cäsar sechs",
    );
    expect(&t, "Fehler");
    step(
        &mut t,
        "Lc4",
        "Eigene Variante: Zug 3, Weiß: Läufer Cäsar vier",
    );
    step(&mut t, "Ke3", "Ke3");
    step(&mut t, "schluss", "Ende der Linie");
    // The line walked is the one the player stands in: their own.
    step(&mut t, "stellung 3 weiß", "Zug 3, Weiß: Läufer Cäsar vier");
    step(&mut t, "vorher", "Zug 2, Schwarz: Springer Cäsar sechs");
    expect(
        &t,
        "Zwei Varianten: Läufer Bella fünf, oder Läufer Cäsar vier",
    );
    step(&mut t, "vor", "Zug 3, Weiß: Läufer Bella fünf");
    step(&mut t, "kommentar", "Weiß steht etwas besser");
    // The player's variation goes to a new file; the original is refused and unchanged.
    step(
        &mut t,
        &format!("speichern {}", file.display()),
        "Die Originaldatei bleibt unverändert",
    );
    let saved = home.path().join("eigene.pgn");
    step(
        &mut t,
        &format!("speichern {}", saved.display()),
        "mit einem eigenen Halbzug",
    );
    // The other games: listed, found, the broken ones said and the file going on.
    step(
        &mut t,
        "partien",
        "Partie 4: Carlsen, Magnus gegen Nepomniachtchi, Ian",
    );
    step(&mut t, "partien world", "Partie 4: Carlsen, Magnus gegen");
    step(&mut t, "partien nobody", "Keine Partie passt zu nobody");
    step(&mut t, "öffnen 3", "Partie 3 ist nicht lesbar");
    step(
        &mut t,
        "öffnen 2",
        "Partie 2: Carl gegen Dora, Broken Variation. 3 Halbzüge",
    );
    expect(&t, "Partie 2 ist ab Zeile 18 nicht lesbar");
    step(&mut t, "vor", "Zug 1, Weiß: David vier");
    step(
        &mut t,
        "öffnen 9",
        "Eine Partie 9 gibt es in dieser Datei nicht",
    );
    step(
        &mut t,
        "öffnen 4",
        "Partie 4: Carlsen, Magnus gegen Nepomniachtchi, Ian",
    );
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    assert_eq!(std::fs::read(&file).unwrap(), original);
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("[White \"Anna\"]"), "{text}");
    let pgn_extract = common::find_program("pgn-extract").expect("pgn-extract: run scripts/setup");
    let out = std::process::Command::new(pgn_extract)
        .arg("-s")
        .arg(&saved)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read = String::from_utf8_lossy(&out.stdout).replace('\n', " ");
    for part in [
        "(2. Bc4 $5 { Der Läufer } 2... Nf6 (2... Bc5 3. Qh5 (3. Nf3 d6 $6) 3... Qe7) 3. d3)",
        "2... Nc6 $2 3. Bb5 $14 (3. Bc4)",
        "{ [%clk 1:30:00] [%eval 0.30] Der Königsbauer }",
    ] {
        assert!(read.contains(part), "{part} not in {read}");
    }
}

/// `hector study` on the full screen of 80x24, from a gzip-compressed file, through the real
/// clients: each move and what the file says of it heard whole and in order from the capturing
/// speech-dispatcher, flashed from its beginning on a BRLTTY of 40 cells, and the board on
/// the screen following the walk into a variation and back.
#[test]
fn study_is_heard_flashed_and_shown_from_a_compressed_file() {
    use std::io::Write as _;
    let home = temp_dir("study-heard");
    let file = home.path().join("studie.pgn.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&std::fs::read(data("study.pgn")).unwrap())
        .unwrap();
    std::fs::write(&file, gz.finish().unwrap()).unwrap();
    let daemon = SpeechDaemon::capturing();
    let display = brltty_or_skip("study_is_heard_flashed_and_shown_from_a_compressed_file")
        .then(|| Brltty::tt(40));
    let mut env = Env::player(home.path()).speech(&daemon);
    if let Some(d) = &display {
        env = env.braille_host(&d.host());
    }
    let mut t = env.spawn_sized(
        &[
            "study",
            file.to_str().unwrap(),
            "--speech",
            "speech-dispatcher",
        ],
        80,
        24,
    );
    let heard = daemon.heard_until(0, "Kommentar: Eine Lehrpartie", LIMIT);
    assert_in_order(
        &heard,
        &[
            "Partie 1: Anna gegen Bert, Hold Cup.",
            "Kommentar: Eine Lehrpartie",
        ],
    );
    let flashed = |start: &str, heard: &str| {
        if let Some(d) = &display {
            d.assert_flashed(start, heard);
        }
    };
    flashed("Partie 1: Anna", &heard);
    let said = |t: &mut Pty, line: &str, parts: &[&str]| {
        let before = daemon.spoken().len();
        typed(t, line);
        let last = parts.last().copied().unwrap_or_default();
        let heard = daemon.heard_until(before, last, LIMIT);
        assert_in_order(&heard, parts);
        // The display's first window ends at a word within its 40 cells.
        let first: String = parts[0].chars().take(34).collect();
        let start = first.rsplit_once(' ').map_or(first.as_str(), |(s, _)| s);
        flashed(start, &heard);
        heard
    };
    said(
        &mut t,
        "vor",
        &[
            "Zug 1, Weiß: Eva vier",
            "Kommentar: Der Königsbauer",
            "Uhr: 1 Stunde 30 Minuten",
            "Bewertung: Weiß steht etwas besser, plus 0,3",
        ],
    );
    said(
        &mut t,
        "vor",
        &[
            "Zug 1, Schwarz: Eva fünf",
            "guter Zug",
            "Zwei Varianten: Springer Felix drei, oder Läufer Cäsar vier",
        ],
    );
    assert!(
        t.wait_for_screen("Zug 1, Schwarz: Eva fünf", LIMIT),
        "{}",
        t.screen()
    );
    let heard = said(
        &mut t,
        "variante 2",
        &[
            "Variante 2: Zug 2, Weiß: Läufer Cäsar vier",
            "interessanter Zug",
            "Kommentar: Der Läufer",
        ],
    );
    assert!(!heard.contains("Eva fünf"), "said again: {heard}");
    // The board on the screen follows: the bishop stands on c4 in the variation, and the
    // moves beside the board are the variation's.
    let bishop_on_c4 = |screen: &str| {
        screen
            .lines()
            .any(|l| l.starts_with("4 ") && l.split_whitespace().nth(3) == Some("L"))
    };
    assert!(t.wait_for_screen("2. Lc4", LIMIT), "{}", t.screen());
    assert!(bishop_on_c4(&t.screen()), "{}", t.screen());
    said(
        &mut t,
        "zurück",
        &["Zurück in der übergeordneten Linie. Zug 1, Schwarz: Eva fünf"],
    );
    let deadline = std::time::Instant::now() + LIMIT;
    while t.screen().contains("2. Lc4") || bishop_on_c4(&t.screen()) {
        assert!(std::time::Instant::now() < deadline, "{}", t.screen());
        std::thread::sleep(Duration::from_millis(20));
    }
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// `hector study` in English, and a file that is not there: said in one sentence, nothing
/// opened.
#[test]
fn study_speaks_english_and_refuses_a_missing_file() {
    let home = temp_dir("study-en");
    let file = data("study.pgn");
    let mut t = Env::player(home.path()).spawn(&[
        "study",
        file.to_str().unwrap(),
        "--lang",
        "en",
        "--screen-reader",
        "--speech",
        "print",
    ]);
    expect(&t, "Game 1: Anna against Bert, Hold Cup. 5 half-moves");
    typed(&mut t, "next");
    t.wait_answer("next", LIMIT);
    expect(&t, "Move 1, White: Eva four");
    expect(&t, "Evaluation: White is slightly better");
    expect(&t, "Move, next, previous or a question:");
    typed(&mut t, "next");
    t.wait_answer("next", LIMIT);
    expect(&t, "good move");
    expect(&t, "Two variations: ");
    typed(&mut t, "variation 2");
    t.wait_answer("variation 2", LIMIT);
    expect(&t, "Variation 2: move 2, White: Bishop Cesar four");
    typed(&mut t, "back");
    t.wait_answer("back", LIMIT);
    expect(&t, "Back in the line above. Move 1, Black: Eva five");
    typed(&mut t, "variation 3");
    t.wait_answer("variation 3", LIMIT);
    expect(&t, "No variation 3 here; there are two");
    typed(&mut t, "quit");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let missing = home.path().join("missing.pgn");
    let r = Env::player(home.path()).run(
        &["study", missing.to_str().unwrap(), "--speech", "print"],
        b"",
        LIMIT,
    );
    assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("hector study: ") && r.stderr.contains("missing.pgn"),
        "{}",
        r.stderr
    );
}

/// What the capturing speech-dispatcher heard after typing `line`, once `last` was said.
fn heard_after(t: &mut Pty, daemon: &SpeechDaemon, line: &str, last: &str) -> String {
    let before = daemon.spoken().len();
    typed(t, line);
    daemon.heard_until(before, last, LIMIT)
}

/// The opening explorer against the stand-in (tests/common/lichess.rs, `/masters` and
/// `/lichess` as the specification answers): in a game of `hector play` the most played moves
/// of both databases with their share and results, asked with the player's token and no
/// other; a second ask answered from memory; a slow answer that the game does not wait for;
/// a body cut off; a 429 said once and a minute without requests; then in `hector study`.
#[test]
fn the_explorer_answers_in_play_and_in_study() {
    use lichess::{Server, TOKEN};
    let home = temp_dir("explorer");
    let server = Server::start();
    let daemon = SpeechDaemon::capturing();
    let env = Env::player(home.path()).token(TOKEN).speech(&daemon);
    let mut t = env.spawn(&[
        "play",
        "--opponent",
        "keyboard",
        "--speech",
        "speech-dispatcher",
        "--new",
        "--screen-reader",
        "--explorer",
        &server.url,
    ]);
    expect(&t, "Weiß ist am Zug");
    let heard = heard_after(&mut t, &daemon, "explorer", "Lichess, 300000 Partien");
    assert_in_order(
        &heard,
        &[
            "Meister, 3000 Partien: Eva vier 40 Prozent, Weiß 42, remis 25, Schwarz 33; \
             David vier 33 Prozent, Weiß 45, remis 35, Schwarz 20; \
             Springer Felix drei 13 Prozent, Weiß 38, remis 38, Schwarz 25",
            "Lichess, 300000 Partien: Eva vier 40 Prozent",
        ],
    );
    // The fourth move is not said.
    assert!(!heard.contains("Cäsar vier"), "{heard}");
    let asked = server.explorer_asked();
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(
        asked[0]
            .0
            .starts_with("/masters?fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w")
    );
    assert!(asked[1].0.starts_with("/lichess?"), "{asked:?}");
    let bearer = format!("Bearer {TOKEN}");
    assert!(
        asked
            .iter()
            .all(|(_, a)| a.as_deref() == Some(bearer.as_str())),
        "{asked:?}"
    );
    // Asked again: from memory, the explorer not asked again.
    let heard = heard_after(&mut t, &daemon, "explorer", "Lichess, 300000 Partien");
    assert!(
        heard.contains("Meister, 3000 Partien: Eva vier 40 Prozent"),
        "{heard}"
    );
    assert_eq!(server.explorer_asked().len(), 2);
    // A slow explorer: the game answers meanwhile, the explorer's words come after.
    server.set(|s| s.explorer.slow = Some(Duration::from_secs(2)));
    heard_after(&mut t, &daemon, "e4", "Eva vier");
    let before = daemon.spoken().len();
    typed(&mut t, "explorer");
    typed(&mut t, "wer");
    let heard = daemon.heard_until(before, "Lichess, 230000 Partien", LIMIT);
    assert_in_order(
        &heard,
        &[
            "Schwarz ist am Zug",
            "Meister, 2300 Partien: Cäsar fünf 43 Prozent, Weiß 40, remis 30, Schwarz 30; \
             Eva fünf 43 Prozent",
        ],
    );
    // A body cut off in its middle: the shipped name, and why no more.
    server.set(|s| {
        s.explorer.slow = None;
        s.explorer.malformed = true;
    });
    heard_after(&mut t, &daemon, "e5", "Eva fünf");
    let heard = heard_after(&mut t, &daemon, "explorer", "nicht lesbar");
    assert_in_order(
        &heard,
        &[
            "Königsbauernspiel, ECO C20",
            "Die Antwort des Explorers ist nicht lesbar",
        ],
    );
    // 429: said once, and for a minute the explorer is not asked.
    server.set(|s| {
        s.explorer.malformed = false;
        s.explorer.limited = 1;
    });
    heard_after(&mut t, &daemon, "Sf3", "Springer Felix drei");
    let heard = heard_after(&mut t, &daemon, "explorer", "Minute Pause");
    assert!(
        heard.contains("Der Explorer bittet um eine Minute Pause"),
        "{heard}"
    );
    let count = server.explorer_asked().len();
    heard_after(&mut t, &daemon, "Sc6", "Springer Cäsar sechs");
    let before = daemon.spoken().len();
    typed(&mut t, "explorer");
    let heard = daemon.heard_when_quiet(before, LIMIT);
    assert!(heard.contains("ECO C"), "{heard}");
    assert!(
        !heard.contains("Pause") && !heard.contains("Meister"),
        "{heard}"
    );
    assert_eq!(server.explorer_asked().len(), count);
    typed(&mut t, "ende");
    typed(&mut t, "ja");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());

    // The study: the position reached in the file's game.
    let file = home.path().join("studie.pgn");
    std::fs::copy(data("study.pgn"), &file).unwrap();
    let mut t = env.spawn(&[
        "study",
        file.to_str().unwrap(),
        "--screen-reader",
        "--speech",
        "speech-dispatcher",
        "--explorer",
        &server.url,
    ]);
    expect(&t, "Kommentar: Eine Lehrpartie");
    heard_after(&mut t, &daemon, "vor", "Zug 1, Weiß: Eva vier");
    let heard = heard_after(&mut t, &daemon, "explorer", "Lichess, 230000 Partien");
    assert_in_order(
        &heard,
        &[
            "Meister, 2300 Partien: Cäsar fünf 43 Prozent",
            "Eva sechs 13 Prozent, Weiß 33, remis 33, Schwarz 33",
            "Lichess, 230000 Partien: Cäsar fünf 43 Prozent",
        ],
    );
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());

    // The walk of an analysed game: the position looked at, the start's and then after 1. e4,
    // each asked of the explorer with the same token.
    let game = home.path().join("kurz.pgn");
    std::fs::write(&game, "[White \"Anna\"]\n[Black \"Bert\"]\n\n1. e4 e5 *\n").unwrap();
    let asked = server.explorer_asked().len();
    let mut t = env.spawn(&[
        "analyse",
        game.to_str().unwrap(),
        "--walk",
        "--depth",
        "4",
        "--engines",
        "1",
        "--screen-reader",
        "--speech",
        "speech-dispatcher",
        "--explorer",
        &server.url,
    ]);
    expect(&t, "fehler, besser oder eine Frage:");
    heard_after(
        &mut t,
        &daemon,
        "stellung 1 weiß",
        "Rückblick nach Zug 1, Weiß",
    );
    let heard = heard_after(&mut t, &daemon, "explorer", "Lichess, 230000 Partien");
    assert_in_order(
        &heard,
        &[
            "Ich frage den Explorer",
            "Meister, 2300 Partien: Cäsar fünf 43 Prozent",
            "Lichess, 230000 Partien: Cäsar fünf 43 Prozent",
        ],
    );
    let walked = server.explorer_asked();
    assert_eq!(walked.len(), asked + 2, "{walked:?}");
    assert!(
        walked[asked]
            .0
            .starts_with("/masters?fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR%20b"),
        "{walked:?}"
    );
    assert!(
        walked[asked..]
            .iter()
            .all(|(_, a)| a.as_deref() == Some(bearer.as_str())),
        "{walked:?}"
    );
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// Without a token the explorer is not asked and one sentence, alone, says how to get one: the
/// token stored for lichess.org goes to lichess's explorer only, never to another address.
/// An address that refuses: the shipped opening name and that the explorer cannot be
/// reached.
#[test]
fn the_explorer_without_a_token_or_a_network_says_so() {
    use lichess::{Server, TOKEN};
    let home = temp_dir("explorer-none");
    let server = Server::start();
    let config = home.path().join("config/hector");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("lichess-token"), "lip_for_lichess_org_only\n").unwrap();
    let play = |env: &Env, explorer: &str| {
        env.spawn(&[
            "play",
            "--opponent",
            "keyboard",
            "--speech",
            "print",
            "--new",
            "--screen-reader",
            "--explorer",
            explorer,
        ])
    };
    let env = Env::player(home.path());
    let mut t = play(&env, &server.url);
    expect(&t, "Weiß ist am Zug");
    typed(&mut t, "explorer");
    t.wait_answer("explorer", LIMIT);
    // After the line: the one sentence alone, then the prompt; "asking" never said.
    let answer = t.since_mark();
    let after = answer.rsplit_once("explorer\r\n").map_or("", |(_, a)| a);
    let said: Vec<&str> = after
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        said,
        [
            "Der Explorer braucht einen lichess-Schlüssel: hector online login speichert ihn",
            "Zug oder Befehl:"
        ],
        "{answer:?}"
    );
    assert!(server.explorer_asked().is_empty());
    assert!(
        server
            .snapshot()
            .authorizations
            .iter()
            .all(|a| !a.contains("lip_for_lichess_org_only"))
    );
    typed(&mut t, "ende");
    typed(&mut t, "ja");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());

    // An address where nothing listens.
    let refusing = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let mut t = play(&env.clone().token(TOKEN), &refusing);
    expect(&t, "Weiß ist am Zug");
    typed(&mut t, "e4");
    expect(&t, "Eva vier");
    typed(&mut t, "explorer");
    t.wait_answer("explorer", LIMIT);
    expect(&t, "Königsbauernspiel, ECO B00");
    expect(&t, "Der Explorer ist nicht erreichbar");
    typed(&mut t, "ende");
    typed(&mut t, "ja");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// The command-line errors of study and watch are said as play's are, and printed: a
/// missing file, a server that is not https, an option that does not exist.
#[test]
fn study_and_watch_say_their_command_line_errors() {
    let home = temp_dir("study-cli-errors");
    let daemon = SpeechDaemon::capturing();
    let address = daemon.address();
    let missing = home.path().join("missing.pgn");
    let envs = [("HECTOR_CONFIG", ""), ("SPEECHD_ADDRESS", address.as_str())];
    let speech = ["--speech", "speech-dispatcher"];
    let study = [&["study", missing.to_str().unwrap()][..], &speech].concat();
    let watch_http = [
        &["watch", "--tv", "--server", "http://example.org"][..],
        &speech,
    ]
    .concat();
    let watch_bad = [&["watch", "--tvv"][..], &speech].concat();
    for (args, status, printed, heard) in [
        (&study, 1, "hector study: Die Datei ", "de|Die Datei "),
        (
            &watch_http,
            1,
            "hector watch: http://example.org ist keine https-Adresse",
            "de|http://example.org ist keine https-Adresse",
        ),
        (
            &watch_bad,
            2,
            "hector: Unbekannte Angabe: --tvv",
            "de|Unbekannte Angabe: --tvv",
        ),
    ] {
        let r = common::run_with(args, b"", &envs, LIMIT);
        assert_eq!(r.code, Some(status), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(printed), "{args:?}: {}", r.stderr);
        let said = daemon.said(heard, LIMIT);
        if args == &study {
            assert!(said.contains("missing.pgn gibt es nicht"), "{said}");
        }
    }
}

/// `count` small games whose event, date, ECO code and result follow their number.
fn many_games(count: usize) -> String {
    let mut pgn = String::new();
    for i in 1..=count {
        let result = ["1-0", "0-1", "1/2-1/2"][i % 3];
        pgn.push_str(&format!(
            "[Event \"Open {}\"]\n[Date \"20{}.0{}.01\"]\n[White \"Player{i}\"]\n\
             [Black \"Rival{i}\"]\n[Result \"{result}\"]\n[ECO \"B{:02}\"]\n\n\
             1. e4 c5 2. Nf3 d6 {result}\n\n",
            i % 7,
            10 + i % 14,
            1 + i % 9,
            i % 100
        ));
    }
    pgn
}

/// A file of 3000 games is read once into an index: how far it is can be asked, a search
/// finds by ECO code, date and result, a late game opens, and a game that is no longer where
/// the index says (the file changed) is said as such.
#[test]
fn study_indexes_a_file_and_finds_by_opening_date_and_result() {
    let home = temp_dir("study-index");
    let file = home.path().join("many.pgn");
    std::fs::write(&file, many_games(3000)).unwrap();
    let mut t = Env::player(home.path()).spawn(&[
        "study",
        file.to_str().unwrap(),
        "--screen-reader",
        "--speech",
        "print",
    ]);
    expect(&t, "Partie 1: Player1 gegen Rival1, Open 1. 4 Halbzüge");
    // Asked until the index is at the file's end (a moment on a loaded machine).
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        typed(&mut t, "stand");
        t.wait_answer("stand", LIMIT);
        if t.wait_for(
            "Die Datei ist gelesen: 3000 Partien",
            Duration::from_millis(300),
        )
        .is_some()
        {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{}", t.all_output());
    }
    typed(&mut t, "partien b42");
    t.wait_answer("partien b42", LIMIT);
    expect(&t, "Partie 42: Player42 gegen Rival42, Open 0, 1-0");
    expect(&t, "Partie 942: Player942 gegen Rival942");
    expect(&t, "Weitere Partien: partien b42 1042");
    typed(&mut t, "partien 2013.05");
    t.wait_answer("partien 2013.05", LIMIT);
    // 10 + i % 14 = 13 and 1 + i % 9 = 5: i = 31, then every 126.
    expect(&t, "Partie 31: Player31 gegen Rival31");
    expect(&t, "Partie 157: Player157 gegen Rival157");
    typed(&mut t, "partien 1/2 2991");
    t.wait_answer("partien 1/2 2991", LIMIT);
    expect(
        &t,
        "Partie 2993: Player2993 gegen Rival2993, Open 4, 1/2-1/2",
    );
    expect(&t, "Partie 2996: ");
    typed(&mut t, "öffnen 2999");
    t.wait_answer("öffnen 2999", LIMIT);
    expect(&t, "Partie 2999: Player2999 gegen Rival2999");
    // The file changes under the study: one game more at its start.
    std::fs::write(&file, format!("{}{}", many_games(1), many_games(3000))).unwrap();
    typed(&mut t, "öffnen 5");
    t.wait_answer("öffnen 5", LIMIT);
    expect(
        &t,
        "Partie 5 steht nicht mehr dort, wo sie beim Lesen der Datei stand",
    );
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// While the file is still being read (a pipe that has given two games so far), a game
/// further on is waited for with one sentence, `stand` says how far it is, and `abbrechen`
/// drops the request: when the game comes it is not opened.
#[test]
fn study_says_it_reads_and_cancels_what_waits() {
    let home = temp_dir("study-pipe");
    let fifo = home.path().join("games.pgn");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let (go_on, wait) = std::sync::mpsc::channel::<()>();
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            // Opening blocks until hector opens it to read.
            let mut pipe = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            let all = many_games(6);
            let cut = all.match_indices("[Event").nth(2).unwrap().0;
            let _ = pipe.write_all(&all.as_bytes()[..cut]);
            // The third game begins with a long comment: the reader has the first two
            // games whole, and waits for the rest of the third.
            let third = all.match_indices("1. e4").nth(2).unwrap().0;
            let _ = pipe.write_all(&all.as_bytes()[cut..third]);
            let _ = pipe.write_all(format!("{{{}}} ", "a long note ".repeat(30_000)).as_bytes());
            let _ = pipe.flush();
            // The rest once the test says so, or when it ends.
            let _ = wait.recv_timeout(LIMIT);
            let _ = pipe.write_all(&all.as_bytes()[third..]);
        })
    };
    let mut t = Env::player(home.path()).spawn(&[
        "study",
        fifo.to_str().unwrap(),
        "--screen-reader",
        "--speech",
        "print",
    ]);
    expect(&t, "Partie 1: Player1 gegen Rival1");
    typed(&mut t, "öffnen 5");
    expect(&t, "Die Datei wird gelesen");
    typed(&mut t, "stand");
    t.wait_answer("stand", LIMIT);
    expect(&t, "Gelesen: 2 Partien bisher");
    typed(&mut t, "abbrechen");
    t.wait_answer("abbrechen", LIMIT);
    expect(&t, "Abgebrochen");
    go_on.send(()).unwrap();
    writer.join().unwrap();
    // The whole pipe is read: the game cancelled was not opened on its way.
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        typed(&mut t, "stand");
        t.wait_answer("stand", LIMIT);
        if t.wait_for(
            "Die Datei ist gelesen: 6 Partien",
            Duration::from_millis(300),
        )
        .is_some()
        {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{}", t.all_output());
    }
    assert!(
        !t.all_output().contains("Partie 5: Player5"),
        "{}",
        t.all_output()
    );
    assert_eq!(t.all_output().matches("Die Datei wird gelesen").count(), 1);
    // Found in the index, though the pipe cannot be read again.
    typed(&mut t, "partien rival6");
    t.wait_answer("partien rival6", LIMIT);
    expect(&t, "Partie 6: Player6 gegen Rival6");
    typed(&mut t, "abbrechen");
    t.wait_answer("abbrechen", LIMIT);
    expect(&t, "Es wird gerade nichts gelesen");
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// Spawns `args` against a capturing speech-dispatcher whose icons are hector's sounds.
fn with_sounds(home: &std::path::Path, daemon: &SpeechDaemon, args: &[&str]) -> Pty {
    let config = common::cues::sound_config(home, daemon, "");
    Env::player(home)
        .speech(daemon)
        .config_file(&config)
        // hector's own sounds, found beside the binary.
        .var("HECTOR_SOUNDS", "")
        .spawn_sized(args, 80, 24)
}

/// The walk's steps through the game, as speech-dispatcher plays them: the move looked at
/// heard as its sound before its words.
#[test]
fn the_walks_steps_are_heard_as_their_sounds_before_their_words() {
    use common::cues::{played_until, step};
    let home = temp_dir("walk-cues");
    let daemon = SpeechDaemon::capturing();
    let file = data("blunder.pgn");
    let mut t = with_sounds(
        home.path(),
        &daemon,
        &[
            "analyse",
            file.to_str().unwrap(),
            "--walk",
            "--depth",
            "12",
            "--engines",
            "1",
            "--speech",
            "speech-dispatcher",
            "--screen-reader",
        ],
    );
    played_until(&daemon, 0, "de| fehler springt");
    let from = daemon.spoken().len();
    typed(&mut t, "stellung 2");
    let played = played_until(&daemon, from, "de|Rückblick nach Zug 2, Schwarz: ");
    assert_eq!(
        played[..2],
        [
            "icon|move",
            "de|Rückblick nach Zug 2, Schwarz: Springer Cäsar sechs"
        ],
        "{played:?}"
    );
    let from = daemon.spoken().len();
    typed(&mut t, "vor");
    let played = played_until(&daemon, from, "de|Rückblick nach Zug 3, Weiß: ");
    assert_eq!(
        played[..2],
        [
            "icon|move",
            "de|Rückblick nach Zug 3, Weiß: Läufer Cäsar vier"
        ],
        "{played:?}"
    );
    // The end of the game is no step back: no move's sound.
    step(
        &mut t,
        &daemon,
        b"aktuell\r",
        "de|",
        &["de|Aktuelle Stellung"],
    );
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}

/// `hector study` as speech-dispatcher plays it: a move stepped to heard as its sound before
/// its words, a refused move as the refusal's sound before its reason.
#[test]
fn study_steps_are_heard_as_their_sounds_before_their_words() {
    use common::cues::played_until;
    let home = temp_dir("study-cues");
    let file = home.path().join("studie.pgn");
    std::fs::copy(data("study.pgn"), &file).unwrap();
    let daemon = SpeechDaemon::capturing();
    let mut t = with_sounds(
        home.path(),
        &daemon,
        &[
            "study",
            file.to_str().unwrap(),
            "--speech",
            "speech-dispatcher",
            "--screen-reader",
        ],
    );
    played_until(&daemon, 0, "de| Kommentar: Eine Lehrpartie");
    let from = daemon.spoken().len();
    typed(&mut t, "vor");
    // The whole answer: the move, then what the file says of it, its evaluation last.
    let played = played_until(&daemon, from, "de| Bewertung: ");
    assert_eq!(
        played[..2],
        ["icon|move", "de|Zug 1, Weiß: Eva vier."],
        "{played:?}"
    );
    let from = daemon.spoken().len();
    typed(&mut t, "Ke3");
    let played = played_until(&daemon, from, "de|");
    assert_eq!(played.len(), 2, "{played:?}");
    assert_eq!(played[0], "icon|illegal", "{played:?}");
    typed(&mut t, "ende");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}
