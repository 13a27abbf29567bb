//! The arbiter's commands, typed: "pause", "zeit weiß 1:30:00", "zeit schwarz +2", "strafe
//! weiß", "regelwidrig schwarz", "zurück", "berichtigen weiß", "abgeben Sf3; Sonntag 10 Uhr".
//! The first word decides; the words of every language are understood, as for the players'
//! commands.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Duration;

use shakmaty::{Color, Role};

use crate::matchplay::session::TimeChange;
use crate::notation::board_words::promotion_role;
use crate::notation::language::{ArbiterCommandWords, languages};
use crate::notation::vocabulary::fold;
use crate::outcome::GameResult;

/// What the arbiter does to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// 6.12.
    Pause,
    Resume,
    /// 6.10, 7.1: a player's time set, or changed by an amount.
    Time {
        color: Color,
        change: TimeChange,
    },
    /// 7.1: a player's move counter.
    Moves {
        color: Color,
        moves: u32,
    },
    /// 12.9b: the time penalty for the opponent of `offender`.
    Penalty {
        offender: Color,
    },
    /// 7.5: `by` completed an illegal move.
    Illegal {
        by: Color,
    },
    /// 9.2, 9.3 by the player to move, with the intended move or without.
    Claim {
        intended: Option<String>,
    },
    /// 9.1: the players agreed a draw.
    Draw,
    /// 12.9: the arbiter's result.
    Result(GameResult),
    /// D2.8: the records disagree; take the game back to the last move both share.
    Confirm,
    /// D2.8: the arbiter decides that this player's board is to follow the game's record.
    Correct(Color),
    /// The piece of a promotion the board could not tell.
    Promote(Role),
    /// Appendix E: the player to move seals this move; the rest is the resumption's date,
    /// time and place.
    Seal {
        text: String,
        resumption: String,
    },
    /// E9: open the envelope and play the sealed move.
    Open,
    /// A note for the record.
    Note(String),
}

/// Why a line is not an action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The first word is no arbiter's command.
    #[error("not an arbiter's command")]
    NotAnAction,
    #[error("which colour")]
    NeedsColor,
    #[error("which time")]
    NeedsTime,
    #[error("which number")]
    NeedsNumber,
    #[error("which result")]
    NeedsResult,
    #[error("which piece")]
    NeedsPiece,
    #[error("which move")]
    NeedsMove,
    #[error("which text")]
    NeedsText,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Word {
    Arbiter,
    Pause,
    Resume,
    Time,
    Moves,
    Penalty,
    Illegal,
    Claim,
    Draw,
    Result,
    Confirm,
    Correct,
    Promote,
    Seal,
    Open,
    Note,
    White,
    Black,
}

fn table(c: &ArbiterCommandWords) -> [(&Vec<String>, Word); 16] {
    [
        (&c.arbiter, Word::Arbiter),
        (&c.pause, Word::Pause),
        (&c.resume, Word::Resume),
        (&c.time, Word::Time),
        (&c.moves, Word::Moves),
        (&c.penalty, Word::Penalty),
        (&c.illegal, Word::Illegal),
        (&c.claim, Word::Claim),
        (&c.draw, Word::Draw),
        (&c.result, Word::Result),
        (&c.confirm, Word::Confirm),
        (&c.correct, Word::Correct),
        (&c.promote, Word::Promote),
        (&c.seal, Word::Seal),
        (&c.open, Word::Open),
        (&c.note, Word::Note),
    ]
}

fn words() -> &'static HashMap<String, Word> {
    static WORDS: OnceLock<HashMap<String, Word>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut map = HashMap::new();
        for lang in languages() {
            for (list, word) in table(&lang.arbiter.commands) {
                for w in list {
                    map.entry(fold(w)).or_insert(word);
                }
            }
            for w in &lang.commands.white {
                map.entry(fold(w)).or_insert(Word::White);
            }
            for w in &lang.commands.black {
                map.entry(fold(w)).or_insert(Word::Black);
            }
        }
        map
    })
}

fn word(text: &str) -> Option<Word> {
    words()
        .get(&fold(text.trim_end_matches(['?', '!', '.', ':', ','])))
        .copied()
}

