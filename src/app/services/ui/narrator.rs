//! What an interactive mode says and shows: every sentence goes to the speech thread and to
//! the screen (the full-screen view's "last said" lines, or one printed line each in line
//! mode, where a screen reader or braille display reads them), and the prompt of line mode.
//!
//! Line mode writes for a screen reader, which reads whatever appears: each answer in one
//! write, wrapped to the terminal's width between moves and sentences (never inside a move's
//! words), and the prompt once, after the last line. With the keys read one by one (raw
//! lines), Enter is not echoed by the terminal: the line end comes with the answer, so no
//! empty line is read out; a prompt left open when something else arrives is overwritten by
//! it (with spaces, not control sequences), and what was typed so far follows it again.

use std::io::Write;

use crate::app::services::speaker::notice_text;
use crate::app::services::ui::keys::KeyOutcome;
use crate::core::cue::Cue;
use crate::core::matchplay::{SpeechControl, Urgency};
use crate::core::notation::Language;
use crate::io::speech::{Kind, Notice, Speaker};

/// How many said lines the full-screen view keeps.
const SAID_KEPT: usize = 60;

pub(crate) struct Narrator {
    pub(crate) speaker: Speaker,
    muted: bool,
    pub(crate) full_screen: bool,
    /// The last things said, oldest first (full-screen).
    pub(crate) said: Vec<String>,
    /// Where the latest answer begins in `said`.
    pub(crate) newest: usize,
    /// The next line shown is the opponent's move, shown after this label (heard without).
    pub(crate) label: Option<String>,
    /// The language of the confirmations of the speech controls.
    pub(crate) lang: Option<&'static Language>,
    /// A question that waits for its answer (full-screen: kept in view until answered).
    pub(crate) question: Option<String>,
    /// The question is answered by yes or no: on the board, the yes and no words' first
    /// letters answer it (j and n, y and n).
    pub(crate) yes_no: bool,
    /// Line mode: the prompt is on screen and the player has not pressed Enter yet.
    pub(crate) prompt_open: bool,
    prompt: String,
    /// A line about the speech output.
    pub(crate) status: String,
    /// The lines told last, for "repeat".
    last: Vec<String>,
    /// The screen must be drawn again.
    pub(crate) dirty: bool,
    /// Lines on a terminal in raw mode (a full screen gone to lines because the window is too
    /// small): each line ends with a carriage return too, and typed keys are echoed.
    pub(crate) raw: bool,
    /// Line mode: the reader of standard output has gone away (a closed pipe); the mode
    /// ends as when its input ends.
    pub(crate) reader_gone: bool,
    /// Raw lines: what the player has typed on the prompt's line so far, and where the caret
    /// stands in it (in characters).
    typed: String,
    typed_caret: usize,
    /// Raw lines: Enter ended the prompt's line; the next thing written starts a new line.
    newline_owed: bool,
    /// Where printed lines are written (standard output; a buffer in tests).
    out: Box<dyn Write + Send>,
    /// The width lines are wrapped to; `None`: the terminal's, when the output is one.
    pub(crate) wrap_at: Option<usize>,
    /// Full screen: how far the player paged into the newest answer (wrapped lines), and
    /// whether the cursor rests on it (until another key).
    pub(crate) page: usize,
    pub(crate) reading: bool,
    /// How many answers were told: another output (a braille display) sees a new one.
    pub(crate) answers: u64,
    /// Something was told since the turn began (the event being handled): what follows in
    /// the same turn is more of the same answer.
    told_this_turn: bool,
    /// An answer was said in this turn: a later one is its rest, said after it.
    answered_this_turn: bool,
    /// Sounds to be heard before the next words told.
    cues: Vec<Cue>,
}

