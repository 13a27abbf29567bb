//! The input vocabulary: every word of every language table, folded so that case, umlauts and
//! their ae/oe/ue spellings, and ß/ss do not matter.

use std::collections::HashMap;
use std::sync::OnceLock;

use shakmaty::{CastlingSide, File, Rank, Role};

use super::language::{Language, TABLE_ROLES, languages};

/// What an input word means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Meaning {
    File(File),
    Rank(Rank),
    Piece(Role),
    Capture,
    To,
    Promote,
    Castle(CastlingSide),
    /// Castling without a side.
    CastleEither,
    /// Words that carry no information for finding the move (check, en passant).
    Ignore,
    /// Small words that join others ("in", "and").
    Filler,
}

/// Lower case, and every language's letters made plain (a letter folds the same way in every
/// language: the tables' `[folding] letters`).
fn fold_letters(word: &str) -> String {
    static LETTERS: OnceLock<HashMap<char, String>> = OnceLock::new();
    let letters = LETTERS.get_or_init(|| {
        let mut map = HashMap::new();
        for lang in languages() {
            for (from, to) in &lang.folding.letters {
                let mut chars = from.chars();
                if let (Some(c), None) = (chars.next(), chars.next()) {
                    map.entry(c).or_insert_with(|| to.clone());
                }
            }
        }
        map
    });
    let mut out = String::with_capacity(word.len());
    for c in word.chars().flat_map(char::to_lowercase) {
        match letters.get(&c) {
            Some(plain) => out.push_str(plain),
            None => out.push(c),
        }
    }
    out
}

/// The letters made plain, then `spellings` read as the letters they stand for.
fn fold_with(word: &str, spellings: &[(String, String)]) -> String {
    let mut out = fold_letters(word);
    for (from, to) in spellings {
        if out.contains(from.as_str()) {
            out = out.replace(from.as_str(), to);
        }
    }
    out
}

/// A language's spellings as a list.
fn spellings_of(lang: &Language) -> Vec<(String, String)> {
    lang.folding
        .spellings
        .iter()
        .map(|(from, to)| (from.clone(), to.clone()))
        .collect()
}

/// Lower case, letters made plain and every language's spellings read as their letters
/// (Läufer, Laeufer and laufer meet): for words any language's player may type, such as the
/// commands.
pub fn fold(word: &str) -> String {
    static ALL: OnceLock<Vec<(String, String)>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        let mut all: Vec<(String, String)> = Vec::new();
        for lang in languages() {
            for pair in spellings_of(lang) {
                if !all.contains(&pair) {
                    all.push(pair);
                }
            }
        }
        all
    });
    fold_with(word, all)
}

/// `word` folded as `lang`'s own words are: its letters made plain, and only `lang`'s
/// spellings read as letters.
#[cfg(test)]
pub(crate) fn fold_in(word: &str, lang: &Language) -> String {
    fold_with(word, &spellings_of(lang))
}

/// The words of one language, folded as that language folds them.
struct Layer {
    spellings: Vec<(String, String)>,
    entries: HashMap<String, Meaning>,
}

