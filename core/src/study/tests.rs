use super::*;
use crate::pgn::Reader;
use crate::testkit::{de, en, t};

fn study(text: &str, lang: &'static Language) -> Study {
    let mut s = Study::new(Form::Short, Wording::default(), lang);
    let raw = Reader::new(text.as_bytes())
        .find(|g| !g.is_blank())
        .expect("a game");
    let game = Loaded::read(&raw, 1).expect("readable");
    s.handle(
        Event::Opened {
            number: 1,
            game: Ok(Box::new(game)),
        },
        t(0),
    );
    s
}

/// Everything said, one line each.
fn said(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Common(Common::Say { lines, .. }) => Some(lines.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}

fn typed(s: &mut Study, text: &str) -> (Vec<String>, bool) {
    let out = s.handle(Event::Line(text.to_string()), t(1));
    let refused = out.contains(&Effect::Common(Common::Refused));
    (said(&out), refused)
}

fn heard(s: &mut Study, text: &str) -> String {
    let (lines, refused) = typed(s, text);
    assert!(!refused, "{text} refused: {lines:?}");
    lines.join(" | ")
}

use super::tree::tests::HOLD;

#[test]
fn opening_names_the_game_and_its_first_comment() {
    let mut s = Study::new(Form::Short, Wording::default(), de());
    let raw = Reader::new(HOLD.as_bytes()).next().expect("a game");
    let out = s.handle(
        Event::Opened {
            number: 1,
            game: Ok(Box::new(Loaded::read(&raw, 1).expect("read"))),
        },
        t(0),
    );
    assert_eq!(
        said(&out),
        [
            "Partie 1: Anna gegen Bert, Hold. 4 Halbzüge",
            "Kommentar: Start"
        ]
    );
}

#[test]
fn walking_forwards_says_each_move_with_what_the_file_says() {
    let mut s = study(HOLD, de());
    assert_eq!(
        heard(&mut s, "vor"),
        "Zug 1, Weiß: Eva vier | Kommentar: King's pawn | Uhr: 1 Stunde 30 Minuten | Bewertung: Weiß steht etwas besser, plus 0,3"
    );
    assert_eq!(
        heard(&mut s, "vor"),
        "Zug 1, Schwarz: Eva fünf | guter Zug | Zwei Varianten: Springer Felix drei, oder Läufer Cäsar vier"
    );
    assert_eq!(heard(&mut s, "vor"), "Zug 2, Weiß: Springer Felix drei");
    assert_eq!(
        heard(&mut s, "vor"),
        "Zug 2, Schwarz: Springer Cäsar sechs | Fehler"
    );
    let (lines, refused) = typed(&mut s, "vor");
    assert!(refused);
    assert_eq!(lines, ["Ende der Linie"]);
    assert_eq!(heard(&mut s, "vorher"), "Zug 2, Weiß: Springer Felix drei");
    assert_eq!(
        heard(&mut s, "kommentar"),
        "Zu diesem Zug steht nichts in der Datei"
    );
    assert_eq!(
        heard(&mut s, "anfang"),
        "Anfangsstellung | Kommentar: Start"
    );
    assert_eq!(
        heard(&mut s, "schluss"),
        "Zug 2, Schwarz: Springer Cäsar sechs | Fehler"
    );
    assert_eq!(
        heard(&mut s, "stellung 1 weiß"),
        "Zug 1, Weiß: Eva vier | Kommentar: King's pawn | Uhr: 1 Stunde 30 Minuten | Bewertung: Weiß steht etwas besser, plus 0,3"
    );
    assert_eq!(
        heard(&mut s, "stellung 0"),
        "Anfangsstellung | Kommentar: Start"
    );
}

#[test]
fn variations_are_entered_three_deep_and_left_one_by_one() {
    let mut s = study(HOLD, de());
    heard(&mut s, "vor");
    heard(&mut s, "vor");
    assert_eq!(
        heard(&mut s, "variante 2"),
        "Variante 2: Zug 2, Weiß: Läufer Cäsar vier | interessanter Zug | Kommentar: Bishop | Zwei Varianten: Springer Felix sechs, oder Läufer Cäsar fünf"
    );
    assert_eq!(heard(&mut s, "vor"), "Zug 2, Schwarz: Springer Felix sechs");
    assert_eq!(
        heard(&mut s, "vorher"),
        "Zug 2, Weiß: Läufer Cäsar vier | interessanter Zug | Kommentar: Bishop | Zwei Varianten: Springer Felix sechs, oder Läufer Cäsar fünf"
    );
    assert_eq!(
        heard(&mut s, "variante 2"),
        "Variante 2: Zug 2, Schwarz: Läufer Cäsar fünf | Zwei Varianten: Dame Hector fünf, oder Springer Felix drei"
    );
    assert_eq!(
        heard(&mut s, "variante 2"),
        "Variante 2: Zug 3, Weiß: Springer Felix drei"
    );
    assert_eq!(heard(&mut s, "vor"), "Zug 3, Schwarz: David sechs");
    let (lines, refused) = typed(&mut s, "variante 3");
    assert!(refused);
    assert_eq!(lines, ["Keine Variante 3 hier; es gibt keine"]);
    // The questions answer for the position reached, three variations deep.
    assert_eq!(
        heard(&mut s, "letzter"),
        "Zuletzt: Zug 3, Schwarz: David sechs"
    );
    assert_eq!(heard(&mut s, "feld d6"), "David sechs: schwarzer Bauer");
    assert_eq!(
        heard(&mut s, "zurück"),
        "Zurück in der übergeordneten Linie. Zug 2, Schwarz: Läufer Cäsar fünf | Zwei Varianten: Dame Hector fünf, oder Springer Felix drei"
    );
    assert!(
        heard(&mut s, "zurück")
            .starts_with("Zurück in der übergeordneten Linie. Zug 2, Weiß: Läufer Cäsar vier")
    );
    assert!(
        heard(&mut s, "zurück")
            .starts_with("Zurück in der übergeordneten Linie. Zug 1, Schwarz: Eva fünf")
    );
    let (lines, refused) = typed(&mut s, "zurück");
    assert!(refused);
    assert_eq!(lines, ["Schon in der Hauptlinie"]);
}

#[test]
fn typed_moves_follow_the_file_or_start_the_players_own_variation() {
    let mut s = study(HOLD, de());
    heard(&mut s, "vor");
    heard(&mut s, "vor");
    assert_eq!(
        heard(&mut s, "Lc4"),
        "In der Datei: Zug 2, Weiß: Läufer Cäsar vier | interessanter Zug | Kommentar: Bishop | Zwei Varianten: Springer Felix sechs, oder Läufer Cäsar fünf"
    );
    heard(&mut s, "vorher");
    assert_eq!(
        heard(&mut s, "d4"),
        "Eigene Variante: Zug 2, Weiß: David vier"
    );
    assert_eq!(
        heard(&mut s, "exd4"),
        "Eigene Variante: Zug 2, Schwarz: Eva schlägt David vier"
    );
    let (lines, refused) = typed(&mut s, "Ke3");
    assert!(refused, "{lines:?}");
    let out = s.handle(Event::Line("speichern neu.pgn".into()), t(2));
    let Some(Effect::Save { path, pgn }) = out.first() else {
        panic!("{out:?}");
    };
    assert_eq!(path.as_deref(), Some("neu.pgn"));
    assert!(pgn.contains("[White \"Anna\"]"), "{pgn}");
    assert!(
        pgn.replace('\n', " ")
            .contains("(2. d4 exd4) 2... Nc6 $2 *"),
        "{pgn}"
    );
    let out = s.handle(Event::Saved(Ok("neu.pgn".into())), t(3));
    assert_eq!(
        said(&out),
        ["Gespeichert in neu.pgn, mit 2 eigenen Halbzügen"]
    );
}

#[test]
fn games_are_found_and_opened_through_the_adapter() {
    let mut s = Study::new(Form::Short, Wording::default(), en());
    let out = s.handle(Event::Line("games carlsen 21".into()), t(0));
    assert_eq!(
        out,
        [Effect::Find(Search {
            text: Some("carlsen".into()),
            from: 21
        })]
    );
    assert_eq!(
        s.handle(Event::Line("open 3".into()), t(0)),
        [Effect::Open(3)]
    );
    let (lines, refused) = typed(&mut s, "next");
    assert!(refused);
    assert_eq!(lines, ["No game is open. games names the games"]);
    let game = Summary {
        number: 22,
        white: "Carlsen".into(),
        black: "Nepo".into(),
        event: "WCh".into(),
        result: "1-0".into(),
        date: "2021.12.03".into(),
        eco: "C88".into(),
        opening: "Ruy Lopez".into(),
    };
    let search = Search::parse("carl");
    assert!(search.fits(&game));
    assert!(!Search::parse("carl 23").fits(&game));
    assert!(Search::parse("wch").fits(&game));
    // By opening (name or ECO), date and result too.
    for found in ["c88", "ruy lopez", "2021.12", "1-0"] {
        assert!(Search::parse(found).fits(&game), "{found}");
    }
    for not in ["c89", "2022", "0-1", "1/2"] {
        assert!(!Search::parse(not).fits(&game), "{not}");
    }
    // Packed for the index, the same game and the same answers.
    let packed = game.pack(40);
    assert_eq!(Summary::unpack(22, &packed), game);
    for text in [
        "carl",
        "wch",
        "c88",
        "ruy lopez",
        "2021.12",
        "1-0",
        "c89",
        "0-1",
        "x",
    ] {
        let search = Search::parse(text);
        assert_eq!(
            search.fits_packed(22, &packed),
            search.fits(&game),
            "{text}"
        );
    }
    assert!(!Search::parse("carl 23").fits_packed(22, &packed));
    let out = s.handle(
        Event::Found {
            search,
            games: vec![game],
            more: Some(40),
        },
        t(0),
    );
    assert_eq!(
        said(&out),
        [
            "Game 22: Carlsen against Nepo, WCh, 1-0",
            "More games: games carl 40"
        ]
    );
    let out = s.handle(
        Event::Opened {
            number: 9,
            game: Err(None),
        },
        t(0),
    );
    assert_eq!(said(&out), ["This file has no game 9"]);
}

#[test]
fn annotations_are_read_out_of_a_comment() {
    let a = Annotations::of("good [%clk 0:00:59.5] idea [%eval #-3]");
    assert_eq!(a.text, "good idea");
    assert_eq!(a.clock, Some(Duration::from_millis(59_500)));
    assert_eq!(a.eval, Some(Eval::Mate(-3)));
    assert_eq!(Annotations::of("[%eval 1e300]").eval, None);
    assert_eq!(
        Annotations::of("[%eval -0.35]").eval,
        Some(Eval::Centipawns(-35))
    );
    assert_eq!(nag_words(4, de()), Some("grober Fehler"));
    assert_eq!(nag_words(18, en()), Some("White is winning"));
    assert_eq!(nag_words(200, de()), None);
}

#[test]
fn every_language_has_the_study_words() {
    for lang in crate::notation::language::languages() {
        let w = &lang.study;
        assert_eq!(w.nags.len(), 6, "{}", lang.code);
        assert_eq!(w.judgements.len(), 10, "{}", lang.code);
        let help = mode_help(&w.help, lang);
        assert!(!help.contains('{'), "{}: {help}", lang.code);
        assert!(help.contains(first(&w.words_variation)), "{}", lang.code);
    }
}

#[test]
fn a_slow_file_is_said_once_can_be_cancelled_and_tells_how_far_it_is() {
    let mut s = Study::new(Form::Short, Wording::default(), de());
    assert_eq!(s.handle(Event::Open(3), t(0)), [Effect::Open(3)]);
    assert!(s.waits());
    // Nothing before the wait is long; once after it, never again.
    assert_eq!(s.next_deadline(t(0)), Some(t(0) + WORKING_AFTER));
    assert!(s.handle(Event::Tick, t(100)).is_empty());
    let out = s.handle(Event::Tick, t(0) + WORKING_AFTER);
    assert_eq!(said(&out), ["Die Datei wird gelesen"]);
    assert!(s.handle(Event::Tick, t(5000)).is_empty());
    assert_eq!(s.next_deadline(t(5000)), None);
    // A search queued behind it; Escape drops both.
    let out = s.handle(Event::Line("partien carlsen".into()), t(5000));
    assert!(matches!(out[..], [Effect::Find(_)]), "{out:?}");
    let out = s.handle(Event::Cancel, t(5100));
    assert_eq!(out.first(), Some(&Effect::Cancel));
    assert_eq!(said(&out), ["Abgebrochen"]);
    assert!(!s.waits());
    assert_eq!(s.next_deadline(t(6000)), None);
    let out = s.handle(Event::Line("abbrechen".into()), t(6000));
    assert_eq!(said(&out), ["Es wird gerade nichts gelesen"]);
    assert!(!out.contains(&Effect::Cancel));
    // A search that is answered at once says nothing while it waits.
    let out = s.handle(Event::Line("partien 1-0".into()), t(7000));
    assert!(matches!(out[..], [Effect::Find(_)]), "{out:?}");
    let out = s.handle(
        Event::Found {
            search: Search::parse("1-0"),
            games: Vec::new(),
            more: None,
        },
        t(7100),
    );
    assert_eq!(said(&out), ["Keine Partie passt zu 1-0"]);
    assert!(s.handle(Event::Tick, t(9000)).is_empty());
    // How far: asked of the adapter, said in words.
    assert_eq!(
        s.handle(Event::Line("stand".into()), t(9000)),
        [Effect::Progress]
    );
    let progress = |games, percent, done| FileProgress {
        games,
        percent,
        done,
    };
    let heard = |s: &mut Study, p| said(&s.handle(Event::Progress(p), t(9000)));
    assert_eq!(
        heard(&mut s, progress(1200, Some(37), false)),
        ["Gelesen: 37 Prozent der Datei, 1200 Partien bisher"]
    );
    assert_eq!(
        heard(&mut s, progress(1200, None, false)),
        ["Gelesen: 1200 Partien bisher"]
    );
    assert_eq!(
        heard(&mut s, progress(4000, Some(100), true)),
        ["Die Datei ist gelesen: 4000 Partien"]
    );
}

/// A branch's count is said in words in every language, as the walk's other numbers are;
/// past the table's words in digits.
#[test]
fn the_count_of_variations_is_said_in_words_in_every_language() {
    for (code, two) in [
        ("de", "Zwei Varianten: "),
        ("en", "Two variations: "),
        ("es", "Dos variantes: "),
        ("fr", "Deux variantes : "),
        ("nl", "Twee varianten: "),
    ] {
        let lang = crate::notation::language::language(code).expect("table");
        let mut s = study(HOLD, lang);
        let next = lang.review.next[0].clone();
        heard(&mut s, &next);
        let said = heard(&mut s, &next);
        assert!(said.contains(two), "{code}: {said}");
        assert!(!said.contains(" 2 "), "{code}: {said}");
        assert_eq!(lang.study.counts.len(), 13, "{code}");
        assert_eq!(lang.study.count(13), "13", "{code}");
    }
}

/// The index's bound reached: how many games are indexed and that the later ones are read
/// again each time, said once in the player's language.
#[test]
fn a_full_index_is_said_once() {
    let mut s = study(HOLD, en());
    let out = s.handle(Event::IndexFull { games: 3 }, t(5));
    assert_eq!(
        said(&out),
        [
            "The index is full at 3 games: the games after them are read from the file again for each search and each game opened, which takes longer"
        ]
    );
    assert!(said(&s.handle(Event::IndexFull { games: 3 }, t(6))).is_empty());
    for code in ["de", "es", "fr", "nl"] {
        let lang = crate::notation::language::language(code).expect("table");
        let mut s = study(HOLD, lang);
        let heard = said(&s.handle(Event::IndexFull { games: 4_000_000 }, t(5)));
        assert_eq!(heard.len(), 1, "{code}");
        assert!(heard[0].contains("4000000"), "{code}: {heard:?}");
    }
}

/// A variation that is not there: how many there are, in each language's grammar ("there
/// is one", not "there are one"), counted in words from two on.
#[test]
fn a_missing_variation_is_answered_with_one_none_or_the_count() {
    for (code, two, one, none) in [
        (
            "de",
            "Keine Variante 3 hier; es gibt zwei",
            "Keine Variante 3 hier; es gibt eine",
            "Keine Variante 3 hier; es gibt keine",
        ),
        (
            "en",
            "No variation 3 here; there are two",
            "No variation 3 here; there is one",
            "No variation 3 here; there are none",
        ),
        (
            "es",
            "Aquí no hay variante 3; hay dos",
            "Aquí no hay variante 3; hay una",
            "Aquí no hay variante 3; no hay ninguna",
        ),
        (
            "fr",
            "Pas de variante 3 ici ; il y en a deux",
            "Pas de variante 3 ici ; il y en a une",
            "Pas de variante 3 ici ; il n'y en a aucune",
        ),
        (
            "nl",
            "Hier geen variant 3; er zijn er twee",
            "Hier geen variant 3; er is er één",
            "Hier geen variant 3; er zijn er geen",
        ),
    ] {
        let lang = crate::notation::language::language(code).expect("table");
        let mut s = study(HOLD, lang);
        let next = lang.review.next[0].clone();
        let variation = |n: u8| format!("{} {n}", lang.study.words_variation[0]);
        let missing = |s: &mut Study| {
            let (lines, refused) = typed(s, &variation(3));
            assert!(refused, "{code}: {lines:?}");
            lines.join(" | ")
        };
        // Two moves go on from the branch, one from the third move of its second variation
        // three deep, none after it.
        heard(&mut s, &next);
        heard(&mut s, &next);
        assert_eq!(missing(&mut s), two, "{code}");
        for _ in 0..3 {
            heard(&mut s, &variation(2));
        }
        assert_eq!(missing(&mut s), one, "{code}");
        heard(&mut s, &next);
        assert_eq!(missing(&mut s), none, "{code}");
    }
}

/// A position where the game ended is nobody's turn: `wer` says how it ended there, in the
/// file's mate as in a stalemate of the player's own line.
#[test]
fn turn_in_a_mated_or_stalemated_position_says_how_the_game_ended() {
    let mut s = study("1. f3 e5 2. g4 Qh4# 0-1", de());
    assert_eq!(heard(&mut s, "wer"), "Weiß ist am Zug");
    heard(&mut s, "schluss");
    assert_eq!(
        heard(&mut s, "wer"),
        "Partie beendet: Schachmatt. Schwarz gewinnt"
    );
    let mut s = study(
        "[SetUp \"1\"]\n[FEN \"7k/5Q2/6K1/8/8/8/8/8 w - - 0 1\"]\n\n1. Kh6 *",
        en(),
    );
    heard(&mut s, "next");
    assert_eq!(heard(&mut s, "turn"), "Game over: stalemate. Draw");
}

/// One move of the player's own is counted in the singular ("einem eigenen Halbzug"), in
/// every language.
#[test]
fn a_single_own_move_is_saved_in_the_singular() {
    for (lang, step, said_after) in [
        (
            de(),
            "Sf3",
            "Gespeichert in neu.pgn, mit einem eigenen Halbzug",
        ),
        (
            en(),
            "Nf3",
            "Saved to neu.pgn, with one half-move of your own",
        ),
    ] {
        let mut s = study("1. e4 e5 *", lang);
        heard(&mut s, "next");
        heard(&mut s, "next");
        heard(&mut s, step);
        let out = s.handle(Event::Saved(Ok("neu.pgn".into())), t(3));
        assert_eq!(said(&out), [said_after]);
    }
}

/// A move that begins a sentence begins with a capital in every language: "Move 1, White",
/// also after "Back in the line above."; after a colon it stays as the table writes it.
#[test]
fn a_move_that_begins_a_sentence_is_capitalized() {
    let mut s = study("1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *", en());
    assert_eq!(
        heard(&mut s, "next"),
        "Move 1, White: Eva four | Two variations: Eva five, or Cesar five"
    );
    assert_eq!(
        heard(&mut s, "variation 2"),
        "Variation 2: move 1, Black: Cesar five"
    );
    assert_eq!(
        heard(&mut s, "back"),
        "Back in the line above. Move 1, White: Eva four | Two variations: Eva five, or Cesar five"
    );
}

/// The study's first help names the explorer in every language, as its word is typed.
#[test]
fn the_help_names_the_explorer() {
    for lang in crate::notation::language::languages() {
        let mut s = study("1. e4 *", lang);
        let help = heard(&mut s, &lang.commands.help[0]);
        let explorer = &lang.explorer.words[0];
        assert!(
            help.contains(&format!(" {explorer} ")),
            "{}: {help}",
            lang.code
        );
    }
}

/// The last move of the file's main line says the file's result, and a mate reached says
/// how the game ended, with the end's sound after the move's; a variation's end, an own
/// move and an open result (`*`) say nothing more.
#[test]
fn the_end_of_the_main_line_says_the_result_with_the_end_sound() {
    let ends = |out: &[Effect]| {
        out.iter().any(|e| {
            matches!(e, Effect::Common(Common::Cue(c)) if c.last() == Some(&crate::cue::Cue::End))
        })
    };
    let step = |s: &mut Study, text: &str| {
        let out = s.handle(Event::Line(text.to_string()), t(1));
        (said(&out).join(" | "), ends(&out))
    };
    let mut s = study("1. e4 e5 (1... c5) 2. Nf3 1-0", de());
    assert_eq!(
        step(&mut s, "vor"),
        (
            "Zug 1, Weiß: Eva vier | Zwei Varianten: Eva fünf, oder Cäsar fünf".into(),
            false
        )
    );
    assert!(!step(&mut s, "variante 2").1);
    assert!(!step(&mut s, "zurück").1);
    step(&mut s, "vor");
    assert_eq!(
        step(&mut s, "vor"),
        (
            "Zug 2, Weiß: Springer Felix drei | Ende der Partie: Weiß gewinnt, 1 zu 0".into(),
            true
        )
    );
    // An own move at the end of the line ends nothing.
    assert!(!step(&mut s, "Sc6").1);

    let mut s = study("1. f3 e5 2. g4 Qh4# 0-1", en());
    s.handle(Event::Line("end".into()), t(1));
    assert_eq!(
        step(&mut s, "previous"),
        ("Move 2, White: Gustav four".into(), false),
        "the move before the mate ends nothing"
    );
    let (words, end) = step(&mut s, "next");
    assert_eq!(
        (words.as_str(), end),
        (
            "Move 2, Black: Queen Hector four, checkmate | Game over: checkmate. Black wins",
            true
        )
    );

    let mut s = study("1. e4 e5 *", en());
    step(&mut s, "next");
    assert_eq!(
        step(&mut s, "next"),
        ("Move 1, Black: Eva five".into(), false)
    );
}

/// A game set up from a FEN says so when it is opened, and who is to move.
#[test]
fn a_game_from_a_set_up_position_says_so_when_opened() {
    let s = |text: &str| {
        let mut st = Study::new(Form::Short, Wording::default(), de());
        let raw = Reader::new(text.as_bytes())
            .find(|g| !g.is_blank())
            .expect("a game");
        let game = Loaded::read(&raw, 1).expect("readable");
        let out = st.handle(
            Event::Opened {
                number: 1,
                game: Ok(Box::new(game)),
            },
            t(0),
        );
        said(&out).join(" | ")
    };
    let set_up = s("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n\n1... Kd7 *");
    assert!(
        set_up.contains("| Die Partie beginnt nicht in der Grundstellung | Schwarz ist am Zug"),
        "{set_up}"
    );
    let usual = s("1. e4 e5 *");
    assert!(!usual.contains("Grundstellung"), "{usual}");
}