impl Narrator {
    pub(crate) fn new(speaker: Speaker, full_screen: bool, prompt: &str) -> Narrator {
        Narrator {
            speaker,
            muted: false,
            full_screen,
            said: Vec::new(),
            newest: 0,
            label: None,
            lang: None,
            question: None,
            yes_no: false,
            prompt_open: false,
            prompt: prompt.to_string(),
            status: String::new(),
            last: Vec::new(),
            reader_gone: false,
            dirty: true,
            raw: false,
            typed: String::new(),
            typed_caret: 0,
            newline_owed: false,
            out: Box::new(std::io::stdout()),
            wrap_at: None,
            page: 0,
            reading: false,
            answers: 0,
            told_this_turn: false,
            answered_this_turn: false,
            cues: Vec::new(),
        }
    }

    /// A new event is handled: what is told from now on is a new answer. Everything one
    /// event brings (a result and the next question, a help and its keys) is one answer:
    /// said in order, none cutting another, shown, flashed and repeated whole.
    pub(crate) fn new_turn(&mut self) {
        self.flush_cues();
        self.told_this_turn = false;
        self.answered_this_turn = false;
    }

    /// Says and shows lines. The opponent's move is heard and shown with its label
    /// ("Computer: Cäsar sechs"), so that it is never taken for an echo of the player's own.
    /// Within one turn, each call after the first adds to the same answer ([`Narrator::new_turn`]).
    pub(crate) fn tell(&mut self, urgency: Urgency, lines: Vec<String>) {
        let more = self.told_this_turn;
        self.tell_part(urgency, lines, more);
    }

    fn tell_part(&mut self, urgency: Urgency, lines: Vec<String>, more: bool) {
        let kind = match urgency {
            Urgency::Move => Kind::Move,
            // The rest of an answer waits behind it rather than cutting it short.
            Urgency::Answer if self.answered_this_turn => Kind::More,
            Urgency::Answer => Kind::Answer,
            Urgency::Urgent => Kind::Urgent,
        };
        let mut lines = lines;
        if let (Some(label), Some(first)) = (self.label.take(), lines.first_mut()) {
            *first = format!("{label}{}{first}", self.colon());
        }
        let cues = std::mem::take(&mut self.cues);
        let lang = self.speaker.language().to_string();
        let sounds_end = self.speaker.say_cued(kind, sentences(&lines), &lang, cues);
        // A screen reader reads a line the moment it appears: a line whose sound is still to
        // be heard appears once that sound has ended (at most its length and a moment more),
        // so the reading never covers it. The full screen is not read that way.
        if !self.full_screen
            && let Some(end) = sounds_end
        {
            end.wait();
        }
        if more {
            self.last.extend(lines.iter().cloned());
        } else {
            self.last.clone_from(&lines);
        }
        self.told_this_turn = true;
        self.answered_this_turn |= urgency == Urgency::Answer;
        self.answers += 1;
        self.show_part(lines, more);
    }

    /// Sounds heard before the next words told (a capture's before its move).
    pub(crate) fn cue(&mut self, cues: Vec<Cue>) {
        self.cues.extend(cues);
    }

    /// Sounds that no words followed in their turn are heard alone.
    pub(crate) fn flush_cues(&mut self) {
        if !self.cues.is_empty() {
            let cues = std::mem::take(&mut self.cues);
            let lang = self.speaker.language().to_string();
            // No line is printed for sounds alone: nothing waits for them.
            let _ = self.speaker.say_cued(Kind::Answer, "", &lang, cues);
        }
    }

    /// The newest answer, whole, as one value: what "repeat" says again, and what another
    /// output channel (a braille display) takes, whatever part the screen shows.
    pub(crate) fn newest_answer(&self) -> &[String] {
        &self.last
    }

    /// The prompt's words, without the colon.
    pub(crate) fn prompt_words(&self) -> &str {
        &self.prompt
    }

    /// What follows a label or the prompt, in the language's punctuation (French puts a
    /// space before the colon).
    pub(crate) fn colon(&self) -> &str {
        self.lang.map_or(": ", |l| l.messages.colon.as_str())
    }

    /// Says more lines as part of the answer just given (F1: the help, then the keys).
    pub(crate) fn tell_more(&mut self, urgency: Urgency, lines: Vec<String>) {
        self.tell_part(urgency, lines, true);
    }