fn split(text: &str) -> (&str, &str) {
    match text.trim().split_once(char::is_whitespace) {
        Some((first, rest)) => (first, rest.trim()),
        None => (text.trim(), ""),
    }
}

fn color(text: &str) -> Result<(Color, &str), ActionError> {
    let (first, rest) = split(text);
    match word(first) {
        Some(Word::White) => Ok((Color::White, rest)),
        Some(Word::Black) => Ok((Color::Black, rest)),
        _ => Err(ActionError::NeedsColor),
    }
}

/// Whether the line starts with the word that marks an arbiter's command ("sr", "arbiter").
pub(crate) fn has_prefix(text: &str) -> bool {
    word(split(text).0) == Some(Word::Arbiter)
}

/// Reads an arbiter's command; an "sr" or "arbiter" in front is allowed.
pub(crate) fn parse_action(text: &str) -> Result<Action, ActionError> {
    let (first, mut rest) = split(text);
    let mut w = word(first).ok_or(ActionError::NotAnAction)?;
    if w == Word::Arbiter {
        let (next, after) = split(rest);
        w = word(next).ok_or(ActionError::NotAnAction)?;
        rest = after;
    }
    Ok(match w {
        Word::Arbiter | Word::White | Word::Black => return Err(ActionError::NotAnAction),
        Word::Pause => Action::Pause,
        Word::Resume => Action::Resume,
        Word::Time => {
            let (color, rest) = color(rest)?;
            Action::Time {
                color,
                change: time_change(rest).ok_or(ActionError::NeedsTime)?,
            }
        }
        Word::Moves => {
            let (color, rest) = color(rest)?;
            Action::Moves {
                color,
                moves: rest.trim().parse().map_err(|_| ActionError::NeedsNumber)?,
            }
        }
        Word::Penalty => Action::Penalty {
            offender: color(rest)?.0,
        },
        Word::Illegal => Action::Illegal { by: color(rest)?.0 },
        Word::Claim => Action::Claim {
            intended: (!rest.is_empty()).then(|| rest.to_string()),
        },
        Word::Draw => Action::Draw,
        Word::Result => Action::Result(result(rest).ok_or(ActionError::NeedsResult)?),
        Word::Confirm => Action::Confirm,
        Word::Correct => Action::Correct(color(rest)?.0),
        Word::Promote => Action::Promote(promotion_role(rest).ok_or(ActionError::NeedsPiece)?),
        Word::Seal => {
            let (mv, resumption) = rest.split_once(';').unwrap_or((rest, ""));
            if mv.trim().is_empty() {
                return Err(ActionError::NeedsMove);
            }
            Action::Seal {
                text: mv.trim().to_string(),
                resumption: resumption.trim().to_string(),
            }
        }
        Word::Open => Action::Open,
        Word::Note if rest.is_empty() => return Err(ActionError::NeedsText),
        Word::Note => Action::Note(rest.to_string()),
    })
}

/// "1-0", "0-1", "1/2", "½", "remis", "draw".
fn result(text: &str) -> Option<GameResult> {
    let t = fold(text.trim());
    if let Some(r) = GameResult::from_pgn(&t) {
        return Some(r);
    }
    let draw_words = languages().flat_map(|l| l.arbiter.commands.draw.iter().map(|w| fold(w)));
    (t == "½" || t == "0.5" || draw_words.into_iter().any(|w| w == t)).then_some(GameResult::Draw)
}

/// "1:30:00" or "45:00" sets; "+2" adds two minutes, "-30s" takes thirty seconds; a number
/// with "h", "m", "min" or "s" is in those units, a bare number in minutes.
pub(crate) fn time_change(text: &str) -> Option<TimeChange> {
    let t = text.trim();
    let (sign, t) = match t.chars().next()? {
        '+' => (Some(true), t[1..].trim()),
        '-' => (Some(false), t[1..].trim()),
        _ => (None, t),
    };
    let d = duration(t)?;
    Some(match sign {
        Some(true) => TimeChange::Add(d),
        Some(false) => TimeChange::Remove(d),
        None => TimeChange::Set(d),
    })
}

