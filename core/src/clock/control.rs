//! Time controls: periods, bonuses (increment and delays), the PGN `TimeControl` syntax with
//! hector's delay extension and presets, and the category of Appendices A and B.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The largest number of seconds in one field: a day. Nothing in chess comes near it, and
/// the bound keeps every sum of clock times far from overflowing.
pub(crate) const MAX_SECONDS: u64 = 86_400;

/// What a player gets for each move of a period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bonus {
    None,
    /// Added after each move (Fischer; FIDE's "increment from move 1").
    Fischer(Duration),
    /// The main time counts down at once; after the move the time used, up to the delay,
    /// is given back.
    Bronstein(Duration),
    /// US delay: the main time starts to run only after the delay; delay not used up is lost.
    SimpleDelay(Duration),
}

impl Bonus {
    /// The amount of the bonus, whatever its kind.
    pub fn amount(self) -> Duration {
        match self {
            Bonus::None => Duration::ZERO,
            Bonus::Fischer(d) | Bonus::Bronstein(d) | Bonus::SimpleDelay(d) => d,
        }
    }

    /// The delay before the main time runs (only a simple delay has one).
    pub(crate) fn delay(self) -> Duration {
        match self {
            Bonus::SimpleDelay(d) => d,
            _ => Duration::ZERO,
        }
    }

    /// A zero bonus of any kind is no bonus: one value per meaning keeps round trips exact.
    fn normalized(self) -> Bonus {
        if self.amount().is_zero() {
            Bonus::None
        } else {
            self
        }
    }
}

/// One period of a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Period {
    /// Moves to complete in this period; `None`: all remaining moves (the last period).
    pub moves: Option<u32>,
    /// Time added to the clock when the period starts.
    pub time: Duration,
    pub bonus: Bonus,
}

impl Period {
    pub(crate) fn sudden_death(time: Duration, bonus: Bonus) -> Period {
        Period {
            moves: None,
            time,
            bonus,
        }
    }

    #[cfg(test)]
    pub(crate) fn moves(moves: u32, time: Duration, bonus: Bonus) -> Period {
        Period {
            moves: Some(moves),
            time,
            bonus,
        }
    }
}

/// The category of a game by its time control (Appendices A1 and B1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    Standard,
    Rapid,
    Blitz,
}

/// A validated time control: at least one period; only the last may be without a move
/// count; if the last has a move count it repeats for the rest of the game; times and
/// bonuses are whole seconds up to [`MAX_SECONDS`]; the first period gives some time or a
/// simple delay (otherwise the first flag would fall at the start).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    periods: Vec<Period>,
}

/// Named presets: FIDE's defaults, accepted wherever a time control is read.
pub(crate) const PRESETS: &[(&str, &str)] = &[
    // FIDE rated standard: 90 minutes for 40 moves, then 30 minutes, 30 s from move 1.
    ("classical", "40/5400+30:1800+30"),
    // Olympiads (and IBCA's): 90 minutes for the game, 30 s from move 1.
    ("olympiad", "5400+30"),
    // World Rapid Championship: 15 minutes, 10 s from move 1.
    ("rapid", "900+10"),
    // World Blitz Championship: 3 minutes, 2 s from move 1.
    ("blitz", "180+2"),
];

impl TimeControl {
    /// Checks the rules listed on the type; a zero bonus becomes [`Bonus::None`].
    pub(crate) fn new(periods: Vec<Period>) -> Result<TimeControl, ControlError> {
        if periods.is_empty() {
            return Err(ControlError::NoPeriods);
        }
        let last = periods.len() - 1;
        let mut checked = Vec::with_capacity(periods.len());
        for (i, p) in periods.into_iter().enumerate() {
            let p = Period {
                bonus: p.bonus.normalized(),
                ..p
            };
            check_period(&p, i, i == last).map_err(|problem| ControlError::Period {
                period: i + 1,
                problem,
            })?;
            checked.push(p);
        }
        Ok(TimeControl { periods: checked })
    }

    /// A single period for the whole game.
    #[cfg(test)]
    pub(crate) fn sudden_death(time: Duration, bonus: Bonus) -> Result<TimeControl, ControlError> {
        TimeControl::new(vec![Period::sudden_death(time, bonus)])
    }

