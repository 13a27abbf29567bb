//! The words of a language as a recogniser hears them: every word of the move phrases, the
//! spoken commands and the answers, from the language table, each spelled as the
//! pronunciation dictionary has it.
//!
//! A grammar is made of these tokens, and what the recogniser returns is made of them too: it
//! goes to the move parser as it is (the parser reads "caesar", "fuenf" and "laeufer" as
//! "Cäsar", "fünf" and "Läufer").

use shakmaty::Role;

use crate::notation::language::{Language, TABLE_ROLES, role_index};

/// The commands that can be spoken: the questions a blind player asks most during a game, the
/// opening explorer, and the ones that end it or offer a draw (each of these asks or is
/// recorded, so a command heard wrongly costs a question, never a move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VoiceCommand {
    Help,
    Board,
    Clock,
    Turn,
    Material,
    Repeat,
    Offer,
    Resign,
    Quit,
    Explorer,
}

impl VoiceCommand {
    pub const ALL: [VoiceCommand; 10] = [
        VoiceCommand::Help,
        VoiceCommand::Board,
        VoiceCommand::Clock,
        VoiceCommand::Turn,
        VoiceCommand::Material,
        VoiceCommand::Repeat,
        VoiceCommand::Offer,
        VoiceCommand::Resign,
        VoiceCommand::Quit,
        VoiceCommand::Explorer,
    ];

    /// The command as the player would type it: the first word of its list in the table.
    pub fn typed(self, lang: &Language) -> &str {
        let c = &lang.commands;
        let list = match self {
            VoiceCommand::Help => &c.help,
            VoiceCommand::Board => &c.board,
            VoiceCommand::Clock => &c.clock,
            VoiceCommand::Turn => &c.turn,
            VoiceCommand::Material => &c.material,
            VoiceCommand::Repeat => &c.repeat,
            VoiceCommand::Offer => &c.offer,
            VoiceCommand::Resign => &c.resign,
            VoiceCommand::Quit => &c.quit,
            VoiceCommand::Explorer => &lang.explorer.words,
        };
        list.first().map_or("", String::as_str)
    }
}

/// A word of the table written as a grammar token: lower case, umlauts written out (ä → ae,
/// ß → ss), punctuation dropped. The spelling of hector's own dictionaries.
pub(crate) fn written_out(word: &str) -> String {
    let mut out = String::with_capacity(word.len() + 2);
    for c in word.chars() {
        match c {
            'ä' | 'Ä' => out.push_str("ae"),
            'ö' | 'Ö' => out.push_str("oe"),
            'ü' | 'Ü' => out.push_str("ue"),
            'ß' => out.push_str("ss"),
            c if c.is_alphanumeric() || c == '\'' => out.extend(c.to_lowercase()),
            _ => {}
        }
    }
    out
}

/// The ways a word of the table may be spelled in a dictionary, hector's first: written out
/// ("fuenf"), then in lower case as written ("fünf", as a German model's dictionary has it).
pub(crate) fn spellings(word: &str) -> Vec<String> {
    let mut out = vec![written_out(word)];
    let lower: String = word
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '\'')
        .flat_map(char::to_lowercase)
        .collect();
    if !out.contains(&lower) {
        out.push(lower);
    }
    out.retain(|s| !s.is_empty());
    out
}

/// A phrase of the table ("Kurze Rochade", "Umwandlung in {piece}") as its words.
fn table_words(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty() && !w.contains('{'))
        .collect()
}