impl Layer {
    fn key<'w>(&self, words: impl IntoIterator<Item = &'w str>) -> String {
        words
            .into_iter()
            .map(|w| fold_with(w, &self.spellings))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Folded words and phrases (words joined by one space) with their meanings, one layer per
/// language: a word is looked up in the first language's words first.
pub(crate) struct Vocabulary {
    layers: Vec<Layer>,
    /// The most words any phrase has.
    longest: usize,
}

impl Vocabulary {
    fn add(&mut self, text: &str, meaning: Meaning) {
        let Some(layer) = self.layers.last_mut() else {
            return;
        };
        let key = layer.key(text.split_whitespace());
        if key.is_empty() {
            return;
        }
        self.longest = self.longest.max(key.split(' ').count());
        // Within a language the first meaning stays; tables are checked for clashes in tests.
        layer.entries.entry(key).or_insert(meaning);
    }

    fn push_layer(&mut self, spellings: Vec<(String, String)>) {
        self.layers.push(Layer {
            spellings,
            entries: HashMap::new(),
        });
    }

    fn add_language(&mut self, lang: &Language) {
        for (i, file) in File::ALL.into_iter().enumerate() {
            self.add(&lang.board.files[i], Meaning::File(file));
            for alt in &lang.understood.files[i] {
                self.add(alt, Meaning::File(file));
            }
        }
        for (i, rank) in Rank::ALL.into_iter().enumerate() {
            self.add(&lang.board.ranks[i], Meaning::Rank(rank));
            for alt in &lang.understood.ranks[i] {
                self.add(alt, Meaning::Rank(rank));
            }
        }
        for (i, role) in TABLE_ROLES.into_iter().enumerate() {
            self.add(&lang.pieces.names[i], Meaning::Piece(role));
            // Plurals too: "wo sind die Türme", "where are the rooks".
            self.add(&lang.pieces.plural[i], Meaning::Piece(role));
            for alt in &lang.understood.pieces[i] {
                self.add(alt, Meaning::Piece(role));
            }
        }
        // The FIDE words of Appendix D2.1 are understood in every language, whichever set
        // the player hears.
        let f = &lang.fide;
        for (i, file) in File::ALL.into_iter().enumerate() {
            self.add(&f.files[i], Meaning::File(file));
        }
        for (i, rank) in Rank::ALL.into_iter().enumerate() {
            self.add(&f.ranks[i], Meaning::Rank(rank));
        }
        for (i, role) in TABLE_ROLES.into_iter().enumerate() {
            self.add(&f.names[i], Meaning::Piece(role));
            self.add(&f.plural[i], Meaning::Piece(role));
        }
        self.add(&f.short_castling, Meaning::Castle(CastlingSide::KingSide));
        self.add(&f.long_castling, Meaning::Castle(CastlingSide::QueenSide));
        self.add(&lang.moves.capture, Meaning::Capture);
        self.add(&lang.moves.to, Meaning::To);
        self.add(
            &lang.moves.short_castling,
            Meaning::Castle(CastlingSide::KingSide),
        );
        self.add(
            &lang.moves.long_castling,
            Meaning::Castle(CastlingSide::QueenSide),
        );
        self.add(&lang.moves.check, Meaning::Ignore);
        self.add(&lang.moves.mate, Meaning::Ignore);
        self.add(&lang.moves.en_passant, Meaning::Ignore);
        // "Umwandlung in {piece}": the words before the placeholder announce a promotion.
        if let Some(head) = lang.moves.promotion.split("{piece}").next() {
            let mut words = head.split_whitespace();
            if let Some(first) = words.next() {
                self.add(first, Meaning::Promote);
            }
            for filler in words {
                self.add(filler, Meaning::Filler);
            }
        }
        let u = &lang.understood;
        for (list, meaning) in [
            (&u.capture, Meaning::Capture),
            (&u.to, Meaning::To),
            (&u.promotion, Meaning::Promote),
            (&u.fillers, Meaning::Filler),
            (&u.ignored, Meaning::Ignore),
            (&u.short_castling, Meaning::Castle(CastlingSide::KingSide)),
            (&u.long_castling, Meaning::Castle(CastlingSide::QueenSide)),
            (&u.castling, Meaning::CastleEither),
        ] {
            for word in list {
                self.add(word, meaning);
            }
        }
    }

    /// The vocabulary of all languages, with `first` taking precedence where words clash.
    pub(crate) fn build<'a>(
        first: Option<&Language>,
        all: impl Iterator<Item = &'a Language>,
    ) -> Vocabulary {
        let mut v = Vocabulary {
            layers: Vec::new(),
            longest: 1,
        };
        if let Some(lang) = first {
            v.push_layer(spellings_of(lang));
            v.add_language(lang);
        }
        for lang in all {
            if first.is_some_and(|f| f.code == lang.code) {
                continue;
            }
            v.push_layer(spellings_of(lang));
            v.add_language(lang);
        }
        // Single file letters are understood in every language ("e 4").
        v.push_layer(Vec::new());
        for file in File::ALL {
            v.add(&file.char().to_string(), Meaning::File(file));
        }
        v
    }

    /// The vocabulary of every embedded language (built once), in the order of their codes.
    pub(crate) fn shared() -> &'static Vocabulary {
        static SHARED: OnceLock<Vocabulary> = OnceLock::new();
        SHARED.get_or_init(|| Vocabulary::build(None, languages()))
    }

    /// The vocabulary of every language with `lang`'s words first (built once per language):
    /// how a player of `lang` is understood.
    pub(crate) fn for_language(lang: &Language) -> &'static Vocabulary {
        static EACH: OnceLock<Vec<(String, Vocabulary)>> = OnceLock::new();
        let each = EACH.get_or_init(|| {
            languages()
                .map(|l| (l.code.clone(), Vocabulary::build(Some(l), languages())))
                .collect()
        });
        each.iter()
            .find(|(code, _)| *code == lang.code)
            .map_or_else(Vocabulary::shared, |(_, v)| v)
    }

    /// The longest phrase at the start of `words` and its meaning, with the number of words
    /// it takes; at one length, the first language's meaning.
    pub(crate) fn longest_match(&self, words: &[String]) -> Option<(Meaning, usize)> {
        let max = self.longest.min(words.len());
        (1..=max).rev().find_map(|n| {
            self.layers.iter().find_map(|layer| {
                let key = layer.key(words[..n].iter().map(String::as_str));
                layer.entries.get(&key).map(|m| (*m, n))
            })
        })
    }

    /// What one word means, in the first language that knows it.
    pub(crate) fn lookup(&self, word: &str) -> Option<Meaning> {
        self.layers
            .iter()
            .find_map(|layer| layer.entries.get(&layer.key([word])).copied())
    }
}