    /// The periods as given (the last one repeats if it has a move count).
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// Period `index` (0-based) of the game, counting repetitions of a last period with a
    /// move count: for `40/7200:20/3600`, periods 1, 2, 3, ... are all `20/3600`.
    pub fn period(&self, index: usize) -> &Period {
        let last = self.periods.len() - 1;
        &self.periods[index.min(last)]
    }

    /// True if period `index` is one in which all remaining moves must be completed.
    pub(crate) fn is_last_period(&self, index: usize) -> bool {
        self.period(index).moves.is_none()
    }

    /// The number of moves a player has completed when period `index` ends (its time
    /// control), or `None` if the period lasts for the rest of the game.
    #[cfg(test)]
    pub(crate) fn control_after(&self, index: usize) -> Option<u64> {
        let n = self.periods.len();
        let mut end = 0u64;
        for p in &self.periods[..=index.min(n - 1)] {
            end = end.saturating_add(u64::from(p.moves?));
        }
        if index >= n {
            let each = u64::from(self.periods[n - 1].moves?);
            let repeats = u64::try_from(index - (n - 1)).unwrap_or(u64::MAX);
            end = end.saturating_add(repeats.saturating_mul(each));
        }
        Some(end)
    }

    /// The period (0-based) a player is in after completing `moves` moves.
    pub(crate) fn period_for_moves(&self, moves: u32) -> usize {
        let moves = u64::from(moves);
        let mut end = 0u64;
        for (i, p) in self.periods.iter().enumerate() {
            match p.moves {
                None => return i,
                Some(k) => {
                    end += u64::from(k);
                    if moves < end {
                        return i;
                    }
                }
            }
        }
        // Every period has a move count: the last one repeats.
        let n = self.periods.len();
        let each = self.periods[n - 1].moves.map_or(1, u64::from).max(1);
        let repeats = (moves - end) / each;
        n.saturating_add(usize::try_from(repeats).unwrap_or(usize::MAX))
    }

    /// Appendices A1 and B1, on the first period: time + 60 x bonus (a delay counts like an
    /// increment, as US Chess counts it). Blitz: 10 minutes or less; rapid: more than 10
    /// and less than 60; standard: 60 or more.
    pub fn category(&self) -> Category {
        let first = &self.periods[0];
        let total = first.time + first.bonus.amount() * 60;
        if total <= Duration::from_secs(600) {
            Category::Blitz
        } else if total < Duration::from_secs(3600) {
            Category::Rapid
        } else {
            Category::Standard
        }
    }

    /// The time given to the opponent for an illegal move or an incorrect claim: two
    /// minutes (7.5b, 9.5b), one minute in blitz (B2).
    #[cfg(test)]
    pub(crate) fn penalty(&self) -> Duration {
        match self.category() {
            Category::Blitz => Duration::from_secs(60),
            _ => Duration::from_secs(120),
        }
    }
}

fn check_period(p: &Period, index: usize, is_last: bool) -> Result<(), FieldProblem> {
    if p.moves == Some(0) {
        return Err(FieldProblem::ZeroMoves);
    }
    if p.moves.is_none() && !is_last {
        return Err(FieldProblem::SuddenDeathNotLast);
    }
    for (d, what) in [(p.time, Unit::Seconds), (p.bonus.amount(), Unit::Bonus)] {
        if d.subsec_nanos() != 0 {
            return Err(FieldProblem::NotWholeSeconds(what));
        }
        if d.as_secs() > MAX_SECONDS {
            return Err(FieldProblem::TooLarge(what));
        }
    }
    if index == 0 && p.time.is_zero() && p.bonus.delay().is_zero() {
        return Err(FieldProblem::NoTime);
    }
    Ok(())
}

/// Why a time control was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    #[error("the time control is empty")]
    Empty,
    #[error(
        "the time control is unknown (`?` in PGN); hector needs a concrete time control, \
         such as `40/5400+30:1800+30` or `rapid`"
    )]
    Unknown,
    #[error(
        "the game is played without a clock (`-` in PGN); hector needs a concrete time \
         control, such as `40/5400+30:1800+30` or `rapid`"
    )]
    NoClock,
    #[error(
        "`{0}` is neither a time control nor a preset; the presets are classical, olympiad, \
         rapid and blitz"
    )]
    UnknownPreset(String),
    #[error("field {field} `{text}`: {problem}")]
    Field {
        /// 1-based, counted between `:`.
        field: usize,
        text: String,
        problem: FieldProblem,
    },
    #[error("a time control needs at least one period")]
    NoPeriods,
    #[error("period {period}: {problem}")]
    Period {
        /// 1-based.
        period: usize,
        problem: FieldProblem,
    },
}

