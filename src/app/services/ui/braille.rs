//! The braille display in every interactive mode, through BrlAPI (`io::braille`): each new
//! answer flashed over the line underneath until the next key or for the time the player set
//! (`[braille] hold`), the display's panning keys reading it to its end; underneath, on the
//! full screen's board, the focused rank with the cursor on the focused square (a routing key
//! over a square moves the focus there, over the focused square it is Space), else the input
//! line. Nothing is written every second: only what changed, and the clocks only when asked.
//! When no server answers nothing changes and nothing waits: the link lives on its own thread.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;

use crate::core::braille::{Action, BrailleDisplay, Frame, Hold};
use crate::core::braille::{BoardLine, BoardRoute};
use crate::core::matchplay::Command;
use crate::core::matchplay::Question;
use crate::core::matchplay::Urgency;
use crate::core::notation::printable;
use crate::core::notation::{Language, fill};
use crate::core::settings::{BrailleChoice, BrailleSettings};
use crate::core::time::Timestamp;
use crate::io::braille::{BrailleEvent, BrailleLink, LinkError, LinkSettings};

use super::Mode;

static CHOSEN: OnceLock<BrailleSettings> = OnceLock::new();

/// The player's choice (`--braille` over `[braille]`), made once before a mode starts: every
/// interactive mode builds the same runtime, so the choice belongs to the process.
pub(crate) fn choose(settings: BrailleSettings) {
    let _ = CHOSEN.set(settings);
}

fn chosen() -> BrailleSettings {
    CHOSEN.get().copied().unwrap_or_default()
}

/// Why there is no display, in the player's language (the link's English words are for a
/// developer, never said).
fn link_error_words(why: &LinkError, lang: &Language) -> String {
    use crate::core::braille::brlapi::SessionError as S;
    let w = &lang.braille;
    let at = |template: &str, address: &dyn std::fmt::Display, limit: Option<Duration>| {
        let address = printable(&address.to_string()).into_owned();
        let seconds = limit.map(|l| l.as_secs().to_string()).unwrap_or_default();
        fill(template, &[("address", &address), ("seconds", &seconds)])
    };
    match why {
        LinkError::NoServer { tried, .. } => at(&w.why_no_server, tried, None),
        LinkError::Silent { target, limit } => at(&w.why_silent, target, Some(*limit)),
        LinkError::Closed(target) => at(&w.why_closed, target, None),
        LinkError::NotStarted { target, limit } => at(&w.why_not_started, target, Some(*limit)),
        LinkError::NoHandOver { target, limit } => at(&w.why_no_hand_over, target, Some(*limit)),
        LinkError::Io(_) => w.why_broken.clone(),
        LinkError::NotOnThisSystem => lang.windows.braille_unavailable.clone(),
        LinkError::Session(session) => match session {
            S::OldServer(version) => fill(&w.why_old_server, &[("version", &version.to_string())]),
            S::NeedsKey | S::KeyRefused | S::NoMethod => w.why_key.clone(),
            S::Refused { code, .. } => fill(&w.why_refused, &[("code", &code.to_string())]),
            S::NoHandOver(_) => w.why_not_handed.clone(),
            S::NotBrlapi | S::OutOfTurn(_) | S::ImplausibleSize(_) | S::Protocol(_) => {
                w.why_not_brlapi.clone()
            }
        },
    }
}

/// The display as the runtime keeps it.
pub(crate) struct Braille {
    link: BrailleLink,
    display: BrailleDisplay,
    choice: BrailleChoice,
    origin: Instant,
    /// The narrator's count of answers last flashed.
    seen: u64,
    /// The frame last written.
    written: Option<Frame>,
    /// The board's line underneath, when it is the board.
    board: Option<BoardLine>,
    /// A missing display was said (`on` only), until it is ready again.
    told_lost: bool,
}

impl Braille {
    /// Starts the link unless the player chose `off`; returns at once.
    pub(crate) fn start(lang: &Language) -> Option<Braille> {
        let settings = chosen();
        if settings.display == BrailleChoice::Off {
            return None;
        }
        // Without BrlAPI (Windows) a display only asked for if there is one is not there;
        // one asked for (`on`) hears why once.
        let link = match (crate::io::braille::AVAILABLE, settings.display) {
            (true, _) => BrailleLink::start(LinkSettings::from_env()),
            (false, BrailleChoice::On) => BrailleLink::unavailable(),
            (false, _) => return None,
        };
        let hold = match settings.hold {
            0 => Hold::UntilKey,
            s => Hold::For(Duration::from_secs(u64::from(s))),
        };
        Some(Braille {
            link,
            display: BrailleDisplay::new(hold, lang.braille.more_mark()),
            choice: settings.display,
            origin: Instant::now(),
            seen: 0,
            written: None,
            board: None,
            told_lost: false,
        })
    }

    /// The mark that ends a window while more follows, in the mode's language.
    pub(crate) fn set_mark(&mut self, lang: &Language) {
        self.display.set_mark(lang.braille.more_mark());
    }

    pub(crate) fn events(&self) -> &Receiver<BrailleEvent> {
        self.link.events()
    }

    fn now(&self) -> Timestamp {
        Timestamp::from_duration(self.origin.elapsed())
    }

    /// When a flashed answer ends by itself.
    pub(crate) fn next_wake(&self) -> Option<Instant> {
        let until = self.display.deadline()?;
        Some(self.origin + until.since_origin())
    }

