//! The help of a mode that is not play (the puzzles, the training, the walk through an analysed
//! game, the watch): the mode's own commands first, in a few sentences of the language table,
//! then where the whole list is; `hilfe` again says every command the mode takes. The command
//! words are put into the sentences from the vocabularies (`{hint}` is the language's first word
//! for the hint), so a help names only words hector reads, and the whole list is made from the
//! commands the mode answers.

use shakmaty::Role;

use crate::notation::language::{Language, fill};

/// A command as the whole list names it, with an example where it takes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Listed {
    Help,
    Quit,
    Hint,
    Solution,
    Skip,
    Board,
    Pieces,
    Square,
    Rank,
    File,
    Diagonal,
    /// Who attacks and defends a square.
    AttacksOn,
    /// Every piece each side attacks.
    Attacks,
    Moves,
    MovesOf,
    PieceMoves,
    Captures,
    Threats,
    Material,
    Captured,
    Last,
    Turn,
    List,
    Clock,
    Opening,
    Position,
    Next,
    Previous,
    Current,
    Mistakes,
    Better,
    Back,
    Eval,
    Follow,
    Boards,
    /// The study's: the games listed or found, one opened, a variation entered, the start and
    /// the end of the line, the comment, the new file.
    Games,
    Open,
    Variation,
    Start,
    End,
    Comment,
    Save,
    /// The opening explorer (play, the walk, the study).
    Explorer,
    Repeat,
    Silence,
    Mute,
    Unmute,
    Faster,
    Slower,
}

/// The speech's controls, which every mode takes.
pub(crate) const SPEECH: [Listed; 6] = [
    Listed::Repeat,
    Listed::Silence,
    Listed::Mute,
    Listed::Unmute,
    Listed::Faster,
    Listed::Slower,
];

/// The questions about a position without a game around it (a puzzle, a training position).
pub(crate) const POSITION: [Listed; 15] = [
    Listed::Board,
    Listed::Pieces,
    Listed::Square,
    Listed::Rank,
    Listed::File,
    Listed::Diagonal,
    Listed::AttacksOn,
    Listed::Attacks,
    Listed::MovesOf,
    Listed::PieceMoves,
    Listed::Moves,
    Listed::Captures,
    Listed::Threats,
    Listed::Material,
    Listed::Turn,
];

/// The questions about a game that read its moves (the walk, the watch).
pub(crate) const GAME: [Listed; 4] = [
    Listed::Last,
    Listed::Captured,
    Listed::List,
    Listed::Opening,
];

/// Looking back at a game's earlier positions.
pub(crate) const REVIEW: [Listed; 4] = [
    Listed::Position,
    Listed::Next,
    Listed::Previous,
    Listed::Current,
];

/// The language's first word of a list (what a help names).
fn first(words: &[String]) -> &str {
    words.first().map_or("", String::as_str)
}

/// The command words a help's sentences may name, by their placeholder.
pub(crate) fn command_words(lang: &Language) -> Vec<(&'static str, &str)> {
    let c = &lang.commands;
    vec![
        ("help", first(&c.help)),
        ("quit", first(&c.quit)),
        ("new", first(&c.new)),
        ("board", first(&c.board)),
        ("pieces", first(&c.pieces)),
        ("square", first(&c.square)),
        ("rank", first(&c.rank)),
        ("file", first(&c.file)),
        ("diagonal", first(&c.diagonal)),
        ("attacks", first(&c.attacks)),
        ("moves", first(&c.moves)),
        ("captures", first(&c.captures)),
        ("threats", first(&c.threats)),
        ("material", first(&c.material)),
        ("captured", first(&c.captured)),
        ("last", first(&c.last)),
        ("turn", first(&c.turn)),
        ("list", first(&c.list)),
        ("clock", first(&c.clock)),
        ("opening", first(&c.opening)),
        ("repeat", first(&c.repeat)),
        ("hint", first(&lang.analysis.words_hint)),
        ("eval", first(&lang.analysis.words_eval)),
        ("solution", first(&lang.exercise.solution)),
        ("skip", first(&lang.exercise.skip)),
        ("position", first(&lang.review.position)),
        ("next", first(&lang.review.next)),
        ("previous", first(&lang.review.previous)),
        ("current", first(&lang.review.current)),
        ("mistakes", first(&lang.walk.mistakes)),
        ("better", first(&lang.walk.better)),
        ("back", first(&lang.walk.back)),
        ("analyse", first(&lang.walk.analyse)),
        ("follow", first(&lang.watch.words_follow)),
        ("boards", first(&lang.watch.words_boards)),
        ("games", first(&lang.study.words_games)),
        ("open", first(&lang.study.words_open)),
        ("variation", first(&lang.study.words_variation)),
        ("start", first(&lang.study.words_start)),
        ("end", first(&lang.study.words_end)),
        ("comment", first(&lang.study.words_comment)),
        ("save", first(&c.save)),
        ("explorer", first(&lang.explorer.words)),
    ]
}

/// A mode's help: its sentences with the command words put in, then where the whole list is.
pub(crate) fn mode_help(template: &str, lang: &Language) -> String {
    let words = command_words(lang);
    let text = fill(template, &words);
    let more = fill(&lang.play.more_help, &words);
    format!("{text} {more}")
}