/// The grammar's words of one language, each a phrase of tokens joined by single spaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tokens {
    pub(crate) files: [String; 8],
    pub(crate) ranks: [String; 8],
    /// King, queen, rook, bishop, knight, pawn (the tables' order).
    pub(crate) pieces: [String; 6],
    pub(crate) capture: String,
    pub(crate) to: String,
    pub(crate) check: String,
    pub(crate) mate: String,
    /// The words before the piece of a promotion ("umwandlung in").
    pub(crate) promotion: String,
    /// The words after it, in a language that puts some there.
    pub(crate) promotion_after: String,
    pub(crate) en_passant: String,
    pub(crate) short_castling: String,
    pub(crate) long_castling: String,
    pub(crate) commands: Vec<(VoiceCommand, String)>,
    pub yes: String,
    pub no: String,
    /// The word that takes the second move of a two-move question ("zweitens").
    pub second: String,
    /// File, rank and piece words the recogniser mistakes for each other ([`super::near`]).
    pub(crate) near: Vec<(String, String)>,
    /// Commands the recogniser hears for a move phrase, with the phrase ([`super::near`]).
    pub(crate) command_near: Vec<(VoiceCommand, String)>,
}

/// Words of the table that the dictionary does not have, in hector's spelling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unknown(pub Vec<String>);

impl Tokens {
    /// The tokens of `lang`, each word spelled the first way `known` accepts (see
    /// [`spellings`]); the words it accepts in no spelling are returned instead.
    pub fn spelled(lang: &Language, known: impl Fn(&str) -> bool) -> Result<Tokens, Unknown> {
        Tokens::chosen(lang, |options| options.iter().find(|s| known(s)).cloned())
    }

    /// The tokens of `lang`, each word spelled as `choose` picks from its [`spellings`]; the
    /// words it finds no spelling for are returned instead.
    pub(crate) fn chosen(
        lang: &Language,
        choose: impl Fn(&[String]) -> Option<String>,
    ) -> Result<Tokens, Unknown> {
        let mut unknown: Vec<String> = Vec::new();
        let mut phrase = |text: &str| -> String {
            let mut out: Vec<String> = Vec::new();
            for w in table_words(text) {
                let options = spellings(w);
                match choose(&options) {
                    Some(s) => out.push(s),
                    None => {
                        let hector = options.first().cloned().unwrap_or_default();
                        if !unknown.contains(&hector) {
                            unknown.push(hector.clone());
                        }
                        out.push(hector);
                    }
                }
            }
            out.join(" ")
        };
        let files = lang.board.files.clone().map(|w| phrase(&w));
        let ranks = lang.board.ranks.clone().map(|w| phrase(&w));
        let pieces = TABLE_ROLES.map(|r| phrase(&lang.pieces.names[role_index(r)]));
        let near = super::near::pairs(&lang.code, &files, &ranks, &pieces);
        let m = &lang.moves;
        let (before, after) = m
            .promotion
            .split_once("{piece}")
            .unwrap_or((&m.promotion, ""));
        let tokens = Tokens {
            files,
            ranks,
            pieces,
            capture: phrase(&m.capture),
            to: phrase(&m.to),
            check: phrase(&m.check),
            mate: phrase(&m.mate),
            promotion: phrase(before),
            promotion_after: phrase(after),
            en_passant: phrase(&m.en_passant),
            short_castling: phrase(&m.short_castling),
            long_castling: phrase(&m.long_castling),
            commands: VoiceCommand::ALL
                .iter()
                .map(|&c| (c, phrase(c.typed(lang))))
                .collect(),
            yes: phrase(lang.commands.yes.first().map_or("", String::as_str)),
            no: phrase(lang.commands.no.first().map_or("", String::as_str)),
            second: phrase(lang.voice.second.first().map_or("", String::as_str)),
            near,
            command_near: Vec::new(),
        };
        let mut tokens = tokens;
        tokens.command_near = {
            let words = tokens.move_words();
            super::near::command_phrases(&lang.code, &tokens.commands, &words)
        };
        if unknown.is_empty() {
            Ok(tokens)
        } else {
            Err(Unknown(unknown))
        }
    }

    pub(crate) fn piece(&self, role: Role) -> &str {
        &self.pieces[role_index(role)]
    }

    /// The command these tokens say, if they are one.
    pub(crate) fn command(&self, words: &str) -> Option<VoiceCommand> {
        self.commands
            .iter()
            .find(|(_, w)| w == words)
            .map(|(c, _)| *c)
    }

