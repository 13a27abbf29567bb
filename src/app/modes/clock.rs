//! `hector clock`: a talking chess clock for any physical board (Article 6, Appendix D5).
//! Full-screen with large digits, or plain lines for a screen reader.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Alignment, Constraint, Direction, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use shakmaty::Color;

use crate::app::services::ui::narrator::Narrator;
use crate::app::services::ui::{Front, Incoming, Mode, Source, Ui, next_second};
use crate::core::clock::{
    AnnounceSettings, Announcement, Announcer, Clock, ClockState, TimeControl,
};
use crate::core::cue::{Cue, LowClock};
use crate::core::matchplay::Command;
use crate::core::matchplay::{SpeechControl, Urgency};
use crate::core::notation::clock_words::{
    self, announcement_words, control_words, moves_words, summary_words,
};
use crate::core::notation::languages;
use crate::core::notation::{Language, fill};
use crate::core::notation::{fold, yes_or_no};
use crate::core::settings::SpeechSettings;
use crate::core::time::Timestamp;
use crate::io::terminal::{FullScreen, bigtext};

/// Which lever White's clock is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Left,
    Right,
}

pub(crate) struct ClockOptions {
    pub(crate) control: TimeControl,
    pub(crate) white: Side,
    pub(crate) screen_reader: bool,
    pub(crate) announce: AnnounceSettings,
    pub(crate) speech: SpeechSettings,
    /// The speech output was chosen (else line mode prints, as in the other modes).
    pub(crate) speech_chosen: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    /// Space: start the clock, or press for the player whose clock runs.
    Space,
    Lever(Side),
    Time,
    Count,
    Pause,
    Repeat,
    Silence,
    Mute,
    Faster,
    Slower,
    ToggleAnnouncements,
    Help,
    /// q or ende: asks first while the clock has run (its times would be lost).
    Quit,
    /// Ctrl+C, Ctrl+D: at once.
    QuitNow,
    /// The answers to the quit question (j, y, ja, yes; n, nein, no).
    Yes,
    No,
    Nothing,
    Unknown,
}

fn key_action(k: KeyEvent) -> Action {
    if k.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(k.code, KeyCode::Char('c') | KeyCode::Char('d'))
    {
        return Action::QuitNow;
    }
    match k.code {
        KeyCode::Char(' ') => Action::Space,
        KeyCode::Left => Action::Lever(Side::Left),
        KeyCode::Right => Action::Lever(Side::Right),
        KeyCode::Enter => Action::Time,
        KeyCode::Esc => Action::Silence,
        KeyCode::Char(c) => char_action(c),
        _ => Action::Nothing,
    }
}

fn char_action(c: char) -> Action {
    match c.to_ascii_lowercase() {
        't' => Action::Time,
        'z' | 'c' => Action::Count,
        'p' => Action::Pause,
        'w' | 'r' => Action::Repeat,
        's' => Action::Silence,
        'm' => Action::Mute,
        '+' => Action::Faster,
        '-' => Action::Slower,
        'a' => Action::ToggleAnnouncements,
        'h' | '?' => Action::Help,
        'q' => Action::Quit,
        'j' | 'y' => Action::Yes,
        'n' => Action::No,
        _ => Action::Unknown,
    }
}

/// A word of the clock's typed lines in any language's table (`[clock.lines]`).
fn line_word(word: &str) -> Option<Action> {
    let word = fold(word);
    languages().find_map(|lang| {
        let l = &lang.clock.lines;
        [
            (&l.press, Action::Space),
            (&l.left, Action::Lever(Side::Left)),
            (&l.right, Action::Lever(Side::Right)),
            (&l.time, Action::Time),
            (&l.count, Action::Count),
            (&l.pause, Action::Pause),
            (&l.repeat, Action::Repeat),
            (&l.silence, Action::Silence),
            (&l.mute, Action::Mute),
            (&l.faster, Action::Faster),
            (&l.slower, Action::Slower),
            (&l.announcements, Action::ToggleAnnouncements),
            (&l.help, Action::Help),
            (&l.quit, Action::Quit),
        ]
        .into_iter()
        .find(|(list, _)| list.iter().any(|w| fold(w) == word))
        .map(|(_, action)| action)
    })
}

