//! One runtime for the interactive modes (play, resume, assist, arbiter): the terminal (full
//! screen or lines), the keys and the input line ([`keys`]), the board view ([`view`]), what
//! is said and shown ([`narrator`]), and one loop that merges every event source into one
//! event, draws when something changed, sleeps until the mode's next deadline and ends
//! cleanly, also on SIGINT, SIGTERM and SIGHUP (the terminal restored, the mode's closing
//! work done as after a quit); a braille display, when one answers, shows the answers and
//! the board's focused rank ([`braille`]). A mode is its set-up plus an implementation of
//! [`Mode`]: what it waits on, what it does with each event, and how it draws.

pub(crate) mod braille;
pub(crate) mod keys;
pub(crate) mod narrator;
pub(crate) mod view;

use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Select, Sender, unbounded};

use crate::app::services::speaker::mode_speaker;
use crate::app::services::voice::{Heard, Outcome, VoiceInput};
use crate::core::notation::Language;
use crate::core::settings::SpeechSettings;
use crate::io::engine::EngineEvent;
use crate::io::journal::Ack;
use crate::io::serial::PortEvent;
use crate::io::speech::{Notice, Speaker};
use crate::io::terminal::{FullScreen, Input, interactive};
use keys::{Focus, KeyOutcome};
use narrator::Narrator;
use shakmaty::{Color, Position, Square};

use crate::core::machine::Common;
use crate::core::matchplay::Command;
use crate::core::matchplay::Question;
use crate::core::matchplay::Urgency;
use crate::core::notation::fill;

/// What the terminal's and the speech's threads send.
pub(crate) enum UiEvent {
    Input(Input),
    Notice(Notice),
}

/// A source of events besides the terminal.
#[derive(Clone)]
pub(crate) enum Source {
    /// A board's serial port.
    Port(Receiver<PortEvent>),
    /// The engine's answers.
    Engine(Receiver<EngineEvent>),
    /// A journal thread's acknowledgements.
    Journal(Receiver<Ack>),
    /// A signal (the speech has said what was queued).
    Signal(Receiver<()>),
    /// A lichess game's stream and the answers to its requests.
    Lichess(Receiver<crate::io::lichess::News>),
    /// A followed broadcast round's or game's stream (`hector watch`).
    Watch(Receiver<crate::io::lichess::watch::WatchNews>),
    /// The answers to the arbiter's pushes to a lichess broadcast.
    Push(Receiver<crate::io::lichess::push::PushNews>),
    /// The games `hector study` asked its file for.
    Study(Receiver<crate::io::study_file::StudyNews>),
    /// The opening explorer's replies.
    Explorer(Receiver<crate::io::lichess::explorer::Explored>),
}

/// An event from a [`Source`].
pub(crate) enum Incoming {
    Port(PortEvent),
    Engine(EngineEvent),
    Journal(Ack),
    Signal,
    Lichess(crate::io::lichess::News),
    Watch(crate::io::lichess::watch::WatchNews),
    Push(crate::io::lichess::push::PushNews),
    Study(crate::io::study_file::StudyNews),
    Explorer(crate::io::lichess::explorer::Explored),
}

impl Source {
    /// Adds the source to `select`: the index of its operation.
    fn register<'a>(&'a self, select: &mut Select<'a>) -> usize {
        match self {
            Source::Port(r) => select.recv(r),
            Source::Engine(r) => select.recv(r),
            Source::Journal(r) => select.recv(r),
            Source::Signal(r) => select.recv(r),
            Source::Lichess(r) => select.recv(r),
            Source::Watch(r) => select.recv(r),
            Source::Push(r) => select.recv(r),
            Source::Study(r) => select.recv(r),
            Source::Explorer(r) => select.recv(r),
        }
    }

    /// Whether both are the same channel (a source given again turn after turn).
    fn same_channel(&self, other: &Source) -> bool {
        match (self, other) {
            (Source::Port(a), Source::Port(b)) => a.same_channel(b),
            (Source::Engine(a), Source::Engine(b)) => a.same_channel(b),
            (Source::Journal(a), Source::Journal(b)) => a.same_channel(b),
            (Source::Signal(a), Source::Signal(b)) => a.same_channel(b),
            (Source::Lichess(a), Source::Lichess(b)) => a.same_channel(b),
            (Source::Watch(a), Source::Watch(b)) => a.same_channel(b),
            (Source::Push(a), Source::Push(b)) => a.same_channel(b),
            (Source::Study(a), Source::Study(b)) => a.same_channel(b),
            (Source::Explorer(a), Source::Explorer(b)) => a.same_channel(b),
            _ => false,
        }
    }

    fn take(&self, op: crossbeam_channel::SelectedOperation<'_>) -> Option<Incoming> {
        match self {
            Source::Port(r) => op.recv(r).ok().map(Incoming::Port),
            Source::Engine(r) => op.recv(r).ok().map(Incoming::Engine),
            Source::Journal(r) => op.recv(r).ok().map(Incoming::Journal),
            Source::Signal(r) => op.recv(r).ok().map(|()| Incoming::Signal),
            Source::Lichess(r) => op.recv(r).ok().map(Incoming::Lichess),
            Source::Watch(r) => op.recv(r).ok().map(Incoming::Watch),
            Source::Push(r) => op.recv(r).ok().map(Incoming::Push),
            Source::Study(r) => op.recv(r).ok().map(Incoming::Study),
            Source::Explorer(r) => op.recv(r).ok().map(Incoming::Explorer),
        }
    }
}

