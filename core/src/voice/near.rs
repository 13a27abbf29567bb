//! Square and piece words the recogniser mistakes for each other, per language: a move heard
//! with one of them is played at once only when no other legal move differs from it in that
//! word alone (core/src/voice/decide.rs). A margin does not protect against these: on hold-out
//! seed 59 "Rook Hector one" was played as the rook to e1 ("eva", margin 10.98 per frame)
//! and Dutch "Eva vier" as e3 ("drie", margin 6.6), both grammars agreeing.
//!
//! Each pair is one the benchmark measured (docs/BENCHMARKS.md, "Voice hold-out", seeds 37
//! to 61 and the tuning set): a word said and the other heard in its place, played or asked
//! back, by more than one voice or on more than one seed; and in every language the pawn's
//! one and two steps. A pair works both ways: a voice
//! that hears one for the other may as well hear the other for the one. Words are written as
//! the grammar writes them ([`super::tokens::written_out`]).

use shakmaty::{Chess, Move};

use super::tokens::VoiceCommand;
use crate::notation::parse::parse_move;

/// The pairs of one language.
type Pairs = &'static [(&'static str, &'static str)];

const TABLE: [(&str, Pairs); 5] = [
    // In every language the ranks a pawn reaches in one step and in two from its own square
    // (3 and 4, 6 and 5): both moves are legal whenever the pawn has not moved, so one rank
    // word heard for the other is a wrong move. Measured: Dutch "Eva vier" played as e3,
    // "Anna zes" as a5; German "David sechs" as d5 (seed 61).
    // German: "Bella drei" and "König Cäsar eins" heard with "Eva"; "Dame Bella drei" as
    // "Dame Cäsar zwei", "Turm Bella drei" as "Turm Bella zwei".
    (
        "de",
        &[
            ("drei", "vier"),
            ("sechs", "fuenf"),
            ("bella", "eva"),
            ("caesar", "eva"),
            ("drei", "zwei"),
        ],
    ),
    // The Caribbean voice runs the file names into "eva" (Hector, Gustav, Felix, David,
    // Bella; "Hector five" as "Eva five" in the British voice), "seven" into "eight";
    // "Anna five" heard as "anna eight", "Bishop David five" as "… four".
    (
        "en",
        &[
            ("three", "four"),
            ("six", "five"),
            ("eva", "hector"),
            ("eva", "gustav"),
            ("eva", "felix"),
            ("eva", "david"),
            ("eva", "bella"),
            ("seven", "eight"),
            ("five", "eight"),
            ("five", "four"),
        ],
    ),
    // "Eva seis" as "Bella seis", "Eva cuatro" as "Bella cuatro".
    (
        "es",
        &[("tres", "cuatro"), ("seis", "cinco"), ("eva", "bella")],
    ),
    // "sept" as "cinq" on seeds 47, 53 and 59. "Tour" as "Fou" (the English model hears the
    // uvular r of "tour" as nothing): 16 of 24 rook moves on seed 73 asked back as the
    // bishop's, and on seed 79 "Tour Anna un" played as the bishop to a1 (margin 6.5).
    (
        "fr",
        &[
            ("trois", "quatre"),
            ("six", "cinq"),
            ("sept", "cinq"),
            ("tour", "fou"),
        ],
    ),
    // "vier" and "vijf" as "drie", "zes" as "zeven" after "Loper", "zes" as "vijf".
    (
        "nl",
        &[
            ("drie", "vier"),
            ("zes", "vijf"),
            ("drie", "vijf"),
            ("zes", "zeven"),
        ],
    ),
];

/// Command words the recogniser hears for a move phrase, per language: each a command word
/// (as the grammar writes it) and the move phrase it swallowed. When the command is heard and
/// the phrase names a legal move of the position, the command is not run: the move is asked
/// first and the command second (core/src/voice/decide.rs). A margin does not protect
/// against these either: on hold-out seed 89 the Caribbean voice's "Hector four" was heard
/// as "explorer" by both grammars, at 7.4 per frame. Each entry was measured on the tuning
/// seeds (docs/VOICE.md, "Commands heard for moves").
type Swallowed = &'static [(&'static str, &'static str)];

const COMMANDS: [(&str, Swallowed); 5] = [
    ("de", &[]),
    (
        "en",
        &[("explorer", "hector four"), ("repeat", "bella six")],
    ),
    ("es", &[]),
    (
        "fr",
        &[
            ("explorateur", "hector quatre"),
            ("pendule", "grand roque"),
            ("pendule", "petit roque"),
            ("nulle", "grand roque"),
            ("nulle", "petit roque"),
        ],
    ),
    ("nl", &[]),
];

/// The command words and the move phrases they are heard for, of the language `code`, as
/// commands of `commands`; kept where every word of the phrase is among `words` (with the
/// FIDE words inside another language, the phrases of that language are not said).
pub(crate) fn command_phrases(
    code: &str,
    commands: &[(VoiceCommand, String)],
    words: &[&str],
) -> Vec<(VoiceCommand, String)> {
    COMMANDS
        .iter()
        .filter(|(c, _)| *c == code)
        .flat_map(|(_, list)| list.iter())
        .filter(|(_, phrase)| phrase.split(' ').all(|w| words.contains(&w)))
        .filter_map(|(word, phrase)| {
            commands
                .iter()
                .find(|(_, w)| w == word)
                .map(|(c, _)| (*c, phrase.to_string()))
        })
        .collect()
}