/// A typed line: the same letters as the keys, or a word.
fn line_action(line: &str) -> Action {
    let word = line.trim().to_lowercase();
    // The words of every language's [clock.lines]; quit is one rule with q: it asks first
    // while the clock has run.
    if let Some(action) = line_word(&word) {
        return action;
    }
    match word.as_str() {
        "" => Action::Space,
        "<" => Action::Lever(Side::Left),
        ">" => Action::Lever(Side::Right),
        // A yes or no in any language's table ("ja", "oui", "nee"); single letters are keys.
        w if w.chars().count() > 1 && yes_or_no(w) == Some(true) => Action::Yes,
        w if w.chars().count() > 1 && yes_or_no(w) == Some(false) => Action::No,
        _ => {
            let mut chars = word.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => char_action(c),
                _ => Action::Unknown,
            }
        }
    }
}

struct ClockApp {
    clock: Clock,
    announcer: Announcer,
    announce: AnnounceSettings,
    announcing: bool,
    lang: &'static Language,
    white: Side,
    front: Front,
    origin: Instant,
    /// "Die Uhr beenden?" waits for its answer.
    asking: bool,
    finished: bool,
    /// The low-clock sound's watch (each side's once), when sounds are on.
    low_clock: Option<LowClock>,
}

impl ClockApp {
    fn now(&self) -> Timestamp {
        Timestamp::from_duration(self.origin.elapsed())
    }