    /// An answer is flashed on a display that is there.
    pub(crate) fn flashing(&self) -> bool {
        self.display.cells() > 0 && self.display.is_flashing()
    }

    /// A key of the keyboard: it ends a flashed answer.
    pub(crate) fn keyboard_key(&mut self) {
        self.display.other_key();
    }

    /// The link's news; false when the mode ends.
    pub(crate) fn event<M: Mode>(&mut self, mode: &mut M, event: BrailleEvent) -> bool {
        let lang = mode.front().lang;
        match event {
            BrailleEvent::Ready { columns, .. } => {
                self.display.set_cells(columns);
                self.written = None;
                if self.choice == BrailleChoice::On {
                    self.told_lost = false;
                    let text = fill(&lang.braille.ready, &[("cells", &columns.to_string())]);
                    mode.voice().tell(Urgency::Answer, vec![text]);
                }
                true
            }
            BrailleEvent::Lost(why) => {
                self.display.set_cells(0);
                self.written = None;
                if self.choice == BrailleChoice::On && !self.told_lost {
                    self.told_lost = true;
                    let text = match why {
                        LinkError::NotOnThisSystem => lang.windows.braille_unavailable.clone(),
                        why => fill(
                            &lang.braille.no_display,
                            &[("reason", &link_error_words(&why, lang))],
                        ),
                    };
                    mode.voice().tell(Urgency::Answer, vec![text]);
                }
                true
            }
            BrailleEvent::Key(key) => {
                let now = self.now();
                let reaction = self.display.key(key, now);
                match reaction.action {
                    Some(Action::Route(at)) => self.route(mode, at),
                    Some(Action::LineUp) => self.walk(mode, 1),
                    Some(Action::LineDown) => self.walk(mode, -1),
                    None => true,
                }
            }
        }
    }

    /// A routing key over the line underneath: on the board, focus or Space.
    fn route<M: Mode>(&mut self, mode: &mut M, at: usize) -> bool {
        let Some(route) = self.board.as_ref().and_then(|b| b.route(at)) else {
            return true;
        };
        mode.front().voice.dirty = true;
        match route {
            BoardRoute::Focus(square) => {
                mode.focus().cursor = square;
                let keep = mode.command(Command::Ask(Question::Square(square)));
                // The display shows the square already (the cursor moved on the line): the
                // answer is heard, not flashed over it.
                self.seen = mode.front().voice.answers;
                keep
            }
            BoardRoute::Press(square) => mode.command(Command::Select(square)),
        }
    }

    /// Line up or down on the board: the focus one rank further or nearer.
    fn walk<M: Mode>(&mut self, mode: &mut M, ranks: i8) -> bool {
        if self.board.is_none() {
            return true;
        }
        let side = mode.front().seen_from();
        let from = mode.focus().cursor;
        let square = super::keys::walk(from, 0, ranks, side);
        mode.front().voice.dirty = true;
        if square == from {
            let word = mode.front().lang.board_focus.edge.clone();
            mode.voice().tell(Urgency::Answer, vec![word]);
            return true;
        }
        mode.focus().cursor = square;
        let keep = mode.command(Command::Ask(Question::Square(square)));
        self.seen = mode.front().voice.answers;
        keep
    }

    /// After every event: a new answer is flashed, the line underneath follows the board or
    /// the input line, time ends a flashed answer, and what changed is written.
    pub(crate) fn update<M: Mode>(&mut self, mode: &mut M) {
        let now = self.now();
        self.display.tick(now);
        let shown_board = mode.shown_board();
        let front = mode.front();
        if front.voice.answers != self.seen {
            self.seen = front.voice.answers;
            let text = one_text(front.voice.newest_answer());
            self.display.flash(&text, now);
        }
        self.board = None;
        let typing = !front.focus.on_board && !front.focus.input.is_empty();
        match shown_board {
            Some(board) if front.voice.full_screen && !typing => {
                let line = BoardLine::new(
                    &board,
                    front.focus.cursor,
                    front.seen_from(),
                    front.picked,
                    front.lang,
                );
                self.display.set_base(&line.text, Some(line.cursor));
                self.board = Some(line);
            }
            _ => {
                let prompt = front.voice.prompt_words();
                let input = &front.focus.input;
                let start = prompt.chars().count() + 2;
                let text = format!("{prompt}: {input}");
                self.display.set_base(
                    &text,
                    Some(start + front.focus.caret.min(input.chars().count())),
                );
            }
        }
        let frame = self.display.frame();
        if frame.is_some() && frame != self.written {
            self.written.clone_from(&frame);
            if let Some(frame) = frame {
                self.link.show(frame);
            }
        }
    }
}

/// An answer of several lines as one text, as it is heard: sentences joined.
fn one_text(lines: &[String]) -> String {
    let mut text = String::new();
    for line in lines.iter().map(|l| l.trim()).filter(|l| !l.is_empty()) {
        if !text.is_empty() {
            if !text.ends_with(['.', '!', '?', ':', ';']) {
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

    #[test]
    fn lines_are_joined_as_sentences() {
        let lines = vec![
            "Computer: Eva fünf".to_string(),
            "Weiß ist am Zug.".to_string(),
            String::new(),
            "Fertig".to_string(),
        ];
        assert_eq!(
            one_text(&lines),
            "Computer: Eva fünf. Weiß ist am Zug. Fertig"
        );
        assert_eq!(one_text(&[]), "");
    }
}