/// How the whole list names a command.
pub(crate) fn listed_words(item: Listed, lang: &Language) -> String {
    let c = &lang.commands;
    let with = |words: &[String], example: &str| format!("{} {example}", first(words));
    let word = |words: &[String]| first(words).to_string();
    match item {
        Listed::Help => word(&c.help),
        Listed::Quit => word(&c.quit),
        Listed::Hint => word(&lang.analysis.words_hint),
        Listed::Solution => word(&lang.exercise.solution),
        Listed::Skip => word(&lang.exercise.skip),
        Listed::Board => word(&c.board),
        Listed::Pieces => word(&c.pieces),
        Listed::Square => with(&c.square, "e4"),
        Listed::Rank => with(&c.rank, "4"),
        Listed::File => with(&c.file, "e"),
        Listed::Diagonal => with(&c.diagonal, "c1"),
        Listed::AttacksOn => with(&c.attacks, "e4"),
        Listed::Attacks => word(&c.attacks),
        Listed::Moves => word(&c.moves),
        Listed::MovesOf => with(&c.moves, "g1"),
        Listed::PieceMoves => with(&c.moves, lang.piece(Role::Knight)),
        Listed::Captures => word(&c.captures),
        Listed::Threats => word(&c.threats),
        Listed::Material => word(&c.material),
        Listed::Captured => word(&c.captured),
        Listed::Last => word(&c.last),
        Listed::Turn => word(&c.turn),
        Listed::List => with(&c.list, "10"),
        Listed::Clock => word(&c.clock),
        Listed::Opening => word(&c.opening),
        Listed::Position => with(&lang.review.position, "12"),
        Listed::Next => word(&lang.review.next),
        Listed::Previous => word(&lang.review.previous),
        Listed::Current => word(&lang.review.current),
        Listed::Mistakes => word(&lang.walk.mistakes),
        Listed::Better => word(&lang.walk.better),
        Listed::Back => word(&lang.walk.back),
        Listed::Eval => word(&lang.analysis.words_eval),
        Listed::Follow => with(&lang.watch.words_follow, "2"),
        Listed::Boards => word(&lang.watch.words_boards),
        Listed::Games => word(&lang.study.words_games),
        Listed::Open => with(&lang.study.words_open, "3"),
        Listed::Variation => with(&lang.study.words_variation, "2"),
        Listed::Start => word(&lang.study.words_start),
        Listed::End => word(&lang.study.words_end),
        Listed::Comment => word(&lang.study.words_comment),
        Listed::Save => word(&c.save),
        Listed::Explorer => word(&lang.explorer.words),
        Listed::Repeat => word(&c.repeat),
        Listed::Silence => word(&c.silence),
        Listed::Mute => word(&c.mute),
        Listed::Unmute => word(&c.unmute),
        Listed::Faster => word(&c.faster),
        Listed::Slower => word(&c.slower),
    }
}

/// Every command of a mode, named as it is typed: "Alle Befehle: tipp, lösung, …".
pub(crate) fn all_commands(items: &[Listed], lang: &Language) -> String {
    let named: Vec<String> = items.iter().map(|&i| listed_words(i, lang)).collect();
    format!(
        "{}{}{}",
        lang.play.all_commands,
        lang.messages.colon,
        named.join(", ")
    )
}

/// Whether the help was the answer to the player's last input: `hilfe` again then says the
/// whole list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct HelpAgain {
    /// The help was the last answer.
    said: bool,
    /// The input being handled follows the help.
    after_help: bool,
}

impl HelpAgain {
    /// The player typed or pressed something: it follows the help or not.
    pub(crate) fn input(&mut self) {
        self.after_help = std::mem::take(&mut self.said);
    }

    /// The player asked for the help: the mode's help, or the whole list right after it.
    pub(crate) fn answer(
        &mut self,
        help: impl FnOnce() -> String,
        all: impl FnOnce() -> String,
    ) -> String {
        if std::mem::take(&mut self.after_help) {
            all()
        } else {
            self.said = true;
            help()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchplay::command::{Line, read_line};
    use crate::notation::language::languages;

    /// Every command the whole list names is read as a command in every language, with its
    /// example.
    #[test]
    fn every_listed_command_is_read_as_one() {
        use Listed::*;
        let all = [
            Help, Quit, Hint, Board, Pieces, Square, Rank, File, Diagonal, AttacksOn, Attacks,
            Moves, MovesOf, PieceMoves, Captures, Threats, Material, Captured, Last, Turn, List,
            Clock, Opening, Position, Next, Previous, Current, Mistakes, Better, Back, Eval,
            Repeat, Silence, Mute, Unmute, Faster, Slower,
        ];
        for lang in languages() {
            for item in all {
                let text = listed_words(item, lang);
                assert!(
                    matches!(read_line(&text), Ok(Line::Command(_))),
                    "{}: {text:?} is not read as a command",
                    lang.code
                );
            }
        }
    }

    /// Every placeholder of every mode's help is a command word.
    #[test]
    fn a_help_names_only_command_words() {
        for lang in languages() {
            for template in [
                &lang.puzzle.help,
                &lang.train.help,
                &lang.walk.help,
                &lang.watch.help,
                &lang.play.more_help,
            ] {
                let filled = mode_help(template, lang);
                assert!(
                    !filled.contains('{'),
                    "{}: a placeholder that is no command word: {filled}",
                    lang.code
                );
            }
        }
    }

    #[test]
    fn help_again_says_the_whole_list_once() {
        let mut h = HelpAgain::default();
        let ask = |h: &mut HelpAgain| {
            h.input();
            h.answer(|| "help".into(), || "all".into())
        };
        assert_eq!(ask(&mut h), "help");
        assert_eq!(ask(&mut h), "all");
        assert_eq!(ask(&mut h), "help");
        // Something else between: the help again.
        h.input();
        assert_eq!(ask(&mut h), "help");
    }
}
