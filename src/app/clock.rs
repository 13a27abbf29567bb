//! `hector clock`: a talking chess clock for any physical board (Article 6, Appendix D5).
//! Full-screen with large digits, or plain lines for a screen reader.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, unbounded};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::{Alignment, Constraint, Direction, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use shakmaty::Color;

use crate::app::say::{app_speaker, notice_text};
use crate::core::clock::{
    AnnounceSettings, Announcement, Announcer, Clock, ClockState, TimeControl,
};
use crate::core::notation::clock_words::{
    self, announcement_words, control_words, moves_words, summary_words,
};
use crate::core::notation::language::{Language, fill};
use crate::core::settings::SpeechSettings;
use crate::core::time::Timestamp;
use crate::io::speech::{Kind, Notice, Speaker};
use crate::io::terminal::{Input, bigtext, interactive};

/// Which lever White's clock is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Side {
    Left,
    Right,
}

pub struct ClockOptions {
    pub control: TimeControl,
    pub white: Side,
    pub screen_reader: bool,
    pub announce: AnnounceSettings,
    pub speech: SpeechSettings,
}

enum Event {
    Input(Input),
    Notice(Notice),
    /// Text of the print backend, shown in the status line of the full-screen view.
    Printed(String),
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
    Quit,
    QuitNow,
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
        _ => Action::Unknown,
    }
}

