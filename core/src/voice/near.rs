//! Square words the recogniser mistakes for each other, per language: a move heard with one
//! of them is played at once only when no other legal move differs from it in that word
//! alone (core/src/voice/decide.rs). A margin does not protect against these: on hold-out
//! seed 59 "Rook Hector one" was played as the rook to e1 ("eva", margin 10.98 per frame)
//! and Dutch "Eva vier" as e3 ("drie", margin 6.6), both grammars agreeing.
//!
//! Each pair is one the benchmark measured (docs/BENCHMARKS.md, "Voice hold-out", seeds 37
//! to 61 and the tuning set): a word said and the other heard in its place, played or asked
//! back, by more than one voice or on more than one seed; and in every language the pawn's
//! one and two steps. A pair works both ways: a voice
//! that hears one for the other may as well hear the other for the one. Words are written as
//! the grammar writes them ([`super::tokens::written_out`]).

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
    // "sept" as "cinq" on seeds 47, 53 and 59.
    (
        "fr",
        &[("trois", "quatre"), ("six", "cinq"), ("sept", "cinq")],
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

/// The pairs for these file and rank words: those of the language whose ranks they are (the
/// FIDE words inside another language are German words, heard with the German dictionary),
/// kept where both words are among them.
pub(crate) fn pairs(code: &str, files: &[String], ranks: &[String]) -> Vec<(String, String)> {
    let german = ranks.first().is_some_and(|r| r == "eins");
    let code = if german { "de" } else { code };
    let words = |w: &str| files.iter().chain(ranks).any(|t| t == w);
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
    use super::*;
    use crate::notation::language::language;
    use crate::voice::tokens::Tokens;

    /// Every word of the table is a file or rank word of its language: a misspelt one would
    /// silently protect nothing.
    #[test]
    fn every_pair_is_of_square_words_of_its_language() {
        for (code, list) in TABLE {
            let t = Tokens::spelled(language(code).expect("table"), |_| true).expect("tokens");
            assert_eq!(t.near.len(), list.len(), "{code}: {:?}", t.near);
        }
    }

    #[test]
    fn the_fide_words_take_the_german_pairs() {
        let files: Vec<String> = ["anna", "bella", "caesar", "eva"].map(String::from).into();
        let ranks: Vec<String> = ["eins", "zwei", "drei"].map(String::from).into();
        let p = pairs("fr", &files, &ranks);
        assert!(p.contains(&("drei".into(), "zwei".into())));
        assert_eq!(of(&p, "zwei").collect::<Vec<_>>(), vec!["drei"]);
        assert_eq!(of(&p, "eva").count(), 2);
    }
}
