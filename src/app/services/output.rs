//! Writing report lines to standard output without panicking when the reader goes away.
//!
//! `hector check big.pgn | head` ends quietly with status 0, as Unix programs do when their
//! reader has all it wants; any other write error (a full disk, `>/dev/full`) is reported
//! once on standard error and ends the mode with status 2. So is a standard output that was
//! closed (`hector games >&-`): nothing written is no success.

use std::io::{self, BufWriter, ErrorKind, Stdout, Write};
use std::process::ExitCode;

pub(crate) struct Out {
    inner: BufWriter<Stdout>,
    failure: Option<io::Error>,
}

impl Default for Out {
    fn default() -> Self {
        Out::new()
    }
}

impl Out {
    pub(crate) fn new() -> Out {
        let failure = crate::io::platform::console::stdout_closed_at_start()
            .then(|| io::Error::new(ErrorKind::NotConnected, "standard output is closed (>&-)"));
        Out {
            inner: BufWriter::new(io::stdout()),
            failure,
        }
    }

    fn attempt(&mut self, write: impl FnOnce(&mut BufWriter<Stdout>) -> io::Result<()>) -> bool {
        if self.failure.is_none()
            && let Err(e) = write(&mut self.inner)
        {
            self.failure = Some(e);
        }
        self.failure.is_none()
    }

    /// Writes one line. Returns false once writing has failed: the mode should stop.
    pub(crate) fn line(&mut self, text: &str) -> bool {
        self.attempt(|w| {
            w.write_all(text.as_bytes())?;
            w.write_all(b"\n")
        })
    }

    /// Writes text that already ends in a newline. Returns false once writing has failed.
    pub(crate) fn write_raw(&mut self, text: &str) -> bool {
        self.attempt(|w| w.write_all(text.as_bytes()))
    }

    pub(crate) fn flush(&mut self) -> bool {
        self.attempt(Write::flush)
    }

    /// The mode's exit status once everything is written: `code` when all went out, 0 when
    /// the reader closed the pipe, else 2 after one line on standard error naming the problem
    /// in `problem` (a template with `{reason}`).
    pub(crate) fn finish(mut self, mode: &str, problem: &str, code: ExitCode) -> ExitCode {
        self.flush();
        // What stays in place keeps the drop from trying again.
        let failure = self
            .failure
            .replace(io::Error::other("the output is finished"));
        match failure {
            None => code,
            Some(e) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Some(e) => {
                errln!("{mode}: {}", problem.replace("{reason}", &e.to_string()));
                ExitCode::from(2)
            }
        }
    }
}

impl Drop for Out {
    fn drop(&mut self) {
        self.flush();
    }
}