/// What every interactive mode has in front of the player: what is said and shown, and the
/// input line with the board's focus.
pub(crate) struct Front {
    pub(crate) voice: Narrator,
    pub(crate) focus: Focus,
    /// The side the board is seen from (the arrows walk from there).
    pub(crate) side: Color,
    pub(crate) lang: &'static Language,
    /// The line just handled was refused: it stays in the input line.
    pub(crate) refused: bool,
    /// The position looked back at, with its heading (the mode sets it before drawing).
    pub(crate) review: Option<(shakmaty::Chess, String)>,
    /// The square of the piece picked up on the board (the mode sets it before drawing).
    pub(crate) picked: Option<Square>,
    /// The board is seen from the other side (f on the board).
    pub(crate) flipped: bool,
}

impl Front {
    pub(crate) fn new(mut voice: Narrator, side: Color, lang: &'static Language) -> Front {
        voice.lang = Some(lang);
        let mut focus = Focus::new(side.fold_wb(Square::E2, Square::E7));
        focus.shifted_digits = lang.board_keys.shifted_digits.chars().collect();
        Front {
            voice,
            focus,
            side,
            lang,
            refused: false,
            review: None,
            picked: None,
            flipped: false,
        }
    }

    /// Carries out what every machine tells in one shape (`core::machine::Common`): words to
    /// the narrator, a speech control, a refused line kept for retyping. False for the end,
    /// which the mode's loop acts on.
    pub fn carry_out(&mut self, common: Common) -> bool {
        match common {
            Common::Say { urgency, lines } => self.voice.tell(urgency, lines),
            Common::Speech(control) => self.voice.speech(control),
            Common::Cue(cues) => self.voice.cue(cues),
            Common::Refused => self.refused = true,
            Common::Quit => return false,
        }
        true
    }

    /// The side the board is drawn and walked from: the player's, unless turned.
    pub(crate) fn seen_from(&self) -> Color {
        if self.flipped { !self.side } else { self.side }
    }

    /// On the board, while a yes-or-no question waits, the first letter of a yes or no word
    /// answers it: the answer typed out, for the mode to take as a line. Nothing is typed
    /// on the board, so the player need not leave it to answer.
    fn yes_no_key(&self, key: crossterm::event::KeyEvent) -> Option<String> {
        use crossterm::event::{KeyCode, KeyModifiers};
        if !self.focus.on_board || !self.voice.yes_no {
            return None;
        }
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return None;
        }
        let KeyCode::Char(c) = key.code else {
            return None;
        };
        let c = c.to_lowercase().next()?;
        let c_words = &self.lang.commands;
        [&c_words.yes, &c_words.no].into_iter().find_map(|words| {
            words
                .iter()
                .any(|w| w.starts_with(c))
                .then(|| words.first().cloned())
                .flatten()
        })
    }
}

/// What the board view shows besides the front: the game and how it is drawn.
pub(crate) struct Picture<'a> {
    pub(crate) game: &'a crate::core::game::Game,
    /// White's and Black's time as shown, and whose clock runs.
    pub(crate) clock: Option<crate::core::notation::clock_words::ClockFaces>,
    pub(crate) pieces: view::Pieces,
    pub(crate) colors: bool,
    /// The boards of a two-board game (empty: none).
    pub(crate) boards: &'a [String],
}