/// What a number in a field stands for, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Moves,
    Seconds,
    /// The seconds of an increment or a delay.
    Bonus,
    /// The minutes of a time control as players type it (`3+2`).
    Minutes,
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unit::Moves => "moves",
            Unit::Seconds => "seconds",
            Unit::Bonus => "seconds of increment or delay",
            Unit::Minutes => "minutes",
        })
    }
}

/// What is wrong with one field (one period).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FieldProblem {
    #[error("the field is empty (two `:` in a row, or a `:` at an end)")]
    EmptyField,
    #[error("number of moves missing before /")]
    MovesMissing,
    #[error("seconds missing after /")]
    SecondsMissingAfterSlash,
    #[error("seconds missing before {0}")]
    SecondsMissingBefore(char),
    #[error("seconds missing after *")]
    SecondsMissingAfterStar,
    #[error("increment missing after +")]
    IncrementMissing,
    #[error("delay missing after {0}")]
    DelayMissing(char),
    #[error("more than one /")]
    TwoSlashes,
    #[error("more than one bonus (+, d or b)")]
    TwoBonuses,
    #[error("a sandclock (*) has neither a move count nor a bonus")]
    SandclockWithExtras,
    #[error("`{found}` is not a whole number of {unit}")]
    NotANumber { unit: Unit, found: String },
    #[error("too many {0} (at most 86400 seconds, a day)")]
    TooLarge(Unit),
    #[error("too many moves (at most 4294967295)")]
    TooManyMoves,
    #[error("{0} must be whole seconds")]
    NotWholeSeconds(Unit),
    #[error("the number of moves must be at least 1")]
    ZeroMoves,
    #[error("a period without a move count lasts for the rest of the game, so it must be the last")]
    SuddenDeathNotLast,
    #[error("the first period gives no time, so the flag would fall at the start")]
    NoTime,
}

impl FromStr for TimeControl {
    type Err = ControlError;

    /// PGN `TimeControl` (fields `moves/seconds`, `seconds`, `seconds+increment`,
    /// `*seconds`, separated by `:`), hector's delays (`d`, `b` in place of `+`) and the
    /// presets of [`PRESETS`].
    fn from_str(text: &str) -> Result<TimeControl, ControlError> {
        let text = text.trim();
        match text {
            "" => return Err(ControlError::Empty),
            "?" => return Err(ControlError::Unknown),
            "-" => return Err(ControlError::NoClock),
            _ => {}
        }
        if let Some((_, canonical)) = PRESETS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(text))
        {
            return canonical.parse();
        }
        // A word that names nothing gets a message about presets, not about numbers.
        if text
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '-' || c == '_')
        {
            return Err(ControlError::UnknownPreset(text.to_owned()));
        }
        let fields: Vec<&str> = text.split(':').collect();
        let last = fields.len() - 1;
        let located = |i: usize, problem| ControlError::Field {
            field: i + 1,
            text: fields[i].to_owned(),
            problem,
        };
        // Syntax first, everywhere: `3600:` has an empty field, not a misplaced `3600`.
        let mut periods = Vec::with_capacity(fields.len());
        for (i, field) in fields.iter().enumerate() {
            let period = parse_field(field).map_err(|p| located(i, p))?;
            periods.push(Period {
                bonus: period.bonus.normalized(),
                ..period
            });
        }
        for (i, period) in periods.iter().enumerate() {
            check_period(period, i, i == last).map_err(|p| located(i, p))?;
        }
        Ok(TimeControl { periods })
    }
}

/// The longest base a typed time control reads as minutes: 180, lichess's longest clock;
/// no game at a club or online gives more in one go, so a larger whole number can only be
/// PGN's seconds (`300+3` is five minutes).
pub const MAX_TYPED_MINUTES: u64 = 180;

/// How hector read a time control a player typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// A preset's name.
    Preset,
    /// `M` or `M+S`: minutes, plus seconds after each move.
    Minutes,
    /// PGN's seconds: a form only PGN (or hector's delays) has, or a base too large for
    /// minutes.
    Seconds,
}