    fn color_of(&self, side: Side) -> Color {
        if side == self.white {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Says `text` and shows it (a line of its own in line mode, the status on the screen).
    fn tell(&mut self, urgency: Urgency, text: String) {
        self.front.voice.tell(urgency, vec![text]);
    }

    /// Line mode: typed lines, read by a screen reader (the full screen shows its keys).
    fn lines(&self) -> bool {
        !self.front.voice.full_screen && !self.front.voice.raw
    }

    /// The quit question, in the words of the keys or of the typed lines.
    fn quit_question(&self) -> String {
        let c = &self.lang.clock;
        if self.lines() {
            c.quit_confirm_lines.clone()
        } else {
            c.quit_confirm.clone()
        }
    }

    /// Whether quitting loses something: the clock has started and has not run out.
    fn has_run(&self) -> bool {
        matches!(
            self.clock.state(),
            ClockState::Running(_) | ClockState::Paused(_)
        )
    }

    fn act(&mut self, action: Action, now: Timestamp) -> bool {
        if std::mem::take(&mut self.asking)
            && let Some(keep_going) = self.answer_quit(&action)
        {
            return keep_going;
        }
        let c = &self.lang.clock;
        match action {
            Action::Space => self.space(now),
            Action::Lever(side) => self.lever(side, now),
            Action::Time => {
                let text = if self.clock.state() == ClockState::Ready {
                    self.not_started().to_string()
                } else {
                    summary_words(&self.clock.summary(now), self.lang)
                };
                self.tell(Urgency::Answer, text);
            }
            Action::Count => {
                let text = moves_words(self.clock.summary(now).moves_played, self.lang);
                self.tell(Urgency::Answer, text);
            }
            Action::Pause => match self.clock.state() {
                ClockState::Running(_) if self.clock.pause(now).is_ok() => {
                    let text = c.paused.clone();
                    self.tell(Urgency::Answer, text);
                }
                ClockState::Paused(_) if self.clock.resume(now).is_ok() => {
                    let text = c.resumed.clone();
                    self.tell(Urgency::Answer, text);
                }
                _ => {}
            },
            Action::Repeat => self.front.voice.speech(SpeechControl::Repeat),
            Action::Silence => self.front.voice.speech(SpeechControl::Silence),
            Action::Mute => self.front.voice.toggle_mute(),
            Action::Faster => self.front.voice.speech(SpeechControl::Faster),
            Action::Slower => self.front.voice.speech(SpeechControl::Slower),
            Action::ToggleAnnouncements => {
                self.announcing = !self.announcing;
                self.announcer = Announcer::new(self.active_settings(), &self.clock, now);
                let text = if self.announcing {
                    c.announcements_on.clone()
                } else {
                    c.announcements_off.clone()
                };
                self.tell(Urgency::Answer, text);
            }
            // Line mode has typed words, the full screen keys.
            Action::Help => {
                let text = if self.front.voice.full_screen || self.front.voice.raw {
                    c.help.clone()
                } else {
                    c.help_lines.clone()
                };
                self.tell(Urgency::Answer, text);
            }
            // Nothing is lost before the start or after the flag: quit at once.
            Action::Quit if !self.has_run() => return false,
            Action::Quit => {
                self.asking = true;
                let text = self.quit_question();
                self.tell(Urgency::Answer, text);
            }
            Action::QuitNow => return false,
            Action::Yes | Action::No => {
                let text = self.lang.play.no_question.clone();
                self.tell(Urgency::Answer, text);
            }
            Action::Unknown => {
                let text = c.unknown_key.clone();
                self.tell(Urgency::Answer, text);
            }
            Action::Nothing => {}
        }
        true
    }

    /// The quit question: only yes quits; no answers it; any other command lets it go and
    /// is carried out (as in hector play), `None`.
    fn answer_quit(&mut self, action: &Action) -> Option<bool> {
        match action {
            Action::Yes | Action::QuitNow => Some(false),
            Action::No => {
                let text = self.lang.clock.not_quit.clone();
                self.tell(Urgency::Answer, text);
                Some(true)
            }
            // Enter alone (a line's press) or the command again asks again.
            Action::Quit => Some(self.ask_again()),
            Action::Space if self.lines() => Some(self.ask_again()),
            _ => None,
        }
    }

    fn ask_again(&mut self) -> bool {
        self.asking = true;
        let text = self.quit_question();
        self.tell(Urgency::Answer, text);
        true
    }

    /// Space: starts the clock, presses it for the side whose clock runs, or resumes it.
    fn space(&mut self, now: Timestamp) {
        let c = &self.lang.clock;
        match self.clock.state() {
            ClockState::Ready => {
                // 6.6: White's clock is started.
                if self.clock.start(now).is_ok() {
                    self.announcer = Announcer::new(self.active_settings(), &self.clock, now);
                    let text = fill(&c.started, &[("color", self.lang.color(Color::White))]);
                    self.tell(Urgency::Answer, text);
                }
            }
            ClockState::Running(color) => self.press(color, now),
            ClockState::Paused(_) => {
                self.act(Action::Pause, now);
            }
            ClockState::Stopped => {
                let text = c.over.clone();
                self.tell(Urgency::Answer, text);
            }
        }
    }

    /// A lever only counts for the player whose clock runs, as on a real clock; one that
    /// does not count says so.
    fn lever(&mut self, side: Side, now: Timestamp) {
        let c = &self.lang.clock;
        let color = self.color_of(side);
        let text = match self.clock.state() {
            ClockState::Running(running) if running == color => {
                self.press(color, now);
                None
            }
            ClockState::Running(running) => {
                Some(fill(&c.not_counted, &[("color", self.lang.color(running))]))
            }
            ClockState::Ready => Some(self.not_started().to_string()),
            ClockState::Paused(_) => Some(c.paused.clone()),
            ClockState::Stopped => Some(c.over.clone()),
        };
        if let Some(text) = text {
            self.tell(Urgency::Answer, text);
        }
    }

    fn active_settings(&self) -> AnnounceSettings {
        if self.announcing {
            self.announce.clone()
        } else {
            AnnounceSettings::tournament()
        }
    }

    /// "Die Uhr läuft noch nicht", with how to start it in this mode.
    fn not_started(&self) -> &str {
        if self.lines() {
            &self.lang.clock.not_started_lines
        } else {
            &self.lang.clock.not_started
        }
    }

    fn press(&mut self, color: Color, now: Timestamp) {
        match self.clock.press(color, now) {
            Ok(outcome) => {
                // Typed lines answer every press with whose clock runs now; the full screen
                // shows it (and a tournament wants no word more).
                if self.lines() {
                    let text = fill(
                        &self.lang.clock.pressed,
                        &[("color", self.lang.color(!color))],
                    );
                    self.tell(Urgency::Answer, text);
                }
                if let Some(p) = outcome.period_started {
                    // The announcer reports the new period if asked to; without it the
                    // player still hears it once here when announcements are off.
                    if !self.announcing {
                        let text = announcement_words(
                            &Announcement::PeriodStarted {
                                color: p.color,
                                period: p.period,
                                added: p.added,
                            },
                            self.lang,
                        );
                        self.tell(Urgency::Answer, text);
                    }
                }
            }
            Err(_) => self.due(now),
        }
    }

    /// Everything that falls due with time: the low-clock sound, announcements and the flag.
    fn due(&mut self, now: Timestamp) {
        if let Some(watch) = self.low_clock.as_mut() {
            for color in [Color::White, Color::Black] {
                if watch.fell_under(color, self.clock.remaining(color, now)) {
                    self.front.voice.cue(vec![Cue::LowClock]);
                }
            }
        }
        for a in self.announcer.due(&self.clock, now) {
            let text = announcement_words(&a, self.lang);
            let urgency = if a.is_urgent() {
                Urgency::Urgent
            } else {
                Urgency::Answer
            };
            self.tell(urgency, text);
            if a.is_urgent() {
                self.finished = true;
            }
        }
        if self.finished && self.clock.state() != ClockState::Stopped {
            self.clock.stop(now);
        }
    }

    /// When the running side's time falls under the low-clock threshold, if its sound may
    /// still come (just after, so that the wake finds it fallen).
    fn low_clock_instant(&self, now: Timestamp) -> Option<Timestamp> {
        let watch = self.low_clock.as_ref()?;
        let color = self.clock.running()?;
        if !watch.pending(color) {
            return None;
        }
        let left = self
            .clock
            .remaining(color, now)
            .checked_sub(watch.threshold())?;
        Some(now + left + Duration::from_millis(1))
    }

    /// Both times and the move count as one line of text, for a braille display: the running
    /// side is named by a word.
    fn times_line(&self, now: Timestamp) -> String {
        let side = |color: Color| {
            let mut text = format!(
                "{} {}",
                self.lang.color(color),
                clock_words::clock_face(self.clock.remaining(color, now))
            );
            if self.clock.running() == Some(color) {
                text.push(' ');
                text.push_str(&self.lang.clock.running);
            } else if self.clock.state() == ClockState::Paused(color) {
                text.push(' ');
                text.push_str(&self.lang.clock.stopped);
            }
            text
        };
        format!(
            "{}, {}, {}",
            side(Color::White),
            side(Color::Black),
            moves_words(self.clock.summary(now).moves_played, self.lang)
        )
    }

    fn draw_clock(&self, frame: &mut ratatui::Frame, now: Timestamp) {
        let area = frame.area();
        let rows = Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Min(9),
                Constraint::Length(1),
                Constraint::Length(1),
                Constraint::Length(2),
                Constraint::Length(3),
            ])
            .split(area);
        let halves = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
            .split(rows[0]);
        for (side, rect) in [(Side::Left, halves[0]), (Side::Right, halves[1])] {
            let color = self.color_of(side);
            let running = self.clock.running() == Some(color);
            // Decoration for low vision: hours and minutes (seconds in the last minute), so
            // that a second passing changes only the line of text below.
            let lines: Vec<Line> = bigtext::big(&big_face(self.clock.remaining(color, now)))
                .into_iter()
                .map(Line::from)
                .collect();
            // The running side is told by a word (in the line below) and by reversed video,
            // never by colour alone.
            let style = if running {
                Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED)
            } else {
                Style::default().add_modifier(Modifier::BOLD)
            };
            let title = format!(" {} ", self.lang.color(color));
            let p = Paragraph::new(lines)
                .alignment(Alignment::Center)
                .style(style)
                .block(Block::default().borders(Borders::ALL).title(title));
            frame.render_widget(p, rect);
        }
        let times = self.times_line(now);
        frame.render_widget(Paragraph::new(times.clone()), rows[1]);
        // The cursor rests at the end of the times, where a braille display follows it.
        let x = rows[1].x + (times.chars().count() as u16).min(rows[1].width.saturating_sub(1));
        frame.set_cursor_position(ratatui::layout::Position::new(x, rows[1].y));
        frame.render_widget(Paragraph::new(self.front.voice.status.clone()), rows[2]);
        let said = self.front.voice.said.last().cloned().unwrap_or_default();
        frame.render_widget(Paragraph::new(said).wrap(Wrap { trim: true }), rows[3]);
        let help = Paragraph::new(self.lang.clock.help.clone()).wrap(Wrap { trim: true });
        frame.render_widget(help, rows[4]);
    }
}