impl Front {
    /// Draws the board view: `picture`'s game, with what was said and the input line.
    pub(crate) fn draw_board(&self, screen: &mut FullScreen, picture: Picture<'_>) {
        let view = view::View {
            game: picture.game,
            lang: self.lang,
            local: self.seen_from(),
            cursor: self.focus.cursor,
            input: &self.focus.input,
            caret: self.focus.caret,
            said: &self.voice.said,
            newest: self.voice.newest,
            question: self.voice.question.as_deref(),
            clock: picture.clock,
            pieces: picture.pieces,
            colors: picture.colors,
            status: &self.voice.status,
            boards: picture.boards,
            looking: view::Looking {
                review: self.review.as_ref().map(|(p, h)| (p, h.as_str())),
                picked: self.picked,
                on_board: self.focus.on_board,
            },
            page: self.voice.page,
            reading: self.voice.reading,
        };
        let _ = screen.terminal.draw(|f| view.draw(f));
    }
}

/// What a mode does; the runtime does the rest. Each handler returns false when the mode
/// ends.
pub(crate) trait Mode {
    /// The sources to wait on besides the terminal, each with the mode's own tag.
    fn sources(&self) -> Vec<(usize, Source)>;
    /// The next instant something falls due (a flag, a board's pause, a checkpoint, the next
    /// second on screen).
    fn next_wake(&self) -> Option<Instant>;
    fn front(&mut self) -> &mut Front;
    fn voice(&mut self) -> &mut Narrator {
        &mut self.front().voice
    }
    fn focus(&mut self) -> &mut Focus {
        &mut self.front().focus
    }

    fn draw(&mut self, screen: &mut FullScreen);
    /// The board the keys on the board search (the position shown); `None`: the mode takes
    /// no moves on the board.
    fn shown_board(&self) -> Option<shakmaty::Board> {
        None
    }
    /// The screen's "last said" panel pages through the newest answer (Page Up, Page Down).
    fn pages_answers(&self) -> bool {
        true
    }
    /// A premove waits to be played (Enter on an empty line cancels it).
    fn premove_kept(&self) -> bool {
        false
    }
    /// Voice input, when the mode listens (`--voice`).
    fn voice_input(&mut self) -> Option<&mut VoiceInput> {
        None
    }
    /// The position a spoken move is heard in (the game's, or the one looked back at).
    fn heard_position(&self) -> Option<shakmaty::Chess> {
        None
    }
    /// The mode ended by itself (not at the player's word) with an answer not yet read:
    /// the braille display keeps it until a key or its hold time before the mode ends.
    fn ends_with_answer(&self) -> bool {
        false
    }
    /// A typed line.
    fn line(&mut self, line: String) -> bool;
    /// A command from a key (or Enter on an empty line: the focused square).
    fn command(&mut self, command: Command) -> bool;
    /// Whether the line just handled was refused (it then stays in the input line).
    fn take_refused(&mut self) -> bool {
        std::mem::take(&mut self.front().refused)
    }
    /// A key of the full screen: the speech keys, the input line, the board's focus, and
    /// the commands of the function keys.
    /// Escape on an empty input line, before it silences the speech: true when the mode
    /// took it (a study cancels a search that is still running).
    fn escape(&mut self) -> bool {
        false
    }
    fn key(&mut self, key: crossterm::event::KeyEvent) -> bool {
        if key.code == crossterm::event::KeyCode::Esc
            && self.front().focus.input.is_empty()
            && self.escape()
        {
            self.front().voice.dirty = true;
            return true;
        }
        if let Some(answer) = self.front().yes_no_key(key) {
            self.front().voice.dirty = true;
            self.voice().submitted();
            return self.line(answer);
        }
        let front = self.front();
        front.voice.dirty = true;
        let seen_from = front.seen_from();
        let outcome = front.focus.press(key, seen_from);
        // The cursor goes back from the answer to the board or the input line with any key
        // but paging.
        if !matches!(outcome, KeyOutcome::Page(_)) {
            front.voice.reading = false;
        }
        match self.voice().key(outcome) {
            Some(KeyOutcome::Command { command, keys_help }) => {
                let keep = self.command(command);
                if keys_help {
                    tell_keys_help(self);
                }
                keep
            }
            Some(KeyOutcome::Line(line)) => entered_line(self, line),
            Some(KeyOutcome::Quit) => self.command(Command::Quit),
            Some(KeyOutcome::FocusSwitched(on_board)) => {
                let f = &self.front().lang.board_focus;
                let word = if on_board { &f.board } else { &f.input };
                let word = word.clone();
                self.voice().tell(Urgency::Answer, vec![word]);
                true
            }
            Some(KeyOutcome::Edge) => {
                let word = self.front().lang.board_focus.edge.clone();
                self.voice().cue(vec![crate::core::cue::Cue::Edge]);
                self.voice().tell(Urgency::Answer, vec![word]);
                true
            }
            Some(KeyOutcome::NoMeaning) => self.no_meaning(),
            Some(KeyOutcome::Find { letter, opponent }) => self.find(letter, opponent),
            Some(KeyOutcome::Page(_)) if !self.pages_answers() => true,
            Some(KeyOutcome::Page(down)) => {
                let (cols, rows) = FullScreen::size().unwrap_or((view::MIN_COLS, view::MIN_ROWS));
                let (width, height) = view::said_area(cols, rows);
                self.voice().turn_page(down, width, height);
                true
            }
            Some(KeyOutcome::Listen) => {
                listen_key(self);
                true
            }
            Some(KeyOutcome::Flip) => {
                flip(self);
                true
            }
            _ => true,
        }
    }
    /// A key that does nothing on the board says so in a word.
    fn no_meaning(&mut self) -> bool {
        let word = self.front().lang.board_focus.no_meaning.clone();
        self.voice().tell(Urgency::Answer, vec![word]);
        true
    }
    /// A piece letter on the board: the focus goes to the next such piece of the player (or
    /// the opponent), which is said; when there is none, that is said.
    fn find(&mut self, letter: char, opponent: bool) -> bool {
        let Some(board) = self.shown_board() else {
            return true;
        };
        let front = self.front();
        let lang = front.lang;
        let Some(role) = keys::role_of_letter(letter, lang) else {
            return self.no_meaning();
        };
        // The promotion question after a move on the board: the letter names the piece.
        if front.voice.question.as_ref() == Some(&lang.play.promotion_question) {
            let piece = lang.piece(role).to_string();
            return self.line(piece);
        }
        let color = if opponent { !front.side } else { front.side };
        let piece = shakmaty::Piece { color, role };
        match keys::next_piece(&board, front.focus.cursor, piece, front.seen_from()) {
            Some(square) => {
                front.focus.cursor = square;
                self.command(Command::Ask(Question::Square(square)))
            }
            // None there: the answer to "where are they" says so.
            None => self.command(Command::Ask(Question::Pieces {
                color: Some(color),
                role: Some(role),
            })),
        }
    }
    fn incoming(&mut self, tag: usize, event: Incoming) -> bool;
    /// Time-driven work, after every wake.
    fn tick(&mut self) -> bool;
    /// A clock runs on the screen: it is drawn again as its seconds pass.
    fn clock_runs(&self) -> bool;
    /// Line mode shows its prompt now (not while the computer thinks: its move comes first).
    fn prompt_now(&self) -> bool {
        true
    }
}

