//! What a typed line means in a game: a command (a question about the position, a draw offer,
//! resigning, …) or a move. The first word decides; command words come from every language
//! table, so a player may ask in German or English whatever language hector speaks.

use std::collections::HashMap;
use std::sync::OnceLock;

use shakmaty::{Color, Role, Square};

use super::question::Question;
use crate::machine::SpeechControl;
use crate::notation::language::{CommandWords, ReviewWords, WalkWords, languages};
use crate::notation::vocabulary::{
    Meaning, Vocabulary, fold, parse_file, parse_rank, parse_square,
};

/// A command of `hector play`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    /// A question about the position or the game, changing nothing; the questions are
    /// listed once, in [`Question`].
    Ask(Question),
    /// Both times and the move count (Appendix D9d: only on request).
    Clock,
    Repeat,
    Offer,
    Accept,
    Decline,
    /// 9.2 or 9.3, with the move written down and declared (9.2a, 9.3a) or without.
    Claim(Option<String>),
    Resign,
    Save(Option<String>),
    Quit,
    New,
    Silence,
    Mute,
    Unmute,
    Faster,
    Slower,
    /// The answer to a question hector asked (resigning, quitting).
    Yes,
    No,
    /// Looking back: the position after move `number`, Black's unless `color` says White
    /// (`None`: the number is missing).
    Review {
        number: Option<u32>,
        color: Option<Color>,
    },
    /// Looking back: one half-move on, one back, or the current position again.
    ReviewNext,
    ReviewPrevious,
    ReviewCurrent,
    /// The walk through an analysed game: the next inaccuracy, mistake or blunder; the
    /// engine's better line from the position looked at; back from that line to the game.
    Mistakes,
    Better,
    Back,
    /// Open the analysis of the finished game.
    Analyse,
    /// Space on the board (full screen): pick up the piece on this square, or play the
    /// picked piece to it.
    Select(Square),
    /// Escape on the board: the picked piece is put down.
    PutDown,
    /// Take back the player's last move (and the reply to it).
    Takeback,
    /// Abandon the game before both sides have moved: no result.
    Abort,
    /// A new game after this one, colours swapped.
    Rematch,
    /// In a game against the computer: how the position stands (bewertung, eval).
    Eval,
    /// In a game against the computer: the engine's move for the player (tipp, hint).
    Hint,
    /// Who the opponent is.
    Opponent,
    /// The opening explorer: the moves most played from the position looked at.
    Explore,
}

impl Command {
    /// The question this command asks, if it is one.
    pub(crate) fn question(&self) -> Option<&Question> {
        match self {
            Command::Ask(question) => Some(question),
            _ => None,
        }
    }

    /// Whether it looks back at an earlier position of the game (changing nothing either).
    pub(crate) fn looks_back(&self) -> bool {
        matches!(
            self,
            Command::Review { .. }
                | Command::ReviewNext
                | Command::ReviewPrevious
                | Command::ReviewCurrent
        )
    }

    /// The speech's control this command is, if it is one (every mode takes them).
    pub(crate) fn speech(&self) -> Option<SpeechControl> {
        Some(match self {
            Command::Repeat => SpeechControl::Repeat,
            Command::Silence => SpeechControl::Silence,
            Command::Mute => SpeechControl::Mute,
            Command::Unmute => SpeechControl::Unmute,
            Command::Faster => SpeechControl::Faster,
            Command::Slower => SpeechControl::Slower,
            _ => return None,
        })
    }
}

/// A typed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Empty,
    Command(Command),
    /// Anything else is a move, for the notation parser.
    Move(String),
}