/// A typed answer to a yes-or-no question, in any language: a yes or no word of any table
/// ("ja", "oui", "nee"), or the first letter of one ("j", "y", "n") when no table's word of
/// the other answer begins with it. `None` for anything else.
pub fn yes_or_no(text: &str) -> Option<bool> {
    let answer = fold(text.trim().trim_end_matches(['.', '!']));
    if answer.is_empty() {
        return None;
    }
    let mut yes = false;
    let mut no = false;
    let single = answer.chars().count() == 1;
    for lang in languages() {
        let matches = |words: &[String]| {
            words.iter().any(|w| {
                let w = fold(w);
                w == answer || (single && w.starts_with(answer.as_str()))
            })
        };
        yes |= matches(&lang.commands.yes);
        no |= matches(&lang.commands.no);
    }
    match (yes, no) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

/// The known words nearest to an unknown one (a typo: one or two letters off), in the words
/// of `lang` (moves and commands), else of any language; none when nothing is near.
pub(crate) fn nearest_words(word: &str, lang: &Language) -> Vec<String> {
    let folded = fold(word);
    let lower = word.to_lowercase();
    // As typed: folding makes "aer" two letters ("är").
    let length = lower.chars().count();
    // No known word is longer than a phrase's word; a long text is no typo of one.
    if !(3..=24).contains(&length) || !folded.chars().all(char::is_alphabetic) {
        return Vec::new();
    }
    let limit = if length >= 6 { 2 } else { 1 };
    let folded_length = folded.chars().count();
    let from = |candidates: &[Candidate]| -> Vec<String> {
        let mut best: Vec<&Candidate> = Vec::new();
        let mut best_distance = limit + 1;
        for c in candidates {
            // Lengths further apart than the limit cannot be near (checked before the work).
            if c.length.abs_diff(length) > limit && c.folded_length.abs_diff(folded_length) > limit
            {
                continue;
            }
            // Folding reads "ae" as "ä": a typo that makes an "ae" (hilae for hilfe) is one
            // letter off as typed, though two once folded.
            let d = distance(&folded, &c.folded).min(distance(&lower, &c.lower));
            if d == 0 || d > limit {
                continue;
            }
            if d < best_distance {
                best_distance = d;
                best.clear();
            }
            if d == best_distance && !best.iter().any(|b| b.folded == c.folded) {
                best.push(c);
            }
        }
        best.into_iter().take(3).map(|c| c.word.clone()).collect()
    };
    let near = from(candidates(lang));
    if !near.is_empty() {
        return near;
    }
    languages()
        .filter(|other| other.code != lang.code)
        .map(|other| from(candidates(other)))
        .find(|near| !near.is_empty())
        .unwrap_or_default()
}

/// A known word as typo hints compare it: as written, folded, lowercased.
struct Candidate {
    word: String,
    folded: String,
    lower: String,
    length: usize,
    folded_length: usize,
}

/// The single words of at least three letters of `lang` that typo hints may name (built once
/// per language).
fn candidates(lang: &Language) -> &'static [Candidate] {
    static ALL: OnceLock<Vec<(String, Vec<Candidate>)>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        languages()
            .map(|l| {
                let list = known_words(l)
                    .into_iter()
                    .filter(|w| !w.contains(' ') && w.chars().count() >= 3)
                    .map(|w| {
                        let folded = fold(w);
                        let lower = w.to_lowercase();
                        Candidate {
                            word: w.clone(),
                            length: lower.chars().count(),
                            folded_length: folded.chars().count(),
                            folded,
                            lower,
                        }
                    })
                    .collect();
                (l.code.clone(), list)
            })
            .collect()
    });
    all.iter()
        .find(|(code, _)| *code == lang.code)
        .map_or(&[], |(_, list)| list.as_slice())
}