/// The terminal and the events of an interactive mode, before its loop runs.
pub(crate) struct Ui {
    tx: Sender<UiEvent>,
    rx: Receiver<UiEvent>,
    /// SIGINT, SIGTERM, SIGHUP: caught from the start, so that none kills hector with the
    /// terminal left in raw mode.
    signals: Receiver<crate::io::platform::signals::Ending>,
    /// The braille display, taken out while the loop runs.
    braille: std::cell::RefCell<Option<braille::Braille>>,
    /// The full screen is wanted (not `--screen-reader`, and a terminal).
    pub(crate) full_screen: bool,
    /// Lines on a terminal read the keys one by one (the mode's keys work there too, and
    /// the answer to a line follows it without an empty line between).
    pub(crate) keys_in_lines: bool,
}

impl Ui {
    pub(crate) fn new(screen_reader: bool) -> Ui {
        let (tx, rx) = unbounded();
        // The words of the display's mark come with the mode's language at the loop's start.
        let lang = crate::core::notation::default_language();
        Ui {
            tx,
            rx,
            signals: crate::io::platform::signals::endings(),
            braille: std::cell::RefCell::new(braille::Braille::start(lang)),
            full_screen: !screen_reader && interactive(),
            keys_in_lines: false,
        }
    }

    /// Lines on a terminal read the keys one by one ([`Ui::keys_in_lines`]).
    pub(crate) fn with_keys_in_lines(mut self) -> Ui {
        self.keys_in_lines = true;
        self
    }