/// A command with a missing or unreadable argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The command needs a square, e.g. "feld e4"; the text given that is none.
    NeedsSquare(Option<String>),
    /// A file (a letter or its word), e.g. "linie e"; the text given that is none.
    NeedsFile(Option<String>),
    /// A rank (a number), e.g. "reihe 4"; the text given that is none.
    NeedsRank(Option<String>),
    /// An argument that is not understood.
    Unknown(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Word {
    Help,
    Board,
    Pieces,
    Square,
    Rank,
    File,
    Diagonal,
    Attacks,
    Moves,
    Last,
    Turn,
    Material,
    List,
    Clock,
    Repeat,
    Offer,
    Accept,
    Decline,
    Claim,
    Resign,
    Save,
    Quit,
    New,
    Silence,
    Mute,
    Unmute,
    Faster,
    Slower,
    White,
    Black,
    Yes,
    No,
    Opening,
    ReviewPosition,
    ReviewNext,
    ReviewPrevious,
    ReviewCurrent,
    Mistakes,
    Better,
    Back,
    Analyse,
    Takeback,
    Abort,
    Rematch,
    Captured,
    Dangers,
    Eval,
    Hint,
    Captures,
    Opponent,
    Explore,
}

/// The words of looking back, in their own table.
fn review_table(r: &ReviewWords) -> [(&Vec<String>, Word); 4] {
    [
        (&r.position, Word::ReviewPosition),
        (&r.next, Word::ReviewNext),
        (&r.previous, Word::ReviewPrevious),
        (&r.current, Word::ReviewCurrent),
    ]
}

/// The words of the walk through an analysed game.
fn walk_table(w: &WalkWords) -> [(&Vec<String>, Word); 4] {
    [
        (&w.mistakes, Word::Mistakes),
        (&w.better, Word::Better),
        (&w.back, Word::Back),
        (&w.analyse, Word::Analyse),
    ]
}

fn table(c: &CommandWords) -> [(&Vec<String>, Word); 40] {
    [
        (&c.help, Word::Help),
        (&c.board, Word::Board),
        (&c.pieces, Word::Pieces),
        (&c.square, Word::Square),
        (&c.rank, Word::Rank),
        (&c.file, Word::File),
        (&c.diagonal, Word::Diagonal),
        (&c.attacks, Word::Attacks),
        (&c.moves, Word::Moves),
        (&c.last, Word::Last),
        (&c.turn, Word::Turn),
        (&c.material, Word::Material),
        (&c.list, Word::List),
        (&c.clock, Word::Clock),
        (&c.repeat, Word::Repeat),
        (&c.offer, Word::Offer),
        (&c.accept, Word::Accept),
        (&c.decline, Word::Decline),
        (&c.claim, Word::Claim),
        (&c.resign, Word::Resign),
        (&c.save, Word::Save),
        (&c.quit, Word::Quit),
        (&c.new, Word::New),
        (&c.silence, Word::Silence),
        (&c.mute, Word::Mute),
        (&c.unmute, Word::Unmute),
        (&c.faster, Word::Faster),
        (&c.slower, Word::Slower),
        (&c.white, Word::White),
        (&c.black, Word::Black),
        (&c.yes, Word::Yes),
        (&c.no, Word::No),
        (&c.opening, Word::Opening),
        (&c.takeback, Word::Takeback),
        (&c.abort, Word::Abort),
        (&c.rematch, Word::Rematch),
        (&c.captured, Word::Captured),
        (&c.threats, Word::Dangers),
        (&c.captures, Word::Captures),
        (&c.opponent, Word::Opponent),
    ]
}

fn words() -> &'static HashMap<String, Word> {
    static WORDS: OnceLock<HashMap<String, Word>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut map = HashMap::new();
        for lang in languages() {
            let review = review_table(&lang.review);
            let walk = walk_table(&lang.walk);
            for (list, word) in table(&lang.commands).into_iter().chain(review).chain(walk) {
                for w in list {
                    map.entry(fold(w)).or_insert(word);
                }
            }
            let advice = [
                (&lang.analysis.words_eval, Word::Eval),
                (&lang.analysis.words_hint, Word::Hint),
            ];
            let explorer = (&lang.explorer.words, Word::Explore);
            for (list, word) in advice.into_iter().chain([explorer]) {
                for w in list {
                    map.entry(fold(w)).or_insert(word);
                }
            }
        }
        map
    })
}

fn word(text: &str) -> Option<Word> {
    words().get(&fold(text)).copied()
}