/// A typed line: the same letters as the keys, or a word.
fn line_action(line: &str) -> Action {
    let word = line.trim().to_lowercase();
    match word.as_str() {
        "" | "start" | "los" | "drücken" | "druecken" | "press" => Action::Space,
        "links" | "left" | "<" => Action::Lever(Side::Left),
        "rechts" | "right" | ">" => Action::Lever(Side::Right),
        "zeit" | "time" => Action::Time,
        "züge" | "zuege" | "zugzahl" | "count" | "moves" => Action::Count,
        "pause" | "weiter" | "resume" => Action::Pause,
        "wiederholen" | "repeat" => Action::Repeat,
        "still" | "stop" | "silence" => Action::Silence,
        "stumm" | "mute" => Action::Mute,
        "schneller" | "faster" => Action::Faster,
        "langsamer" | "slower" => Action::Slower,
        "ansagen" | "announcements" => Action::ToggleAnnouncements,
        "hilfe" | "help" => Action::Help,
        "ende" | "beenden" | "quit" | "exit" => Action::QuitNow,
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
    speaker: Speaker,
    line_mode: bool,
    /// Line mode: the reader of standard output has gone away; the clock ends.
    reader_gone: bool,
    status: String,
    /// Which speech output is in use, shown with the status line.
    speech_name: String,
    quit_armed: Option<Instant>,
    muted: bool,
    finished: bool,
}

impl ClockApp {
    fn color_of(&self, side: Side) -> Color {
        if side == self.white {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Says `text` and shows it (a line of its own in line mode).
    fn tell(&mut self, kind: Kind, text: String) {
        self.speaker.say(kind, text.clone());
        if self.line_mode {
            let mut out = std::io::stdout().lock();
            let written = writeln!(out, "{text}").and_then(|()| out.flush());
            if written.is_err_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) {
                self.reader_gone = true;
            }
        }
        self.status = text;
    }

    fn act(&mut self, action: Action, now: Timestamp) -> bool {
        if action != Action::Quit {
            self.quit_armed = None;
        }
        let c = &self.lang.clock;
        match action {
            Action::Space => match self.clock.state() {
                ClockState::Ready => {
                    // 6.6: White's clock is started.
                    if self.clock.start(now).is_ok() {
                        self.announcer = Announcer::new(self.active_settings(), &self.clock, now);
                        let text = fill(&c.started, &[("color", self.lang.color(Color::White))]);
                        self.tell(Kind::Answer, text);
                    }
                }
                ClockState::Running(color) => self.press(color, now),
                ClockState::Paused(_) => {
                    self.act(Action::Pause, now);
                }
                ClockState::Stopped => {}
            },
            Action::Lever(side) => {
                // A lever only counts for the player whose clock runs, as on a real clock.
                let color = self.color_of(side);
                if self.clock.running() == Some(color) {
                    self.press(color, now);
                } else if self.clock.state() == ClockState::Ready {
                    let text = c.not_started.clone();
                    self.tell(Kind::Answer, text);
                }
            }
            Action::Time => {
                if self.clock.state() == ClockState::Ready {
                    let text = c.not_started.clone();
                    self.tell(Kind::Answer, text);
                } else {
                    let text = summary_words(&self.clock.summary(now), self.lang);
                    self.tell(Kind::Answer, text);
                }
            }
            Action::Count => {
                let text = moves_words(self.clock.summary(now).moves_played, self.lang);
                self.tell(Kind::Answer, text);
            }
            Action::Pause => match self.clock.state() {
                ClockState::Running(_) if self.clock.pause(now).is_ok() => {
                    let text = c.paused.clone();
                    self.tell(Kind::Answer, text);
                }
                ClockState::Paused(_) if self.clock.resume(now).is_ok() => {
                    let text = c.resumed.clone();
                    self.tell(Kind::Answer, text);
                }
                _ => {}
            },
            Action::Repeat => self.speaker.repeat(),
            Action::Silence => self.speaker.stop(),
            Action::Mute => {
                self.muted = !self.muted;
                self.speaker.set_muted(self.muted);
            }
            Action::Faster => self.speaker.change_rate(10),
            Action::Slower => self.speaker.change_rate(-10),
            Action::ToggleAnnouncements => {
                self.announcing = !self.announcing;
                self.announcer = Announcer::new(self.active_settings(), &self.clock, now);
                let text = if self.announcing {
                    c.announcements_on.clone()
                } else {
                    c.announcements_off.clone()
                };
                self.tell(Kind::Answer, text);
            }
            Action::Help => {
                let text = c.help.clone();
                self.tell(Kind::Answer, text);
            }
            Action::Quit => {
                if self
                    .quit_armed
                    .is_some_and(|t| t.elapsed() < Duration::from_secs(3))
                {
                    return false;
                }
                self.quit_armed = Some(Instant::now());
                let text = c.quit_confirm.clone();
                self.tell(Kind::Answer, text);
            }
            Action::QuitNow => return false,
            Action::Unknown => {
                let text = c.unknown_key.clone();
                self.tell(Kind::Answer, text);
            }
            Action::Nothing => {}
        }
        true
    }

    fn active_settings(&self) -> AnnounceSettings {
        if self.announcing {
            self.announce.clone()
        } else {
            AnnounceSettings::tournament()
        }
    }

    fn press(&mut self, color: Color, now: Timestamp) {
        match self.clock.press(color, now) {
            Ok(outcome) => {
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
                        self.tell(Kind::Answer, text);
                    }
                }
            }
            Err(_) => self.tick(now),
        }
    }

    /// Everything that falls due with time: announcements and the flag.
    fn tick(&mut self, now: Timestamp) {
        for a in self.announcer.due(&self.clock, now) {
            let text = announcement_words(&a, self.lang);
            let kind = if a.is_urgent() {
                Kind::Urgent
            } else {
                Kind::Answer
            };
            self.tell(kind, text);
            if a.is_urgent() {
                self.finished = true;
            }
        }
        if self.finished && self.clock.state() != ClockState::Stopped {
            self.clock.stop(now);
        }
    }

    /// The next instant something must happen: an announcement, a flag, or (full-screen) the
    /// next change of the seconds shown.
    fn next_wake(&self, now: Timestamp, full_screen: bool) -> Option<Timestamp> {
        let mut next = [
            self.announcer.next_instant(&self.clock, now),
            self.clock.next_deadline(now),
        ]
        .into_iter()
        .flatten()
        .min();
        if full_screen && let Some(color) = self.clock.running() {
            let left = self.clock.remaining(color, now);
            let step =
                Duration::from_nanos(u64::from(left.subsec_nanos())) + Duration::from_millis(1);
            next = Some(next.map_or(now + step, |n| n.min(now + step)));
        }
        next
    }

    fn clock_face(&self, color: Color, now: Timestamp) -> String {
        clock_words::clock_face(self.clock.remaining(color, now))
    }

    fn draw(&self, frame: &mut ratatui::Frame, now: Timestamp) {
        let area = frame.area();
        let rows = Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Min(9),
                Constraint::Length(3),
                Constraint::Length(2),
            ])
            .split(area);
        let halves = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
            .split(rows[0]);
        for (side, rect) in [(Side::Left, halves[0]), (Side::Right, halves[1])] {
            let color = self.color_of(side);
            let running = self.clock.running() == Some(color);
            let mut lines: Vec<Line> = bigtext::big(&self.clock_face(color, now))
                .into_iter()
                .map(Line::from)
                .collect();
            lines.push(Line::from(""));
            let state = if running {
                self.lang.clock.running.clone()
            } else if self.clock.is_paused() && self.clock.state() == ClockState::Paused(color) {
                self.lang.clock.stopped.clone()
            } else {
                String::new()
            };
            lines.push(Line::from(state));
            lines.push(Line::from(moves_words(
                self.clock.moves_completed(color),
                self.lang,
            )));
            // The running side is told by a word and by reversed video, never by colour alone.
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
        let status = Paragraph::new(self.status.clone())
            .wrap(Wrap { trim: true })
            .block(
                Block::default()
                    .borders(Borders::TOP)
                    .title(self.speech_name.clone()),
            );
        frame.render_widget(status, rows[1]);
        let help = Paragraph::new(self.lang.clock.help.clone()).wrap(Wrap { trim: true });
        frame.render_widget(help, rows[2]);
    }
}

