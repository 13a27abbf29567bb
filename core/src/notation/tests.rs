//! Notation against the contract in ../shared/spec/spoken-notation.md.

use shakmaty::san::{San, SanPlus};
use shakmaty::{CastlingMode, Chess, Move, Position, Role, Square, uci::UciMove};

use super::language::{language, languages};
use super::parse::{ParseError, message, parse_move, parse_move_in};
use super::scoresheet::scoresheet_move;
use super::speak::{Form, announce};
use crate::legality::Illegal;
use crate::testkit::games::Rng;
use crate::variant::{Variant, chess960_position, position_from_fen};

fn pos(fen: &str) -> Chess {
    position_from_fen(fen, Variant::Standard).expect("fen")
}

fn uci(p: &Chess, text: &str) -> Move {
    text.parse::<UciMove>()
        .expect("uci")
        .to_move(p)
        .expect("legal")
}

fn parsed(p: &Chess, text: &str) -> Move {
    parse_move(text, p).unwrap_or_else(|e| panic!("{text:?}: {e:?}"))
}

#[test]
fn every_input_form_of_the_spec_names_the_move() {
    let start = Chess::default();
    let nf3 = uci(&start, "g1f3");
    for text in [
        "Nf3",
        "Sf3",
        "Springer Felix drei",
        "knight felix three",
        "KNIGHT FELIX THREE",
        "Springer Felix 3",
        "Felix drei Springer",
        "Springer Gustav eins nach Felix drei",
        "Knight Gustav one to Felix three",
        "g1f3",
        "g1-f3",
        "g1 f3",
        "Gustav eins Felix drei",
        "nf3",
        "1. Nf3",
        "Springer auf Felix drei",
        "Springer, Felix drei!",
    ] {
        assert_eq!(parsed(&start, text), nf3, "{text}");
    }
    let e4 = uci(&start, "e2e4");
    for text in [
        "e4",
        "eva vier",
        "Eva four",
        "e 4",
        "Eva 4",
        "Bauer Eva zwei nach Eva vier",
        "e2e4",
        "e2-e4",
        "Eva4",
    ] {
        assert_eq!(parsed(&start, text), e4, "{text}");
    }
    // Captures with x or :, German letters, spelling variants.
    let p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    let exd5 = uci(&p, "e4d5");
    for text in [
        "exd5",
        "e:d5",
        "ed5",
        "eva takes david five",
        "Eva schlägt David fünf",
        "Eva schlaegt David fuenf",
        "e4d5",
    ] {
        assert_eq!(parsed(&p, text), exd5, "{text}");
    }
    let p = pos("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    let lb5 = uci(&p, "c1g5");
    for text in [
        "Lg5",
        "Bg5",
        "Läufer Gustav fünf",
        "Laeufer Gustav fuenf",
        "bishop gustav five",
        "Laufer Gustav funf",
    ] {
        assert_eq!(parsed(&p, text), lb5, "{text}");
    }
    let p = pos("4k3/8/8/8/8/8/8/2Q1K3 w - - 0 1");
    assert_eq!(parsed(&p, "Dc4"), uci(&p, "c1c4"));
    assert_eq!(parsed(&p, "Dame Cäsar vier"), uci(&p, "c1c4"));
    assert_eq!(parsed(&p, "Dame Caesar vier"), uci(&p, "c1c4"));
    assert_eq!(parsed(&p, "Queen Cesar four"), uci(&p, "c1c4"));
    let p = pos("4k3/8/8/8/8/8/8/3RK3 w - - 0 1");
    assert_eq!(parsed(&p, "Td5"), uci(&p, "d1d5"));
    let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let oo = uci(&p, "e1g1");
    for text in [
        "O-O",
        "0-0",
        "o-o",
        "Kurze Rochade",
        "kurze rochade",
        "short castling",
        "castles kingside",
        "e1g1",
        "König Gustav eins",
    ] {
        assert_eq!(parsed(&p, text), oo, "{text}");
    }
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    let ooo = uci(&p, "e1c1");
    for text in [
        "O-O-O",
        "0-0-0",
        "Lange Rochade",
        "long castling",
        "große Rochade",
    ] {
        assert_eq!(parsed(&p, text), ooo, "{text}");
    }
}

#[test]
fn promotions_in_every_form() {
    let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let q = uci(&p, "e7e8q");
    for text in [
        "e8=Q",
        "e8Q",
        "e8D",
        "e8=D",
        "e7e8q",
        "e7e8d",
        "Eva acht Dame",
        "eva eight promotes to queen",
        "Eva acht, Umwandlung in Dame",
        "eva eight queen",
    ] {
        assert_eq!(parsed(&p, text), q, "{text}");
    }
    let n = uci(&p, "e7e8n");
    for text in [
        "e8=N",
        "e8S",
        "e7e8n",
        "Eva acht Springer",
        "eva eight promotes to knight",
    ] {
        assert_eq!(parsed(&p, text), n, "{text}");
    }
    assert_eq!(
        parse_move("e8", &p),
        Err(ParseError::Illegal(Illegal::PromotionMissing))
    );
    assert_eq!(
        parse_move("Eva acht", &p),
        Err(ParseError::Illegal(Illegal::PromotionMissing))
    );
    assert_eq!(
        parse_move("e8=K", &p),
        Err(ParseError::Illegal(Illegal::BadPromotionPiece))
    );
}

#[test]
fn san_case_decides_and_falls_back() {
    // Bxc3 is the bishop, bxc3 the pawn.
    let p = pos("4k3/8/8/4B3/8/2n5/1P6/7K w - - 0 1");
    assert_eq!(parsed(&p, "Bxc3"), uci(&p, "e5c3"));
    assert_eq!(parsed(&p, "bxc3"), uci(&p, "b2c3"));
    // Only the bishop can take: a lower-case b still finds it.
    let p = pos("4k3/8/8/4B3/8/2n5/8/7K w - - 0 1");
    assert_eq!(parsed(&p, "bxc3"), uci(&p, "e5c3"));
    assert_eq!(parsed(&p, "BXC3"), uci(&p, "e5c3"));
}

#[test]
fn disambiguation_and_en_passant() {
    let p = pos("4k3/8/8/8/8/8/8/4N1NK w - - 0 1");
    assert_eq!(parsed(&p, "Ngf3"), uci(&p, "g1f3"));
    assert_eq!(parsed(&p, "Springer Gustav Felix drei"), uci(&p, "g1f3"));
    assert_eq!(
        parsed(&p, "Springer Eva eins nach Felix drei"),
        uci(&p, "e1f3")
    );
    let p = pos("4k3/8/8/6N1/8/8/8/6NK w - - 0 1");
    assert_eq!(parsed(&p, "N5f3"), uci(&p, "g5f3"));
    assert_eq!(parsed(&p, "Springer fünf Felix drei"), uci(&p, "g5f3"));
    let p = pos("8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1");
    assert_eq!(parsed(&p, "Qh4e1"), uci(&p, "h4e1"));
    assert_eq!(parsed(&p, "Dame Hector vier Eva eins"), uci(&p, "h4e1"));
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    for text in [
        "exd6",
        "exd6 e.p.",
        "exd6e.p.",
        "Eva schlägt David sechs en passant",
        "Bauer Eva fünf schlägt David sechs en passant",
        "e5d6",
    ] {
        assert_eq!(parsed(&p, text), uci(&p, "e5d6"), "{text}");
    }
}

#[test]
fn chess960_castling_by_name_and_by_coordinates() {
    let p = position_from_fen(
        "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",
        Variant::Chess960,
    )
    .expect("fen");
    let short = p.castling_moves(shakmaty::CastlingSide::KingSide)[0];
    assert_eq!(parsed(&p, "Kurze Rochade"), short);
    assert_eq!(parsed(&p, "O-O"), short);
    // King takes rook (Chess960 UCI) and king to its target square.
    assert_eq!(parsed(&p, "b1h1"), short);
    assert_eq!(parsed(&p, "b1g1"), short);
}

/// Each failure once per language, as the player hears it.
#[test]
fn error_messages_in_both_languages() {
    let start = Chess::default();
    let de = language("de").expect("de");
    let en = language("en").expect("en");
    let both = |p: &Chess, text: &str| -> (String, String) {
        let err = parse_move(text, p).expect_err(text);
        (message(&err, p, de), message(&err, p, en))
    };
    assert_eq!(
        both(&start, "Springer Felix vier"),
        (
            "Kein Springer kann Felix vier erreichen".into(),
            "No knight can reach Felix four".into()
        )
    );
    assert_eq!(
        both(&start, "Dame Eva vier"),
        (
            "Keine Dame kann Eva vier erreichen".into(),
            "No queen can reach Eva four".into()
        )
    );
    assert_eq!(
        both(&start, "Springer Felix zwölf"),
        (
            "Unbekanntes Wort: zwölf".into(),
            "Unknown word: zwölf".into()
        )
    );
    assert_eq!(
        both(&start, ""),
        ("Kein Zug verstanden".into(), "No move understood".into())
    );
    assert_eq!(
        both(&start, "Springer"),
        ("Welches Zielfeld?".into(), "Which square?".into())
    );
    assert_eq!(
        both(&start, "a1 a2 a3"),
        ("Zu viele Felder genannt".into(), "Too many squares".into())
    );
    assert_eq!(
        both(&start, "e4e5"),
        (
            "Auf Eva vier steht keine eigene Figur".into(),
            "You have no piece on Eva four".into()
        )
    );
    assert_eq!(
        both(&start, "O-O"),
        (
            "Kurze Rochade ist nicht möglich: eine Figur steht im Weg".into(),
            "Short castling is not possible: a piece is in the way".into(),
        )
    );
    let pinned = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    assert_eq!(
        both(&pinned, "Springer Cäsar drei"),
        (
            "Dieser Zug ließe den König im Schach".into(),
            "That move would leave the king in check".into()
        )
    );
    let check = pos("4k3/4r3/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(
        both(&check, "Ta2"),
        (
            "Der König steht im Schach, dieser Zug hebt es nicht auf".into(),
            "The king is in check and that move does not answer it".into(),
        )
    );
    assert_eq!(
        both(&check, "Lange Rochade").0,
        "Lange Rochade ist nicht möglich: der König steht im Schach"
    );
    let moved = pos("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert_eq!(
        both(&moved, "kurze Rochade").1,
        "Short castling is no longer possible: the king or the rook has moved"
    );
    let through = pos("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1");
    assert_eq!(
        both(&through, "0-0").0,
        "Kurze Rochade ist nicht möglich: der König ginge über ein angegriffenes Feld"
    );
    // Two knights can reach d7: every candidate is spoken.
    let two = pos("4k3/8/8/2N1N3/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        both(&two, "Springer David sieben"),
        (
            "Mehrdeutig: Springer Cäsar David sieben oder Springer Eva David sieben".into(),
            "Ambiguous: Knight Cesar David seven or Knight Eva David seven".into(),
        )
    );
    let promo = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    assert_eq!(
        both(&promo, "Eva acht"),
        (
            "Umwandlung in welche Figur? Dame, Turm, Läufer oder Springer".into(),
            "Promote to which piece? Queen, rook, bishop or knight".into(),
        )
    );
    assert_eq!(
        both(&start, "e4=Q").1,
        "Only a pawn reaching the last rank is promoted"
    );
    assert_eq!(
        both(&promo, "e8=K").0,
        "Ein Bauer wird in Dame, Turm, Läufer oder Springer umgewandelt"
    );
}

/// A piece letter is never reread as a file, and a bare square never becomes a capture: the
/// move refused says the true reason, in every input form.
#[test]
fn a_piece_that_cannot_go_there_is_refused_not_reread_as_a_pawn() {
    let start = Chess::default();
    let de = language("de").expect("de");
    let en = language("en").expect("en");
    for text in [
        "Bb4",
        "Lb4",
        "bb4",
        "B b4",
        "L b4",
        "Läufer Bella vier",
        "bishop bella four",
    ] {
        let err = parse_move(text, &start).expect_err(text);
        assert_eq!(
            message(&err, &start, de),
            "Kein Läufer kann Bella vier erreichen",
            "{text}"
        );
        assert_eq!(
            message(&err, &start, en),
            "No bishop can reach Bella four",
            "{text}"
        );
    }
    // Lower-case b before a capture is still the pawn.
    assert_eq!(parsed(&start, "b4"), uci(&start, "b2b4"));
    // After 1.e4 d5 a bare d5 is no push; the capture is named, not made.
    let p = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    for text in ["d5", "David fünf", "david five"] {
        let err = parse_move(text, &p).expect_err(text);
        assert_eq!(
            message(&err, &p, de),
            "Kein Bauer kann David fünf erreichen, ohne zu schlagen. Schlagen: Eva schlägt David fünf",
            "{text}"
        );
        assert_eq!(
            message(&err, &p, en),
            "No pawn can reach David five without capturing. To capture: Eva takes David five"
        );
    }
    assert_eq!(parsed(&p, "exd5"), uci(&p, "e4d5"));
    assert_eq!(parsed(&p, "Eva schlägt David fünf"), uci(&p, "e4d5"));
    // No pawn at all: the plain reason, never the king.
    let err = parse_move("d6", &p).expect_err("d6");
    assert_eq!(
        message(&err, &p, de),
        "Kein Bauer kann David sechs erreichen"
    );
}

#[test]
fn castling_with_letters_o_and_without_a_side() {
    let both = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for text in ["OO", "oo", "00", "O-O"] {
        assert_eq!(parsed(&both, text), uci(&both, "e1g1"), "{text}");
    }
    for text in ["OOO", "000", "O-O-O"] {
        assert_eq!(parsed(&both, text), uci(&both, "e1c1"), "{text}");
    }
    for text in ["Rochade", "castle", "rochieren"] {
        assert_eq!(parse_move(text, &both), Err(ParseError::WhichCastling));
    }
    let de = language("de").expect("de");
    let en = language("en").expect("en");
    assert_eq!(
        message(&ParseError::WhichCastling, &both, de),
        "Kurze oder lange Rochade?"
    );
    assert_eq!(
        message(&ParseError::WhichCastling, &both, en),
        "Short or long castling?"
    );
    let long_only = pos("r3k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 1");
    assert_eq!(parsed(&long_only, "Rochade"), uci(&long_only, "e1c1"));
    assert_eq!(parsed(&long_only, "castle"), uci(&long_only, "e1c1"));
    let start = Chess::default();
    let err = parse_move("Rochade", &start).expect_err("none");
    assert_eq!(
        message(&err, &start, de),
        "Kurze Rochade ist nicht möglich: eine Figur steht im Weg. Lange Rochade ist nicht möglich: eine Figur steht im Weg"
    );
}

#[test]
fn a_space_after_the_piece_letter() {
    let start = Chess::default();
    for text in ["N f3", "S f3", "n f3", "s f3", "Springer f3"] {
        assert_eq!(parsed(&start, text), uci(&start, "g1f3"), "{text}");
    }
    // A lone lower-case d or b is still a file.
    assert_eq!(parsed(&start, "d 4"), uci(&start, "d2d4"));
}

#[test]
fn a_typo_names_the_nearest_word_and_plays_nothing() {
    let start = Chess::default();
    let de = language("de").expect("de");
    let en = language("en").expect("en");
    for text in ["Springa", "Springa Felix drei", "Sprinegr f3"] {
        let err = parse_move(text, &start).expect_err(text);
        assert!(matches!(err, ParseError::UnknownWord(_)), "{text}");
        assert!(
            message(&err, &start, de).ends_with(". Meinten Sie Springer?"),
            "{text}: {}",
            message(&err, &start, de)
        );
    }
    let err = parse_move("knigt f3", &start).expect_err("knigt");
    assert_eq!(
        message(&err, &start, en),
        "Unknown word: knigt. Did you mean Knight?"
    );
    // Nothing near: no guess.
    let err = parse_move("Elefant f3", &start).expect_err("Elefant");
    assert_eq!(message(&err, &start, de), "Unbekanntes Wort: Elefant");
}

fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<(Chess, CastlingMode)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for g in 0..games {
        let (mut p, mode) = if g % 3 == 0 {
            let n = u16::try_from(rng.below(960)).unwrap_or(0);
            (chess960_position(n).expect("960"), CastlingMode::Chess960)
        } else {
            (Chess::default(), CastlingMode::Standard)
        };
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push((p.clone(), mode));
            p.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    out
}

/// The round trip of the spec: every legal move's phrases (both forms, both languages) and its
/// SAN (English and German letters) parse back to the same move.
#[test]
fn every_legal_move_round_trips() {
    let mut checked = 0;
    // Six games: every language reads each move three ways, so the moves stay many.
    for (p, _) in random_positions(3, 6, 80) {
        for &m in &p.legal_moves() {
            let san = SanPlus::from_move(p.clone(), m);
            let fen = || shakmaty::fen::Fen::from_position(&p, shakmaty::EnPassantMode::Legal);
            assert_eq!(
                parse_move(&san.to_string(), &p),
                Ok(m),
                "{san} in {}",
                fen()
            );
            // Every language's words and scoresheet letters, read as its own player is.
            for lang in languages() {
                let texts = [
                    announce(&p, m, lang, Form::Short),
                    announce(&p, m, lang, Form::Long),
                    scoresheet_move(&san, lang),
                ];
                for text in texts {
                    assert_eq!(
                        parse_move_in(&text, &p, lang),
                        Ok(m),
                        "{}: {text:?} in {}",
                        lang.code,
                        fen()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn promotion_and_castling_round_trip() {
    // Positions rich in promotions (with captures) and castling on both sides.
    for fen in [
        "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
        "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1",
        "n1n1k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
    ] {
        let p = pos(fen);
        for &m in &p.legal_moves() {
            for lang in languages() {
                for form in [Form::Short, Form::Long] {
                    let text = announce(&p, m, lang, form);
                    assert_eq!(parse_move_in(&text, &p, lang), Ok(m), "{text}");
                    // Spoken words are understood whatever the player's language.
                    assert_eq!(parse_move(&text, &p), Ok(m), "{text}");
                }
            }
        }
    }
}

/// The moves of the new languages, in words and in their own SAN letters.
#[test]
fn spanish_french_and_dutch_moves() {
    let start = Chess::default();
    let after_e4_e5 = pos("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    for (code, p, text, expected) in [
        ("fr", &start, "Cavalier Felix trois", "g1f3"),
        ("fr", &start, "cavalier gustav un vers félix trois", "g1f3"),
        ("fr", &start, "Cf3", "g1f3"),
        ("fr", &after_e4_e5, "Fc4", "f1c4"),
        ("fr", &after_e4_e5, "Re2", "e1e2"),
        ("fr", &after_e4_e5, "Roi Eva deux", "e1e2"),
        ("fr", &after_e4_e5, "Dame Hector cinq", "d1h5"),
        ("es", &start, "Caballo Felix tres", "g1f3"),
        ("es", &start, "caballo gustav uno hacia felix tres", "g1f3"),
        ("es", &start, "Cf3", "g1f3"),
        ("es", &after_e4_e5, "Ac4", "f1c4"),
        ("es", &after_e4_e5, "alfil César cuatro", "f1c4"),
        ("es", &after_e4_e5, "Re2", "e1e2"),
        ("es", &start, "peón David cuatro", "d2d4"),
        ("nl", &start, "Paard Felix drie", "g1f3"),
        ("nl", &start, "Pf3", "g1f3"),
        ("nl", &after_e4_e5, "Lc4", "f1c4"),
        ("nl", &after_e4_e5, "loper Cesar vier", "f1c4"),
        ("nl", &after_e4_e5, "Koning Eva twee", "e1e2"),
        ("nl", &start, "Eva vier", "e2e4"),
    ] {
        let lang = language(code).expect("language");
        assert_eq!(
            parse_move_in(text, p, lang),
            Ok(uci(p, expected)),
            "{code}: {text}"
        );
    }
    // Castling and promotion words.
    let castle = pos("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (code, text, expected) in [
        ("fr", "petit roque", "e1h1"),
        ("fr", "grand roque", "e1a1"),
        ("fr", "b8=D", "b7b8q"),
        ("fr", "Bella huit, promotion en Cavalier", "b7b8n"),
        ("es", "enroque corto", "e1h1"),
        ("es", "enroque largo", "e1a1"),
        ("es", "Bella ocho, corona en Alfil", "b7b8b"),
        ("nl", "korte rochade", "e1h1"),
        ("nl", "lange rochade", "e1a1"),
        ("nl", "Bella acht, promoveert tot Toren", "b7b8r"),
        ("nl", "b8=P", "b7b8n"),
    ] {
        let lang = language(code).expect("language");
        let m = parse_move_in(text, &castle, lang).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let uci_text = m.to_uci(CastlingMode::Standard).to_string();
        let expected = match expected {
            // shakmaty writes standard castling as the king's two-square move.
            "e1h1" => "e1g1",
            "e1a1" => "e1c1",
            other => other,
        };
        assert_eq!(uci_text, expected, "{code}: {text}");
    }
}

/// A letter that names two pieces in two languages is read as the player's language reads
/// it; a letter that language does not use, as English SAN does, else as the first other
/// table that uses it unless it is a file's letter.
#[test]
fn a_letter_of_two_languages_is_read_in_the_players_language() {
    let after_e4_e5 = pos("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let start = Chess::default();
    let read = |code: &str, p: &Chess, text: &str| {
        parse_move_in(text, p, language(code).expect("language"))
    };
    // R: the king in French and Spanish, the rook in English and (by English SAN) in German
    // and Dutch.
    for code in ["fr", "es"] {
        assert_eq!(
            read(code, &after_e4_e5, "Re2"),
            Ok(uci(&after_e4_e5, "e1e2"))
        );
    }
    for code in ["en", "de", "nl"] {
        assert_eq!(
            read(code, &after_e4_e5, "Re2"),
            Err(ParseError::Illegal(Illegal::NoPieceCanReach {
                role: Role::Rook,
                to: Square::E2
            })),
            "{code}"
        );
    }
    // P: the knight in Dutch, a pawn for everyone else.
    assert_eq!(read("nl", &start, "Pf3"), Ok(uci(&start, "g1f3")));
    for code in ["de", "en", "es", "fr"] {
        assert_eq!(read(code, &start, "Pf3"), Ok(uci(&start, "f2f3")), "{code}");
    }
    // A foreign letter that no table of the player's gives: N and S are knights for all.
    for code in ["de", "en", "es", "fr", "nl"] {
        assert_eq!(read(code, &start, "Nf3"), Ok(uci(&start, "g1f3")), "{code}");
        assert_eq!(read(code, &start, "Sf3"), Ok(uci(&start, "g1f3")), "{code}");
    }
    // A foreign letter that is also a file is no piece: C4 is the square for a German.
    assert_eq!(read("de", &start, "C4"), Ok(uci(&start, "c2c4")));
    assert_eq!(read("en", &start, "F4"), Ok(uci(&start, "f2f4")));
    // The default reading is German's.
    assert_eq!(parse_move("Pf3", &start), Ok(uci(&start, "f2f3")));
}

#[test]
fn parsing_is_fast_enough_to_feel_instant() {
    // Not a timing assertion: a smoke test that parsing many phrases completes. The figure
    // itself is measured in benches/notation.rs.
    let start = Chess::default();
    for _ in 0..200 {
        assert!(parse_move("Springer Gustav eins nach Felix drei", &start).is_ok());
    }
    let _ = Square::A1;
    let _ = Role::Pawn;
}

proptest::proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,60}") {
        let _ = parse_move(&text, &Chess::default());
    }

    #[test]
    fn notation_like_text_never_panics(text in "[a-hA-Z1-8xX:=+#.\\- OoeEpP]{0,24}") {
        let p = pos("r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1");
        if let Ok(m) = parse_move(&text, &p) {
            proptest::prop_assert!(p.is_legal(m));
        }
    }
}

/// The words Appendix D2.1 prescribes (the Laws' German text: A-Anna … H-Hector, 1-eins …
/// 8-acht, "Lange Rochade" and "Kurze Rochade", König, Dame, Turm, Läufer, Springer, Bauer):
/// every table's FIDE words are exactly these.
#[test]
fn every_tables_fide_words_are_those_of_appendix_d() {
    use super::language::WordSet;
    let files = [
        "Anna", "Bella", "Cäsar", "David", "Eva", "Felix", "Gustav", "Hector",
    ];
    let ranks = [
        "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht",
    ];
    let pieces = ["König", "Dame", "Turm", "Läufer", "Springer", "Bauer"];
    assert!(languages().count() >= 5);
    for lang in languages() {
        let fide = lang.with_words(WordSet::Fide);
        assert_eq!(fide.words, WordSet::Fide);
        assert_eq!(fide.code, lang.code);
        assert_eq!(fide.board.files, files, "{}", lang.code);
        assert_eq!(fide.board.ranks, ranks, "{}", lang.code);
        assert_eq!(fide.pieces.names, pieces, "{}", lang.code);
        assert_eq!(fide.moves.short_castling, "Kurze Rochade", "{}", lang.code);
        assert_eq!(fide.moves.long_castling, "Lange Rochade", "{}", lang.code);
        // Every form with a piece in it names the FIDE piece.
        for (i, name) in pieces.iter().enumerate() {
            for form in [
                &fide.pieces.white[i],
                &fide.pieces.black[i],
                &fide.pieces.none[i],
            ] {
                assert!(form.contains(name), "{}: {form}", lang.code);
            }
        }
        // The table's own words stay its own.
        let own = lang.with_words(WordSet::Language);
        assert_eq!(own.words, WordSet::Language);
        assert_eq!(own.board.ranks, lang.board.ranks);
    }
    // German's own words are the FIDE words already.
    let de = language("de").expect("de");
    assert_eq!(de.board.ranks, ranks);
    assert_eq!(de.pieces.names, pieces);
}

/// The FIDE words inside each language's sentence: files, ranks, pieces and castling from
/// Appendix D2.1, capture, check, promotion and en passant in the sentence's language.
#[test]
fn the_fide_words_in_a_sentence_of_every_language() {
    use super::language::WordSet;
    let start = Chess::default();
    let ep = pos("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    let promote = pos("2n1k3/1P6/8/8/8/8/8/4K2R w K - 0 1");
    for (code, p, m, short, long) in [
        (
            "fr",
            &start,
            "g1f3",
            "Springer Felix drei",
            "Springer Gustav eins vers Felix drei",
        ),
        (
            "en",
            &start,
            "g1f3",
            "Springer Felix drei",
            "Springer Gustav eins to Felix drei",
        ),
        (
            "es",
            &start,
            "e2e4",
            "Eva vier",
            "Bauer Eva zwei hacia Eva vier",
        ),
        (
            "nl",
            &start,
            "e2e4",
            "Eva vier",
            "Bauer Eva zwei naar Eva vier",
        ),
        (
            "de",
            &start,
            "g1f3",
            "Springer Felix drei",
            "Springer Gustav eins nach Felix drei",
        ),
        (
            "fr",
            &ep,
            "e5f6",
            "Eva prend Felix sechs en passant",
            "Bauer Eva fünf prend Felix sechs en passant",
        ),
        (
            "es",
            &ep,
            "e5f6",
            "Eva captura Felix sechs al paso",
            "Bauer Eva fünf captura Felix sechs al paso",
        ),
        (
            "en",
            &promote,
            "b7c8q",
            "Bella takes Cäsar acht, promotes to Dame, check",
            "Bauer Bella sieben takes Cäsar acht, promotes to Dame, check",
        ),
        ("nl", &promote, "e1g1", "Kurze Rochade", "Kurze Rochade"),
        (
            "fr",
            &promote,
            "b7b8n",
            "Bella acht, promotion en Springer",
            "Bauer Bella sieben vers Bella acht, promotion en Springer",
        ),
    ] {
        let fide = language(code).expect("language").with_words(WordSet::Fide);
        let mv = uci(p, m);
        assert_eq!(announce(p, mv, fide, Form::Short), short, "{code}");
        assert_eq!(announce(p, mv, fide, Form::Long), long, "{code}");
    }
    // The questions that list the pieces list the FIDE pieces.
    let wide = pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    for (code, expected) in [
        (
            "fr",
            "Promotion en quelle pièce ? Dame, Turm, Läufer ou Springer",
        ),
        (
            "en",
            "Promote to which piece? Dame, Turm, Läufer or Springer",
        ),
        ("es", "¿Coronar en qué pieza? Dame, Turm, Läufer o Springer"),
    ] {
        let fide = language(code).expect("language").with_words(WordSet::Fide);
        let err = parse_move_in("b8", &wide, fide).expect_err("no piece named");
        assert_eq!(message(&err, &wide, fide), expected, "{code}");
    }
    // Without the choice, each language's own words, as before.
    let fr = language("fr").expect("fr");
    assert_eq!(
        announce(&start, uci(&start, "g1f3"), fr, Form::Short),
        "Cavalier Felix trois"
    );
}

/// Typed and dictated input is understood in both sets whichever the player hears, and
/// every legal move's announcement with the FIDE words reads back in every language.
#[test]
fn both_sets_are_understood_and_the_fide_words_round_trip() {
    use super::language::WordSet;
    let start = Chess::default();
    for lang in languages() {
        let fide = lang.with_words(WordSet::Fide);
        for player in [lang, fide] {
            for text in [
                "Springer Felix drei",
                "springer gustav eins felix drei",
                &announce(&start, uci(&start, "g1f3"), lang, Form::Short),
                &announce(&start, uci(&start, "g1f3"), lang, Form::Long),
            ] {
                assert_eq!(
                    parse_move_in(text, &start, player),
                    Ok(uci(&start, "g1f3")),
                    "{} ({:?}): {text}",
                    lang.code,
                    player.words
                );
            }
        }
    }
    let mut checked = 0;
    for (p, _) in random_positions(11, 2, 60) {
        for &m in &p.legal_moves() {
            for lang in languages() {
                let fide = lang.with_words(WordSet::Fide);
                for form in [Form::Short, Form::Long] {
                    let text = announce(&p, m, fide, form);
                    assert_eq!(parse_move_in(&text, &p, fide), Ok(m), "{text}");
                    assert_eq!(parse_move_in(&text, &p, lang), Ok(m), "{text}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1_000, "{checked}");
}

/// The table of `code` as TOML, read from the file the build embeds.
fn raw_table(code: &str) -> toml::Table {
    let path = format!("{}/../assets/lang/{code}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the language table");
    text.parse().expect("TOML")
}

/// Every text of a table with its key ("messages.leaves_king_in_check", a list's items with
/// their index), the parts that are no sentences of hector's left out: the word lists input
/// is read with, the opening and theme names, help texts.
fn sentences(prefix: &str, table: &toml::Table, out: &mut Vec<(String, String)>) {
    // Read, not said: what players type; names from outside; the long help texts.
    const NOT_SAID: [&str; 10] = [
        "fide",
        "pieces",
        "board",
        "folding",
        "understood",
        "commands",
        "arbiter.commands",
        "openings",
        "puzzle.themes",
        "braille.legend",
    ];
    for (key, value) in table {
        let name = format!("{prefix}{key}");
        if NOT_SAID.contains(&name.as_str()) || key == "help" || key == "keys_help" {
            continue;
        }
        match value {
            toml::Value::Table(t) => sentences(&format!("{name}."), t, out),
            toml::Value::String(s) => out.push((name, s.clone())),
            toml::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if let toml::Value::String(s) = item {
                        out.push((format!("{name}[{i}]"), s.clone()));
                    }
                }
            }
            _ => {}
        }
    }
}

/// The words of a text, folded to lower case.
fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// With the FIDE words chosen, a sentence that names a piece names it in the FIDE words: every
/// text of every table that holds one of the language's own piece names (not a FIDE name too,
/// as the Dutch and French "dame") is one the FIDE set replaces, and its replacement holds
/// none of them. A new message naming a piece fails here until `[fide]` has its form.
#[test]
fn with_the_fide_words_no_message_names_a_piece_in_the_languages_own_words() {
    use super::language::WordSet;
    // The texts the FIDE set replaces (a list's items by their index).
    let replaced = |lang: &super::language::Language, key: &str| -> Option<String> {
        let m = &lang.messages;
        let text = match key {
            "messages.leaves_king_in_check" => &m.leaves_king_in_check,
            "messages.ignores_check" => &m.ignores_check,
            "messages.not_a_promotion" => &m.not_a_promotion,
            "messages.bad_promotion" => &m.bad_promotion,
            "messages.which_promotion" => &m.which_promotion,
            "messages.which_castling" => &m.which_castling,
            "messages.board_promotion" => &m.board_promotion,
            "messages.castling_no_right" => &m.castling_no_right,
            "messages.castling_in_check" => &m.castling_in_check,
            "messages.castling_attacked" => &m.castling_attacked,
            "messages.capture_not_said" => &m.capture_not_said,
            "messages.which_square" => &m.which_square,
            "messages.not_a_square" => &m.not_a_square,
            "messages.which_rank" => &m.which_rank,
            "messages.not_a_rank" => &m.not_a_rank,
            "play.only_king" => &lang.play.only_king,
            "play.white_plural" | "play.black_plural" => return Some(String::new()),
            "record.unpromoted_pawn" => &lang.record.unpromoted_pawn,
            "arbiter.promotion_wait" => &lang.arbiter.promotion_wait,
            "arbiter.needs_piece" => &lang.arbiter.needs_piece,
            k if k.starts_with("usage.position_faults[") => {
                let i: usize = k["usage.position_faults[".len()..]
                    .trim_end_matches(']')
                    .parse()
                    .ok()?;
                return lang.usage.position_faults.get(i).cloned();
            }
            k if k.starts_with("play.white_plural[") || k.starts_with("play.black_plural[") => {
                let i: usize = k[k.find('[')? + 1..].trim_end_matches(']').parse().ok()?;
                let list = if k.starts_with("play.white") {
                    &lang.play.white_plural
                } else {
                    &lang.play.black_plural
                };
                return list.get(i).cloned();
            }
            _ => return None,
        };
        Some(text.clone())
    };
    let fide_names: Vec<String> = ["König", "Dame", "Turm", "Läufer", "Springer", "Bauer"]
        .iter()
        .chain(&["Könige", "Damen", "Türme", "Bauern"])
        .map(|w| w.to_lowercase())
        .collect();
    let mut checked = 0;
    for lang in languages().filter(|l| l.code != "de") {
        let own: Vec<String> = lang
            .pieces
            .names
            .iter()
            .chain(&lang.pieces.plural)
            .map(|w| w.to_lowercase())
            .filter(|w| !fide_names.contains(w))
            .collect();
        let fide = lang.with_words(WordSet::Fide);
        let mut texts = Vec::new();
        sentences("", &raw_table(&lang.code), &mut texts);
        for (key, text) in texts {
            let named: Vec<&String> = own.iter().filter(|w| words_of(&text).contains(w)).collect();
            if named.is_empty() {
                continue;
            }
            let Some(with_fide) = replaced(fide, &key) else {
                panic!(
                    "{}: {key} names {named:?} and has no form in the FIDE words: {text:?}",
                    lang.code
                );
            };
            let still: Vec<&&String> = named
                .iter()
                .filter(|w| words_of(&with_fide).contains(w))
                .collect();
            assert!(
                still.is_empty(),
                "{}: {key} with the FIDE words still says {still:?}: {with_fide:?}",
                lang.code
            );
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked} texts checked");
}

/// The FIDE words in the general messages, built from a position or said as they stand:
/// French, Spanish, English and Dutch sentences with the German words of Appendix D2.1.
#[test]
fn the_general_messages_follow_the_fide_words() {
    use super::language::WordSet;
    // White's king on e1 in check from the rook on e2; the rook on a1 can block nothing.
    let in_check = pos("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    // White's rook on e2 pinned to its king by the rook on e7.
    let pinned = pos("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1");
    for (code, castling, ignores, leaves, rank) in [
        (
            "fr",
            "Le Kurze Rochade n'est pas possible : le König est en échec",
            "Le König est en échec et ce coup n'y répond pas",
            "Ce coup laisserait le König en échec",
            "Un nombre de eins à acht",
        ),
        (
            "es",
            "El Kurze Rochade no es posible: el König está en jaque",
            "El König está en jaque y esa jugada no lo evita",
            "Esa jugada dejaría al König en jaque",
            "Un número de eins a acht",
        ),
        (
            "en",
            "Kurze Rochade is not possible: the König is in check",
            "The König is in check and that move does not answer it",
            "That move would leave the König in check",
            "A number from eins to acht",
        ),
        (
            "nl",
            "Kurze Rochade kan niet: de König staat schaak",
            "De König staat schaak en die zet heft het niet op",
            "Met die zet zou de König schaak blijven staan",
            "Een getal van eins tot acht",
        ),
    ] {
        let lang = language(code).expect(code).with_words(WordSet::Fide);
        let refused = |p: &Chess, text: &str| {
            let err = parse_move_in(text, p, lang).expect_err(text);
            message(&err, p, lang)
        };
        assert_eq!(refused(&in_check, "Kurze Rochade"), castling, "{code}");
        assert_eq!(refused(&in_check, "a1a2"), ignores, "{code}");
        assert_eq!(refused(&pinned, "e2a2"), leaves, "{code}");
        assert!(lang.messages.which_rank.contains(rank), "{code}");
        // The language's own words, as before.
        let own = language(code).expect(code);
        assert!(
            !own.messages.leaves_king_in_check.contains("König"),
            "{code}"
        );
    }
}

/// The SAN of `m` without its check suffix, with or without the capture mark.
fn san_marked(p: &Chess, m: Move, capture: bool) -> String {
    match San::from_move(p, m) {
        San::Normal {
            role,
            file,
            rank,
            to,
            promotion,
            ..
        } => San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        }
        .to_string(),
        other => other.to_string(),
    }
}

/// Every legal move of positions rich in captures, checks, mates, en passant and promotions,
/// typed with and without "x", "+" and "#": a player's text is accepted exactly when its
/// capture mark is true or left out ("+" and "#" are ignored, true or not, as the agreed
/// input notation says); the recogniser's lenient reading takes every one of them as the move.
#[test]
fn typed_marks_are_accepted_exactly_when_true() {
    let en = language("en").expect("en");
    let de = language("de").expect("de");
    let mut refused = 0;
    let mut accepted = 0;
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    ] {
        let p = pos(fen);
        for &m in &p.legal_moves() {
            let marks = if m.is_castle() {
                vec![false]
            } else {
                vec![false, true]
            };
            for x in marks {
                for suffix in ["", "+", "#"] {
                    let text = format!("{}{suffix}", san_marked(&p, m, x || m.is_capture()));
                    let text = if x || !m.is_capture() {
                        text
                    } else {
                        // A capture typed without its "x" is the same move.
                        format!("{}{suffix}", san_marked(&p, m, false))
                    };
                    let expected = if x && !m.is_capture() {
                        Err(ParseError::NothingToTake(m.to()))
                    } else {
                        Ok(m)
                    };
                    assert_eq!(parse_move_in(&text, &p, en), expected, "{text} in {fen}");
                    assert_eq!(parse_move_in(&text, &p, de), expected, "{text} in {fen}");
                    assert_eq!(parse_move(&text, &p), Ok(m), "lenient {text} in {fen}");
                    match expected {
                        Ok(_) => accepted += 1,
                        Err(_) => refused += 1,
                    }
                }
            }
            // The words: a capture word is held to the same truth, its absence is no fault.
            if let Some(from) = m.from().filter(|_| !m.is_castle()) {
                for lang in [en, de] {
                    let piece = lang.piece(m.role());
                    let (from, to) = (lang.square(from), lang.square(m.to()));
                    let takes = format!("{piece} {from} {} {to}", lang.moves.capture);
                    let expected = if m.is_capture() {
                        Ok(m)
                    } else {
                        Err(ParseError::NothingToTake(m.to()))
                    };
                    // A promotion names its piece; the plain phrase is refused for that.
                    if m.is_promotion() {
                        continue;
                    }
                    assert_eq!(parse_move_in(&takes, &p, lang), expected, "{takes}");
                    assert_eq!(parse_move(&takes, &p), Ok(m), "lenient {takes}");
                    let plain = format!("{piece} {from} {to}");
                    assert_eq!(parse_move_in(&plain, &p, lang), Ok(m), "{plain}");
                }
            }
        }
    }
    // Every kind of verdict was reached, many times.
    assert!(accepted > 150, "{accepted}");
    assert!(refused > 20, "{refused}");
}

/// What a player hears for a false mark, in every language.
#[test]
fn a_false_mark_is_told_in_the_players_language() {
    let p = pos("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    for (code, capture, said) in [
        (
            "de",
            "Auf Eva zwei gibt es nichts zu schlagen",
            "Dame schlägt Eva zwei",
        ),
        (
            "en",
            "There is nothing to take on Eva two",
            "queen takes e2",
        ),
        (
            "es",
            "En Eva dos no hay nada que capturar",
            "dama captura e2",
        ),
        ("fr", "Il n'y a rien à prendre en Eva deux", "dame prend e2"),
        ("nl", "Op Eva twee valt niets te slaan", "dame slaat e2"),
    ] {
        let lang = language(code).expect(code);
        let told = |text: &str| {
            let err = parse_move_in(text, &p, lang).expect_err(text);
            message(&err, &p, lang)
        };
        let queen = lang.pieces.letters[1].as_str();
        assert_eq!(told(&format!("{queen}xe2")), capture, "{code}");
        assert_eq!(told(said), capture, "{code}");
        // "+" and "#" are ignored, true or not; without the capture mark the move is played.
        assert_eq!(
            parse_move_in(&format!("{queen}h5#"), &p, lang),
            Ok(uci(&p, "d1h5"))
        );
        assert_eq!(
            parse_move_in(&format!("{queen}e2"), &p, lang),
            Ok(uci(&p, "d1e2"))
        );
    }
}