    /// The mode's speaker (print in line mode unless a backend was chosen).
    pub(crate) fn speaker(
        &self,
        speech: &SpeechSettings,
        chosen: bool,
        lang: &Language,
    ) -> Speaker {
        mode_speaker(
            speech,
            chosen,
            self.full_screen,
            lang,
            &self.tx,
            UiEvent::Notice,
        )
    }

    /// Opens the terminal: the full screen when wanted and possible, else lines (the reason on
    /// standard error); the input thread of the one chosen starts reading.
    pub(crate) fn open(
        &self,
        mode: crate::core::mode::Mode,
        voice: &mut Narrator,
    ) -> Option<FullScreen> {
        let screen = crate::io::terminal::open(
            self.full_screen,
            self.keys_in_lines,
            mode.name(),
            self.tx.clone(),
            UiEvent::Input,
        );
        let lines_only = screen.as_ref().is_some_and(|s| s.lines_only);
        voice.full_screen = screen.is_some() && !lines_only;
        voice.raw = lines_only;
        screen
    }

    /// Runs `mode` until it ends, then leaves the full screen: what the mode says after this
    /// (its closing words) is printed and stays in the terminal.
    pub(crate) fn run<M: Mode>(
        &self,
        mode: &mut M,
        mut screen: Option<FullScreen>,
        lang: &Language,
    ) {
        if mode.prompt_now() {
            mode.voice().prompt();
        }
        let mut display = self.braille.borrow_mut().take();
        if let Some(d) = display.as_mut() {
            d.set_mark(lang);
        }
        run_loop(
            mode,
            &self.rx,
            &self.signals,
            &mut screen,
            &mut display,
            lang,
        );
        if mode.ends_with_answer() {
            linger(mode, &self.rx, &self.signals, &mut screen, &mut display);
        }
        *self.braille.borrow_mut() = display;
        drop(screen);
        mode.voice().full_screen = false;
        mode.voice().raw = false;
    }
}

/// What the loop waits on, by name: an operation of its select is one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Waited {
    Terminal,
    Signals,
    Braille,
    /// The mode's source at this place in its list.
    Source(usize),
    /// The voice listener.
    Heard,
}

/// The receivers of one turn of the loop, added to a select in one place: each operation's
/// index is the one the select gave it.
struct Waiting<'a> {
    select: Select<'a>,
    waited: Vec<(usize, Waited)>,
}

impl<'a> Waiting<'a> {
    fn new(
        events: &'a Receiver<UiEvent>,
        signals: &'a Receiver<crate::io::platform::signals::Ending>,
        braille: &'a Receiver<crate::io::braille::BrailleEvent>,
        sources: &'a [(usize, Source)],
        heard: Option<&'a Receiver<(u64, Heard)>>,
    ) -> Waiting<'a> {
        let mut select = Select::new();
        let mut waited = vec![
            (select.recv(events), Waited::Terminal),
            (select.recv(signals), Waited::Signals),
            (select.recv(braille), Waited::Braille),
        ];
        for (i, (_, source)) in sources.iter().enumerate() {
            waited.push((source.register(&mut select), Waited::Source(i)));
        }
        if let Some(h) = heard {
            waited.push((select.recv(h), Waited::Heard));
        }
        Waiting { select, waited }
    }
}

/// What the select's operation `index` waits on.
fn which(waited: &[(usize, Waited)], index: usize) -> Option<Waited> {
    waited
        .iter()
        .find(|(i, _)| *i == index)
        .map(|&(_, which)| which)
}