/// The legal move of `pos` that a phrase `command` is heard for names, the first in the
/// table's order.
pub(crate) fn command_move(
    table: &[(VoiceCommand, String)],
    command: VoiceCommand,
    pos: &Chess,
) -> Option<Move> {
    table
        .iter()
        .filter(|(c, _)| *c == command)
        .find_map(|(_, phrase)| parse_move(phrase, pos).ok())
}

/// The pairs for these file, rank and piece words: those of the language whose ranks they are
/// (the FIDE words inside another language are German words, heard with the German
/// dictionary), kept where both words are among them.
pub(crate) fn pairs(
    code: &str,
    files: &[String],
    ranks: &[String],
    pieces: &[String],
) -> Vec<(String, String)> {
    let german = ranks.first().is_some_and(|r| r == "eins");
    let code = if german { "de" } else { code };
    let words = |w: &str| files.iter().chain(ranks).chain(pieces).any(|t| t == w);
    TABLE
        .iter()
        .filter(|(c, _)| *c == code)
        .flat_map(|(_, pairs)| pairs.iter())
        .filter(|(a, b)| words(a) && words(b))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// The words near `word` in `pairs`.
pub(crate) fn of<'a>(
    pairs: &'a [(String, String)],
    word: &'a str,
) -> impl Iterator<Item = &'a str> {
    pairs.iter().filter_map(move |(a, b)| {
        if a == word {
            Some(b.as_str())
        } else if b == word {
            Some(a.as_str())
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess};

    use super::*;
    use crate::notation::language::language;
    use crate::notation::parse::parse_move;
    use crate::voice::decide::near_move;
    use crate::voice::tokens::Tokens;

    /// Every word of the table is a file, rank or piece word of its language: a misspelt one
    /// would silently protect nothing.
    #[test]
    fn every_pair_is_of_square_or_piece_words_of_its_language() {
        for (code, list) in TABLE {
            let t = Tokens::spelled(language(code).expect("table"), |_| true).expect("tokens");
            assert_eq!(t.near.len(), list.len(), "{code}: {:?}", t.near);
        }
    }

    /// Every entry of the commands' table is a command word of its language and a phrase of
    /// its move words that names a move in some position: a misspelt one would silently
    /// protect nothing.
    #[test]
    fn every_command_entry_is_a_command_and_a_move_phrase_of_its_language() {
        for (code, list) in COMMANDS {
            let t = Tokens::spelled(language(code).expect("table"), |_| true).expect("tokens");
            assert_eq!(
                t.command_near.len(),
                list.len(),
                "{code}: {:?}",
                t.command_near
            );
            for (word, phrase) in list {
                assert!(t.command(word).is_some(), "{code}: {word} is no command");
                let words = t.move_words();
                assert!(
                    phrase.split(' ').all(|w| words.contains(&w)),
                    "{code}: {phrase} has a word no move phrase has"
                );
            }
            for (_, phrase) in &t.command_near {
                let named = [Chess::default(), black_to_move(), castles()]
                    .iter()
                    .any(|p| parse_move(phrase, p).is_ok());
                assert!(
                    named,
                    "{code}: {phrase} names no move in the test's positions"
                );
            }
        }
    }

    /// Kings and rooks alone: both castlings legal.
    fn castles() -> Chess {
        Fen::from_ascii(b"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("position")
    }

    /// The start with White's e-pawn moved: Black's moves from their own start.
    fn black_to_move() -> Chess {
        Fen::from_ascii(b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("position")
    }

    #[test]
    fn the_fide_words_take_the_german_pairs() {
        let files: Vec<String> = ["anna", "bella", "caesar", "eva"].map(String::from).into();
        let ranks: Vec<String> = ["eins", "zwei", "drei"].map(String::from).into();
        let pieces: Vec<String> = ["turm", "laeufer"].map(String::from).into();
        let p = pairs("fr", &files, &ranks, &pieces);
        assert!(p.contains(&("drei".into(), "zwei".into())));
        assert_eq!(of(&p, "zwei").collect::<Vec<_>>(), vec!["drei"]);
        assert_eq!(of(&p, "eva").count(), 2);
    }

    /// A French rook move heard as the bishop's ("fou" for "tour") names the rook's move as
    /// the near one when both reach the square, so it is asked back, never played at once.
    #[test]
    fn a_piece_word_heard_for_another_names_the_other_piece_s_move() {
        let lang = language("fr").expect("table");
        let t = Tokens::spelled(lang, |_| true).expect("tokens");
        assert!(
            t.near.contains(&("tour".into(), "fou".into())),
            "{:?}",
            t.near
        );
        let pos: Chess = Fen::from_ascii(b"4k3/8/8/8/8/8/1B6/3RK3 w - - 0 1")
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("position");
        let bishop = parse_move("fou anna un", &pos).expect("the bishop's move");
        let rook = parse_move("tour anna un", &pos).expect("the rook's move");
        assert_eq!(near_move("fou anna un", bishop, &pos, &t), Some(rook));
        assert_eq!(near_move("tour anna un", rook, &pos, &t), Some(bishop));
        // Without the bishop on b2 the rook's move has no neighbour.
        let alone: Chess = Fen::from_ascii(b"4k3/8/8/8/8/8/8/3RK3 w - - 0 1")
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("position");
        let rook = parse_move("tour anna un", &alone).expect("the rook's move");
        assert_eq!(near_move("tour anna un", rook, &alone, &t), None);
    }
}
