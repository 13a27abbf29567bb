//! What the arbiter types at the console of `hector arbiter`: "partien" (every game in a
//! line), "3" (game 3 is the one spoken of), "3 pause" or "pause" (the arbiter's command for
//! game 3, or for the chosen game), "3 brett" (a question about game 3), "protokoll 3" (its
//! event log), "hilfe", "ende", and the speech controls.

use super::action::{Action, ActionError, parse_action};
use crate::matchplay::command::{Command, CommandError, Line, read_line};
use crate::matchplay::session::SpeechControl;
use crate::notation::language::languages;
use crate::notation::vocabulary::fold;

/// A line of the console.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsoleLine {
    Empty,
    /// Every game in a line.
    Games,
    Help,
    Quit,
    Speech(SpeechControl),
    /// The game spoken of from now on.
    Select(usize),
    /// A game's event log (the chosen game's when `None`).
    Log(Option<usize>),
    /// For game `game` (the chosen one when `None`).
    Game {
        game: Option<usize>,
        what: GameLine,
    },
}

/// What is asked of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameLine {
    Action(Action),
    /// A question about the game (board, last, list, clock, …).
    Command(Command),
}

/// Why a console line is not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsoleError {
    Action(ActionError),
    Command(CommandError),
    /// Neither an arbiter's command nor a question.
    NotUnderstood(String),
}

fn is_word(
    text: &str,
    pick: fn(&crate::notation::language::ArbiterCommandWords) -> &Vec<String>,
) -> bool {
    let w = fold(text.trim_end_matches(['?', '!', '.', ':']));
    languages().any(|l| pick(&l.arbiter.commands).iter().any(|x| fold(x) == w))
}

fn split(text: &str) -> (&str, &str) {
    match text.trim().split_once(char::is_whitespace) {
        Some((first, rest)) => (first, rest.trim()),
        None => (text.trim(), ""),
    }
}

/// Reads a console line.
pub fn read_console(text: &str) -> Result<ConsoleLine, ConsoleError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(ConsoleLine::Empty);
    }
    let (first, rest) = split(text);
    if let Ok(n) = first.trim_end_matches(['.', ':']).parse::<usize>() {
        if rest.is_empty() {
            return Ok(ConsoleLine::Select(n));
        }
        if is_word(rest, |c| &c.log) {
            return Ok(ConsoleLine::Log(Some(n)));
        }
        return Ok(ConsoleLine::Game {
            game: Some(n),
            what: game_line(rest)?,
        });
    }
    if is_word(first, |c| &c.games) {
        return Ok(ConsoleLine::Games);
    }
    if is_word(first, |c| &c.log) {
        return match rest.trim_end_matches('.').parse::<usize>() {
            Ok(n) => Ok(ConsoleLine::Log(Some(n))),
            Err(_) if rest.is_empty() => Ok(ConsoleLine::Log(None)),
            Err(_) => Err(ConsoleError::NotUnderstood(rest.to_string())),
        };
    }
    match read_line(text) {
        Ok(Line::Command(Command::Help)) => return Ok(ConsoleLine::Help),
        Ok(Line::Command(Command::Quit)) => return Ok(ConsoleLine::Quit),
        Ok(Line::Command(c)) => {
            if let Some(s) = c.speech() {
                return Ok(ConsoleLine::Speech(s));
            }
        }
        _ => {}
    }
    Ok(ConsoleLine::Game {
        game: None,
        what: game_line(text)?,
    })
}

fn game_line(text: &str) -> Result<GameLine, ConsoleError> {
    match parse_action(text) {
        Ok(a) => return Ok(GameLine::Action(a)),
        Err(ActionError::NotAnAction) => {}
        Err(e) => return Err(ConsoleError::Action(e)),
    }
    match read_line(text) {
        // The arbiter does not play: resigning, offering or moving are the players' own; the
        // questions, the clock and saving the game are the arbiter's too.
        Ok(Line::Command(c))
            if c.question().is_some() || matches!(c, Command::Clock | Command::Save(_)) =>
        {
            Ok(GameLine::Command(c))
        }
        Ok(_) => Err(ConsoleError::NotUnderstood(text.to_string())),
        Err(e) => Err(ConsoleError::Command(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchplay::question::Question;
    use shakmaty::Color;

    #[test]
    fn console_lines() {
        assert_eq!(read_console(""), Ok(ConsoleLine::Empty));
        assert_eq!(read_console("partien"), Ok(ConsoleLine::Games));
        assert_eq!(read_console("games"), Ok(ConsoleLine::Games));
        assert_eq!(read_console("3"), Ok(ConsoleLine::Select(3)));
        assert_eq!(read_console("3 protokoll"), Ok(ConsoleLine::Log(Some(3))));
        assert_eq!(read_console("log 2"), Ok(ConsoleLine::Log(Some(2))));
        assert_eq!(read_console("protokoll"), Ok(ConsoleLine::Log(None)));
        assert_eq!(read_console("hilfe"), Ok(ConsoleLine::Help));
        assert_eq!(read_console("ende"), Ok(ConsoleLine::Quit));
        assert_eq!(
            read_console("still"),
            Ok(ConsoleLine::Speech(SpeechControl::Silence))
        );
        assert_eq!(
            read_console("3 pause"),
            Ok(ConsoleLine::Game {
                game: Some(3),
                what: GameLine::Action(Action::Pause)
            })
        );
        assert_eq!(
            read_console("strafe weiß"),
            Ok(ConsoleLine::Game {
                game: None,
                what: GameLine::Action(Action::Penalty {
                    offender: Color::White
                })
            })
        );
        assert_eq!(
            read_console("2 brett"),
            Ok(ConsoleLine::Game {
                game: Some(2),
                what: GameLine::Command(Command::Ask(Question::Board))
            })
        );
    }

    #[test]
    fn every_question_is_asked_of_a_game() {
        let questions = [
            "brett",
            "feld e4",
            "züge",
            "material",
            "letzter",
            "liste",
            "eröffnung",
            "geschlagen",
            "drohungen",
            "schlagzüge",
        ];
        for text in questions {
            match read_console(&format!("2 {text}")) {
                Ok(ConsoleLine::Game {
                    game: Some(2),
                    what: GameLine::Command(c),
                }) => assert!(c.question().is_some(), "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn mistakes() {
        assert_eq!(
            read_console("3 zeit"),
            Err(ConsoleError::Action(ActionError::NeedsColor))
        );
        assert!(matches!(
            read_console("Eva vier"),
            Err(ConsoleError::NotUnderstood(_))
        ));
        assert!(matches!(
            read_console("aufgeben"),
            Err(ConsoleError::NotUnderstood(_))
        ));
        assert!(matches!(
            read_console("feld x9"),
            Err(ConsoleError::Command(_))
        ));
        assert!(matches!(
            read_console("log zwei"),
            Err(ConsoleError::NotUnderstood(_))
        ));
    }
}