/// Every single word a player may type in `lang`: board and piece words, move words and the
/// commands.
fn known_words(lang: &Language) -> Vec<&String> {
    let u = &lang.understood;
    let mut words: Vec<&String> = lang
        .board
        .files
        .iter()
        .chain(&lang.board.ranks)
        .chain(&lang.pieces.names)
        .chain(&lang.pieces.plural)
        .chain(&lang.fide.files)
        .chain(&lang.fide.ranks)
        .chain(&lang.fide.names)
        .chain(&lang.fide.plural)
        .chain([&lang.moves.capture, &lang.moves.to])
        .collect();
    // Every command word, from the one list that reading commands uses too.
    for list in lang.command_word_lists() {
        words.extend(list);
    }
    words.extend(u.capture.iter().chain(&u.castling));
    for list in u.files.iter().chain(&u.ranks).chain(&u.pieces) {
        words.extend(list);
    }
    words
}

/// Edit distance with transpositions (optimal string alignment), on characters.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// A square in any form: "e4", "Eva vier", "eva 4", "Eva4".
pub(crate) fn parse_square(text: &str) -> Option<shakmaty::Square> {
    let (file, rank) = file_and_rank(text);
    Some(shakmaty::Square::from_coords(file?, rank?))
}

/// A file alone: "e", "Eva", "Cäsar".
pub(crate) fn parse_file(text: &str) -> Option<File> {
    match file_and_rank(text) {
        (Some(f), None) => Some(f),
        _ => None,
    }
}

/// A rank alone: "4", "vier", "four".
pub(crate) fn parse_rank(text: &str) -> Option<Rank> {
    match file_and_rank(text) {
        (None, Some(r)) => Some(r),
        _ => None,
    }
}