/// Reads a typed line.
pub fn read_line(text: &str) -> Result<Line, CommandError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Line::Empty);
    }
    let (first, rest) = match text.split_once(char::is_whitespace) {
        Some((f, r)) => (f, r.trim()),
        None => (text, ""),
    };
    let first_clean = first.trim_end_matches(['?', '!', '.', ':']);
    let Some(w) = word(first_clean).or_else(|| (first == "?").then_some(Word::Help)) else {
        return Ok(Line::Move(text.to_string()));
    };
    let given = || (!rest.is_empty()).then(|| rest.to_string());
    let square = || parse_square(rest).ok_or_else(|| CommandError::NeedsSquare(given()));
    let command = match w {
        Word::Help => Command::Help,
        Word::Board => Command::Ask(Question::Board),
        Word::Pieces => pieces(rest)?,
        Word::Square => Command::Ask(Question::Square(square()?)),
        Word::Rank => Command::Ask(Question::Rank(
            parse_rank(rest).ok_or_else(|| CommandError::NeedsRank(given()))?,
        )),
        Word::File => Command::Ask(Question::File(
            parse_file(rest).ok_or_else(|| CommandError::NeedsFile(given()))?,
        )),
        Word::Diagonal => Command::Ask(Question::Diagonal(square()?)),
        Word::Attacks if rest.is_empty() => Command::Ask(Question::Threats),
        Word::Attacks => Command::Ask(Question::Attacks(square()?)),
        Word::Moves if rest.is_empty() => Command::Ask(Question::Moves(None)),
        // "züge Springer": every knight's moves.
        Word::Moves => match piece_word(rest) {
            Some(role) => Command::Ask(Question::PieceMoves(role)),
            None => Command::Ask(Question::Moves(Some(square()?))),
        },
        Word::Last => Command::Ask(Question::Last),
        Word::Turn => Command::Ask(Question::Turn),
        Word::Material => Command::Ask(Question::Material),
        Word::List if rest.is_empty() => Command::Ask(Question::List(None)),
        Word::List => Command::Ask(Question::List(Some(
            rest.trim_end_matches('.')
                .parse()
                .map_err(|_| CommandError::Unknown(rest.to_string()))?,
        ))),
        Word::Clock => Command::Clock,
        Word::Repeat => Command::Repeat,
        // "remis annehmen", "draw accept": the second word decides.
        Word::Offer => match word(rest) {
            Some(Word::Accept) => Command::Accept,
            Some(Word::Decline) => Command::Decline,
            _ if rest.is_empty() => Command::Offer,
            _ => return Err(CommandError::Unknown(rest.to_string())),
        },
        Word::Accept => Command::Accept,
        Word::Decline => Command::Decline,
        Word::Claim => Command::Claim((!rest.is_empty()).then(|| rest.to_string())),
        Word::Resign => Command::Resign,
        Word::Save => Command::Save((!rest.is_empty()).then(|| rest.to_string())),
        Word::Quit => Command::Quit,
        Word::New => Command::New,
        Word::Silence => Command::Silence,
        Word::Mute => Command::Mute,
        Word::Unmute => Command::Unmute,
        Word::Faster => Command::Faster,
        Word::Slower => Command::Slower,
        Word::Yes => Command::Yes,
        Word::No => Command::No,
        Word::Opening => Command::Ask(Question::Opening),
        Word::Takeback => Command::Takeback,
        Word::Abort => Command::Abort,
        Word::Rematch => Command::Rematch,
        Word::Captured => Command::Ask(Question::Captured),
        Word::Dangers => Command::Ask(Question::Dangers),
        Word::Eval => Command::Eval,
        Word::Hint => Command::Hint,
        Word::Captures if rest.is_empty() => Command::Ask(Question::Captures(None)),
        Word::Captures => Command::Ask(Question::Captures(Some(square()?))),
        Word::Opponent => Command::Opponent,
        Word::Explore => Command::Explore,
        // "weiß" or "schwarz" alone: that side's pieces.
        Word::White | Word::Black => pieces(text)?,
        Word::ReviewPosition => review(rest)?,
        Word::ReviewNext => Command::ReviewNext,
        Word::ReviewPrevious => Command::ReviewPrevious,
        Word::ReviewCurrent => Command::ReviewCurrent,
        Word::Mistakes => Command::Mistakes,
        Word::Better => Command::Better,
        Word::Back => Command::Back,
        Word::Analyse => Command::Analyse,
    };
    Ok(Line::Command(command))
}

