//! What an interactive mode says and shows: every sentence goes to the speech thread and to
//! the screen (the full-screen view's "last said" lines, or one printed line each in line
//! mode, where a screen reader or braille display reads them), and the prompt of line mode.

use std::io::Write;

use crate::app::say::notice_text;
use crate::app::ui::keys::KeyOutcome;
use crate::core::matchplay::session::{SpeechControl, Urgency};
use crate::core::notation::language::Language;
use crate::io::speech::{Kind, Notice, Speaker};

/// How many said lines the full-screen view keeps.
const SAID_KEPT: usize = 60;

pub struct Narrator {
    pub speaker: Speaker,
    muted: bool,
    pub full_screen: bool,
    /// The last things said, oldest first (full-screen).
    pub said: Vec<String>,
    /// Where the latest answer begins in `said`.
    pub newest: usize,
    /// The next line shown is the opponent's move, shown after this label (heard without).
    pub label: Option<String>,
    /// The language of the confirmations of the speech controls.
    pub lang: Option<&'static Language>,
    /// A question that waits for its answer (full-screen: kept in view until answered).
    pub question: Option<String>,
    /// Line mode: the prompt is on screen and the player has not pressed Enter yet.
    pub prompt_open: bool,
    prompt: String,
    /// A line about the speech output.
    pub status: String,
    /// The lines told last, for "repeat".
    last: Vec<String>,
    /// The screen must be drawn again.
    pub dirty: bool,
    /// Lines on a terminal in raw mode (a full screen gone to lines because the window is too
    /// small): each line ends with a carriage return too, and typed keys are echoed.
    pub raw: bool,
    /// Line mode: the reader of standard output has gone away (a closed pipe); the mode
    /// ends as when its input ends.
    pub reader_gone: bool,
}

impl Narrator {
    pub fn new(speaker: Speaker, full_screen: bool, prompt: &str) -> Narrator {
        Narrator {
            speaker,
            muted: false,
            full_screen,
            said: Vec::new(),
            newest: 0,
            label: None,
            lang: None,
            question: None,
            prompt_open: false,
            prompt: prompt.to_string(),
            status: String::new(),
            last: Vec::new(),
            reader_gone: false,
            dirty: true,
            raw: false,
        }
    }

    /// Says and shows lines.
    pub fn tell(&mut self, urgency: Urgency, lines: Vec<String>) {
        let kind = match urgency {
            Urgency::Move => Kind::Move,
            Urgency::Answer => Kind::Answer,
            Urgency::Urgent => Kind::Urgent,
        };
        self.speaker.say(kind, lines.join(". "));
        let mut lines = lines;
        if let (Some(label), Some(first)) = (self.label.take(), lines.first_mut()) {
            *first = format!("{label}: {first}");
        }
        self.last.clone_from(&lines);
        self.show(lines);
    }

    /// Says more lines as part of the answer just given (F1: the help, then the keys).
    pub fn tell_more(&mut self, urgency: Urgency, lines: Vec<String>) {
        let (newest, before, added) = (self.newest, self.said.len(), lines.len());
        // Repeating says the whole answer again, not only its last part.
        let mut whole = self.last.clone();
        whole.extend(lines.iter().cloned());
        self.tell(urgency, lines);
        self.last = whole;
        if self.full_screen {
            let dropped = (before + added).saturating_sub(self.said.len());
            self.newest = newest.saturating_sub(dropped);
        }
    }

    /// Shows lines without saying them (what happens in the games an arbiter watches).
    pub fn show(&mut self, lines: Vec<String>) {
        if self.full_screen {
            self.newest = self.said.len();
            self.said.extend(lines);
            let extra = self.said.len().saturating_sub(SAID_KEPT);
            self.said.drain(..extra);
            self.newest = self.newest.saturating_sub(extra);
            self.dirty = true;
        } else {
            self.print(&lines);
        }
    }

    fn print(&mut self, lines: &[String]) {
        let mut out = std::io::stdout().lock();
        // Something said while the prompt waits starts on a line of its own.
        let end = if self.raw { "\r\n" } else { "\n" };
        let mut written = Ok(());
        if self.prompt_open {
            written = write!(out, "{end}");
            self.prompt_open = false;
        }
        for l in lines {
            written = written.and_then(|()| write!(out, "{l}{end}"));
        }
        written = written.and_then(|()| out.flush());
        self.note_write(written);
    }

