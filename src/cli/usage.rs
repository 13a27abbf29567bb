//! The command line's own errors (an unknown option, a value out of range, a missing
//! argument) in the player's language: clap reads the line, this says what is wrong with it
//! in the words of the language tables, printed, and said for a mode that speaks.

use clap::error::{ContextKind, ContextValue, ErrorKind};

use crate::core::notation::printable;
use crate::core::notation::{Language, fill};

/// What is wrong with one option's value, for the value readers of `args` (clap's own
/// messages would be English only).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ValueProblem {
    #[error("a number from {min} to {max}")]
    OutOfRange { min: i64, max: i64 },
    #[error("use auto, engine, engine:PATH, keyboard or board:PORT")]
    Opponent,
    #[error("a number from 0 to 959, or nothing for a random one")]
    Chess960,
    #[error("{0:?} is not a time like 5m or 30s")]
    NotATime(String),
    #[error("{0:?}: the unit must be m or s")]
    TimeUnit(String),
}

impl ValueProblem {
    fn words(&self, lang: &Language) -> String {
        let u = &lang.usage;
        match self {
            ValueProblem::OutOfRange { min, max } => fill(
                &u.out_of_range,
                &[("min", &min.to_string()), ("max", &max.to_string())],
            ),
            ValueProblem::Opponent => u.opponent_values.clone(),
            ValueProblem::Chess960 => u.chess960_values.clone(),
            ValueProblem::NotATime(t) => fill(&u.not_a_time, &[("text", &printable(t))]),
            ValueProblem::TimeUnit(t) => fill(&u.time_unit, &[("text", &printable(t))]),
        }
    }
}

/// A whole number from `min` to `max`, for an option's value reader.
pub(crate) fn in_range<T>(text: &str, min: T, max: T) -> Result<T, ValueProblem>
where
    T: std::str::FromStr + PartialOrd + Copy + Into<i64>,
{
    let out = ValueProblem::OutOfRange {
        min: min.into(),
        max: max.into(),
    };
    match text.trim().parse::<T>() {
        Ok(n) if n >= min && n <= max => Ok(n),
        _ => Err(out),
    }
}

/// The first word that is not an option: the mode asked for, if any.
pub(crate) fn mode_of(args: &[String]) -> Option<&str> {
    args.iter()
        .skip(1)
        .map(String::as_str)
        .find(|a| !a.starts_with('-'))
}

/// The value of `--NAME VALUE` or `--NAME=VALUE` on the command line, read before clap (the
/// language and speech of an error must be known even when the line has one).
pub(crate) fn option_value<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let long = format!("--{name}");
    let with_equals = format!("--{name}=");
    let mut words = args.iter().skip(1);
    while let Some(a) = words.next() {
        if a == "--" {
            return None;
        }
        if *a == long {
            return words.next().map(String::as_str);
        }
        if let Some(v) = a.strip_prefix(&with_equals) {
            return Some(v);
        }
    }
    None
}

fn text(e: &clap::Error, kind: ContextKind) -> Option<String> {
    match e.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(v) => Some(v.join(", ")),
        ContextValue::StyledStr(s) => Some(s.to_string()),
        ContextValue::StyledStrs(v) => Some(
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        ),
        ContextValue::Number(n) => Some(n.to_string()),
        ContextValue::Bool(_) | ContextValue::None => None,
        _ => None,
    }
}

/// An option as the player typed it: clap names it with its value name ("--tc <TC>").
fn option_name(arg: &str) -> &str {
    arg.split([' ', '=']).next().unwrap_or(arg)
}

