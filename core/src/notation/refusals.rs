//! Why a start-up option's value cannot be used (a time control, a FEN, a game to continue
//! from, a Chess960 number), in the player's language: the same refusal is printed and said.

use super::language::{Language, fill};
use crate::clock::{ControlError, FieldProblem, Unit};
use crate::variant::{FenPart, FenProblem};

/// "--tc: Feld 2, 40/x: …": the option and the reason.
pub fn option_words(option: &str, reason: &str, lang: &Language) -> String {
    fill(
        &lang.usage.option,
        &[("option", option), ("reason", reason)],
    )
}

fn unit_index(unit: Unit) -> usize {
    match unit {
        Unit::Moves => 0,
        Unit::Seconds => 1,
        Unit::Bonus => 2,
        Unit::Minutes => 3,
    }
}

/// A time control that cannot be read.
pub fn control_error_words(e: &ControlError, lang: &Language) -> String {
    let u = &lang.usage;
    match e {
        ControlError::Empty => u.control_empty.clone(),
        ControlError::Unknown => u.control_unknown.clone(),
        ControlError::NoClock => u.control_no_clock.clone(),
        ControlError::UnknownPreset(text) => fill(
            &u.control_unknown_preset,
            &[("text", &super::printable(text))],
        ),
        ControlError::NoPeriods => u.control_no_periods.clone(),
        ControlError::Field {
            field,
            text,
            problem,
        } => fill(
            &u.control_field,
            &[
                ("field", &field.to_string()),
                ("text", &super::printable(text)),
                ("problem", &field_problem_words(problem, lang)),
            ],
        ),
        ControlError::Period { period, problem } => fill(
            &u.control_period,
            &[
                ("period", &period.to_string()),
                ("problem", &field_problem_words(problem, lang)),
            ],
        ),
    }
}

fn field_problem_words(p: &FieldProblem, lang: &Language) -> String {
    let u = &lang.usage;
    let sign = |c: &char| c.to_string();
    match p {
        FieldProblem::EmptyField => u.field_empty.clone(),
        FieldProblem::MovesMissing => u.moves_missing.clone(),
        FieldProblem::SecondsMissingAfterSlash => u.seconds_missing_after_slash.clone(),
        FieldProblem::SecondsMissingBefore(c) => {
            fill(&u.seconds_missing_before, &[("sign", &sign(c))])
        }
        FieldProblem::SecondsMissingAfterStar => u.seconds_missing_after_star.clone(),
        FieldProblem::IncrementMissing => u.increment_missing.clone(),
        FieldProblem::DelayMissing(c) => fill(&u.delay_missing, &[("sign", &sign(c))]),
        FieldProblem::TwoSlashes => u.two_slashes.clone(),
        FieldProblem::TwoBonuses => u.two_bonuses.clone(),
        FieldProblem::SandclockWithExtras => u.sandclock_extras.clone(),
        FieldProblem::NotANumber { unit, found } => fill(
            &u.not_a_number,
            &[
                ("found", &super::printable(found)),
                ("unit", &u.units_of[unit_index(*unit)]),
            ],
        ),
        FieldProblem::TooLarge(unit) => {
            fill(&u.too_large, &[("unit", &u.units[unit_index(*unit)])])
        }
        FieldProblem::TooManyMoves => u.too_many_moves.clone(),
        FieldProblem::NotWholeSeconds(unit) => fill(
            &u.not_whole_seconds,
            &[("unit", &u.units[unit_index(*unit)])],
        ),
        FieldProblem::ZeroMoves => u.zero_moves.clone(),
        FieldProblem::SuddenDeathNotLast => u.sudden_death_not_last.clone(),
        FieldProblem::NoTime => u.no_time.clone(),
    }
}

fn fen_part_index(part: FenPart) -> usize {
    match part {
        FenPart::Whole => 0,
        FenPart::Board => 1,
        FenPart::Pocket => 2,
        FenPart::Turn => 3,
        FenPart::Castling => 4,
        FenPart::EnPassant => 5,
        FenPart::RemainingChecks => 6,
        FenPart::HalfmoveClock => 7,
        FenPart::Fullmoves => 8,
    }
}

/// A FEN that cannot be set up.
pub fn fen_problem_words(e: &FenProblem, lang: &Language) -> String {
    let u = &lang.usage;
    match e {
        FenProblem::Syntax(part) => fill(
            &u.fen_syntax,
            &[("part", &u.fen_parts[fen_part_index(*part)])],
        ),
        FenProblem::Impossible(faults) => {
            let words: Vec<&str> = faults
                .iter()
                .map(|f| u.position_faults[f.index()].as_str())
                .collect();
            let faults = if words.is_empty() {
                u.not_legal.clone()
            } else {
                words.join(", ")
            };
            fill(&u.fen_impossible, &[("faults", &faults)])
        }
    }
}

/// A Chess960 number out of range.
pub fn chess960_range_words(number: u16, lang: &Language) -> String {
    fill(
        &lang.usage.chess960_range,
        &[("number", &number.to_string())],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::TimeControl;
    use crate::notation::language::language;
    use crate::variant::{Variant, position_from_fen};

    use crate::testkit::de;

    fn en() -> &'static Language {
        language("en").expect("en")
    }

    #[test]
    fn a_time_control_is_refused_in_the_players_language() {
        let e = "40/x".parse::<TimeControl>().expect_err("bad");
        assert_eq!(
            control_error_words(&e, de()),
            "Feld 1, 40/x: x ist keine ganze Zahl von Sekunden"
        );
        assert_eq!(
            control_error_words(&e, en()),
            "field 1, 40/x: x is not a whole number of seconds"
        );
        let e = "speedy".parse::<TimeControl>().expect_err("bad");
        assert!(control_error_words(&e, de()).starts_with("speedy ist weder"));
        let e = "".parse::<TimeControl>().expect_err("bad");
        assert_eq!(control_error_words(&e, de()), "die Bedenkzeit ist leer");
    }

    #[test]
    fn every_time_control_problem_has_words_in_every_language() {
        for text in [
            "?",
            "-",
            "::",
            "/60",
            "40/",
            "+5",
            "*",
            "60+",
            "60d",
            "40/60/30",
            "60+5d3",
            "40/*60",
            "99999999",
            "99999999999/60",
            "60.5",
            "0/60",
            "60:40/60",
            "0",
        ] {
            let Err(e) = text.parse::<TimeControl>() else {
                continue;
            };
            for lang in [de(), en()] {
                let words = control_error_words(&e, lang);
                assert!(!words.is_empty() && !words.contains('{'), "{text}: {words}");
            }
        }
    }

    #[test]
    fn a_fen_is_refused_with_the_part_or_the_fault() {
        let e = position_from_fen("rnbqkbnr/pppppppp/8 w", Variant::Standard).expect_err("bad");
        assert!(
            fen_problem_words(&e, de()).starts_with("die FEN ist nicht richtig geschrieben"),
            "{}",
            fen_problem_words(&e, de())
        );
        let e = position_from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1", Variant::Standard)
            .expect_err("no black king");
        assert_eq!(
            fen_problem_words(&e, de()),
            "die FEN beschreibt eine unmögliche Stellung: ein König fehlt"
        );
        assert_eq!(
            fen_problem_words(&e, en()),
            "the FEN describes an impossible position: a king is missing"
        );
    }
}
