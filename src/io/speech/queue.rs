//! What to say next: the speech thread's queue policy, kept free of I/O so it can be tested
//! on its own.
//!
//! - A move announcement is queued and never dropped by the policy (only an explicit stop or
//!   mute silences it).
//! - An answer to a question replaces an older answer that has not been spoken yet, and
//!   interrupts an answer being spoken: the player wants the latest answer.
//! - The rest of an answer (a result and the next question, a help and its keys) is queued
//!   behind the answer it continues, never cuts it, and goes with it when a newer answer
//!   comes.
//! - An urgent message (flag fall, illegal move, board fault) interrupts whatever is being
//!   said and goes first; an interrupted move announcement is said again afterwards.

use std::collections::VecDeque;

/// The kinds of speech requests, in the order they are served.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// Flag fall, illegal move, board fault: interrupts.
    Urgent,
    /// A move announcement: queued, never lost.
    Move,
    /// An answer to a question: replaces an older unanswered answer.
    Answer,
    /// The rest of the answer just given: said after it, dropped with it.
    More,
}

/// One thing to say, in one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Utterance {
    pub(crate) text: String,
    pub(crate) kind: Kind,
    /// Language code for the speech engine (e.g. "de").
    pub(crate) lang: String,
    /// Sounds heard before the text, in order (a capture's before its move's words).
    pub(crate) cues: Vec<crate::core::cue::Cue>,
    /// Who waits for those sounds to end (a printed line); not part of what is said.
    pub(crate) played: Played,
}

/// Told once the sounds before an utterance's words have ended, or that none will play: a
/// line printed for a screen reader waits for it. An utterance dropped unsaid drops it
/// untold, which ends the wait as well.
#[derive(Clone, Debug, Default)]
pub(crate) struct Played(pub(crate) Option<crossbeam_channel::Sender<()>>);

impl Played {
    pub(crate) fn tell(&self) {
        if let Some(tx) = &self.0 {
            // Told already (a repeat, an interrupted utterance said again), or nobody waits.
            let _ = tx.try_send(());
        }
    }
}

/// Whoever waits is no part of what an utterance says.
impl PartialEq for Played {
    fn eq(&self, _: &Played) -> bool {
        true
    }
}

impl Eq for Played {}

/// What the speech thread must do with the utterance being spoken when a request arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Let it finish.
    Continue,
    /// Stop it now; the queue says what comes next.
    Interrupt,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Queue {
    urgent: VecDeque<Utterance>,
    moves: VecDeque<Utterance>,
    /// The newest answer, in its parts: an `Answer` first unless that part is being said.
    answer: VecDeque<Utterance>,
}

impl Queue {
    pub(crate) fn is_empty(&self) -> bool {
        self.urgent.is_empty() && self.moves.is_empty() && self.answer.is_empty()
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.urgent.len() + self.moves.len() + self.answer.len()
    }

    /// Adds a request; `current` is what is being said now, if anything.
    pub(crate) fn push(&mut self, u: Utterance, current: Option<&Utterance>) -> Effect {
        match u.kind {
            Kind::Urgent => {
                self.urgent.push_back(u);
                if current.is_some_and(|c| c.kind != Kind::Urgent) {
                    Effect::Interrupt
                } else {
                    Effect::Continue
                }
            }
            Kind::Move => {
                self.moves.push_back(u);
                Effect::Continue
            }
            Kind::Answer => {
                self.answer.clear();
                self.answer.push_back(u);
                if current.is_some_and(|c| matches!(c.kind, Kind::Answer | Kind::More)) {
                    Effect::Interrupt
                } else {
                    Effect::Continue
                }
            }
            Kind::More => {
                self.answer.push_back(u);
                Effect::Continue
            }
        }
    }

    /// Puts back an utterance that was interrupted or not confirmed spoken. A move goes back
    /// to the front of the moves; a part of an answer goes back before the rest of its
    /// answer, and is dropped when a newer answer waits.
    pub(crate) fn put_back(&mut self, u: Utterance) {
        match u.kind {
            Kind::Urgent => self.urgent.push_front(u),
            Kind::Move => self.moves.push_front(u),
            Kind::Answer | Kind::More => {
                let newer = self.answer.front().is_some_and(|a| a.kind == Kind::Answer);
                if !newer {
                    self.answer.push_front(u);
                }
            }
        }
    }

    /// The next thing to say.
    pub(crate) fn pop(&mut self) -> Option<Utterance> {
        self.urgent
            .pop_front()
            .or_else(|| self.moves.pop_front())
            .or_else(|| self.answer.pop_front())
    }

