//! Correspondence (daily) games on lichess: days per move instead of a clock, and the time left
//! said in days and hours, the way a player of such games counts it.

use std::time::Duration;

use shakmaty::Color;

use crate::notation::language::{Language, fill};

/// The days per move lichess allows (`days` of a seek or a challenge).
pub const DAYS: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];

fn count(words: &[String; 2], n: u64) -> String {
    if n == 1 {
        words[0].clone()
    } else {
        fill(&words[1], &[("n", &n.to_string())])
    }
}

/// "2 Tage 5 Stunden", "5 Stunden", "ein Tag"; under an hour as the clock says it.
pub fn days_hours(d: Duration, lang: &Language) -> String {
    let o = &lang.online;
    let secs = d.as_secs();
    let (days, hours) = (secs / 86_400, secs % 86_400 / 3600);
    match (days, hours) {
        (0, 0) => crate::notation::clock_words::duration_words(d, lang),
        (0, h) => count(&o.hours_words, h),
        (d, 0) => count(&o.days_words, d),
        (d, h) => format!("{} {}", count(&o.days_words, d), count(&o.hours_words, h)),
    }
}

/// "Fernpartie, 3 Tage pro Zug".
pub fn control(days: u32, lang: &Language) -> String {
    fill(
        &lang.online.daily_control,
        &[("days", &count(&lang.online.days_words, u64::from(days)))],
    )
}

/// "Weiß noch 2 Tage 5 Stunden".
pub(crate) fn time_left(color: Color, d: Duration, lang: &Language) -> String {
    fill(
        &lang.online.time_left,
        &[("color", lang.color(color)), ("time", &days_hours(d, lang))],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::words::{de, en};

    #[test]
    fn time_left_is_said_in_days_and_hours() {
        let h = |n: u64| Duration::from_secs(n * 3600);
        assert_eq!(days_hours(h(53), de()), "2 Tage 5 Stunden");
        assert_eq!(days_hours(h(24), de()), "ein Tag");
        assert_eq!(days_hours(h(25), de()), "ein Tag eine Stunde");
        assert_eq!(days_hours(h(5), en()), "5 hours");
        assert_eq!(control(3, de()), "Fernpartie, 3 Tage pro Zug");
        assert_eq!(
            time_left(Color::White, h(49), de()),
            "Weiß noch 2 Tage eine Stunde"
        );
    }
}