impl TimeControl {
    /// A time control as players type it at clubs and on lichess (`--tc`, `--time`, a game
    /// file): `M+S` is M minutes plus S seconds after each move (`3+2`, `90+30`, `0.5+0`), `M`
    /// alone M minutes. PGN's seconds are taken where they cannot be minutes: a field with
    /// a move count (`40/5400+30`), periods (`:`), a sandclock (`*180`), a delay (`300d5`,
    /// `300b5`), or a whole base over [`MAX_TYPED_MINUTES`] (`300+3`, `5400`). The presets
    /// as everywhere. The reading is returned, for saying it back.
    pub fn typed(text: &str) -> Result<(TimeControl, Reading), ControlError> {
        let t = text.trim();
        let pgn_only = t.contains(['/', ':', '*', 'd', 'D', 'b', 'B']);
        let word = !t.is_empty()
            && t.chars()
                .all(|c| c.is_ascii_alphabetic() || c == '-' || c == '_');
        if word || matches!(t, "" | "?" | "-") {
            return t.parse().map(|c| (c, Reading::Preset));
        }
        if pgn_only {
            return t.parse().map(|c| (c, Reading::Seconds));
        }
        let (base, increment) = match t.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (t, None),
        };
        // A whole number too large for minutes (or for any number) is PGN's seconds, which
        // says why it is too large if it is.
        let whole = !base.is_empty() && base.bytes().all(|b| b.is_ascii_digit());
        if whole && base.parse::<u64>().map_or(true, |n| n > MAX_TYPED_MINUTES) {
            return t.parse().map(|c| (c, Reading::Seconds));
        }
        let located = |problem| ControlError::Field {
            field: 1,
            text: t.to_owned(),
            problem,
        };
        if base.is_empty() {
            return Err(located(FieldProblem::SecondsMissingBefore('+')));
        }
        let time = minutes(base).map_err(located)?;
        let bonus = match increment {
            None => Bonus::None,
            Some("") => return Err(located(FieldProblem::IncrementMissing)),
            Some(i) => Bonus::Fischer(seconds(i, Unit::Bonus).map_err(located)?),
        };
        let control =
            TimeControl::new(vec![Period::sudden_death(time, bonus)]).map_err(|e| match e {
                ControlError::Period { problem, .. } => located(problem),
                other => other,
            })?;
        Ok((control, Reading::Minutes))
    }
}

/// "3", "0.5", "1,5" minutes as whole seconds.
fn minutes(text: &str) -> Result<Duration, FieldProblem> {
    let not_a_number = || FieldProblem::NotANumber {
        unit: Unit::Minutes,
        found: text.to_owned(),
    };
    let (whole, fraction) = match text.split_once(['.', ',']) {
        Some((w, f)) => (w, f),
        None => (text, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !all_digits(whole) || !all_digits(fraction) {
        return Err(not_a_number());
    }
    if text.contains(['.', ',']) && fraction.is_empty() {
        return Err(not_a_number());
    }
    let too_large = || FieldProblem::TooLarge(Unit::Minutes);
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| too_large())?
    };
    // Sixty seconds a minute: a fraction of more than two places cannot give whole seconds
    // unless its further digits are zeros.
    let fraction = fraction.trim_end_matches('0');
    if fraction.len() > 2 {
        return Err(FieldProblem::NotWholeSeconds(Unit::Minutes));
    }
    let scale = 10u64.pow(fraction.len() as u32);
    let part: u64 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().map_err(|_| not_a_number())?
    };
    if !(part * 60).is_multiple_of(scale) {
        return Err(FieldProblem::NotWholeSeconds(Unit::Minutes));
    }
    let secs = whole
        .checked_mul(60)
        .and_then(|s| s.checked_add(part * 60 / scale))
        .filter(|&s| s <= MAX_SECONDS)
        .ok_or_else(too_large)?;
    Ok(Duration::from_secs(secs))
}

