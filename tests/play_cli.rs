//! `hector play` in real pseudo-terminals: games against Stockfish typed in Appendix D
//! words (line mode and full screen), queries, draws and claims, resigning, an engine crash.

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

use std::time::{Duration, Instant};

use common::pty::Pty;
use common::sim::Simulator;
use common::{Env, temp_dir};
use hector::core::notation::{Language, language};
use hector::core::testkit::games::Rng;
use shakmaty::{Chess, Move, Position, Role};

const LIMIT: Duration = Duration::from_secs(30);

/// A plain but not hopeless player: takes the most valuable piece it can, else a random move.
fn choose(pos: &Chess, rng: &mut Rng) -> Move {
    let moves = pos.legal_moves();
    let value = |m: &Move| match m.capture() {
        Some(Role::Queen) => 9,
        Some(Role::Rook) => 5,
        Some(Role::Bishop | Role::Knight) => 3,
        Some(Role::Pawn) => 1,
        _ => 0,
    };
    let best = moves.iter().map(value).max().unwrap_or(0);
    let top: Vec<&Move> = moves.iter().filter(|m| value(m) == best).collect();
    *top[rng.below(top.len())]
}

/// Finds, in the output after `from`, the first line with the computer's label ("Computer:
/// Eva fünf") whose words, read with the test's own tables (tests/common/words.rs, not
/// hector's), name a legal move in `pos`.
fn engine_reply(t: &Pty, from: usize, pos: &Chess, lang: &Language) -> Option<(Move, usize)> {
    let text = t.all_output();
    let tail = text.get(from..)?;
    let words = common::words::of(lang.code.as_str());
    let label = format!("{}{}", lang.play.computer, lang.messages.colon);
    let mut offset = from;
    for line in tail.split_inclusive('\n') {
        offset += line.len();
        if !line.ends_with('\n') {
            continue;
        }
        let Some(said) = line.trim().strip_prefix(label.as_str()) else {
            continue;
        };
        let m = common::words::read_move(pos, words, said)
            .unwrap_or_else(|| panic!("{said:?} names no legal move in {}", lang.code));
        return Some((m, offset));
    }
    None
}