fn duration(t: &str) -> Option<Duration> {
    if t.contains(':') {
        let parts: Vec<&str> = t.split(':').collect();
        if parts.len() > 3 {
            return None;
        }
        let mut secs: u64 = 0;
        for p in parts {
            secs = secs.checked_mul(60)?.checked_add(p.trim().parse().ok()?)?;
        }
        return Some(Duration::from_secs(secs));
    }
    let t = t.to_lowercase();
    let (number, unit) = match t.find(|c: char| c.is_alphabetic()) {
        Some(i) => (t[..i].trim(), t[i..].trim()),
        None => (t.as_str(), "m"),
    };
    let n: f64 = number.replace(',', ".").parse().ok()?;
    let scale = match unit {
        "h" | "std" => 3600.0,
        "m" | "min" => 60.0,
        "s" | "sek" | "sec" => 1.0,
        _ => return None,
    };
    let secs = n * scale;
    // Ten hours is more than any control; a larger figure is a typing error.
    (secs.is_finite() && (0.0..=36_000.0).contains(&secs)).then(|| Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_in_both_languages() {
        let cases: Vec<(&str, Action)> = vec![
            ("pause", Action::Pause),
            ("sr weiter", Action::Resume),
            ("arbiter resume", Action::Resume),
            (
                "zeit weiß 1:30:00",
                Action::Time {
                    color: Color::White,
                    change: TimeChange::Set(Duration::from_secs(5400)),
                },
            ),
            (
                "time black +2",
                Action::Time {
                    color: Color::Black,
                    change: TimeChange::Add(Duration::from_secs(120)),
                },
            ),
            (
                "zeit schwarz -30s",
                Action::Time {
                    color: Color::Black,
                    change: TimeChange::Remove(Duration::from_secs(30)),
                },
            ),
            (
                "zähler weiß 20",
                Action::Moves {
                    color: Color::White,
                    moves: 20,
                },
            ),
            (
                "strafe schwarz",
                Action::Penalty {
                    offender: Color::Black,
                },
            ),
            ("illegal white", Action::Illegal { by: Color::White }),
            ("reklamation", Action::Claim { intended: None }),
            (
                "claim Nf3",
                Action::Claim {
                    intended: Some("Nf3".into()),
                },
            ),
            ("remis", Action::Draw),
            ("ergebnis 1-0", Action::Result(GameResult::WhiteWins)),
            ("result draw", Action::Result(GameResult::Draw)),
            ("ergebnis ½", Action::Result(GameResult::Draw)),
            ("zurück", Action::Confirm),
            ("berichtigen schwarz", Action::Correct(Color::Black)),
            ("umwandlung Dame", Action::Promote(Role::Queen)),
            // Spanish names the promotion "coronar", as its other phrases do.
            ("coronar dama", Action::Promote(Role::Queen)),
            (
                "abgeben Springer Felix drei; Sonntag 10 Uhr, Saal 2",
                Action::Seal {
                    text: "Springer Felix drei".into(),
                    resumption: "Sonntag 10 Uhr, Saal 2".into(),
                },
            ),
            ("öffnen", Action::Open),
            (
                "notiz Spieler verwarnt",
                Action::Note("Spieler verwarnt".into()),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse_action(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn mistakes_are_named() {
        assert_eq!(parse_action("Eva vier"), Err(ActionError::NotAnAction));
        assert_eq!(parse_action("zeit"), Err(ActionError::NeedsColor));
        assert_eq!(
            parse_action("zeit weiß morgen"),
            Err(ActionError::NeedsTime)
        );
        assert_eq!(
            parse_action("zähler weiß viele"),
            Err(ActionError::NeedsNumber)
        );
        assert_eq!(
            parse_action("ergebnis gewonnen"),
            Err(ActionError::NeedsResult)
        );
        assert_eq!(
            parse_action("umwandlung König"),
            Err(ActionError::NeedsPiece)
        );
        assert_eq!(parse_action("abgeben"), Err(ActionError::NeedsMove));
        assert_eq!(parse_action("notiz"), Err(ActionError::NeedsText));
        assert_eq!(parse_action("sr"), Err(ActionError::NotAnAction));
        assert_eq!(time_change("+99999h"), None);
        assert!(has_prefix("sr pause") && !has_prefix("pause"));
    }

    proptest::proptest! {
        #[test]
        fn any_line_never_panics(text in "\\PC{0,40}") {
            let _ = parse_action(&text);
            let _ = time_change(&text);
        }
    }
}