    /// Every word of the move phrases, each once.
    pub(crate) fn move_words(&self) -> Vec<&str> {
        let mut out = Vec::new();
        add_words(
            &mut out,
            self.files
                .iter()
                .chain(&self.ranks)
                .chain(&self.pieces)
                .chain([
                    &self.capture,
                    &self.to,
                    &self.check,
                    &self.mate,
                    &self.promotion,
                    &self.promotion_after,
                    &self.en_passant,
                    &self.short_castling,
                    &self.long_castling,
                ]),
        );
        out
    }

    /// Every token, each once (what the dictionary must know): the move words, then the
    /// answers' and the commands'.
    #[cfg(test)]
    pub(crate) fn words(&self) -> Vec<&str> {
        let mut out = self.move_words();
        add_words(
            &mut out,
            [&self.yes, &self.no, &self.second]
                .into_iter()
                .chain(self.commands.iter().map(|(_, w)| w)),
        );
        out
    }
}

/// Adds each word of `phrases` to `out` that is not there yet, in order.
fn add_words<'a>(out: &mut Vec<&'a str>, phrases: impl IntoIterator<Item = &'a String>) {
    for phrase in phrases {
        for w in phrase.split(' ').filter(|w| !w.is_empty()) {
            if !out.contains(&w) {
                out.push(w);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;

    #[test]
    fn german_words_are_written_out() {
        let de = language("de").expect("de");
        let t = Tokens::spelled(de, |_| true).expect("every word known");
        assert_eq!(t.files[2], "caesar");
        assert_eq!(t.ranks[4], "fuenf");
        assert_eq!(t.piece(Role::Bishop), "laeufer");
        assert_eq!(t.capture, "schlaegt");
        assert_eq!(t.promotion, "umwandlung in");
        assert_eq!(t.promotion_after, "");
        assert_eq!(t.short_castling, "kurze rochade");
        assert_eq!(t.yes, "ja");
        assert_eq!(t.command("uhr"), Some(VoiceCommand::Clock));
        assert_eq!(t.command("ende"), Some(VoiceCommand::Quit));
        assert_eq!(t.command("explorer"), Some(VoiceCommand::Explorer));
    }

    /// The explorer's spoken word is the one typed, in every language.
    #[test]
    fn the_explorer_is_said_with_its_typed_word() {
        for (code, word) in [
            ("de", "explorer"),
            ("en", "explorer"),
            ("es", "explorador"),
            ("fr", "explorateur"),
            ("nl", "verkenner"),
        ] {
            let lang = language(code).expect("table");
            assert_eq!(VoiceCommand::Explorer.typed(lang), word, "{code}");
            let t = Tokens::spelled(lang, |_| true).expect("tokens");
            assert_eq!(t.command(word), Some(VoiceCommand::Explorer), "{code}");
        }
    }

    #[test]
    fn a_dictionary_may_spell_as_written() {
        let de = language("de").expect("de");
        let t = Tokens::spelled(de, |w| !matches!(w, "fuenf" | "laeufer")).expect("known");
        assert_eq!(t.ranks[4], "fünf");
        assert_eq!(t.piece(Role::Bishop), "läufer");
        assert_eq!(t.files[2], "caesar");
    }

    #[test]
    fn unknown_words_are_named_once_in_hectors_spelling() {
        let en = language("en").expect("en");
        let err = Tokens::spelled(en, |w| w != "cesar" && w != "takes").expect_err("unknown");
        assert_eq!(err, Unknown(vec!["cesar".into(), "takes".into()]));
    }

    #[test]
    fn spellings_of_a_word() {
        assert_eq!(spellings("Cäsar"), vec!["caesar", "cäsar"]);
        assert_eq!(spellings("Eva"), vec!["eva"]);
        assert_eq!(written_out("Schachmatt,"), "schachmatt");
    }
}
