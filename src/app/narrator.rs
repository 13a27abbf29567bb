//! What an interactive mode says and shows: every sentence goes to the speech thread and to
//! the screen (the full-screen view's "last said" lines, or one printed line each in line
//! mode, where a screen reader or braille display reads them), and the prompt of line mode.

use std::io::Write;

use crate::app::play::keys::KeyOutcome;
use crate::app::say::notice_text;
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
    /// Line mode: the prompt is on screen and the player has not pressed Enter yet.
    pub prompt_open: bool,
    prompt: String,
    /// A line about the speech output.
    pub status: String,
    /// The lines told last, for "repeat".
    last: Vec<String>,
    /// The screen must be drawn again.
    pub dirty: bool,
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
            prompt_open: false,
            prompt: prompt.to_string(),
            status: String::new(),
            last: Vec::new(),
            reader_gone: false,
            dirty: true,
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
        self.last.clone_from(&lines);
        self.show(lines);
    }

    /// Shows lines without saying them (what happens in the games an arbiter watches).
    pub fn show(&mut self, lines: Vec<String>) {
        if self.full_screen {
            self.said.extend(lines);
            let extra = self.said.len().saturating_sub(SAID_KEPT);
            self.said.drain(..extra);
            self.dirty = true;
        } else {
            self.print(&lines);
        }
    }

    fn print(&mut self, lines: &[String]) {
        let mut out = std::io::stdout().lock();
        // Something said while the prompt waits starts on a line of its own.
        let mut written = Ok(());
        if self.prompt_open {
            written = writeln!(out);
            self.prompt_open = false;
        }
        for l in lines {
            written = written.and_then(|()| writeln!(out, "{l}"));
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

    /// Line mode: shows the prompt when the player may type (again).
    pub fn prompt(&mut self) {
        if !self.full_screen && !self.prompt_open {
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
            SpeechControl::Silence => self.speaker.stop(),
            SpeechControl::Mute => self.set_muted(true),
            SpeechControl::Unmute => self.set_muted(false),
            SpeechControl::Faster => self.speaker.change_rate(10),
            SpeechControl::Slower => self.speaker.change_rate(-10),
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