/// The large digits: hours and minutes, or the seconds in the last minute.
fn big_face(left: Duration) -> String {
    let secs = left.as_secs();
    if secs >= 60 {
        format!("{}:{:02}", secs / 3600, secs / 60 % 60)
    } else {
        format!("0:{secs:02}")
    }
}

impl Mode for ClockApp {
    fn sources(&self) -> Vec<(usize, Source)> {
        Vec::new()
    }

    /// An announcement, the flag, or (full screen) the next second shown.
    fn next_wake(&self) -> Option<Instant> {
        let now = self.now();
        let due = [
            self.announcer.next_instant(&self.clock, now),
            self.clock.next_deadline(now),
            self.low_clock_instant(now),
        ]
        .into_iter()
        .flatten()
        .min()
        .map(|t| self.origin + t.since_origin());
        let second = next_second(&self.front.voice, Some(&self.clock), now);
        due.into_iter().chain(second).min()
    }

    fn front(&mut self) -> &mut Front {
        &mut self.front
    }

    fn draw(&mut self, screen: &mut FullScreen) {
        let now = self.now();
        let _ = screen.terminal.draw(|f| self.draw_clock(f, now));
    }

    /// The clock's own keys: letters are commands here, there is no input line.
    fn key(&mut self, key: KeyEvent) -> bool {
        self.front.voice.dirty = true;
        let now = self.now();
        self.act(key_action(key), now)
    }