fn parse_field(field: &str) -> Result<Period, FieldProblem> {
    if field.is_empty() {
        return Err(FieldProblem::EmptyField);
    }
    if let Some(rest) = field.strip_prefix('*') {
        // A sandclock has no equivalent on a digital clock; it is played as sudden death.
        if rest.is_empty() {
            return Err(FieldProblem::SecondsMissingAfterStar);
        }
        if rest.contains(['/', '+', 'd', 'D', 'b', 'B', '*']) {
            return Err(FieldProblem::SandclockWithExtras);
        }
        return Ok(Period::sudden_death(
            seconds(rest, Unit::Seconds)?,
            Bonus::None,
        ));
    }
    let (moves, timing) = match field.split_once('/') {
        None => (None, field),
        Some((moves, timing)) => {
            if timing.contains('/') {
                return Err(FieldProblem::TwoSlashes);
            }
            if moves.is_empty() {
                return Err(FieldProblem::MovesMissing);
            }
            if timing.is_empty() {
                return Err(FieldProblem::SecondsMissingAfterSlash);
            }
            (Some(move_count(moves)?), timing)
        }
    };
    let markers = timing
        .char_indices()
        .filter(|(_, c)| matches!(c, '+' | 'd' | 'D' | 'b' | 'B'))
        .collect::<Vec<_>>();
    let (time, bonus) = match markers.as_slice() {
        [] => (seconds(timing, Unit::Seconds)?, Bonus::None),
        [(at, marker)] => {
            let (time, amount) = (&timing[..*at], &timing[at + marker.len_utf8()..]);
            if time.is_empty() {
                return Err(FieldProblem::SecondsMissingBefore(*marker));
            }
            let time = seconds(time, Unit::Seconds)?;
            if amount.is_empty() {
                return Err(match marker {
                    '+' => FieldProblem::IncrementMissing,
                    m => FieldProblem::DelayMissing(*m),
                });
            }
            let amount = seconds(amount, Unit::Bonus)?;
            let bonus = match marker {
                '+' => Bonus::Fischer(amount),
                'd' | 'D' => Bonus::SimpleDelay(amount),
                _ => Bonus::Bronstein(amount),
            };
            (time, bonus)
        }
        _ => return Err(FieldProblem::TwoBonuses),
    };
    Ok(Period { moves, time, bonus })
}

fn digits(text: &str, unit: Unit) -> Result<&str, FieldProblem> {
    // `u64::from_str` would take a leading `+`; only digits are a number here.
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FieldProblem::NotANumber {
            unit,
            found: text.to_owned(),
        });
    }
    Ok(text)
}

fn seconds(text: &str, unit: Unit) -> Result<Duration, FieldProblem> {
    let n: u64 = digits(text, unit)?
        .parse()
        .map_err(|_| FieldProblem::TooLarge(unit))?;
    if n > MAX_SECONDS {
        return Err(FieldProblem::TooLarge(unit));
    }
    Ok(Duration::from_secs(n))
}