    /// Drops everything (the player asked for silence).
    pub(crate) fn clear(&mut self) {
        self.urgent.clear();
        self.moves.clear();
        self.answer.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(text: &str, kind: Kind) -> Utterance {
        Utterance {
            text: text.into(),
            kind,
            lang: "de".into(),
            cues: Vec::new(),
            played: Played::default(),
        }
    }

    fn drain(q: &mut Queue) -> Vec<String> {
        std::iter::from_fn(|| q.pop()).map(|u| u.text).collect()
    }

    #[test]
    fn moves_keep_their_order_and_are_never_replaced() {
        let mut q = Queue::default();
        for t in ["Eva vier", "Eva fünf", "Springer Felix drei"] {
            assert_eq!(q.push(u(t, Kind::Move), None), Effect::Continue);
        }
        assert_eq!(
            drain(&mut q),
            ["Eva vier", "Eva fünf", "Springer Felix drei"]
        );
    }

    #[test]
    fn a_newer_answer_replaces_an_unspoken_one_and_interrupts_a_spoken_one() {
        let mut q = Queue::default();
        q.push(u("Weiß am Zug", Kind::Answer), None);
        q.push(u("Letzter Zug Eva vier", Kind::Answer), None);
        assert_eq!(q.len(), 1);
        let speaking = u("Material gleich", Kind::Answer);
        assert_eq!(
            q.push(u("Zwölf Züge", Kind::Answer), Some(&speaking)),
            Effect::Interrupt
        );
        assert_eq!(drain(&mut q), ["Zwölf Züge"]);
        // An answer does not interrupt a move.
        let moving = u("Eva vier", Kind::Move);
        assert_eq!(
            q.push(u("Weiß am Zug", Kind::Answer), Some(&moving)),
            Effect::Continue
        );
    }

    #[test]
    fn urgent_goes_first_and_an_interrupted_move_is_said_again() {
        let mut q = Queue::default();
        q.push(u("Eva fünf", Kind::Move), None);
        q.push(u("Wo ist der König", Kind::Answer), None);
        let speaking = u("Eva vier", Kind::Move);
        assert_eq!(
            q.push(u("Zeitüberschreitung", Kind::Urgent), Some(&speaking)),
            Effect::Interrupt
        );
        q.put_back(speaking);
        assert_eq!(
            drain(&mut q),
            [
                "Zeitüberschreitung",
                "Eva vier",
                "Eva fünf",
                "Wo ist der König"
            ]
        );
        // One urgent message does not cut another short.
        let urgent = u("Fallblättchen", Kind::Urgent);
        assert_eq!(
            q.push(u("Brett getrennt", Kind::Urgent), Some(&urgent)),
            Effect::Continue
        );
    }

    /// A result and the next question: the question waits behind the result, and a newer
    /// answer takes both away.
    #[test]
    fn the_rest_of_an_answer_waits_behind_it_and_goes_with_it() {
        let mut q = Queue::default();
        q.push(u("Gelöst", Kind::Answer), None);
        assert_eq!(q.push(u("Aufgabe 2", Kind::More), None), Effect::Continue);
        assert_eq!(drain(&mut q), ["Gelöst", "Aufgabe 2"]);
        // Said while the result is being said: it does not cut it.
        let speaking = u("Gelöst", Kind::Answer);
        assert_eq!(
            q.push(u("Aufgabe 2", Kind::More), Some(&speaking)),
            Effect::Continue
        );
        // An urgent message cuts the result: it is said again, before the question.
        assert_eq!(
            q.push(u("Brett getrennt", Kind::Urgent), Some(&speaking)),
            Effect::Interrupt
        );
        q.put_back(speaking.clone());
        assert_eq!(drain(&mut q), ["Brett getrennt", "Gelöst", "Aufgabe 2"]);
        // A newer answer interrupts a part being said and drops the rest.
        q.push(u("Aufgabe 3", Kind::More), None);
        let part = u("Aufgabe 2", Kind::More);
        assert_eq!(
            q.push(u("Brett", Kind::Answer), Some(&part)),
            Effect::Interrupt
        );
        q.put_back(part);
        assert_eq!(drain(&mut q), ["Brett"]);
    }

    #[test]
    fn clear_silences_everything() {
        let mut q = Queue::default();
        q.push(u("a", Kind::Move), None);
        q.push(u("b", Kind::Urgent), None);
        q.push(u("c", Kind::Answer), None);
        q.clear();
        assert!(q.is_empty());
        assert_eq!(q.pop(), None);
    }
}
