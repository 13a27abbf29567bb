//! The terminal: full-screen (ratatui on crossterm) or plain lines for screen readers, and
//! the input threads that turn keys and typed lines into events.

pub(crate) mod bigtext;

use std::io::{IsTerminal, Stdout};

use crossbeam_channel::Sender;
use crossterm::event::{self, Event, KeyEvent, KeyEventKind};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

/// What the player did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Input {
    Key(KeyEvent),
    /// A line typed in line mode.
    Line(String),
    Resize,
    /// The input ended (end of file, terminal gone).
    Closed,
}

/// True when both standard input and output are a terminal (full-screen is possible).
pub(crate) fn interactive() -> bool {
    std::io::stdout().is_terminal() && std::io::stdin().is_terminal()
}

/// Reads keys in a thread of its own and sends them on `tx`.
pub(crate) fn spawn_key_reader<T: Send + 'static>(tx: Sender<T>, wrap: fn(Input) -> T) {
    let _ = std::thread::Builder::new()
        .name("hector-keys".into())
        .spawn(move || {
            loop {
                let input = match event::read() {
                    Ok(Event::Key(k)) if k.kind != KeyEventKind::Release => Input::Key(k),
                    Ok(Event::Resize(..)) => Input::Resize,
                    Ok(_) => continue,
                    Err(_) => Input::Closed,
                };
                let closed = input == Input::Closed;
                if tx.send(wrap(input)).is_err() || closed {
                    return;
                }
            }
        });
}

/// Reads lines from standard input in a thread of its own and sends them on `tx`.
pub(crate) fn spawn_line_reader<T: Send + 'static>(tx: Sender<T>, wrap: fn(Input) -> T) {
    let _ = std::thread::Builder::new()
        .name("hector-lines".into())
        .spawn(move || {
            for line in crate::io::files::bounded_lines(std::io::stdin().lock()) {
                // Control characters mean nothing in a move or a command, and echoed raw they
                // would reach the terminal: they arrive shown as \xNN.
                let line = crate::core::notation::printable(&line).into_owned();
                if tx.send(wrap(Input::Line(line))).is_err() {
                    return;
                }
            }
            let _ = tx.send(wrap(Input::Closed));
        });
}

/// The full screen when `full_screen` asks for it and the terminal allows it (else plain
/// lines, with the reason on standard error, `mode` naming the program), and the thread that
/// reads the input of the one chosen: keys or lines. With `keys_in_lines`, plain lines on a
/// terminal read its keys one by one too ([`FullScreen::lines`]): the mode echoes them, and
/// Enter reaches no screen reader as an empty line.
pub(crate) fn open<T: Send + 'static>(
    full_screen: bool,
    keys_in_lines: bool,
    mode: &str,
    tx: Sender<T>,
    wrap: fn(Input) -> T,
) -> Option<FullScreen> {
    let screen = if full_screen {
        match FullScreen::enter() {
            Ok(s) => Some(s),
            Err(e) => {
                errln!("hector {mode}: cannot use the full screen ({e}); using lines");
                None
            }
        }
    } else if keys_in_lines && interactive() {
        // Without raw keys the lines are read as the terminal gives them, which works too.
        FullScreen::lines().ok()
    } else {
        None
    };
    if screen.is_some() {
        spawn_key_reader(tx, wrap);
    } else {
        spawn_line_reader(tx, wrap);
    }
    screen
}

/// The full-screen terminal; the screen is restored when this is dropped, also on a panic.
pub(crate) struct FullScreen {
    pub(crate) terminal: Terminal<CrosstermBackend<Stdout>>,
    /// The alternate screen is shown (not while suspended, nor in plain lines).
    alternate: bool,
    /// Plain lines with the keys read one by one (`--screen-reader` on a terminal): never
    /// the full screen, whatever the window's size.
    pub(crate) lines_only: bool,
}

impl FullScreen {
    /// The terminal's size in characters: columns, rows.
    pub(crate) fn size() -> Option<(u16, u16)> {
        crossterm::terminal::size().ok()
    }

    /// Leaves the alternate screen for plain lines (the window became too small); keys are
    /// still read one by one, so lines printed now end with a carriage return too.
    pub(crate) fn suspend(&mut self) {
        self.alternate = false;
        let _ = execute!(
            std::io::stdout(),
            LeaveAlternateScreen,
            crossterm::cursor::Show
        );
    }

    /// Back to the full screen after [`FullScreen::suspend`]: drawn anew.
    pub(crate) fn resume(&mut self) {
        self.alternate = true;
        let _ = execute!(std::io::stdout(), EnterAlternateScreen);
        let _ = self.terminal.clear();
    }

    /// Plain lines whose keys are read one by one: the terminal in raw mode, nothing drawn,
    /// no control sequence written (restored when dropped, also on a panic).
    pub(crate) fn lines() -> std::io::Result<FullScreen> {
        enable_raw_mode()?;
        set_restore_hook();
        let terminal = match Terminal::new(CrosstermBackend::new(std::io::stdout())) {
            Ok(t) => t,
            Err(e) => {
                let _ = disable_raw_mode();
                return Err(e);
            }
        };
        Ok(FullScreen {
            terminal,
            alternate: false,
            lines_only: true,
        })
    }

    pub(crate) fn enter() -> std::io::Result<FullScreen> {
        enable_raw_mode()?;
        let mut stdout = std::io::stdout();
        if let Err(e) = execute!(stdout, EnterAlternateScreen) {
            let _ = disable_raw_mode();
            return Err(e);
        }
        set_restore_hook();
        let terminal = Terminal::new(CrosstermBackend::new(stdout))?;
        Ok(FullScreen {
            terminal,
            alternate: true,
            lines_only: false,
        })
    }
}

/// A panic leaves the terminal as it found it.
fn set_restore_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        std::io::stdout(),
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

impl Drop for FullScreen {
    fn drop(&mut self) {
        if self.alternate {
            restore();
        } else {
            // Plain lines stay free of control sequences.
            let _ = disable_raw_mode();
        }
    }
}
