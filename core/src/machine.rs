//! The one shape every mode's state machine has: it takes events, returns the effects the
//! adapters carry out in order, and says when it next needs time. The adapters own the clock
//! and wake the machine with its tick event at that instant; nothing here waits or reads time.

use crate::time::Timestamp;

/// A mode's pure state machine.
pub trait Machine {
    /// What happens to it: a typed line, a key's command, a board's recognition, time passing…
    type Event;
    /// What the adapters must do, in this order.
    type Effect;

    /// Reacts to one event at `now`.
    fn handle(&mut self, event: Self::Event, now: Timestamp) -> Vec<Self::Effect>;

    /// The next instant something falls due (a flag, an announcement, a retry), if any: the
    /// adapter wakes the machine then with its tick event.
    fn next_deadline(&self, now: Timestamp) -> Option<Timestamp>;
}

/// How urgently something is said (the speech queue's kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Urgency {
    /// A move: queued, never dropped.
    Move,
    /// An answer: a newer one replaces it.
    Answer,
    /// Interrupts: flag fall, illegal move, board fault.
    Urgent,
}

/// Speech controls the player asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpeechControl {
    Repeat,
    Silence,
    Mute,
    Unmute,
    Faster,
    Slower,
}

/// What every machine's effects share (play, the exercises, the watch, the arbiter's games,
/// online): each machine's effect wraps it, so that the adapters carry it out in one way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Common {
    /// Say these lines (as one utterance) and show them (one line each).
    Say {
        urgency: Urgency,
        lines: Vec<String>,
    },
    Speech(SpeechControl),
    /// Sounds heard before the next words said (a capture's before its move's words).
    Cue(Vec<crate::cue::Cue>),
    /// The typed line was not taken (not understood, not a legal move, not taken here): it
    /// changed nothing, and a screen keeps it in the input line for retyping.
    Refused,
    Quit,
}

/// `text` said with `urgency`, as any machine's effect.
pub(crate) fn say<E: From<Common>>(urgency: Urgency, text: impl Into<String>) -> E {
    E::from(Common::Say {
        urgency,
        lines: vec![text.into()],
    })
}

/// An answer (a newer one replaces it while it waits to be said).
pub(crate) fn answer<E: From<Common>>(text: impl Into<String>) -> E {
    say(Urgency::Answer, text)
}

/// An answer of several lines, said as one.
pub(crate) fn lines<E: From<Common>>(lines: Vec<String>) -> E {
    E::from(Common::Say {
        urgency: Urgency::Answer,
        lines,
    })
}
