//! Pronunciation dictionaries: how each word of a language's grammar sounds, in the phones
//! of an acoustic model. hector carries one per language it can hear on the US English model
//! Debian ships (assets/voice/<code>.dict); a language without one says so.
//!
//! The format is CMU's (cmudict), as PocketSphinx reads it: a word, then its phones, one
//! pronunciation a line; further pronunciations of a word as `word(2)`, `word(3)`. Lines that
//! begin with `#` are comments.

use std::sync::OnceLock;

use crate::notation::language::{Language, WordSet};

/// The dictionaries embedded in hector: (language code, text).
const EMBEDDED: &[(&str, &str)] = &[
    ("de", include_str!("../../../assets/voice/de.dict")),
    ("en", include_str!("../../../assets/voice/en.dict")),
    ("es", include_str!("../../../assets/voice/es.dict")),
    ("fr", include_str!("../../../assets/voice/fr.dict")),
    ("nl", include_str!("../../../assets/voice/nl.dict")),
];

/// One pronunciation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The word as the grammar writes it.
    pub word: String,
    /// The name of this pronunciation: the word, or `word(2)` for the second.
    pub name: String,
    /// The phones, separated by single spaces.
    pub phones: String,
}

/// A pronunciation dictionary: its entries in the order of the file, each word's first
/// pronunciation before its others.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lexicon {
    entries: Vec<Entry>,
}

/// Why a dictionary cannot be read: the line (from 1) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub(crate) struct LexiconError {
    pub(crate) line: usize,
    pub(crate) problem: String,
}