    fn line(&mut self, line: String) -> bool {
        let now = self.now();
        self.act(line_action(&line), now)
    }

    fn command(&mut self, _: Command) -> bool {
        true
    }

    fn incoming(&mut self, _: usize, _: Incoming) -> bool {
        true
    }

    fn tick(&mut self) -> bool {
        let now = self.now();
        self.due(now);
        true
    }

    fn clock_runs(&self) -> bool {
        self.clock.running().is_some()
    }
}

pub(crate) fn run(options: ClockOptions, lang: &'static Language) -> ExitCode {
    let ui = Ui::new(options.screen_reader);
    let speaker = ui.speaker(&options.speech, options.speech_chosen, lang);
    let origin = Instant::now();
    let clock = Clock::new(options.control.clone());
    let announcer = Announcer::new(AnnounceSettings::tournament(), &clock, Timestamp::ZERO);
    let sound = &options.speech.sound;
    let mut low_clock = (sound.cues && sound.low_clock > 0)
        .then(|| LowClock::new(Duration::from_secs(u64::from(sound.low_clock))));
    // The times the clock starts with: a side that starts under the threshold is no news.
    if let Some(watch) = low_clock.as_mut() {
        for color in [Color::White, Color::Black] {
            watch.fell_under(color, clock.remaining(color, Timestamp::ZERO));
        }
    }
    let mut app = ClockApp {
        clock,
        announcer,
        announce: options.announce.clone(),
        announcing: options.announce != AnnounceSettings::tournament(),
        lang,
        white: options.white,
        front: Front::new(
            Narrator::new(speaker, ui.full_screen, ""),
            Color::White,
            lang,
        ),
        origin,
        asking: false,
        finished: false,
        low_clock,
    };
    let screen = ui.open(crate::core::mode::Mode::Clock, &mut app.front.voice);
    let help = if app.front.voice.full_screen {
        &app.lang.clock.help
    } else {
        &app.lang.clock.help_lines
    };
    let intro = format!(
        "{}. {} {}",
        control_words(&options.control, app.lang),
        app.not_started(),
        help
    );
    app.tell(Urgency::Answer, intro);
    ui.run(&mut app, screen, lang);
    app.front.voice.speaker.wait_idle(Duration::from_secs(3));
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word of every language's [clock.lines] is its action, the old spellings too.
    #[test]
    fn the_clocks_line_words_of_every_language() {
        let mut checked = 0;
        for lang in languages() {
            let l = &lang.clock.lines;
            for (list, action) in [
                (&l.press, Action::Space),
                (&l.left, Action::Lever(Side::Left)),
                (&l.right, Action::Lever(Side::Right)),
                (&l.time, Action::Time),
                (&l.count, Action::Count),
                (&l.pause, Action::Pause),
                (&l.repeat, Action::Repeat),
                (&l.silence, Action::Silence),
                (&l.mute, Action::Mute),
                (&l.faster, Action::Faster),
                (&l.slower, Action::Slower),
                (&l.announcements, Action::ToggleAnnouncements),
                (&l.help, Action::Help),
                (&l.quit, Action::Quit),
            ] {
                assert!(!list.is_empty(), "{}", lang.code);
                for w in list {
                    assert_eq!(line_action(w), action, "{}: {w}", lang.code);
                    assert_eq!(line_action(&w.to_uppercase()), action, "{}: {w}", lang.code);
                    checked += 1;
                }
            }
        }
        assert!(checked > 70, "{checked}");
        for (typed, action) in [
            ("druecken", Action::Space),
            ("Zuege", Action::Count),
            ("", Action::Space),
            ("<", Action::Lever(Side::Left)),
            ("oui", Action::Yes),
            ("nee", Action::No),
            ("j", Action::Yes),
            ("q", Action::Quit),
            ("gibtsnicht", Action::Unknown),
        ] {
            assert_eq!(line_action(typed), action, "{typed}");
        }
    }
}
