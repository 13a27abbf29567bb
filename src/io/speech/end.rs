//! When a screen reader has finished what hector gave it, so that the next sound is heard
//! after those words and never over them.
//!
//! NVDA with a controller client of 2024.1 or later tells the end: hector speaks through
//! `speakSsml` and learns the end from a `<mark>` at the end of the SSML, or from the call
//! returning. JAWS cannot tell it: the end is estimated from the text's length at the rate
//! the player's screen reader speaks at. Either way the wait is bounded, so that a lost mark
//! or a wrong estimate costs at most an overlap, never a silent hector.
#![cfg_attr(
    not(windows),
    allow(
        dead_code,
        reason = "NVDA and JAWS run on Windows; the rules are tested everywhere"
    )
)]

use std::time::{Duration, Instant};

/// The rate a screen reader is taken to speak at when the configuration names none, in words
/// per minute: JAWS' and NVDA's voices out of the box speak at about this rate (a reading
/// voice, slower than most experienced players set). Erring slow makes a sound wait a
/// little too long rather than start over the words.
pub const DEFAULT_WPM: u32 = crate::core::settings::DEFAULT_SCREEN_READER_RATE;
/// The slowest and fastest rates the configuration may name.
pub const WPM_RANGE: std::ops::RangeInclusive<u32> = crate::core::settings::SCREEN_READER_RATES;
/// Letters of a word with its space in hector's sentences ("Springer", "Felix", "drei").
const LETTERS_PER_WORD: u64 = 6;
/// The voice's start before the first word.
const START: Duration = Duration::from_millis(150);
/// A pause at a mark that ends a phrase or a sentence.
const PAUSE: Duration = Duration::from_millis(150);
/// The longest a sound waits for an estimated end: the longest move's sentence at the default
/// rate fits ("Schwarz: Springer Felix drei schlägt Eva fünf, Schach", about 3.5 s); a long
/// text read out lets the next sound start over its tail rather than keep the player waiting
/// for words a fast voice has long finished.
pub(crate) const ESTIMATE_LIMIT: Duration = Duration::from_secs(4);
/// The rate at which a told end is given up for: half the default, for a voice slowed down
/// or words queued behind the screen reader's own.
const TOLD_WPM: u32 = DEFAULT_WPM / 2;
/// And a moment more for the way through NVDA's queue.
const TOLD_MARGIN: Duration = Duration::from_secs(2);

/// How a screen reader's end is known, for the player to be told (the status line, `hector
/// say`): what decides whether a sound can start over the tail of the words before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// It tells the end (NVDA 2024.1 and later): sounds come after the words.
    Reported,
    /// It is estimated (JAWS, NVDA's clients before 2024.1): sounds wait the estimate, at
    /// most [`ESTIMATE_LIMIT`].
    Estimated,
}

/// How a backend learns that its utterance has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EndSignal {
    /// It tells the end (NVDA's mark, its call returning).
    Told,
    /// It cannot: estimated at this many words per minute (JAWS, NVDA's `speakText`).
    Estimated(u32),
}

/// How long `text` takes to say at `wpm` words per minute.
pub(crate) fn estimate(text: &str, wpm: u32) -> Duration {
    let letters = text.chars().filter(|c| !c.is_whitespace()).count() as u64;
    let words = text.split_whitespace().count() as u64;
    let marks = text.chars().filter(|c| ",.;:!?".contains(*c)).count() as u32;
    // Letters and spaces, at LETTERS_PER_WORD to the word.
    let per_minute = u64::from(wpm.clamp(*WPM_RANGE.start(), *WPM_RANGE.end())) * LETTERS_PER_WORD;
    let spoken = Duration::from_millis((letters + words) * 60_000 / per_minute);
    START + spoken + PAUSE * marks
}

/// The longest hector waits for the end of `text` with a backend of this signal: a told end
/// within a generous bound, an estimated one within [`ESTIMATE_LIMIT`].
pub(crate) fn longest_wait(signal: EndSignal, text: &str) -> Duration {
    match signal {
        EndSignal::Told => estimate(text, TOLD_WPM) + TOLD_MARGIN,
        EndSignal::Estimated(wpm) => estimate(text, wpm).min(ESTIMATE_LIMIT),
    }
}

/// The longest hector may wait for any screen reader's end of `text`: the supervisor's
/// watchdog allows this (and its own limit) before it calls an utterance hung, so a screen
/// reader that is only slow is never taken for a hung one.
pub(crate) fn longest_wait_of_any(text: &str) -> Duration {
    longest_wait(EndSignal::Told, text).max(ESTIMATE_LIMIT)
}

/// An utterance handed to a screen reader, until it has ended or hector stops waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pending {
    since: Instant,
    wait: Duration,
    signal: EndSignal,
}