/// "stellung 12", "position 12 white", "stellung 12. weiß".
fn review(rest: &str) -> Result<Command, CommandError> {
    let mut words = rest.split_whitespace();
    let number = match words.next() {
        None => None,
        Some(n) => Some(
            n.trim_end_matches('.')
                .parse()
                .map_err(|_| CommandError::Unknown(n.to_string()))?,
        ),
    };
    let color = match words.next() {
        None => None,
        Some(w) => match word(w.trim_end_matches(['.', ',', '?'])) {
            Some(Word::White) => Some(Color::White),
            Some(Word::Black) => Some(Color::Black),
            _ => return Err(CommandError::Unknown(w.to_string())),
        },
    };
    if let Some(extra) = words.next() {
        return Err(CommandError::Unknown(extra.to_string()));
    }
    Ok(Command::Review { number, color })
}

/// A piece named alone ("Springer", "knights").
fn piece_word(text: &str) -> Option<Role> {
    let text = text.trim_matches(|c: char| matches!(c, '?' | '!' | '.' | ','));
    match Vocabulary::shared().lookup(text) {
        Some(Meaning::Piece(role)) => Some(role),
        _ => None,
    }
}

/// "figuren", "figuren weiß", "wo sind die schwarzen Türme", "where are the white knights".
fn pieces(rest: &str) -> Result<Command, CommandError> {
    let v = Vocabulary::shared();
    let mut color = None;
    let mut role = None;
    for raw in rest.split_whitespace() {
        let raw = raw.trim_matches(|c: char| matches!(c, '?' | '!' | '.' | ','));
        match (word(raw), v.lookup(raw)) {
            (Some(Word::White), _) => color = Some(Color::White),
            (Some(Word::Black), _) => color = Some(Color::Black),
            // "weiße Figuren": the command word after the colour.
            (Some(Word::Pieces), _) => {}
            (_, Some(Meaning::Piece(r))) => role = Some(r),
            // Small words of the question: "sind", "die", "are", "the".
            _ if raw.len() <= 4 => {}
            _ => return Err(CommandError::Unknown(raw.to_string())),
        }
    }
    Ok(Command::Ask(Question::Pieces { color, role }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{File, Rank};

    fn cmd(text: &str) -> Command {
        match read_line(text) {
            Ok(Line::Command(c)) => c,
            other => panic!("{text:?}: {other:?}"),
        }
    }

    #[test]
    fn commands_in_both_languages() {
        assert_eq!(cmd("hilfe"), Command::Help);
        assert_eq!(cmd("Help"), Command::Help);
        assert_eq!(cmd("?"), Command::Help);
        assert_eq!(cmd("brett"), Command::Ask(Question::Board));
        assert_eq!(cmd("feld e4"), Command::Ask(Question::Square(Square::E4)));
        assert_eq!(
            cmd("square Eva four"),
            Command::Ask(Question::Square(Square::E4))
        );
        assert_eq!(cmd("reihe 4"), Command::Ask(Question::Rank(Rank::Fourth)));
        assert_eq!(
            cmd("rank eight"),
            Command::Ask(Question::Rank(Rank::Eighth))
        );
        assert_eq!(cmd("linie Eva"), Command::Ask(Question::File(File::E)));
        assert_eq!(
            cmd("diagonale c1"),
            Command::Ask(Question::Diagonal(Square::C1))
        );
        assert_eq!(
            cmd("angriff Felix sieben"),
            Command::Ask(Question::Attacks(Square::F7))
        );
        assert_eq!(
            cmd("züge g1"),
            Command::Ask(Question::Moves(Some(Square::G1)))
        );
        assert_eq!(cmd("zuege"), Command::Ask(Question::Moves(None)));
        assert_eq!(cmd("moves"), Command::Ask(Question::Moves(None)));
        assert_eq!(cmd("liste 10"), Command::Ask(Question::List(Some(10))));
        assert_eq!(cmd("list"), Command::Ask(Question::List(None)));
        assert_eq!(cmd("uhr"), Command::Clock);
        assert_eq!(cmd("remis"), Command::Offer);
        assert_eq!(cmd("remis annehmen"), Command::Accept);
        assert_eq!(cmd("draw decline"), Command::Decline);
        assert_eq!(cmd("reklamieren"), Command::Claim(None));
        assert_eq!(cmd("claim Nf3"), Command::Claim(Some("Nf3".into())));
        assert_eq!(
            cmd("speichern /tmp/partie.pgn"),
            Command::Save(Some("/tmp/partie.pgn".into()))
        );
        assert_eq!(cmd("aufgeben"), Command::Resign);
        assert_eq!(cmd("Ende"), Command::Quit);
        assert_eq!(cmd("eröffnung"), Command::Ask(Question::Opening));
        assert_eq!(cmd("Eroeffnung?"), Command::Ask(Question::Opening));
        assert_eq!(cmd("opening"), Command::Ask(Question::Opening));
    }

    /// Every command word of every language's table reads as its own command: no word of a
    /// later table is taken by another command of an earlier one.
    #[test]
    fn every_command_word_of_every_language_is_its_command() {
        let mut clashes = Vec::new();
        for lang in languages() {
            let review = review_table(&lang.review);
            for (list, expected) in table(&lang.commands).into_iter().chain(review) {
                for w in list {
                    if word(w) != Some(expected) {
                        clashes.push(format!("{}: {w} is {:?}", lang.code, word(w)));
                    }
                }
            }
        }
        assert!(clashes.is_empty(), "{}", clashes.join("\n"));
    }

    #[test]
    fn takeback_abort_rematch_captured_threats() {
        assert_eq!(cmd("zurücknehmen"), Command::Takeback);
        assert_eq!(cmd("Zuruecknehmen"), Command::Takeback);
        assert_eq!(cmd("takeback"), Command::Takeback);
        assert_eq!(cmd("abbrechen"), Command::Abort);
        assert_eq!(cmd("abort"), Command::Abort);
        assert_eq!(cmd("revanche"), Command::Rematch);
        assert_eq!(cmd("rematch"), Command::Rematch);
        assert_eq!(cmd("geschlagen"), Command::Ask(Question::Captured));
        assert_eq!(cmd("captured"), Command::Ask(Question::Captured));
        assert_eq!(cmd("drohungen"), Command::Ask(Question::Dangers));
        assert_eq!(cmd("threats"), Command::Ask(Question::Dangers));
        // The bare attack question keeps its own answer.
        assert_eq!(cmd("angriff"), Command::Ask(Question::Threats));
    }

    /// `hilfe` names every command by its first word, in each language: those of
    /// `[commands]`, of looking back and of the computer's advice (the session answers
    /// `hilfe` with the play help and the looking-back help).
    #[test]
    fn the_help_lists_every_command() {
        for lang in languages() {
            let help = fold(&format!(
                "{} {} {}",
                lang.play.help,
                lang.review.help,
                crate::notation::language::fill(
                    &lang.walk.help,
                    &crate::matchplay::help::command_words(lang)
                )
            ));
            let advice = [
                (&lang.analysis.words_eval, Word::Eval),
                (&lang.analysis.words_hint, Word::Hint),
            ];
            let all = table(&lang.commands)
                .into_iter()
                .chain(review_table(&lang.review))
                .chain(walk_table(&lang.walk))
                .chain(advice);
            for (list, word) in all {
                if matches!(word, Word::White | Word::Black | Word::Yes | Word::No) {
                    continue;
                }
                let first = list.first().map(|w| fold(w)).unwrap_or_default();
                assert!(help.contains(&first), "{}: {first}", lang.code);
            }
        }
    }

    #[test]
    fn where_are_the_pieces() {
        assert_eq!(
            cmd("wo sind die schwarzen Türme"),
            Command::Ask(Question::Pieces {
                color: Some(Color::Black),
                role: Some(Role::Rook)
            })
        );
        assert_eq!(
            cmd("where are the white knights?"),
            Command::Ask(Question::Pieces {
                color: Some(Color::White),
                role: Some(Role::Knight)
            })
        );
        assert_eq!(
            cmd("figuren"),
            Command::Ask(Question::Pieces {
                color: None,
                role: None
            })
        );
        assert_eq!(
            cmd("weiß"),
            Command::Ask(Question::Pieces {
                color: Some(Color::White),
                role: None
            })
        );
        assert_eq!(
            cmd("figuren Läufer"),
            Command::Ask(Question::Pieces {
                color: None,
                role: Some(Role::Bishop)
            })
        );
    }

    #[test]
    fn threats_piece_moves_and_colour_first() {
        assert_eq!(cmd("angriff"), Command::Ask(Question::Threats));
        assert_eq!(cmd("attacks"), Command::Ask(Question::Threats));
        assert_eq!(
            cmd("züge Springer"),
            Command::Ask(Question::PieceMoves(Role::Knight))
        );
        assert_eq!(
            cmd("moves knights"),
            Command::Ask(Question::PieceMoves(Role::Knight))
        );
        assert_eq!(
            cmd("züge Läufer"),
            Command::Ask(Question::PieceMoves(Role::Bishop))
        );
        assert_eq!(
            cmd("weiße figuren"),
            Command::Ask(Question::Pieces {
                color: Some(Color::White),
                role: None
            })
        );
        assert_eq!(
            cmd("wo ist der weiße König"),
            Command::Ask(Question::Pieces {
                color: Some(Color::White),
                role: Some(Role::King)
            })
        );
    }

    #[test]
    fn looking_back_in_both_languages() {
        let review = |number, color| Command::Review { number, color };
        assert_eq!(cmd("stellung 12"), review(Some(12), None));
        assert_eq!(
            cmd("Stellung 12. weiß"),
            review(Some(12), Some(Color::White))
        );
        assert_eq!(cmd("position 3 black"), review(Some(3), Some(Color::Black)));
        assert_eq!(cmd("stellung"), review(None, None));
        assert_eq!(cmd("vor"), Command::ReviewNext);
        assert_eq!(cmd("next"), Command::ReviewNext);
        assert_eq!(cmd("vorher"), Command::ReviewPrevious);
        assert_eq!(cmd("previous"), Command::ReviewPrevious);
        assert_eq!(cmd("aktuell"), Command::ReviewCurrent);
        assert_eq!(cmd("current"), Command::ReviewCurrent);
        assert_eq!(cmd("fehler"), Command::Mistakes);
        assert_eq!(cmd("mistakes"), Command::Mistakes);
        assert_eq!(cmd("besser"), Command::Better);
        assert_eq!(cmd("better"), Command::Better);
        assert_eq!(cmd("zurück"), Command::Back);
        assert_eq!(cmd("back"), Command::Back);
        assert_eq!(cmd("analyse"), Command::Analyse);
        assert!(matches!(
            read_line("stellung zwölf"),
            Err(CommandError::Unknown(_))
        ));
        assert!(matches!(
            read_line("stellung 12 grün"),
            Err(CommandError::Unknown(_))
        ));
    }

    #[test]
    fn moves_are_not_commands() {
        for m in [
            "e4",
            "Springer Felix drei",
            "Sf3",
            "O-O",
            "Kurze Rochade",
            "knight felix three",
            "Dame David eins",
        ] {
            assert_eq!(read_line(m), Ok(Line::Move(m.to_string())), "{m}");
        }
        assert_eq!(read_line("   "), Ok(Line::Empty));
    }

    #[test]
    fn missing_arguments_are_named() {
        assert_eq!(read_line("feld"), Err(CommandError::NeedsSquare(None)));
        assert_eq!(
            read_line("feld e9"),
            Err(CommandError::NeedsSquare(Some("e9".into())))
        );
        assert_eq!(
            read_line("reihe neun"),
            Err(CommandError::NeedsRank(Some("neun".into())))
        );
        assert_eq!(
            read_line("reihe Eva"),
            Err(CommandError::NeedsRank(Some("Eva".into())))
        );
        assert_eq!(
            read_line("linie 5"),
            Err(CommandError::NeedsFile(Some("5".into())))
        );
        assert_eq!(read_line("linie"), Err(CommandError::NeedsFile(None)));
        assert!(matches!(
            read_line("liste zehn"),
            Err(CommandError::Unknown(_))
        ));
        assert!(matches!(
            read_line("wo sind die grünen Elefanten"),
            Err(CommandError::Unknown(_))
        ));
    }
}