/// The loop: draw when dirty, wait for the first of the terminal, the sources and the next
/// deadline, hand the event to the mode, then the time-driven work.
fn run_loop<M: Mode>(
    mode: &mut M,
    events: &Receiver<UiEvent>,
    signals: &Receiver<crate::io::platform::signals::Ending>,
    screen: &mut Option<FullScreen>,
    display: &mut Option<braille::Braille>,
    lang: &Language,
) {
    let mut running = true;
    // The position the listener hears moves in, to start over when it changes.
    let mut heard_in: Option<shakmaty::Chess> = None;
    // Sources whose senders have all gone (a stream that ended, a thread that stopped): a
    // closed channel is always ready, so waiting on it again would spin a core.
    let mut ended: Vec<Source> = Vec::new();
    let mut heard_ended: Option<Receiver<(u64, Heard)>> = None;
    let no_display = crossbeam_channel::never::<crate::io::braille::BrailleEvent>();
    fit(mode, screen, lang);
    // Line mode ends as at the end of its input when the reader of its output has gone.
    while running && !mode.voice().reader_gone {
        show(mode, screen, display);
        // What the next event brings is one answer, after everything shown so far.
        mode.voice().new_turn();
        let timeout = until_wake(mode, display);
        let mut sources = mode.sources();
        sources.retain(|(_, s)| !ended.iter().any(|e| e.same_channel(s)));
        let heard = mode
            .voice_input()
            .and_then(|v| v.receiver())
            .filter(|h| !heard_ended.as_ref().is_some_and(|e| e.same_channel(h)));
        // A clone: the display is borrowed again to take the event.
        let braille_events = display
            .as_ref()
            .map_or_else(|| no_display.clone(), |d| d.events().clone());
        let Waiting { mut select, waited } =
            Waiting::new(events, signals, &braille_events, &sources, heard.as_ref());
        match select
            .select_timeout(timeout)
            .map(|op| (which(&waited, op.index()), op))
        {
            // SIGINT, SIGTERM or SIGHUP: no question (after a hang-up nobody is there to
            // answer); the mode ends as a confirmed quit does, its closing work after the
            // loop, the terminal restored by the caller.
            Ok((Some(Waited::Signals), op)) => {
                if op.recv(signals).is_ok() {
                    return;
                }
            }
            Ok((Some(Waited::Braille), op)) => match op.recv(&braille_events) {
                Ok(event) => {
                    if let Some(d) = display.as_mut() {
                        running = d.event(mode, event);
                    }
                }
                // The link has ended: no display for the rest of the mode.
                Err(_) => *display = None,
            },
            Ok((Some(Waited::Terminal), op)) => {
                running = match op.recv(events) {
                    Ok(event) => terminal_event(mode, event, screen, display, lang),
                    Err(_) => false,
                };
            }
            Ok((Some(Waited::Heard), op)) => {
                if let Some(h) = heard.as_ref() {
                    match op.recv(h) {
                        Ok(h) => running = voice_heard(mode, h),
                        Err(_) => heard_ended = Some(h.clone()),
                    }
                }
            }
            Ok((Some(Waited::Source(i)), op)) => {
                let (tag, source) = &sources[i];
                match source.take(op) {
                    Some(event) => running = mode.incoming(*tag, event),
                    None => ended.push(source.clone()),
                }
            }
            // Every operation is one of those added above.
            Ok((None, _)) | Err(_) => {}
        }
        running &= mode.tick();
        if running && mode.prompt_now() {
            mode.voice().prompt();
        }
        if running {
            listen_again(mode, &mut heard_in);
        }
        if mode.voice().full_screen && mode.clock_runs() {
            mode.voice().dirty = true;
        }
    }
}

/// The last answer of a mode that ended by itself, flashed on the braille display until a
/// key (of the keyboard or the display, its panning keys aside), its hold time, the end of
/// input or a signal: the loop has ended before it could be shown. Without a display, at
/// once.
fn linger<M: Mode>(
    mode: &mut M,
    events: &Receiver<UiEvent>,
    signals: &Receiver<crate::io::platform::signals::Ending>,
    screen: &mut Option<FullScreen>,
    display: &mut Option<braille::Braille>,
) {
    show(mode, screen, display);
    loop {
        let Some(d) = display.as_mut() else {
            return;
        };
        if !d.flashing() {
            return;
        }
        let timeout = d.next_wake().map_or(Duration::from_secs(3600), |w| {
            w.saturating_duration_since(Instant::now())
        });
        let braille_events = d.events().clone();
        let mut select = Select::new();
        let terminal = select.recv(events);
        let signal = select.recv(signals);
        let braille = select.recv(&braille_events);
        match select.select_timeout(timeout) {
            Ok(op) if op.index() == braille => match op.recv(&braille_events) {
                Ok(event) => {
                    if let Some(d) = display.as_mut() {
                        d.event(mode, event);
                    }
                }
                Err(_) => return,
            },
            Ok(op) if op.index() == terminal => match op.recv(events) {
                // A speech notice or a new size is no key.
                Ok(UiEvent::Notice(_) | UiEvent::Input(Input::Resize)) => {}
                _ => return,
            },
            Ok(op) if op.index() == signal => {
                let _ = op.recv(signals);
                return;
            }
            Ok(_) | Err(_) => {}
        }
        show(mode, screen, display);
    }
}