/// The file and rank named in a short text; anything else makes both `None`.
fn file_and_rank(text: &str) -> (Option<File>, Option<Rank>) {
    let v = Vocabulary::shared();
    let mut file = None;
    let mut rank = None;
    let mut words: Vec<String> = Vec::new();
    for raw in text.split(|c: char| c.is_whitespace() || c == ',' || c == '-') {
        let raw = raw.trim_matches(|c: char| matches!(c, '.' | '?' | '!'));
        if raw.is_empty() {
            continue;
        }
        // "e4" or "Eva4": letters then one digit.
        let split = raw
            .find(|c: char| c.is_ascii_digit())
            .filter(|&i| i > 0 && i + 1 == raw.len());
        match split {
            Some(i) => {
                words.push(raw[..i].to_string());
                words.push(raw[i..].to_string());
            }
            None => words.push(raw.to_string()),
        }
    }
    for w in &words {
        let meaning = match w.as_bytes() {
            [d @ b'1'..=b'8'] => Some(Meaning::Rank(Rank::new(u32::from(d - b'1')))),
            _ => v.lookup(w),
        };
        match meaning {
            Some(Meaning::File(f)) if file.is_none() => file = Some(f),
            Some(Meaning::Rank(r)) if rank.is_none() => rank = Some(r),
            _ => return (None, None),
        }
    }
    (file, rank)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;

    #[test]
    fn folding_makes_spellings_meet() {
        for (a, b) in [
            ("Cäsar", "Caesar"),
            ("Läufer", "Laeufer"),
            ("fünf", "fuenf"),
            ("fünf", "funf"),
            ("König", "Koenig"),
            ("schlägt", "SCHLAEGT"),
            ("große", "grosse"),
        ] {
            assert_eq!(fold(a), fold(b), "{a} {b}");
        }
    }

    /// Folding is each table's data: letters fold in every language, spellings only in their
    /// own.
    #[test]
    fn folding_follows_each_language() {
        let de = language("de").expect("de");
        let nl = language("nl").expect("nl");
        let fr = language("fr").expect("fr");
        let es = language("es").expect("es");
        for (a, b) in [
            ("Français", "francais"),
            ("Peón", "peon"),
            ("één", "een"),
            ("Héctor", "hector"),
        ] {
            assert_eq!(fold(a), b, "{a}");
            assert_eq!(fold_in(a, fr), b, "{a}");
        }
        assert_eq!(fold_in("España", es), "espana");
        // "ae" is an ä only in German words: the Dutch "koe" stays, the German "Koenig" is König.
        assert_eq!(fold_in("koe", nl), "koe");
        assert_eq!(fold_in("koe", de), "ko");
        assert_eq!(fold_in("Koenig", de), fold_in("König", de));
        // German spellings still reach German words from any player.
        let v = Vocabulary::for_language(nl);
        assert_eq!(v.lookup("Laeufer"), Some(Meaning::Piece(Role::Bishop)));
        assert_eq!(v.lookup("één"), Some(Meaning::Rank(Rank::First)));
        assert_eq!(
            Vocabulary::for_language(fr).lookup("Cesar"),
            Some(Meaning::File(File::C))
        );
    }

    /// Yes and no in every table, and their first letters.
    #[test]
    fn yes_and_no_in_every_language() {
        for yes in ["ja", "Yes", "sí", "si", "oui", "j", "y", "o"] {
            assert_eq!(yes_or_no(yes), Some(true), "{yes}");
        }
        for no in ["nein", "no", "non", "nee", "n", "NEE"] {
            assert_eq!(yes_or_no(no), Some(false), "{no}");
        }
        for neither in ["", "vielleicht", "x", "jein"] {
            assert_eq!(yes_or_no(neither), None, "{neither}");
        }
        for lang in languages() {
            for w in &lang.commands.yes {
                assert_eq!(yes_or_no(w), Some(true), "{}: {w}", lang.code);
            }
            for w in &lang.commands.no {
                assert_eq!(yes_or_no(w), Some(false), "{}: {w}", lang.code);
            }
        }
    }

    #[test]
    fn no_word_means_two_things_across_languages() {
        // Build each language alone and compare with the shared vocabulary.
        let shared = Vocabulary::shared();
        let mut clashes = Vec::new();
        for lang in languages() {
            let alone = Vocabulary::build(Some(lang), std::iter::empty());
            for (word, meaning) in &alone.layers[0].entries {
                if shared.lookup(word) != Some(*meaning) {
                    clashes.push(format!("{}: {word:?} {meaning:?}", lang.code));
                }
            }
        }
        assert!(clashes.is_empty(), "{}", clashes.join("\n"));
    }

    #[test]
    fn squares_files_and_ranks_in_any_form() {
        use shakmaty::Square;
        for t in ["e4", "E4", "Eva vier", "eva 4", "Eva4", "eva four"] {
            assert_eq!(parse_square(t), Some(Square::E4), "{t}");
        }
        assert_eq!(parse_square("Cäsar acht"), Some(Square::C8));
        assert_eq!(parse_square("zwölf"), None);
        assert_eq!(parse_square("e"), None);
        assert_eq!(parse_file("Eva"), Some(File::E));
        assert_eq!(parse_file("h"), Some(File::H));
        assert_eq!(parse_rank("4"), Some(Rank::Fourth));
        assert_eq!(parse_rank("acht"), Some(Rank::Eighth));
        assert_eq!(parse_rank("e4"), None);
    }

    #[test]
    fn phrases_match_longest_first() {
        let v = Vocabulary::shared();
        let words: Vec<String> = ["kurze", "rochade", "schach"]
            .iter()
            .map(|w| fold(w))
            .collect();
        assert_eq!(
            v.longest_match(&words),
            Some((Meaning::Castle(CastlingSide::KingSide), 2))
        );
        let words: Vec<String> = ["en", "passant"].iter().map(|w| fold(w)).collect();
        assert_eq!(v.longest_match(&words), Some((Meaning::Ignore, 2)));
    }

    use crate::matchplay::command::read_line;

    /// The typos players made of the newer words: each is named with its command.
    #[test]
    fn typos_of_the_newer_commands_name_them() {
        let de = language("de").expect("de");
        let en = language("en").expect("en");
        for (typo, lang, expected) in [
            ("zurücknemen", de, "zurücknehmen"),
            ("takebak", en, "takeback"),
            ("tip", de, "tipp"),
            ("bewerten", de, "bewertung"),
            ("threat", en, "threats"),
            ("drohung", de, "drohungen"),
            ("revanch", de, "revanche"),
            ("geschlagn", de, "geschlagen"),
        ] {
            assert_eq!(nearest_words(typo, lang), [expected], "{typo}");
        }
    }

    /// Every command word of both languages, with any one letter left out, doubled, swapped
    /// with the next, or replaced, is named with a word of its own command (and a word as
    /// near beside it); a typo that is itself a known word, or shorter than three letters, is
    /// no typo to name.
    #[test]
    fn every_command_word_with_one_letter_wrong_is_named() {
        let shared = Vocabulary::shared();
        let commands: std::collections::HashSet<String> = languages()
            .flat_map(|l| l.command_word_lists())
            .flatten()
            .map(|c| fold(c))
            .collect();
        let known = |w: &str| {
            let w = fold(w);
            shared.lookup(&w).is_some() || commands.contains(&w)
        };
        let mut failures = Vec::new();
        for lang in languages() {
            for list in lang.command_word_lists() {
                let own: Vec<String> = list.iter().map(|w| fold(w)).collect();
                for word in list.iter().filter(|w| !w.contains(' ')) {
                    let chars: Vec<char> = word.chars().collect();
                    if chars.len() < 3 || !chars.iter().all(|c| c.is_alphabetic()) {
                        continue;
                    }
                    for typo in one_letter_wrong(&chars) {
                        if typo.chars().count() < 3 || known(&typo) {
                            continue;
                        }
                        let near = nearest_words(&typo, lang);
                        // A word of the same command, in either language ("list" for
                        // "liste"); another word as near is named beside it.
                        let command = read_line(word);
                        let ours = near
                            .iter()
                            .any(|n| own.contains(&fold(n)) || read_line(n) == command);
                        if !ours {
                            failures.push(format!("{}: {typo} -> {near:?} ({word})", lang.code));
                        }
                    }
                }
            }
        }
        assert!(
            failures.is_empty(),
            "{} typos:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }

    /// One letter left out, doubled, swapped with the next, or replaced by a near vowel or
    /// a letter next to it on the keyboard.
    fn one_letter_wrong(chars: &[char]) -> Vec<String> {
        let mut out = Vec::new();
        let word = |v: Vec<char>| v.into_iter().collect::<String>();
        for i in 0..chars.len() {
            let mut v = chars.to_vec();
            v.remove(i);
            out.push(word(v));
            let mut v = chars.to_vec();
            v.insert(i, chars[i]);
            out.push(word(v));
            if i + 1 < chars.len() {
                let mut v = chars.to_vec();
                v.swap(i, i + 1);
                out.push(word(v));
            }
            for c in ['a', 'e', 'u', 'x', 'n'] {
                if c != chars[i] {
                    let mut v = chars.to_vec();
                    v[i] = c;
                    out.push(word(v));
                }
            }
        }
        out
    }
}