    /// Any other error (a full disk) changes nothing: the speech goes on.
    fn note_write(&mut self, written: std::io::Result<()>) {
        if written.is_err_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) {
            self.reader_gone = true;
        }
    }

    /// Raw lines: the prompt and what is typed so far, on the current line.
    pub fn echo(&mut self, input: &str) {
        if self.raw && !self.full_screen && !self.prompt.is_empty() {
            let mut out = std::io::stdout().lock();
            let _ = write!(out, "\r\x1b[2K{}: {input}", self.prompt);
            let _ = out.flush();
            self.prompt_open = true;
        }
    }

    /// Line mode: the prompt's words from now on (looking back has its own, so that a screen
    /// reader says the state with every prompt).
    pub fn set_prompt(&mut self, prompt: &str) {
        if self.prompt != prompt {
            self.prompt = prompt.to_string();
        }
    }

    /// Line mode: shows the prompt when the player may type (again).
    pub fn prompt(&mut self) {
        // A mode without a prompt (the clock) prints none.
        if !self.full_screen && !self.prompt_open && !self.prompt.is_empty() {
            let mut out = std::io::stdout().lock();
            let written = write!(out, "{}: ", self.prompt).and_then(|()| out.flush());
            drop(out);
            self.note_write(written);
            self.prompt_open = true;
        }
    }

    /// Repeat, silence, mute, unmute, faster, slower.
    pub fn speech(&mut self, c: SpeechControl) {
        match c {
            SpeechControl::Repeat => {
                // Heard again, and shown again: a screen reader or braille display reads the
                // lines, not the voice.
                self.speaker.repeat();
                self.show(self.last.clone());
            }
            // Each control is confirmed in a word: shown only where speaking would undo it.
            SpeechControl::Silence => {
                self.speaker.stop();
                self.confirm(c, false);
            }
            SpeechControl::Mute => {
                self.set_muted(true);
                self.confirm(c, false);
            }
            SpeechControl::Unmute => {
                self.set_muted(false);
                self.confirm(c, true);
            }
            SpeechControl::Faster => {
                self.speaker.change_rate(10);
                self.confirm(c, true);
            }
            SpeechControl::Slower => {
                self.speaker.change_rate(-10);
                self.confirm(c, true);
            }
        }
    }

    fn confirm(&mut self, c: SpeechControl, spoken: bool) {
        let Some(lang) = self.lang else {
            return;
        };
        let p = &lang.play;
        let word = match c {
            SpeechControl::Silence => &p.speech_silenced,
            SpeechControl::Mute => &p.speech_muted,
            SpeechControl::Unmute => &p.speech_unmuted,
            SpeechControl::Faster => &p.speech_faster,
            SpeechControl::Slower => &p.speech_slower,
            SpeechControl::Repeat => return,
        }
        .clone();
        if spoken {
            self.tell(Urgency::Answer, vec![word]);
        } else {
            self.show(vec![word]);
        }
    }

    /// Carries out the keys that concern speech (repeat, silence, mute, rate) and the screen
    /// alone; returns the others, for the mode.
    pub fn key(&mut self, outcome: KeyOutcome) -> Option<KeyOutcome> {
        match outcome {
            KeyOutcome::Speech(c) => self.speech(c),
            KeyOutcome::ToggleMute => self.toggle_mute(),
            KeyOutcome::Redraw | KeyOutcome::Nothing => {}
            other => return Some(other),
        }
        None
    }

    pub fn toggle_mute(&mut self) {
        self.set_muted(!self.muted);
    }

    fn set_muted(&mut self, muted: bool) {
        self.muted = muted;
        self.speaker.set_muted(muted);
    }

    /// A notice of the speech thread: which backend speaks goes to the status line; a
    /// switch or silence is said, and the status line names what speaks now.
    pub fn notice(&mut self, n: &Notice, lang: &Language) {
        let text = notice_text(n, lang);
        self.status = match n {
            Notice::Switched { to, .. } => notice_text(&Notice::Using(*to), lang),
            _ => text.clone(),
        };
        self.dirty = true;
        if !matches!(n, Notice::Using(_)) {
            self.tell(Urgency::Answer, vec![text]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::speech::SpeechConfig;

    fn narrator() -> Narrator {
        let lang = crate::core::notation::language::language("de").expect("de");
        let config = SpeechConfig::new(
            crate::core::settings::BackendChoice::Print,
            &lang.speech,
            Default::default(),
        );
        let (speaker, _notices) = Speaker::start(config);
        Narrator::new(speaker, true, "Zug oder Befehl")
    }

    #[test]
    fn an_answer_told_in_parts_is_one_answer_on_the_screen_and_when_repeated() {
        let mut n = narrator();
        n.tell(Urgency::Answer, vec!["Brett".into()]);
        n.tell(Urgency::Answer, vec!["Hilfe".into()]);
        n.tell_more(Urgency::Answer, vec!["Tasten".into()]);
        assert_eq!(n.said, ["Brett", "Hilfe", "Tasten"]);
        // The latest answer begins with its first part.
        assert_eq!(n.newest, 1);
        n.speech(SpeechControl::Repeat);
        assert_eq!(&n.said[3..], ["Hilfe", "Tasten"]);
    }
}