    /// Lines that close the newest answer though a later event brings them (the end of a
    /// broadcast after its game's result): heard after it without cutting it, shown and
    /// flashed with it, so that the result is not replaced on braille before it is read.
    pub(crate) fn tell_after(&mut self, urgency: Urgency, lines: Vec<String>) {
        self.answered_this_turn |= urgency == Urgency::Answer;
        self.tell_part(urgency, lines, true);
    }

    /// Shows lines without saying them (what happens in the games an arbiter watches).
    pub(crate) fn show(&mut self, lines: Vec<String>) {
        self.show_part(lines, false);
    }

    /// Shows lines: a new answer, or `more` of the one shown last.
    fn show_part(&mut self, lines: Vec<String>, more: bool) {
        if self.full_screen {
            // A new answer is read from its beginning.
            self.page = 0;
            if !more {
                self.newest = self.said.len();
            }
            self.said.extend(lines);
            let extra = self.said.len().saturating_sub(SAID_KEPT);
            self.said.drain(..extra);
            self.newest = self.newest.saturating_sub(extra);
            self.dirty = true;
        } else {
            self.print(&lines);
        }
    }

    /// The line end of what is printed: raw lines need the carriage return too.
    fn end(&self) -> &'static str {
        if self.raw { "\r\n" } else { "\n" }
    }

    /// The prompt's words with what was typed, as they stand on the prompt's line, and the
    /// caret put back where it was (backspaces, which every terminal knows).
    fn prompt_line(&self) -> String {
        let back = self.typed.chars().count().saturating_sub(self.typed_caret);
        format!(
            "{}{}{}{}",
            self.prompt,
            self.colon(),
            self.typed,
            "\u{8}".repeat(back)
        )
    }

    /// The columns a line may fill: the terminal's width less one (a line that fills the
    /// width would leave some terminals at the edge), or none when the output is no terminal.
    fn width(&self) -> Option<usize> {
        use std::io::IsTerminal;
        if let Some(w) = self.wrap_at {
            return Some(w);
        }
        if !std::io::stdout().is_terminal() {
            return None;
        }
        crate::io::terminal::FullScreen::size().map(|(cols, _)| usize::from(cols).max(21) - 1)
    }

    fn print(&mut self, lines: &[String]) {
        let end = self.end();
        let mut text = String::new();
        if std::mem::take(&mut self.newline_owed) {
            text.push_str(end);
        } else if self.prompt_open {
            if self.raw {
                // The open prompt gives way to what arrived: overwritten, not left behind.
                let used = self.prompt.chars().count()
                    + self.colon().chars().count()
                    + self.typed.chars().count();
                text.push('\r');
                text.push_str(&" ".repeat(used));
                text.push('\r');
            } else {
                // Something said while the prompt waits starts on a line of its own.
                text.push_str(end);
            }
        }
        self.prompt_open = false;
        let width = self.width();
        for l in lines {
            // Broken between moves and sentences, never inside a move's words.
            let pieces = match (width, self.lang) {
                (Some(w), Some(lang)) => crate::core::notation::wrap_between_moves(l, w, lang),
                (Some(w), None) => crate::app::services::ui::view::wrap_words(l, w),
                (None, _) => vec![l.clone()],
            };
            for piece in pieces {
                text.push_str(&piece);
                text.push_str(end);
            }
        }
        // What the player had begun to type is there again, after the news.
        if self.raw && !self.typed.is_empty() && !self.prompt.is_empty() {
            text.push_str(&self.prompt_line());
            self.prompt_open = true;
        }
        self.write(&text);
    }

    /// Writes `text` at once (a screen reader reads one change, not its pieces).
    fn write(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        let written = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush());
        self.note_write(written);
    }

    /// Any other error (a full disk) changes nothing: the speech goes on.
    fn note_write(&mut self, written: std::io::Result<()>) {
        if written.is_err_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) {
            self.reader_gone = true;
        }
    }

    /// Raw lines: the player pressed Enter. The typed line stays as it is; the answer begins
    /// on the next line.
    pub(crate) fn submitted(&mut self) {
        if self.prompt_open {
            self.newline_owed = true;
        }
        self.prompt_open = false;
        self.typed.clear();
        self.typed_caret = 0;
    }

    /// Raw lines: the input line as it is now (`caret` in characters). Only what changed is
    /// written: a typed character, a deleted one, else the whole line again.
    pub(crate) fn echo(&mut self, input: &str, caret: usize) {
        if !self.raw || self.full_screen || self.prompt.is_empty() {
            return;
        }
        if input == self.typed && caret == self.typed_caret {
            return;
        }
        let old_len = self.typed.chars().count();
        let new_len = input.chars().count();
        let at_end = self.typed_caret == old_len && caret == new_len;
        let text = if !self.prompt_open {
            self.typed = input.to_string();
            self.typed_caret = caret;
            if input.is_empty() {
                return;
            }
            let owed = if std::mem::take(&mut self.newline_owed) {
                self.end()
            } else {
                ""
            };
            format!("{owed}{}", self.prompt_line())
        } else if at_end && input.starts_with(self.typed.as_str()) {
            input[self.typed.len()..].to_string()
        } else if at_end && self.typed.starts_with(input) {
            "\u{8} \u{8}".repeat(old_len - new_len)
        } else {
            let pad = old_len.saturating_sub(new_len);
            format!(
                "\r{}{}{input}{}{}",
                self.prompt,
                self.colon(),
                " ".repeat(pad),
                "\u{8}".repeat(pad + new_len.saturating_sub(caret))
            )
        };
        self.typed = input.to_string();
        self.typed_caret = caret;
        self.prompt_open = true;
        self.write(&text);
    }

    /// Raw lines end (the full screen comes back): an open prompt's line is cleared.
    pub(crate) fn leave_lines(&mut self) {
        if self.prompt_open {
            let used = self.prompt.chars().count()
                + self.colon().chars().count()
                + self.typed.chars().count();
            self.write(&format!("\r{}\r", " ".repeat(used)));
        }
        self.prompt_open = false;
        self.newline_owed = false;
        self.typed.clear();
        self.typed_caret = 0;
    }

    /// Line mode: the prompt's words from now on (looking back has its own, so that a screen
    /// reader says the state with every prompt).
    pub(crate) fn set_prompt(&mut self, prompt: &str) {
        if self.prompt != prompt {
            self.prompt = prompt.to_string();
        }
    }

    /// Line mode: shows the prompt when the player may type (again), once, after the last
    /// line written.
    pub(crate) fn prompt(&mut self) {
        // A mode without a prompt (the clock) prints none.
        if !self.full_screen && !self.prompt_open && !self.prompt.is_empty() {
            let owed = if std::mem::take(&mut self.newline_owed) {
                self.end()
            } else {
                ""
            };
            let text = format!("{owed}{}", self.prompt_line());
            self.write(&text);
            self.prompt_open = true;
        }
    }

    /// Page Down (`down`) or Page Up through the newest answer on the full screen, whose
    /// panel has `width` x `height` characters: the lines now shown are said, and the cursor
    /// rests on them for a braille display; at the end (or start) that is said.
    pub(crate) fn turn_page(&mut self, down: bool, width: usize, height: usize) {
        if !self.full_screen {
            return;
        }
        let said = crate::app::services::ui::view::Said {
            said: &self.said,
            newest: self.newest,
            question: self.question.as_deref(),
            width,
            height,
        };
        self.reading = true;
        self.dirty = true;
        match crate::app::services::ui::view::turn_page(&said, self.page, down) {
            Some((page, text)) => {
                self.page = page;
                self.speaker.say(Kind::Answer, text);
            }
            None => {
                if let Some(lang) = self.lang {
                    let r = &lang.reading;
                    let word = if down { &r.end } else { &r.start };
                    self.speaker.say(Kind::Answer, word.clone());
                }
            }
        }
    }

    /// Repeat, silence, mute, unmute, faster, slower.
    pub(crate) fn speech(&mut self, c: SpeechControl) {
        match c {
            SpeechControl::Repeat => {
                // Heard again, and shown again: a screen reader or braille display reads the
                // lines, not the voice. The whole answer, not only its last part.
                if self.last.is_empty() {
                    self.speaker.repeat();
                } else {
                    self.speaker.say(Kind::Answer, sentences(&self.last));
                }
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
    pub(crate) fn key(&mut self, outcome: KeyOutcome) -> Option<KeyOutcome> {
        match outcome {
            KeyOutcome::Speech(c) => self.speech(c),
            KeyOutcome::ToggleMute => self.toggle_mute(),
            KeyOutcome::Redraw | KeyOutcome::Nothing => {}
            other => return Some(other),
        }
        None
    }

    pub(crate) fn toggle_mute(&mut self) {
        self.set_muted(!self.muted);
    }

    fn set_muted(&mut self, muted: bool) {
        self.muted = muted;
        self.speaker.set_muted(muted);
    }

    /// A notice of the speech thread: which backend speaks goes to the status line; a
    /// switch or silence is said, and the status line names what speaks now.
    pub(crate) fn notice(&mut self, n: &Notice, lang: &Language) {
        let text = notice_text(n, lang);
        self.status = match n {
            Notice::Switched { to, .. } => notice_text(&Notice::Using(*to, None), lang),
            // The status line keeps naming what speaks.
            Notice::NoSound { .. } => self.status.clone(),
            _ => text.clone(),
        };
        self.dirty = true;
        if !matches!(n, Notice::Using(..)) {
            self.tell(Urgency::Answer, vec![text]);
        }
    }
}

/// An answer's lines as one spoken text, each a sentence: a line that ends its sentence
/// itself (a file's comment "Spanisch.") is not given a second full stop.
fn sentences(lines: &[String]) -> String {
    let mut text = String::new();
    for line in lines {
        if !text.is_empty() {
            if !text.ends_with(['.', '!', '?', '…']) {
                text.push('.');
            }
            text.push(' ');
        }
        text.push_str(line);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::speech::SpeechConfig;

    #[test]
    fn a_line_that_ends_its_sentence_gets_no_second_full_stop() {
        let lines: Vec<String> = [
            "Zug 3, Weiß: Läufer Bella fünf",
            "Kommentar: Spanisch.",
            "Gut!",
            "Drei Varianten",
        ]
        .map(String::from)
        .into();
        assert_eq!(
            sentences(&lines),
            "Zug 3, Weiß: Läufer Bella fünf. Kommentar: Spanisch. Gut! Drei Varianten"
        );
        assert_eq!(sentences(&[]), "");
    }

    /// A narrator whose speech is kept (not printed), on the full screen.
    fn narrator() -> Narrator {
        use crate::io::speech::{Behaviour, CaptureLog, Plan};
        let lang = crate::core::notation::language("de").expect("de");
        let mut config = SpeechConfig::new(
            crate::core::settings::BackendChoice::Print,
            &lang.speech,
            Default::default(),
        );
        let log = std::sync::Arc::new(std::sync::Mutex::new(CaptureLog::default()));
        config.plan = vec![Plan::Capture(log, Behaviour::Normal)];
        let (speaker, _notices) = Speaker::start(config);
        Narrator::new(speaker, true, "Zug oder Befehl")
    }

    /// What a narrator in lines writes, kept for the test.
    #[derive(Clone, Default)]
    struct Written(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl Write for Written {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("buffer").extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Written {
        fn take(&self) -> String {
            let bytes = std::mem::take(&mut *self.0.lock().expect("buffer"));
            String::from_utf8(bytes).expect("utf-8")
        }
    }

    /// A narrator in raw lines (keys read one by one), 40 columns wide.
    fn raw_lines() -> (Narrator, Written) {
        let mut n = narrator();
        let written = Written::default();
        n.out = Box::new(written.clone());
        n.full_screen = false;
        n.raw = true;
        n.wrap_at = Some(39);
        (n, written)
    }

    #[test]
    fn the_opponents_move_is_heard_with_its_label_as_it_is_shown() {
        use crate::io::speech::{Behaviour, CaptureLog, Captured, Plan};
        let log = std::sync::Arc::new(std::sync::Mutex::new(CaptureLog::default()));
        let lang = crate::core::notation::language("de").expect("de");
        let mut config = SpeechConfig::new(
            crate::core::settings::BackendChoice::Print,
            &lang.speech,
            Default::default(),
        );
        config.plan = vec![Plan::Capture(log.clone(), Behaviour::Normal)];
        let (speaker, _notices) = Speaker::start(config);
        let (mut n, written) = raw_lines();
        n.speaker = speaker;
        n.tell(Urgency::Move, vec!["David vier".into()]);
        // The reply is another event.
        n.new_turn();
        n.label = Some("Computer".into());
        n.tell(Urgency::Move, vec!["Cäsar sechs".into()]);
        assert!(n.speaker.wait_idle(std::time::Duration::from_secs(20)));
        let said: Vec<String> = log
            .lock()
            .expect("log")
            .calls
            .iter()
            .filter_map(|c| match c {
                Captured::Said { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(said, ["David vier", "Computer: Cäsar sechs"]);
        assert_eq!(written.take(), "David vier\r\nComputer: Cäsar sechs\r\n");
        // Repeating says it with the label too.
        assert_eq!(n.last, ["Computer: Cäsar sechs"]);
    }

    /// A move and its reply in raw lines: the typed line, the move, the reply and one
    /// prompt, with no empty line and no control sequence.
    #[test]
    fn the_prompt_stands_once_after_the_last_line() {
        let (mut n, written) = raw_lines();
        n.prompt();
        n.echo("e", 1);
        n.echo("e4", 2);
        n.submitted();
        n.tell(Urgency::Move, vec!["Eva vier".into()]);
        n.label = Some("Computer".into());
        n.tell(Urgency::Move, vec!["Cäsar sechs".into()]);
        n.prompt();
        // Asked again while the prompt waits: no second prompt.
        n.prompt();
        assert_eq!(
            written.take(),
            "Zug oder Befehl: e4\r\nEva vier\r\nComputer: Cäsar sechs\r\nZug oder Befehl: "
        );
        // Enter on an empty line: the prompt again, on a line of its own.
        n.submitted();
        n.prompt();
        assert_eq!(written.take(), "\r\nZug oder Befehl: ");
    }

    /// News while the prompt waits takes the prompt's place, and what was typed follows it.
    #[test]
    fn news_overwrites_the_waiting_prompt_and_the_typed_text_comes_back() {
        let (mut n, written) = raw_lines();
        let mut all = String::new();
        n.prompt();
        n.echo("Sf", 2);
        all.push_str(&written.take());
        n.label = Some("Schwarz".into());
        n.tell(Urgency::Move, vec!["Eva fünf".into()]);
        let erase = format!("\r{}\r", " ".repeat("Zug oder Befehl: Sf".len()));
        let news = written.take();
        assert_eq!(
            news,
            format!("{erase}Schwarz: Eva fünf\r\nZug oder Befehl: Sf")
        );
        all.push_str(&news);
        // Deleting and retyping writes only what changed; editing inside redraws the line.
        for (input, caret, expected) in [
            ("S", 1, "\u{8} \u{8}"),
            ("Sf3", 3, "f3"),
            ("Lf3", 1, "\rZug oder Befehl: Lf3\u{8}\u{8}"),
        ] {
            n.echo(input, caret);
            let change = written.take();
            assert_eq!(change, expected);
            all.push_str(&change);
        }
        // Only carriage returns, spaces and backspaces move on the line: no control sequence.
        assert!(!all.contains('\u{1b}'), "{all:?}");
    }

    #[test]
    fn long_lines_wrap_at_spaces_to_the_width() {
        let (mut n, written) = raw_lines();
        n.tell(
            Urgency::Answer,
            vec!["Reihe acht: Anna acht schwarzer Turm, Bella acht schwarzer Springer".into()],
        );
        let text = written.take();
        let lines: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
        assert_eq!(
            lines,
            [
                "Reihe acht: Anna acht schwarzer Turm,",
                "Bella acht schwarzer Springer"
            ]
        );
        assert!(lines.iter().all(|l| l.chars().count() <= 39));
    }

    /// What a narrator speaking through a slow capturing backend said, and whether it was
    /// ever stopped.
    fn slow_narrator() -> (Narrator, crate::io::speech::SharedLog) {
        use crate::io::speech::{Behaviour, CaptureLog, Plan};
        let log = std::sync::Arc::new(std::sync::Mutex::new(CaptureLog::default()));
        let lang = crate::core::notation::language("de").expect("de");
        let mut config = SpeechConfig::new(
            crate::core::settings::BackendChoice::Print,
            &lang.speech,
            Default::default(),
        );
        // Each utterance lasts 20 polls of 10 ms: the next one arrives while it is said.
        config.plan = vec![Plan::Capture(log.clone(), Behaviour::Slow(20))];
        let (speaker, _notices) = Speaker::start(config);
        let mut n = narrator();
        n.speaker = speaker;
        (n, log)
    }

    fn captured(log: &crate::io::speech::SharedLog) -> (Vec<String>, bool) {
        use crate::io::speech::Captured;
        let log = log.lock().expect("log");
        let said = log
            .calls
            .iter()
            .filter_map(|c| match c {
                Captured::Said { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect();
        let stopped = log.calls.iter().any(|c| matches!(c, Captured::Stopped));
        (said, stopped)
    }

    /// A puzzle's result and the next puzzle's question come with one event: the question
    /// waits until the result has been said, and both are one answer on the screen and when
    /// repeated. The next event's answer is a new one, which cuts the old.
    #[test]
    fn a_result_is_said_whole_before_the_next_question() {
        let (mut n, log) = slow_narrator();
        n.tell(
            Urgency::Answer,
            vec!["Gelöst: Springer schlägt Cäsar sechs. Ihre Wertung: 1516 (+16)".into()],
        );
        n.tell(Urgency::Answer, vec!["Aufgabe 2".into()]);
        assert!(n.speaker.wait_idle(std::time::Duration::from_secs(20)));
        let (said, stopped) = captured(&log);
        assert_eq!(
            said,
            [
                "Gelöst: Springer schlägt Cäsar sechs. Ihre Wertung: 1516 (+16)",
                "Aufgabe 2"
            ]
        );
        assert!(!stopped, "nothing was cut");
        assert_eq!(
            n.newest_answer(),
            [
                "Gelöst: Springer schlägt Cäsar sechs. Ihre Wertung: 1516 (+16)",
                "Aufgabe 2"
            ]
        );
        assert_eq!(n.newest, 0);
        n.new_turn();
        n.tell(Urgency::Answer, vec!["Brett".into()]);
        assert_eq!(n.newest_answer(), ["Brett"]);
        assert_eq!(n.newest, 2);
    }

    #[test]
    fn an_answer_told_in_parts_is_one_answer_on_the_screen_and_when_repeated() {
        let mut n = narrator();
        n.tell(Urgency::Answer, vec!["Brett".into()]);
        n.new_turn();
        n.tell(Urgency::Answer, vec!["Hilfe".into()]);
        n.tell_more(Urgency::Answer, vec!["Tasten".into()]);
        assert_eq!(n.said, ["Brett", "Hilfe", "Tasten"]);
        // The latest answer begins with its first part, and is one value.
        assert_eq!(n.newest, 1);
        assert_eq!(n.newest_answer(), ["Hilfe", "Tasten"]);
        n.speech(SpeechControl::Repeat);
        assert_eq!(&n.said[3..], ["Hilfe", "Tasten"]);
    }
}