/// Plays up to `moves` moves as White against the engine, typing them in the language's
/// words and, every second move, in its SAN letters (both from the test's own tables), then
/// resigns unless the game ended. Returns the output.
fn play_line_mode_game(lang: &str, moves: usize) -> String {
    let data = temp_dir("play-data");
    let mut t = Env::player(&data).spawn(&[
        "play",
        "--screen-reader",
        "--lang",
        lang,
        "--opponent",
        "engine",
        "--level",
        "1",
    ]);
    let l = language(lang).expect("language");
    let words = common::words::of(lang);
    let prompt = format!("{}{}", l.play.prompt, l.messages.colon.trim_end());
    assert!(t.wait_for(&prompt, LIMIT).is_some(), "{}", t.all_output());
    let mut pos = Chess::default();
    let mut rng = Rng::new(9);
    let mut read_from = 0;
    let mut ended = false;
    for _ in 0..moves {
        let m = choose(&pos, &mut rng);
        let phrase = words.short(&pos, m);
        let typed = if pos.fullmoves().get() % 2 == 0 {
            words.san(&pos, m)
        } else {
            phrase.clone()
        };
        pos.play_unchecked(m);
        t.send(format!("{typed}\r").as_bytes());
        if pos.is_game_over() {
            ended = true;
            break;
        }
        // The engine's reply: the first labelled line after ours.
        let deadline = Instant::now() + LIMIT;
        let reply = loop {
            if let Some(found) = engine_reply(&t, read_from, &pos, l) {
                break found;
            }
            assert!(
                Instant::now() < deadline,
                "no reply to {typed}:\n{}",
                t.all_output()
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        pos.play_unchecked(reply.0);
        read_from = reply.1;
        if pos.is_game_over() {
            ended = true;
            break;
        }
    }
    // "Partie beendet: {how}": the words before the reason.
    let over = l.play.game_over.split("{how}").next().unwrap_or_default();
    let over = over.trim_end_matches([' ', ':']);
    if !ended {
        let resign = &l.commands.resign[0];
        let yes = &l.commands.yes[0];
        t.send(format!("{resign}\r").as_bytes());
        t.wait_answer(resign, LIMIT);
        t.send(format!("{yes}\r").as_bytes());
    }
    assert!(t.wait_for(over, LIMIT).is_some(), "{}", t.all_output());
    let quit = &l.commands.quit[0];
    t.send(format!("{quit}\r").as_bytes());
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let _ = std::fs::remove_dir_all(&data);
    t.all_output()
}

#[test]
fn a_whole_game_against_the_engine_in_line_mode() {
    let text = play_line_mode_game("de", 40);
    assert!(
        text.contains("Sie spielen Weiß gegen den Computer, Stufe 1"),
        "{text}"
    );
    assert!(
        !text.contains('\u{1b}'),
        "no control sequences in line mode"
    );
    // The computer's moves are labelled, and the prompt comes after them: no line holds a
    // prompt followed by the computer's move.
    assert!(text.contains("\nComputer: "), "{text}");
    assert!(!text.contains("Zug oder Befehl: Computer"), "{text}");
}

#[test]
fn the_speech_controls_confirm_in_a_word() {
    let data = temp_dir("play-speech");
    let mut t = Env::player(&data).spawn(&["play", "--screen-reader", "--opponent", "keyboard"]);
    assert!(
        t.wait_for("Weiß ist am Zug", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    for (typed, word) in [
        ("schneller", "Schneller"),
        ("langsamer", "Langsamer"),
        ("stumm", "Stumm"),
        ("laut", "Ton an"),
        ("still", "Still"),
    ] {
        t.send(format!("{typed}\r").as_bytes());
        assert!(
            t.wait_for(&format!("\n{word}\r"), LIMIT).is_some()
                || t.wait_for(&format!(": {word}\r"), LIMIT).is_some(),
            "{typed}: {}",
            t.all_output()
        );
    }
    t.send(b"ende\r");
    assert!(
        t.wait_for("Ja oder nein", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_whole_game_in_english_words() {
    let text = play_line_mode_game("en", 25);
    assert!(
        text.contains("You play White against the computer, level 1"),
        "{text}"
    );
}

/// Spanish, French and Dutch: moves typed in the language's words and SAN letters (Cf3,
/// Pf3), the computer's replies said in its words, resigning and quitting in its commands.
#[test]
fn whole_games_in_spanish_french_and_dutch() {
    for (code, welcome) in [
        ("es", "Usted juega con Blancas contra el ordenador, nivel 1"),
        ("fr", "Vous jouez les Blancs contre l'ordinateur, niveau 1"),
        ("nl", "U speelt met Wit tegen de computer, niveau 1"),
    ] {
        let text = play_line_mode_game(code, 12);
        assert!(text.contains(welcome), "{code}: {text}");
    }
}

/// The last numbered line of the moves shown on the full screen ("12. Nf3 Nc6").
fn last_moves_line(screen: &str) -> Option<String> {
    screen
        .lines()
        .take(12)
        .filter_map(|l| l.get(38..).map(str::trim))
        .filter(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty())
        })
        .last()
        .map(str::to_string)
}

#[test]
fn a_game_against_the_engine_on_the_full_screen() {
    let data = temp_dir("play-data");
    let mut t = Env::player(&data).spawn(&[
        "play",
        "--lang",
        "en",
        "--opponent",
        "engine",
        "--tc",
        "600+5",
    ]);
    assert!(
        t.wait_for_screen("Move or command:", LIMIT),
        "{}",
        t.screen()
    );
    assert!(
        t.wait_for_screen("You play White against the computer", LIMIT),
        "{}",
        t.screen()
    );
    let words = &common::words::EN;
    let mut pos = Chess::default();
    let mut rng = Rng::new(4);
    for number in 1..=15 {
        let m = choose(&pos, &mut rng);
        let phrase = words.short(&pos, m);
        let typed = if pos.fullmoves().get() % 2 == 0 {
            words.san(&pos, m)
        } else {
            phrase.clone()
        };
        pos.play_unchecked(m);
        t.send(format!("{typed}\r").as_bytes());
        if pos.is_game_over() {
            break;
        }
        // Black's reply appears on the move list: "N. <White> <Black>".
        let deadline = Instant::now() + LIMIT;
        let reply = loop {
            let screen = t.screen();
            if let Some(line) = last_moves_line(&screen)
                && let Some((n, rest)) = line.split_once(". ")
                && n == number.to_string()
                && let Some(black) = rest.split_whitespace().nth(1)
            {
                break black.to_string();
            }
            assert!(Instant::now() < deadline, "no reply to {phrase}:\n{screen}");
            std::thread::sleep(Duration::from_millis(20));
        };
        // The move list writes castling with zeros, as Appendix C does.
        let san: shakmaty::san::SanPlus = reply
            .replace('0', "O")
            .parse()
            .unwrap_or_else(|_| panic!("{reply:?} on\n{}", t.screen()));
        let m = san.san.to_move(&pos).expect("legal reply");
        pos.play_unchecked(m);
        if pos.is_game_over() {
            break;
        }
    }
    // The clocks are shown, and one of them runs while the game goes on.
    let screen = t.screen();
    assert!(
        screen.contains("Clock") && screen.contains("White 1"),
        "{screen}"
    );
    if !pos.is_game_over() {
        assert!(screen.contains("running"), "{screen}");
    }
    t.send(b"\x1b[A");
    assert!(t.wait_for_screen("Eva three: ", LIMIT), "{}", t.screen());
    t.send(b"\x11");
    // A game in progress asks first (it stays saved); a finished one is left at once. The
    // engine's level plays at random, so either may come.
    if !pos.is_game_over() {
        assert!(
            t.wait_for_screen("Really quit? Yes or no", LIMIT),
            "{}",
            t.screen()
        );
        // Ctrl+Q again asks again; only yes quits: "no" after the second is still answered.
        t.send(b"\x11");
        t.send(b"no\r");
        assert!(
            t.wait_for_screen("The game goes on", LIMIT),
            "Ctrl+Q twice must not quit:\n{}",
            t.screen()
        );
        // Asked once more (its words are on the screen already): yes quits, which only the
        // answer to the question does.
        t.send(b"\x11");
        t.send(b"yes\r");
    }
    assert_eq!(t.wait_exit(LIMIT), Some(0));
    let _ = std::fs::remove_dir_all(&data);
}

/// The position after `sans` from the start.
fn after_sans(sans: &[&str]) -> Chess {
    let mut pos = Chess::default();
    for san in sans {
        let m = san
            .parse::<shakmaty::san::San>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(m);
    }
    pos
}

/// Plays `moves` (in words) in line mode and returns what hector said.
fn line_session(args: &[&str], inputs: &[&str], wait_for: &str) -> String {
    let data = temp_dir("play-data");
    let mut all = vec!["play", "--screen-reader"];
    all.extend_from_slice(args);
    let mut t = Env::player(&data).spawn(&all);
    assert!(t.wait_for(":", LIMIT).is_some(), "{}", t.all_output());
    for input in inputs {
        t.send(format!("{input}\r").as_bytes());
        t.wait_answer(input, LIMIT);
    }
    assert!(
        t.wait_for(wait_for, LIMIT).is_some(),
        "no {wait_for:?} in:\n{}",
        t.all_output()
    );
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let _ = std::fs::remove_dir_all(&data);
    t.all_output()
}

#[test]
fn every_query_is_answered_in_appendix_d_words() {
    let text = line_session(
        &["--opponent", "keyboard"],
        &[
            "Eva vier",
            "wer",
            "Eva fünf",
            "Springer Felix drei",
            "Springer Cäsar sechs",
            "brett",
            "figuren weiß",
            "wo sind die schwarzen Springer",
            "feld e5",
            "reihe 4",
            "linie e",
            "diagonale c1",
            "angriff e5",
            "züge f3",
            "züge",
            "letzter",
            "wiederholen",
            "wer",
            "material",
            "liste 1",
            "uhr",
            "hilfe",
            "unbekannt",
        ],
        "Unbekanntes Wort: unbekannt",
    );
    for expected in [
        "Reihe acht: Anna acht schwarzer Turm",
        "Weiß: König Eva eins; Dame David eins",
        "Schwarze Springer: Cäsar sechs, Gustav acht",
        "Eva fünf: schwarzer Bauer",
        "Reihe vier: Eva vier weißer Bauer",
        "Linie Eva: Eva eins weißer König",
        "Diagonale Cäsar eins bis Hector sechs",
        "Eva fünf: schwarzer Bauer; Angreifer: weißer Springer Felix drei; Verteidiger: schwarzer Springer Cäsar sechs",
        "Weißer Springer Felix drei: Springer Gustav eins",
        // White's legal moves after 1. e4 e5 2. Nf3 Nc6, counted here.
        format!(
            "{} Züge: ",
            after_sans(&["e4", "e5", "Nf3", "Nc6"]).legal_moves().len()
        )
        .as_str(),
        "Zuletzt: Zug 2, Schwarz: Springer Cäsar sechs",
        // Asked after 1. e4 (the start said White's turn).
        "Schwarz ist am Zug",
        "Material ausgeglichen",
        "Züge ab 1: 1. Eva vier; Eva fünf. 2. Springer Felix drei; Springer Cäsar sechs",
        "Ohne Uhr gespielt",
        "Fragen: brett, figuren",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert_eq!(text.matches("Weiß ist am Zug").count(), 2, "{text}");
    // "wiederholen" shows the last answer again: a screen reader reads the lines.
    assert_eq!(
        text.matches("Zuletzt: Zug 2, Schwarz: Springer Cäsar sechs")
            .count(),
        2,
        "{text}"
    );
}

/// What a player typed is played only when it names the move meant; otherwise the true
/// reason, and the queries a player tried get real answers.
#[test]
fn only_the_move_meant_is_played_and_every_query_answers() {
    let text = line_session(
        &["--opponent", "keyboard"],
        &[
            "Bb4",
            "Läufer Bella vier",
            "Springa Felix drei",
            "e4",
            "d5",
            // A capture that is none, typed and said: nothing stands on e2.
            "Dxe2",
            "Dame schlägt Eva zwei",
            "d5",
            "David fünf",
            "S f3",
            "N c6",
            "reihe Eva",
            "linie 5",
            "feld e9",
            "angriff",
            "züge Springer",
            "weiße figuren",
            "wo ist der weiße König",
            "liste",
            "Elefant",
        ],
        "Unbekanntes Wort: Elefant",
    );
    for expected in [
        "Kein Läufer kann Bella vier erreichen",
        "Unbekanntes Wort: Springa. Meinten Sie Springer?",
        "Kein Bauer kann David fünf erreichen, ohne zu schlagen. Schlagen: Eva schlägt David fünf",
        "Springer Felix drei",
        "Springer Cäsar sechs",
        "Eva ist keine Reihe. Eine Reihe ist eine Zahl von eins bis acht",
        "5 ist keine Linie.",
        "e9 ist kein Feld.",
        "Weiß greift an: schwarzer Bauer David fünf; Schwarz greift an: weißer Bauer Eva vier",
        // Which knight goes where.
        "Springer Bella eins: Anna drei, Cäsar drei; Springer Felix drei: Gustav eins, David vier, Hector vier, Eva fünf, Gustav fünf",
        "Weiß: König Eva eins",
        "Weißer König: Eva eins",
        "Züge ab 1: 1. Eva vier; David fünf. 2. Springer Felix drei; Springer Cäsar sechs",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert_eq!(
        text.matches("Kein Läufer kann Bella vier erreichen")
            .count(),
        2,
        "{text}"
    );
    assert!(!text.contains("im Schach"), "a false reason:\n{text}");
    // The false capture, typed and said, is told each time, and neither played a move: the
    // list above holds only e4, d5, Sf3, Sc6.
    assert_eq!(
        text.matches("Auf Eva zwei gibt es nichts zu schlagen")
            .count(),
        2,
        "{text}"
    );
    // English: the same refusals, castling asked and answered.
    let text = line_session(
        &["--opponent", "keyboard", "--lang", "en"],
        &[
            "Bb4", "e4", "e5", "N f3", "Nc6", "Bc4", "Nf6", "castle", "list 4", "xyz",
        ],
        "Unknown word: xyz",
    );
    for expected in [
        "No bishop can reach Bella four",
        "Knight Felix three",
        // Only short castling is legal: "castle" plays it without asking.
        "Moves from 4: 4. short castling",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert!(!text.contains("Short or long castling?"), "{text}");
}

/// Counts agree with their number, and English words in a sentence are in lower case.
#[test]
fn one_move_is_one_move_and_english_pieces_are_lower_case() {
    let fen = "7k/8/8/8/8/8/7r/K7 w - - 0 1";
    let text = line_session(
        &["--opponent", "keyboard", "--fen", fen],
        &["züge", "Elefant"],
        "Unbekanntes Wort: Elefant",
    );
    assert!(text.contains("1 Zug: König Bella eins"), "{text}");
    let text = line_session(
        &["--opponent", "keyboard", "--fen", fen, "--lang", "en"],
        &["moves", "square h2", "where is the black rook", "xyz"],
        "Unknown word: xyz",
    );
    for expected in [
        "1 move: King Bella one",
        "Hector two: black rook",
        "Black rook: Hector two",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
}

#[test]
fn draw_offer_decline_claim_and_resign() {
    // Two players at one keyboard: White offers, Black declines; a claim too early costs
    // time; the knights dance until the claim is right.
    let text = line_session(
        &["--opponent", "keyboard", "--tc", "300"],
        &[
            "Sf3",
            "remis",
            "remis ablehnen",
            "Sf6",
            "reklamieren",
            "Sg1",
            "Sg8",
            "Sf3",
            "Sf6",
            "Sg1",
            "reklamieren Sg8",
        ],
        "Partie beendet: dreifache Stellungswiederholung. Remis",
    );
    for expected in [
        "Weiß bietet Remis an",
        "Schwarz lehnt das Remis ab",
        // Five minutes is blitz: one minute instead of two (Appendix B2).
        "Reklamation nicht berechtigt. Schwarz bekommt 1 Minute dazu",
        "Reklamation berechtigt: dreifache Stellungswiederholung",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // Without a clock a wrong claim gives no time: it stands as a draw offer.
    let text = line_session(
        &["--opponent", "keyboard"],
        &["Sf3", "reklamieren", "Elefant"],
        "Unbekanntes Wort: Elefant",
    );
    assert!(
        text.contains("Reklamation nicht berechtigt. Sie gilt als Remisangebot von Schwarz"),
        "{text}"
    );
    assert!(!text.contains("dazu"), "{text}");
    // The command typed again asks again, a word that is no answer lets the question go
    // (and says so), and only yes resigns.
    let text = line_session(
        &["--opponent", "engine"],
        &["e4", "aufgeben", "aufgeben", "vielleicht", "aufgeben", "ja"],
        "Partie beendet: Aufgabe. Schwarz gewinnt",
    );
    assert_eq!(text.matches("Wirklich aufgeben?").count(), 3, "{text}");
    assert!(
        text.contains("Unbekanntes Wort: vielleicht")
            && text.contains("Nicht aufgegeben. Die Partie geht weiter"),
        "{text}"
    );
    assert!(!text.contains("Die Partie ist beendet"), "{text}");
}

/// `resign resign`, `new new`, `quit quit`: each only asks again; `no` answers.
#[test]
fn a_command_typed_twice_asks_again_and_only_yes_confirms() {
    let text = line_session(
        &["--opponent", "keyboard", "--lang", "en"],
        &[
            "e4", "resign", "resign", "new", "new", "quit", "quit", "no", "turn",
        ],
        "Black to move",
    );
    // What came before the session's own quit at its end.
    let text = text.split("Black to move").next().unwrap_or_default();
    for (question, times) in [
        ("Really resign? Yes or no", 2),
        ("Start a new game?", 2),
        ("Really quit? Yes or no", 2),
        ("You play White", 1),
    ] {
        assert_eq!(text.matches(question).count(), times, "{question}:\n{text}");
    }
    assert!(text.trim_end().ends_with("Move or command: turn"), "{text}");
    assert!(text.contains("The game goes on"), "{text}");
    assert!(!text.contains("Game over"), "{text}");
}

#[test]
fn a_crashing_engine_is_restarted_and_then_replaced_by_the_keyboard() {
    let dir = temp_dir("crashy");
    let script = dir.join("crashy.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nn=0\nwhile read line; do\n  case \"$line\" in\n    uci) echo 'id name Crashy'; echo uciok;;\n    isready) echo readyok;;\n    go*) n=$((n+1)); if [ $n -ge 2 ]; then exit 3; fi; echo 'bestmove e7e5';;\n    quit) exit 0;;\n  esac\ndone\n",
    )
    .expect("script");
    let _ = std::process::Command::new("chmod")
        .arg("+x")
        .arg(&script)
        .status();
    let opponent = format!("engine:{}", script.display());
    let text = line_session(
        &["--opponent", &opponent],
        &["e4", "Springer Felix drei", "Springer Cäsar sechs"],
        "Springer Cäsar sechs",
    );
    for expected in [
        "Eva fünf",
        "Der Computer hat sich mit dem Rückgabewert 3 beendet",
        "Der Computer fällt aus. Bitte die Züge für Schwarz eintippen",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_on_the_peg_board_against_a_keyboard_opponent() {
    let dir = temp_dir("peg-play");
    let link = dir.join("board");
    let mut sim = Simulator::start("peg", &link);
    let data = temp_dir("play-data");
    let link_text = link.display().to_string();
    let mut t = Env::player(&data).spawn(&[
        "play",
        "--screen-reader",
        "--board",
        &link_text,
        "--protocol",
        "peg",
        "--opponent",
        "keyboard",
    ]);
    assert!(
        t.wait_for("Zug oder Befehl:", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    // White moves on the peg board.
    sim.send("move e2e4");
    assert!(
        t.wait_for("Eva vier", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    // Black's move is typed; the blind player must make it on the peg board (D2.1). A wrong
    // move there is described, with the move still to be made.
    t.send(b"Eva fuenf\r");
    assert!(
        t.wait_for("Eva fünf", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    sim.send("move d7d5");
    assert!(
        t.wait_for(
            "Bitte auf dem Brett ausführen: Eva fünf",
            Duration::from_secs(10)
        )
        .is_some(),
        "{}",
        t.all_output()
    );
    // The simulator only knows sensors here: pegs out and in, as the hands do.
    for step in ["lift d5", "place d7", "lift e7", "place e5"] {
        sim.send(step);
    }
    assert!(
        t.wait_for("Zug auf dem Brett ausgeführt", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    for step in ["lift g1", "place f3"] {
        sim.send(step);
    }
    assert!(
        t.wait_for("Springer Felix drei", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"letzter\r");
    assert!(
        t.wait_for("Zuletzt: Zug 2, Weiß: Springer Felix drei", LIMIT)
            .is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0));
    drop(sim);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn the_sighted_opponents_e_board_follows_the_typed_moves() {
    // The blind player types White's moves; the sighted opponent plays Black on a DGT board
    // and carries out White's moves there before making his own.
    let dir = temp_dir("opponent-board");
    let link = dir.join("board");
    let mut sim = Simulator::start("dgt", &link);
    let data = temp_dir("opponent-board-data");
    let opponent = format!("board:{}", link.display());
    let mut t = Env::player(&data).spawn(&[
        "play",
        "--screen-reader",
        "--opponent",
        &opponent,
        "--opponent-protocol",
        "dgt",
    ]);
    assert!(
        t.wait_for("Zug oder Befehl:", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    let rounds = [
        ("Eva vier", "e2e4", "e7e5", "Eva fünf"),
        (
            "Springer Felix drei",
            "g1f3",
            "b8c6",
            "Springer Cäsar sechs",
        ),
    ];
    for (typed, executed, reply, heard) in rounds {
        t.send(format!("{typed}\r").as_bytes());
        // The terminal's echo, then hector's own words for the move.
        t.expect(&format!("{typed}\r\n"), LIMIT);
        t.expect(typed, LIMIT);
        sim.send(&format!("move {executed}"));
        sim.send(&format!("move {reply}"));
        assert!(t.wait_for(heard, LIMIT).is_some(), "{}", t.all_output());
    }
    let text = t.all_output();
    assert!(!text.contains("Das ist kein Zug"), "{text}");
    t.send(b"ende\rja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&data);
}

/// Chess960 and a FEN: the start is announced, and `hector games` and `export --text` name it.
#[test]
fn another_start_position_is_announced_and_recorded() {
    let data = temp_dir("play-start");
    for (args, said, listed) in [
        (
            &["--chess960", "0"][..],
            "Ausgangsstellung: die weiße Grundreihe von Anna bis Hector ist Läufer, Läufer, Dame, Springer, Springer, Turm, König, Turm",
            "Schach960 aus der Stellung bbqnnrkr/",
        ),
        (
            &["--fen", "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1"][..],
            "Ausgangsstellung: Weiß: König Eva drei; Bauer Eva zwei. Schwarz: König Eva sechs",
            "aus der Stellung 8/8/4k3/8/8/4K3/4P3/8 w - - 0 1",
        ),
    ] {
        let mut all = vec!["play", "--screen-reader", "--opponent", "keyboard", "--new"];
        all.extend(args);
        let mut t = Env::player(&data).spawn(&all);
        assert!(t.wait_for(said, LIMIT).is_some(), "{}", t.all_output());
        t.send(b"ende\r");
        assert!(
            t.wait_for("Ja oder nein", LIMIT).is_some(),
            "{}",
            t.all_output()
        );
        t.send(b"ja\r");
        assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
        let env = Env::player(&data);
        let games = env.run(&["games"], b"", LIMIT);
        assert!(games.stdout.contains(listed), "{}", games.stdout);
        let last = games.stdout.lines().count().to_string();
        let text = env.run(&["export", &last, "--text"], b"", LIMIT);
        let start = listed.split('/').next().unwrap_or(listed).to_lowercase();
        assert!(
            text.stdout.to_lowercase().contains(&start),
            "{}",
            text.stdout
        );
    }
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn engine_failures_are_named_in_the_players_language() {
    // An engine that always answers a move that is not legal for Black.
    let dir = temp_dir("illegal-engine");
    let script = dir.join("cheat.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n    uci) echo 'id name Cheat'; echo uciok;;\n    isready) echo readyok;;\n    go*) echo 'bestmove e2e4';;\n    quit) exit 0;;\n  esac\ndone\n",
    )
    .expect("script");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let opponent = format!("engine:{}", script.display());
    let text = line_session(
        &["--opponent", &opponent],
        &["e4"],
        "Der Computer fällt aus",
    );
    assert!(
        text.contains("Der Computer hat einen regelwidrigen Zug geschickt: e2e4"),
        "{text}"
    );
    assert!(!text.contains("antwortet nicht"), "{text}");

    let missing = dir.join("no-such-engine");
    let opponent = format!("engine:{}", missing.display());
    let text = line_session(&["--opponent", &opponent], &[], ":");
    assert!(
        text.contains(&format!(
            "Das Schachprogramm {} gibt es nicht",
            missing.display()
        )),
        "{text}"
    );
}

/// Options with a value of their own are read by the command line itself: a wrong one is
/// named with what is allowed, exit status 2, before anything starts, in the language chosen
/// (German by default, `--lang en`).
#[test]
fn wrong_option_values_are_refused_with_what_is_allowed() {
    for (args, allowed) in [
        (
            &["play", "--opponent", "foo"][..],
            "--opponent foo: möglich sind auto, engine, engine:PFAD, keyboard oder board:PORT",
        ),
        (
            &["play", "--chess960", "1000"][..],
            "eine Zahl von 0 bis 959",
        ),
        (
            &["play", "--level", "9"][..],
            "--level 9: eine Zahl von 1 bis 8",
        ),
        (
            &["play", "--fenn", "x"][..],
            "Unbekannte Angabe: --fenn\nMeinten Sie --fen?\nHilfe: hector play --help",
        ),
        (&["plya"][..], "Unbekannter Befehl: plya\nMeinten Sie play?"),
        (
            &["play", "--fen", "8/8/8/8/8/8/8/4K3 w - - 0 1"][..],
            "--fen: die FEN beschreibt eine unmögliche Stellung: ein König fehlt",
        ),
        (
            &["play", "--tc", "40/x"][..],
            "--tc: Feld 1, 40/x: x ist keine ganze Zahl von Sekunden",
        ),
        (
            &["clock", "--warn", "5x"][..],
            "--warn 5x: 5x: die Einheit muss m oder s sein",
        ),
        (
            &["play", "--lang", "en", "--chess960", "1000"][..],
            "a number from 0 to 959",
        ),
        (
            &["play", "--lang=en", "--level", "0"][..],
            "--level 0: a number from 1 to 8",
        ),
        (
            &["clock", "--lang", "en", "--warn", "5x"][..],
            "the unit must be m or s",
        ),
        (
            &["play", "--lang", "en", "--tc", "40/x"][..],
            "--tc: field 1, 40/x: x is not a whole number of seconds",
        ),
    ] {
        let r = common::run_with(args, b"", &[("HECTOR_CONFIG", "")], LIMIT);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(allowed), "{args:?}: {}", r.stderr);
        assert!(
            !r.stderr.contains("error:"),
            "clap's own words: {}",
            r.stderr
        );
    }
}

/// A wrong command line of a mode that speaks is said too, in its language, as one utterance.
#[test]
fn a_wrong_command_line_is_said_aloud() {
    let daemon = common::SpeechDaemon::capturing();
    let address = daemon.address();
    let r = common::run_with(
        &["play", "--speech", "speech-dispatcher", "--levle", "3"],
        b"",
        &[("HECTOR_CONFIG", ""), ("SPEECHD_ADDRESS", &address)],
        LIMIT,
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("hector: Unbekannte Angabe: --levle"),
        "{}",
        r.stderr
    );
    let spoken = daemon.wait_for(1, LIMIT);
    assert!(spoken.iter().all(|l| l.starts_with("de|")), "{spoken:?}");
    let said: String = spoken.iter().map(|l| &l[3..]).collect();
    assert!(
        said.starts_with("Unbekannte Angabe: --levle. Meinten Sie --level?"),
        "{spoken:?}"
    );
}

#[test]
fn bewertung_and_tipp_ask_the_engine_and_are_recorded() {
    let data = temp_dir("play-advice");
    let mut t = Env::player(&data).spawn(&[
        "play",
        "--screen-reader",
        "--opponent",
        "engine",
        "--level",
        "1",
    ]);
    assert!(
        t.wait_for("Zug oder Befehl:", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"bewertung\r");
    assert!(
        t.wait_for("Der Computer schaut sich die Stellung an", LIMIT)
            .is_some(),
        "{}",
        t.all_output()
    );
    let deadline = Instant::now() + LIMIT;
    while !(t.since_mark().contains("Ausgeglichen, ") || t.since_mark().contains(" besser, ")) {
        assert!(
            Instant::now() < deadline,
            "no evaluation:\n{}",
            t.all_output()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    t.send(b"hint\r");
    // The hint names a legal move of the start position, read with the test's own words.
    let hint = t.expect_span("Tipp: ", "\r\n", LIMIT);
    assert!(
        common::words::read_move(&Chess::default(), &common::words::DE, &hint[6..]).is_some(),
        "{hint}"
    );
    // A new game keeps the settings, not the advice asked in the old one.
    t.send(b"neu\r");
    assert!(
        t.wait_for("Neue Partie", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ende\r");
    t.wait_answer("ende", LIMIT);
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    // Both are in the first game's record, which still replays; the new game has none.
    let mut advice_per_journal: Vec<Vec<String>> = std::fs::read_dir(data.join("games"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "journal"))
        .map(|journal| {
            let salvaged = hector::io::journal::load_good_part(&journal).unwrap();
            assert!(salvaged.stop.is_none());
            salvaged
                .entries
                .iter()
                .filter_map(|e| match e {
                    hector::core::record::Entry::Setting { key, value } if key == "advice" => {
                        Some(value.clone())
                    }
                    _ => None,
                })
                .collect()
        })
        .collect();
    advice_per_journal.sort();
    assert_eq!(advice_per_journal, [vec![], vec!["eval", "hint"]]);

    // Switched off, and without an engine.
    let mut t = Env::player(&data).spawn(&[
        "play",
        "--screen-reader",
        "--new",
        "--opponent",
        "engine",
        "--no-hints",
    ]);
    assert!(
        t.wait_for("Zug oder Befehl:", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"tipp\r");
    assert!(
        t.wait_for(
            "Bewertung und Tipps sind in dieser Partie ausgeschaltet",
            LIMIT
        )
        .is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ende\r");
    t.wait_answer("ende", LIMIT);
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    // hector resume remembers it.
    let mut t = Env::player(&data).spawn(&["resume", "--screen-reader"]);
    assert!(
        t.wait_for("Zug oder Befehl:", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"bewertung\r");
    assert!(
        t.wait_for(
            "Bewertung und Tipps sind in dieser Partie ausgeschaltet",
            LIMIT
        )
        .is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"ende\r");
    t.wait_answer("ende", LIMIT);
    t.send(b"ja\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
    let mut t = Env::player(&data).spawn(&[
        "play",
        "--screen-reader",
        "--new",
        "--lang",
        "en",
        "--opponent",
        "keyboard",
    ]);
    assert!(
        t.wait_for("Move or command:", LIMIT).is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"eval\r");
    assert!(
        t.wait_for("There is no computer in this game to judge it", LIMIT)
            .is_some(),
        "{}",
        t.all_output()
    );
    t.send(b"quit\r");
    t.wait_answer("quit", LIMIT);
    t.send(b"yes\r");
    assert_eq!(t.wait_exit(LIMIT), Some(0), "{}", t.all_output());
}