impl Lexicon {
    pub(crate) fn parse(text: &str) -> Result<Lexicon, LexiconError> {
        let mut entries: Vec<Entry> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fail = |problem: &str| LexiconError {
                line: i + 1,
                problem: problem.to_string(),
            };
            let mut parts = line.split_whitespace();
            let name = parts.next().unwrap_or_default();
            let phones: Vec<&str> = parts.collect();
            if phones.is_empty() {
                return Err(fail("a word without phones"));
            }
            if !phones.iter().all(|p| {
                p.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            }) {
                return Err(fail("phones are written in capitals"));
            }
            let word = match name.split_once('(') {
                Some((base, rest)) => {
                    let number = rest.strip_suffix(')').and_then(|n| n.parse::<u8>().ok());
                    if !matches!(number, Some(2..)) {
                        return Err(fail("a variant is written word(2), word(3), …"));
                    }
                    if !entries.iter().any(|e| e.word == base) {
                        return Err(fail("a variant before its word's first pronunciation"));
                    }
                    base
                }
                None => {
                    if entries.iter().any(|e| e.word == name) {
                        return Err(fail("a word twice; its variants are word(2), …"));
                    }
                    name
                }
            };
            entries.push(Entry {
                word: word.to_string(),
                name: name.to_string(),
                phones: phones.join(" "),
            });
        }
        Ok(Lexicon { entries })
    }

    /// hector's dictionary for a language (by its code), if it has one.
    pub(crate) fn embedded(code: &str) -> Option<&'static Lexicon> {
        static PARSED: OnceLock<Vec<(&'static str, Lexicon)>> = OnceLock::new();
        PARSED
            .get_or_init(|| {
                EMBEDDED
                    .iter()
                    // A broken dictionary is a defect of the build: the tests below read them.
                    .filter_map(|(c, text)| Lexicon::parse(text).ok().map(|l| (*c, l)))
                    .collect()
            })
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(code.trim()))
            .map(|(_, l)| l)
    }

    /// hector's dictionary for `lang` as it is spoken: the language's own, and with the FIDE
    /// words (`--words fide`) the German dictionary's pronunciations of the words the
    /// language's lacks (König, drei, Kurze Rochade … are German words in any sentence).
    pub fn for_language(lang: &Language) -> Option<&'static Lexicon> {
        static MERGED: OnceLock<Vec<(String, Lexicon)>> = OnceLock::new();
        if lang.words == WordSet::Language {
            return Lexicon::embedded(&lang.code);
        }
        let merged = MERGED.get_or_init(|| {
            let german = Lexicon::embedded("de");
            EMBEDDED
                .iter()
                .filter_map(|(code, _)| {
                    let own = Lexicon::embedded(code)?;
                    let mut entries = own.entries.clone();
                    for e in german.map_or(&[][..], |g| g.entries()) {
                        if !own.knows(&e.word) {
                            entries.push(e.clone());
                        }
                    }
                    Some((code.to_string(), Lexicon { entries }))
                })
                .collect()
        });
        merged
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(lang.code.trim()))
            .map(|(_, l)| l)
    }

    /// Whether the dictionary has `word` (any of its pronunciations).
    pub(crate) fn knows(&self, word: &str) -> bool {
        self.entries.iter().any(|e| e.word == word)
    }

    /// The pronunciations of `word`, first one first.
    #[cfg(test)]
    pub(crate) fn pronunciations<'a>(&'a self, word: &'a str) -> impl Iterator<Item = &'a Entry> {
        self.entries.iter().filter(move |e| e.word == word)
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;
    use crate::voice::tokens::Tokens;

    #[test]
    fn the_embedded_dictionaries_read_and_know_every_word_of_their_language() {
        for (code, text) in EMBEDDED {
            let lexicon = Lexicon::parse(text).unwrap_or_else(|e| panic!("{code}.dict: {e}"));
            let lang = language(code).expect("a dictionary's language has a table");
            let tokens = Tokens::spelled(lang, |w| lexicon.knows(w));
            assert!(tokens.is_ok(), "{code}.dict lacks {tokens:?}");
        }
    }

    /// With the FIDE words every language's dictionary knows every word of its grammar: the
    /// German words come with the German pronunciations.
    #[test]
    fn with_the_fide_words_every_dictionary_knows_every_word() {
        use crate::notation::language::WordSet;
        for (code, _) in EMBEDDED {
            let lang = language(code).expect("table").with_words(WordSet::Fide);
            let lexicon = Lexicon::for_language(lang).expect("dictionary");
            let tokens = Tokens::spelled(lang, |w| lexicon.knows(w));
            assert!(
                tokens.is_ok(),
                "{code} with the FIDE words lacks {tokens:?}"
            );
            let tokens = tokens.expect("tokens");
            assert!(tokens.pieces.iter().any(|p| p == "springer"), "{code}");
        }
        // The language's own words need no German.
        let fr = language("fr").expect("fr");
        assert!(std::ptr::eq(
            Lexicon::for_language(fr).expect("fr"),
            Lexicon::embedded("fr").expect("fr")
        ));
    }

    #[test]
    fn a_language_without_a_dictionary_has_none() {
        assert!(Lexicon::embedded("de").is_some());
        assert!(Lexicon::embedded("EN").is_some());
        assert!(Lexicon::embedded("xx").is_none());
    }

    #[test]
    fn variants_follow_their_word() {
        let l = Lexicon::parse("# c\nvier F IY R\nvier(2) F IH R\n\ndrei D R AY\n").expect("ok");
        let v: Vec<&str> = l.pronunciations("vier").map(|e| e.name.as_str()).collect();
        assert_eq!(v, ["vier", "vier(2)"]);
        assert!(l.knows("drei") && !l.knows("vier(2)"));
    }

    #[test]
    fn broken_lines_are_named() {
        let cases = [
            ("vier", 1, "a word without phones"),
            (
                "vier(2) F IH R",
                1,
                "a variant before its word's first pronunciation",
            ),
            (
                "vier F IY R\nvier(x) F IH R",
                2,
                "a variant is written word(2), word(3), …",
            ),
            (
                "vier F IY R\nvier F IH R",
                2,
                "a word twice; its variants are word(2), …",
            ),
            ("vier f iy r", 1, "phones are written in capitals"),
        ];
        for (text, line, problem) in cases {
            let err = Lexicon::parse(text).expect_err(text);
            assert_eq!((err.line, err.problem.as_str()), (line, problem), "{text}");
        }
    }
}