pub fn run(options: ClockOptions, lang: &'static Language) -> ExitCode {
    let (tx, rx): (Sender<Event>, Receiver<Event>) = unbounded();
    let full_screen = !options.screen_reader && interactive();
    // Printed speech: line mode prints every message itself; full-screen shows it in the
    // status line.
    let printed: Option<fn(String) -> Event> = full_screen.then_some(Event::Printed);
    let speaker = app_speaker(&options.speech, lang, &tx, printed, Event::Notice);
    let origin = Instant::now();
    let now = || Timestamp::from_duration(origin.elapsed());
    let clock = Clock::new(options.control.clone());
    let announcer = Announcer::new(AnnounceSettings::tournament(), &clock, now());
    let mut app = ClockApp {
        clock,
        announcer,
        announce: options.announce.clone(),
        announcing: options.announce != AnnounceSettings::tournament(),
        lang,
        white: options.white,
        speaker,
        line_mode: !full_screen,
        reader_gone: false,
        status: String::new(),
        speech_name: String::new(),
        quit_armed: None,
        muted: false,
        finished: false,
    };
    let mut screen = crate::io::terminal::open(full_screen, "clock", tx.clone(), Event::Input);
    app.line_mode = screen.is_none();
    let intro = format!(
        "{}. {} {}",
        control_words(&options.control, app.lang),
        app.lang.clock.not_started,
        app.lang.clock.help
    );
    app.tell(Kind::Answer, intro);
    loop {
        if let Some(s) = screen.as_mut() {
            let t = now();
            let _ = s.terminal.draw(|f| app.draw(f, t));
        }
        let wake = app.next_wake(now(), screen.is_some());
        let event = match wake {
            Some(at) => {
                let deadline = origin + at.since_origin();
                match rx.recv_deadline(deadline) {
                    Ok(e) => Some(e),
                    Err(crossbeam_channel::RecvTimeoutError::Timeout) => None,
                    Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
                }
            }
            None => match rx.recv() {
                Ok(e) => Some(e),
                Err(_) => break,
            },
        };
        let t = now();
        let keep_going = match event {
            Some(Event::Input(Input::Key(k))) => app.act(key_action(k), t),
            Some(Event::Input(Input::Line(l))) => app.act(line_action(&l), t),
            Some(Event::Input(Input::Closed)) => false,
            Some(Event::Input(Input::Resize)) | None => true,
            Some(Event::Notice(n)) => {
                let text = notice_text(&n, app.lang);
                if matches!(n, Notice::Using(_)) {
                    app.speech_name = text;
                } else {
                    app.tell(Kind::Answer, text);
                }
                true
            }
            Some(Event::Printed(text)) => {
                app.status = text;
                true
            }
        };
        app.tick(now());
        if !keep_going || app.reader_gone {
            break;
        }
    }
    drop(screen);
    app.speaker.wait_idle(Duration::from_secs(3));
    ExitCode::SUCCESS
}