impl Pending {
    pub(crate) fn new(signal: EndSignal, text: &str, now: Instant) -> Pending {
        Pending {
            since: now,
            wait: longest_wait(signal, text),
            signal,
        }
    }

    /// Whether it is still being said at `now`; `told` is whether the backend has told its
    /// end (never, for an estimated one).
    pub(crate) fn speaking(&self, now: Instant, told: bool) -> bool {
        let waited = now.saturating_duration_since(self.since);
        match self.signal {
            EndSignal::Told => !told && waited < self.wait,
            EndSignal::Estimated(_) => waited < self.wait,
        }
    }

    /// When hector stops waiting for it.
    pub(crate) fn given_up_at(&self) -> Instant {
        self.since + self.wait
    }
}

/// The SSML hector gives NVDA for `text`: the text, and a mark named after the utterance's
/// number at its end, reached when the last word has been said.
pub(crate) fn ssml(text: &str, number: u64) -> String {
    let mut s = String::with_capacity(text.len() + 48);
    s.push_str("<speak>");
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            c => s.push(c),
        }
    }
    s.push_str(&format!("<mark name=\"{}\"/></speak>", mark_name(number)));
    s
}

const MARK_PREFIX: &str = "hector-";

fn mark_name(number: u64) -> String {
    format!("{MARK_PREFIX}{number}")
}

/// The utterance's number in a mark hector put there; `None` for any other mark.
pub(crate) fn mark_number(name: &str) -> Option<u64> {
    name.strip_prefix(MARK_PREFIX)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOVE: &str = "Schwarz: Springer Felix drei schlägt Eva fünf, Schach";

    #[test]
    fn the_estimate_grows_with_the_text_its_marks_and_slowness() {
        assert!(estimate(MOVE, 180) > estimate("Eva vier", 180));
        assert!(estimate("Eva vier", 120) > estimate("Eva vier", 180));
        // A mark costs a pause, beyond its letter.
        assert!(estimate("Eva vier.", 180) >= estimate("Eva vier", 180) + PAUSE);
        // Eight words and two marks at 180 words a minute (18 letters a second): about three
        // seconds, as a reading voice says it.
        let m = estimate(MOVE, 180);
        assert!(
            m > Duration::from_millis(2500) && m < Duration::from_millis(3500),
            "{m:?}"
        );
        // A rate out of range is taken at the nearest end: never a division by nothing.
        assert_eq!(estimate(MOVE, 0), estimate(MOVE, *WPM_RANGE.start()));
        assert_eq!(estimate("", 180), START);
    }

    #[test]
    fn an_estimated_end_is_waited_for_at_most_its_limit_a_told_one_longer() {
        let short = EndSignal::Estimated(DEFAULT_WPM);
        assert_eq!(
            longest_wait(short, "Eva vier"),
            estimate("Eva vier", DEFAULT_WPM)
        );
        let long = MOVE.repeat(5);
        assert_eq!(longest_wait(short, &long), ESTIMATE_LIMIT);
        // A told end is waited for longer than any voice at the default rate takes.
        for text in ["Eva vier", MOVE, long.as_str()] {
            assert!(longest_wait(EndSignal::Told, text) > estimate(text, DEFAULT_WPM));
            assert!(longest_wait_of_any(text) >= longest_wait(EndSignal::Told, text));
            assert!(longest_wait_of_any(text) >= longest_wait(short, text));
        }
    }

    #[test]
    fn an_utterance_is_spoken_until_its_end_is_told_or_the_wait_is_over() {
        let t0 = Instant::now();
        let told = Pending::new(EndSignal::Told, "Eva vier", t0);
        let ms = |n| t0 + Duration::from_millis(n);
        assert!(told.speaking(ms(100), false));
        assert!(!told.speaking(ms(100), true), "the end told ends it");
        assert!(!told.speaking(told.given_up_at(), false), "a lost mark");
        let guessed = Pending::new(EndSignal::Estimated(180), "Eva vier", t0);
        let end = estimate("Eva vier", 180);
        assert!(guessed.speaking(t0 + end - Duration::from_millis(1), false));
        assert!(!guessed.speaking(t0 + end, false));
        // An estimate cannot be told: JAWS says nothing, the estimate stands.
        assert!(guessed.speaking(ms(10), true));
    }

    #[test]
    fn the_ssml_carries_the_text_escaped_and_a_mark_at_its_end() {
        let s = ssml("Dame <d8> & \"x\" 'y'", 7);
        assert_eq!(
            s,
            "<speak>Dame &lt;d8&gt; &amp; &quot;x&quot; &apos;y&apos;\
             <mark name=\"hector-7\"/></speak>"
        );
        assert_eq!(mark_number("hector-7"), Some(7));
        assert_eq!(mark_number("hector-x"), None);
        assert_eq!(mark_number("other-7"), None);
    }
}