/// The command line's error in words: what is wrong, a suggestion when clap has one, and
/// where help is; one line each.
pub(crate) fn usage_words(e: &clap::Error, mode: Option<&str>, lang: &Language) -> Vec<String> {
    let u = &lang.usage;
    let arg = text(e, ContextKind::InvalidArg).unwrap_or_default();
    let arg = printable(option_name(&arg)).into_owned();
    let value = printable(&text(e, ContextKind::InvalidValue).unwrap_or_default()).into_owned();
    let mut lines = Vec::new();
    let first = match e.kind() {
        ErrorKind::UnknownArgument => fill(&u.unknown_argument, &[("arg", &arg)]),
        ErrorKind::InvalidSubcommand => {
            let name = text(e, ContextKind::InvalidSubcommand).unwrap_or_default();
            fill(&u.unknown_command, &[("name", &printable(&name))])
        }
        ErrorKind::InvalidValue => {
            let mut s = fill(&u.invalid_value, &[("value", &value), ("arg", &arg)]);
            if let Some(values) = text(e, ContextKind::ValidValue) {
                s = format!("{s}. {}", fill(&u.possible_values, &[("values", &values)]));
            }
            s
        }
        ErrorKind::ValueValidation => {
            let reason =
                match std::error::Error::source(e).and_then(|s| s.downcast_ref::<ValueProblem>()) {
                    Some(p) => p.words(lang),
                    None => fill(&u.invalid_value, &[("value", &value), ("arg", &arg)]),
                };
            fill(
                &u.invalid_input,
                &[("arg", &arg), ("value", &value), ("reason", &reason)],
            )
        }
        ErrorKind::MissingRequiredArgument => {
            let args = text(e, ContextKind::InvalidArg).unwrap_or_default();
            fill(&u.missing_argument, &[("args", &printable(&args))])
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            u.missing_command.clone()
        }
        ErrorKind::ArgumentConflict => {
            let other = text(e, ContextKind::PriorArg).unwrap_or_default();
            fill(
                &u.conflict,
                &[("arg", &arg), ("other", &printable(option_name(&other)))],
            )
        }
        ErrorKind::NoEquals => fill(&u.no_equals, &[("arg", &arg)]),
        ErrorKind::TooManyValues | ErrorKind::TooFewValues | ErrorKind::WrongNumberOfValues => {
            fill(&u.wrong_count, &[("arg", &arg)])
        }
        ErrorKind::InvalidUtf8 => u.not_text.clone(),
        _ => u.unclear.clone(),
    };
    lines.push(first);
    let suggestion = text(e, ContextKind::SuggestedArg)
        .or_else(|| text(e, ContextKind::SuggestedSubcommand))
        .or_else(|| text(e, ContextKind::SuggestedValue));
    if let Some(s) = suggestion {
        lines.push(fill(&u.did_you_mean, &[("suggestion", &printable(&s))]));
    }
    let command = match mode {
        Some(m) if e.kind() != ErrorKind::InvalidSubcommand => format!("hector {m}"),
        _ => "hector".to_string(),
    };
    lines.push(fill(&u.more, &[("command", &command)]));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use crate::core::notation::language;
    use clap::Parser;

    fn words(args: &[&str], lang: &str) -> Vec<String> {
        let argv: Vec<String> = std::iter::once("hector")
            .chain(args.iter().copied())
            .map(String::from)
            .collect();
        let e = Cli::try_parse_from(&argv).expect_err("a wrong command line");
        usage_words(&e, mode_of(&argv), language(lang).expect("lang"))
    }

    #[test]
    fn an_unknown_option_is_named_with_the_nearest_one() {
        assert_eq!(
            words(&["play", "--fenn", "x"], "de"),
            [
                "Unbekannte Angabe: --fenn",
                "Meinten Sie --fen?",
                "Hilfe: hector play --help"
            ]
        );
        assert_eq!(
            words(&["play", "--fenn", "x"], "en")[0],
            "Unknown argument: --fenn"
        );
    }

    #[test]
    fn an_unknown_mode_is_named() {
        let w = words(&["plya"], "de");
        assert_eq!(w[0], "Unbekannter Befehl: plya");
        assert_eq!(w[1], "Meinten Sie play?");
        assert_eq!(w[2], "Hilfe: hector --help");
    }

    #[test]
    fn values_out_of_range_and_wrong_choices_say_what_is_allowed() {
        assert_eq!(
            words(&["play", "--level", "9"], "de")[0],
            "--level 9: eine Zahl von 1 bis 8"
        );
        assert_eq!(
            words(&["play", "--level", "9"], "en")[0],
            "--level 9: a number from 1 to 8"
        );
        let w = words(&["play", "--color", "green"], "de");
        assert!(
            w[0].starts_with("green ist kein möglicher Wert für --color. Möglich: "),
            "{w:?}"
        );
        assert!(
            words(&["play", "--opponent", "foo"], "de")[0].contains("auto, engine"),
            "the allowed forms are named"
        );
        assert_eq!(
            words(&["clock", "--warn", "5x"], "de")[0],
            "--warn 5x: 5x: die Einheit muss m oder s sein"
        );
    }

    #[test]
    fn the_language_and_mode_are_read_before_clap() {
        let argv: Vec<String> = ["hector", "play", "--lang=en", "--speech", "print"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(option_value(&argv, "lang"), Some("en"));
        assert_eq!(option_value(&argv, "speech"), Some("print"));
        assert_eq!(mode_of(&argv), Some("play"));
        assert_eq!(option_value(&argv, "fen"), None);
    }
}