fn move_count(text: &str) -> Result<u32, FieldProblem> {
    digits(text, Unit::Moves)?
        .parse()
        .map_err(|_| FieldProblem::TooManyMoves)
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        // Validated periods hold whole seconds; a fraction would be cut off here.
        write!(f, "{}", self.time.as_secs())?;
        match self.bonus {
            Bonus::None => Ok(()),
            Bonus::Fischer(d) => write!(f, "+{}", d.as_secs()),
            Bonus::SimpleDelay(d) => write!(f, "d{}", d.as_secs()),
            Bonus::Bronstein(d) => write!(f, "b{}", d.as_secs()),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.periods.iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(text: &str) -> Result<(String, Reading), ControlError> {
        TimeControl::typed(text).map(|(t, r)| (t.to_string(), r))
    }

    /// The one rule of every mode: minutes as players type them, PGN's seconds where the
    /// text cannot be minutes, the presets.
    #[test]
    fn typed_controls_are_minutes_unless_only_pgn_can_mean_them() {
        use Reading::{Minutes, Preset, Seconds};
        for (text, canonical, reading) in [
            ("3+2", "180+2", Minutes),
            ("15+10", "900+10", Minutes),
            ("90+30", "5400+30", Minutes),
            ("5", "300", Minutes),
            (" 10 ", "600", Minutes),
            ("0.5+0", "30", Minutes),
            ("1,5+1", "90+1", Minutes),
            (".25+0", "15", Minutes),
            ("180", "10800", Minutes),
            ("181", "181", Seconds),
            ("300+3", "300+3", Seconds),
            ("5400", "5400", Seconds),
            ("40/5400+30:1800+30", "40/5400+30:1800+30", Seconds),
            ("40/90", "40/90", Seconds),
            ("300d5", "300d5", Seconds),
            ("300b5", "300b5", Seconds),
            ("*3", "3", Seconds),
            ("blitz", "180+2", Preset),
            ("Classical", "40/5400+30:1800+30", Preset),
        ] {
            assert_eq!(
                typed(text),
                Ok((canonical.to_string(), reading)),
                "{text:?}"
            );
        }
        let field = |text: &str, problem| {
            Err(ControlError::Field {
                field: 1,
                text: text.to_string(),
                problem,
            })
        };
        assert_eq!(
            typed("x+3"),
            field(
                "x+3",
                FieldProblem::NotANumber {
                    unit: Unit::Minutes,
                    found: "x".into()
                }
            )
        );
        assert_eq!(typed("3+"), field("3+", FieldProblem::IncrementMissing));
        assert_eq!(
            typed("+3"),
            field("+3", FieldProblem::SecondsMissingBefore('+'))
        );
        assert_eq!(
            typed("0.001"),
            field("0.001", FieldProblem::NotWholeSeconds(Unit::Minutes))
        );
        assert_eq!(typed("0+2"), field("0+2", FieldProblem::NoTime));
        assert_eq!(
            typed("3."),
            field(
                "3.",
                FieldProblem::NotANumber {
                    unit: Unit::Minutes,
                    found: "3.".into()
                }
            )
        );
        assert_eq!(
            typed("speedy"),
            Err(ControlError::UnknownPreset("speedy".into()))
        );
        assert_eq!(typed(""), Err(ControlError::Empty));
        assert!(typed("99999999999999999999999").is_err());
        assert!(typed("1441.5").is_err(), "more than a day");
    }

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    fn tc(text: &str) -> TimeControl {
        text.parse().expect("test time control")
    }

    #[test]
    fn pgn_examples_and_extensions_parse() {
        let fischer = |s| Bonus::Fischer(secs(s));
        let table: &[(&str, Vec<Period>)] = &[
            (
                "40/5400+30:1800+30",
                vec![
                    Period::moves(40, secs(5400), fischer(30)),
                    Period::sudden_death(secs(1800), fischer(30)),
                ],
            ),
            ("300+3", vec![Period::sudden_death(secs(300), fischer(3))]),
            ("3600", vec![Period::sudden_death(secs(3600), Bonus::None)]),
            (
                "40/7200:3600",
                vec![
                    Period::moves(40, secs(7200), Bonus::None),
                    Period::sudden_death(secs(3600), Bonus::None),
                ],
            ),
            ("*180", vec![Period::sudden_death(secs(180), Bonus::None)]),
            (
                "300d5",
                vec![Period::sudden_death(secs(300), Bonus::SimpleDelay(secs(5)))],
            ),
            (
                "300b5",
                vec![Period::sudden_death(secs(300), Bonus::Bronstein(secs(5)))],
            ),
            (
                "40/7200d30:20/3600B10",
                vec![
                    Period::moves(40, secs(7200), Bonus::SimpleDelay(secs(30))),
                    Period::moves(20, secs(3600), Bonus::Bronstein(secs(10))),
                ],
            ),
            // A zero bonus is no bonus.
            ("300+0", vec![Period::sudden_death(secs(300), Bonus::None)]),
            // Delay only: each move has five seconds.
            (
                "0d5",
                vec![Period::sudden_death(
                    Duration::ZERO,
                    Bonus::SimpleDelay(secs(5)),
                )],
            ),
            (" 60 ", vec![Period::sudden_death(secs(60), Bonus::None)]),
        ];
        for (text, periods) in table {
            assert_eq!(tc(text).periods(), periods.as_slice(), "{text}");
        }
    }

    #[test]
    fn presets_are_fide_defaults() {
        for (name, canonical) in [
            ("classical", "40/5400+30:1800+30"),
            ("Olympiad", "5400+30"),
            ("RAPID", "900+10"),
            ("blitz", "180+2"),
        ] {
            assert_eq!(tc(name).to_string(), canonical, "{name}");
        }
    }

    #[test]
    fn display_is_canonical() {
        for (text, canonical) in [
            ("40/5400+30:1800+30", "40/5400+30:1800+30"),
            ("*180", "180"),
            ("0300+03", "300+3"),
            ("300D5", "300d5"),
            ("40/7200:20/3600", "40/7200:20/3600"),
        ] {
            assert_eq!(tc(text).to_string(), canonical);
            assert_eq!(tc(canonical), tc(text));
        }
    }

    #[test]
    fn errors_say_what_and_where() {
        let table = [
            ("", "the time control is empty"),
            (
                "?",
                "the time control is unknown (`?` in PGN); hector needs a concrete time control, such as `40/5400+30:1800+30` or `rapid`",
            ),
            (
                "-",
                "the game is played without a clock (`-` in PGN); hector needs a concrete time control, such as `40/5400+30:1800+30` or `rapid`",
            ),
            (
                "bullet",
                "`bullet` is neither a time control nor a preset; the presets are classical, olympiad, rapid and blitz",
            ),
            ("40/5400:30+", "field 2 `30+`: increment missing after +"),
            ("300d", "field 1 `300d`: delay missing after d"),
            ("300b", "field 1 `300b`: delay missing after b"),
            ("+5", "field 1 `+5`: seconds missing before +"),
            ("/300", "field 1 `/300`: number of moves missing before /"),
            ("40/", "field 1 `40/`: seconds missing after /"),
            ("40/60/30", "field 1 `40/60/30`: more than one /"),
            (
                "300+3+2",
                "field 1 `300+3+2`: more than one bonus (+, d or b)",
            ),
            (
                "300+3d2",
                "field 1 `300+3d2`: more than one bonus (+, d or b)",
            ),
            (
                "40/7200::3600",
                "field 2 ``: the field is empty (two `:` in a row, or a `:` at an end)",
            ),
            (
                "3600:",
                "field 2 ``: the field is empty (two `:` in a row, or a `:` at an end)",
            ),
            (
                "5 min",
                "field 1 `5 min`: `5 min` is not a whole number of seconds",
            ),
            (
                "x/300",
                "field 1 `x/300`: `x` is not a whole number of moves",
            ),
            (
                "300+x",
                "field 1 `300+x`: `x` is not a whole number of seconds of increment or delay",
            ),
            (
                "-300",
                "field 1 `-300`: `-300` is not a whole number of seconds",
            ),
            (
                "1.5",
                "field 1 `1.5`: `1.5` is not a whole number of seconds",
            ),
            (
                "0/300",
                "field 1 `0/300`: the number of moves must be at least 1",
            ),
            (
                "3600:40/7200",
                "field 1 `3600`: a period without a move count lasts for the rest of the game, so it must be the last",
            ),
            (
                "0",
                "field 1 `0`: the first period gives no time, so the flag would fall at the start",
            ),
            (
                "0+5",
                "field 1 `0+5`: the first period gives no time, so the flag would fall at the start",
            ),
            (
                "86401",
                "field 1 `86401`: too many seconds (at most 86400 seconds, a day)",
            ),
            (
                "99999999999999999999999",
                "field 1 `99999999999999999999999`: too many seconds (at most 86400 seconds, a day)",
            ),
            (
                "300+86401",
                "field 1 `300+86401`: too many seconds of increment or delay (at most 86400 seconds, a day)",
            ),
            (
                "4294967296/60",
                "field 1 `4294967296/60`: too many moves (at most 4294967295)",
            ),
            ("*", "field 1 `*`: seconds missing after *"),
            (
                "*180+2",
                "field 1 `*180+2`: a sandclock (*) has neither a move count nor a bonus",
            ),
        ];
        for (text, message) in table {
            let err = text.parse::<TimeControl>().expect_err(text);
            assert_eq!(err.to_string(), message, "{text:?}");
        }
    }

    #[test]
    fn new_validates_like_the_parser() {
        let err = TimeControl::new(vec![Period::sudden_death(
            Duration::from_millis(1500),
            Bonus::None,
        )])
        .expect_err("fraction");
        assert_eq!(err.to_string(), "period 1: seconds must be whole seconds");
        assert_eq!(TimeControl::new(vec![]), Err(ControlError::NoPeriods));
        let zero = TimeControl::sudden_death(secs(60), Bonus::Fischer(Duration::ZERO));
        assert_eq!(zero.map(|t| t.periods()[0].bonus), Ok(Bonus::None));
    }

    #[test]
    fn categories_a1_b1_and_penalties() {
        for (text, category, penalty) in [
            ("40/5400+30:1800+30", Category::Standard, 120),
            ("3600", Category::Standard, 120),
            // 50 min + 60 x 10 s = 60 min: not less than 60, so standard.
            ("3000+10", Category::Standard, 120),
            ("2999+10", Category::Rapid, 120),
            ("900+10", Category::Rapid, 120),
            // 5 min + 60 x 5 s = 10 min: blitz.
            ("300+5", Category::Blitz, 60),
            ("300d6", Category::Rapid, 120),
            ("180+2", Category::Blitz, 60),
            ("601", Category::Rapid, 120),
            ("600", Category::Blitz, 60),
        ] {
            let t = tc(text);
            assert_eq!(t.category(), category, "{text}");
            assert_eq!(t.penalty(), secs(penalty), "{text}");
        }
    }

    #[test]
    fn periods_and_controls_with_a_repeating_last_period() {
        let t = tc("40/7200:20/3600");
        assert_eq!(t.control_after(0), Some(40));
        assert_eq!(t.control_after(1), Some(60));
        assert_eq!(t.control_after(2), Some(80));
        assert_eq!(t.control_after(5), Some(140));
        for (moves, period) in [(0, 0), (39, 0), (40, 1), (59, 1), (60, 2), (79, 2), (80, 3)] {
            assert_eq!(t.period_for_moves(moves), period, "{moves}");
        }
        assert_eq!(t.period(7), &Period::moves(20, secs(3600), Bonus::None));
        assert!(!t.is_last_period(7));
        // Huge move counts neither loop nor overflow.
        assert_eq!(
            t.period_for_moves(u32::MAX),
            2 + (u32::MAX as usize - 60) / 20
        );
        assert_eq!(t.control_after(usize::MAX), Some(u64::MAX));

        let t = tc("40/5400+30:1800+30");
        assert_eq!(t.control_after(1), None);
        assert_eq!(t.period_for_moves(1000), 1);
        assert!(t.is_last_period(1) && t.is_last_period(9));
    }

    fn arb_bonus() -> impl proptest::strategy::Strategy<Value = Bonus> {
        use proptest::prelude::*;
        (0u8..4, 0u64..=MAX_SECONDS).prop_map(|(kind, s)| match kind {
            0 => Bonus::None,
            1 => Bonus::Fischer(secs(s)),
            2 => Bonus::Bronstein(secs(s)),
            _ => Bonus::SimpleDelay(secs(s)),
        })
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_strings_never_panic(text in ".{0,40}") {
            let _ = text.parse::<TimeControl>();
        }

        #[test]
        fn control_like_strings_never_panic(text in "[0-9/+:*dbDB?. -]{0,40}") {
            if let Ok(t) = text.parse::<TimeControl>() {
                proptest::prop_assert_eq!(t.to_string().parse::<TimeControl>(), Ok(t));
            }
        }

        #[test]
        fn display_round_trips(
            periods in proptest::collection::vec(
                (proptest::option::of(1u32..200), 1u64..=MAX_SECONDS, arb_bonus()), 1..5),
            last_sudden_death in proptest::bool::ANY,
        ) {
            let n = periods.len();
            let periods = periods
                .into_iter()
                .enumerate()
                .map(|(i, (moves, time, bonus))| Period {
                    // Only the last period may lack a move count.
                    moves: if i + 1 == n && last_sudden_death { None } else { moves.or(Some(40)) },
                    time: secs(time),
                    bonus,
                })
                .collect();
            let t = TimeControl::new(periods).expect("valid by construction");
            proptest::prop_assert_eq!(t.to_string().parse::<TimeControl>(), Ok(t));
        }

        /// Nothing a player types makes the typed reader panic, and whatever it reads is a
        /// valid control that round-trips through the journal's PGN form.
        #[test]
        fn typed_strings_never_panic(text in "[0-9/+:*dbDB?.,a-z -]{0,24}") {
            if let Ok((t, _)) = TimeControl::typed(&text) {
                proptest::prop_assert_eq!(t.to_string().parse::<TimeControl>(), Ok(t));
            }
        }

        /// `M+S` as players type it: M minutes plus S seconds, for every base up to the
        /// longest lichess clock; above it, PGN's seconds.
        #[test]
        fn typed_minutes_and_seconds(m in 1u64..=400, s in 0u64..=180) {
            let (t, reading) = TimeControl::typed(&format!("{m}+{s}")).expect("valid");
            let base = if m <= MAX_TYPED_MINUTES { m * 60 } else { m };
            let expected = TimeControl::sudden_death(secs(base), Bonus::Fischer(secs(s)))
                .expect("valid");
            proptest::prop_assert_eq!(&t, &expected);
            let read = if m <= MAX_TYPED_MINUTES { Reading::Minutes } else { Reading::Seconds };
            proptest::prop_assert_eq!(reading, read);
        }
    }
}