/// The keys' help after the help command's key: the board's keys too when moves are made
/// on it.
fn tell_keys_help<M: Mode + ?Sized>(mode: &mut M) {
    let front = mode.front();
    let lang = front.lang;
    let mut keys = format!("{} {}", lang.play.keys_help, lang.reading.keys_help);
    if front.focus.board_entry {
        keys = format!(
            "{keys} {} {}",
            lang.board_focus.keys_help, lang.board_keys.keys_help
        );
    }
    mode.voice().tell_more(Urgency::Answer, vec![keys]);
}

/// Enter on the input line: the line to the mode; false when the mode ends.
fn entered_line<M: Mode + ?Sized>(mode: &mut M, line: String) -> bool {
    mode.voice().submitted();
    if line.is_empty() {
        // A question waits for its answer: Enter alone asks it again; a premove is
        // cancelled by it. In lines an empty line is one, as when the terminal reads the
        // lines.
        return if mode.voice().question.is_some()
            || !mode.voice().full_screen
            || mode.premove_kept()
        {
            mode.line(line)
        } else {
            let square = mode.focus().cursor;
            mode.command(Command::Ask(Question::Square(square)))
        };
    }
    mode.front().refused = false;
    if let Some(keep) = typed_voice_answer(mode, &line) {
        return keep;
    }
    let keep = mode.line(line.clone());
    // A refused line stays in the full screen's input line, selected for retyping; in lines
    // nobody sees a selection, so the line starts empty.
    if mode.take_refused() && mode.voice().full_screen {
        mode.focus().refused(&line);
    }
    keep
}

/// The board seen from the other side, said with the side it is seen from now.
fn flip<M: Mode + ?Sized>(mode: &mut M) {
    let front = mode.front();
    front.flipped = !front.flipped;
    let text = fill(
        &front.lang.board_keys.flipped,
        &[("color", front.lang.color(front.seen_from()))],
    );
    mode.voice().tell(Urgency::Answer, vec![text]);
}

/// Ctrl+V: listen for one phrase, or stop listening; without voice input, why not.
fn listen_key<M: Mode + ?Sized>(mode: &mut M) {
    let pos = mode.heard_position();
    let mode_asks = mode.voice().question.is_some();
    let lang = mode.front().lang;
    let Some(input) = mode.voice_input() else {
        let words = lang.voice.not_asked.clone();
        mode.voice().tell(Urgency::Answer, vec![words]);
        return;
    };
    if !input.works() {
        let words = lang.voice.not_working.clone();
        mode.voice().tell(Urgency::Answer, vec![words]);
        return;
    }
    if input.listening() {
        input.stop();
        return;
    }
    if let Some(pos) = pos {
        input.listen(&pos, mode_asks);
        let words = lang.voice.listening.clone();
        mode.voice().tell(Urgency::Answer, vec![words]);
    }
}

/// What the listener heard, carried out as the mode does a typed line.
/// What changed, drawn on the screen (when it is dirty) and on the braille display.
fn show<M: Mode>(
    mode: &mut M,
    screen: &mut Option<FullScreen>,
    display: &mut Option<braille::Braille>,
) {
    if mode.voice().dirty
        && mode.voice().full_screen
        && let Some(s) = screen.as_mut()
    {
        mode.draw(s);
        mode.voice().dirty = false;
    }
    if let Some(d) = display.as_mut() {
        d.update(mode);
    }
}

/// How long the loop may wait: until the mode's or the display's next wake.
fn until_wake<M: Mode>(mode: &M, display: &Option<braille::Braille>) -> Duration {
    let wake = match (
        mode.next_wake(),
        display.as_ref().and_then(|d| d.next_wake()),
    ) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    wake.map_or(Duration::from_secs(3600), |w| {
        w.saturating_duration_since(Instant::now())
    })
}

/// A key, a line, the end of input, a new size or a speech notice from the terminal; false
/// when the mode ends.
fn terminal_event<M: Mode>(
    mode: &mut M,
    event: UiEvent,
    screen: &mut Option<FullScreen>,
    display: &mut Option<braille::Braille>,
    lang: &Language,
) -> bool {
    match event {
        UiEvent::Input(Input::Key(k)) => {
            if let Some(d) = display.as_mut() {
                d.keyboard_key();
            }
            let running = mode.key(k);
            // Only lines on a raw terminal echo what is typed.
            if mode.voice().raw {
                let focus = mode.focus();
                let (input, caret) = (focus.input.clone(), focus.caret);
                mode.voice().echo(&input, caret);
            }
            running
        }
        UiEvent::Input(Input::Line(l)) => {
            if let Some(d) = display.as_mut() {
                d.keyboard_key();
            }
            // Enter ended the prompt's line.
            mode.voice().prompt_open = false;
            typed_voice_answer(mode, &l).unwrap_or_else(|| mode.line(l))
        }
        UiEvent::Input(Input::Closed) => false,
        UiEvent::Input(Input::Resize) => {
            mode.voice().dirty = true;
            fit(mode, screen, lang);
            true
        }
        UiEvent::Notice(n) => {
            mode.voice().notice(&n, lang);
            true
        }
    }
}

fn voice_heard<M: Mode>(mode: &mut M, (number, heard): (u64, Heard)) -> bool {
    let Some(input) = mode.voice_input() else {
        return true;
    };
    match input.heard(number, heard) {
        Outcome::Line(line) => {
            input.carried_out();
            mode.voice().submitted();
            mode.front().refused = false;
            let keep = mode.line(line);
            let _ = mode.take_refused();
            keep
        }
        Outcome::Say(words) => {
            mode.voice().tell(Urgency::Answer, vec![words]);
            true
        }
        Outcome::Quiet => true,
    }
}

/// A typed line that answers a question asked back by voice (yes, 1, the second's word, 2,
/// no): carried out as the answer said would be; `None` for any other line. A question of
/// the mode's own (quit, resign, a draw offered) asked since takes typed answers first.
fn typed_voice_answer<M: Mode + ?Sized>(mode: &mut M, line: &str) -> Option<bool> {
    if mode.voice().question.is_some() {
        return None;
    }
    match mode.voice_input()?.typed(line)? {
        Outcome::Line(l) => {
            let keep = mode.line(l);
            let _ = mode.take_refused();
            Some(keep)
        }
        Outcome::Say(words) => {
            mode.voice().tell(Urgency::Answer, vec![words]);
            Some(true)
        }
        Outcome::Quiet => Some(true),
    }
}

/// Listens again where it should: in line mode after each phrase, and for the answer to a
/// question asked back; starts over when the position changed.
fn listen_again<M: Mode>(mode: &mut M, heard_in: &mut Option<shakmaty::Chess>) {
    let Some(pos) = mode.heard_position() else {
        return;
    };
    let mode_asks = mode.voice().question.is_some();
    let lines = !mode.voice().full_screen;
    let Some(input) = mode.voice_input() else {
        return;
    };
    if !input.works() {
        return;
    }
    input.continuous = lines;
    let changed = heard_in
        .as_ref()
        .is_none_or(|p| p.board() != pos.board() || p.turn() != pos.turn());
    if changed {
        input.moved(&pos);
        *heard_in = Some(pos.clone());
    }
    let follow_up = input.take_follow_up() && mode_asks;
    if input.continuous || input.asking() || follow_up {
        input.listen(&pos, mode_asks);
    }
}

/// A window smaller than the full screen's layout goes on in lines, said once; when it is
/// large enough again, the full screen comes back.
fn fit<M: Mode>(mode: &mut M, screen: &mut Option<FullScreen>, lang: &Language) {
    let Some(s) = screen.as_mut().filter(|s| !s.lines_only) else {
        return;
    };
    let Some((cols, rows)) = FullScreen::size() else {
        return;
    };
    let fits = cols >= view::MIN_COLS && rows >= view::MIN_ROWS;
    let voice = mode.voice();
    if voice.full_screen && !fits {
        s.suspend();
        voice.full_screen = false;
        voice.raw = true;
        voice.prompt_open = false;
        let text = crate::core::notation::fill(
            &lang.play.to_lines,
            &[("cols", &cols.to_string()), ("rows", &rows.to_string())],
        );
        voice.tell(Urgency::Answer, vec![text]);
        voice.prompt();
    } else if !voice.full_screen && voice.raw && fits {
        voice.leave_lines();
        s.resume();
        voice.full_screen = true;
        voice.raw = false;
        voice.prompt_open = false;
        voice.dirty = true;
        voice.tell(Urgency::Answer, vec![lang.play.to_full_screen.clone()]);
    }
}

/// The next instant a running clock shows another second (full screen only).
pub(crate) fn next_second(
    voice: &Narrator,
    clock: Option<&crate::core::clock::Clock>,
    now: crate::core::time::Timestamp,
) -> Option<Instant> {
    if !voice.full_screen {
        return None;
    }
    let clock = clock?;
    let color = clock.running()?;
    let left = clock.remaining(color, now);
    let step = Duration::from_nanos(u64::from(left.subsec_nanos())) + Duration::from_millis(1);
    Some(Instant::now() + step)
}
