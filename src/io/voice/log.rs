//! The voice log: one line for every phrase heard (what each grammar heard, its scores, what
//! was decided), in `voice.log` of hector's data directory. The journal keeps only the moves
//! played; this file is where a player or a developer looks to see why a move was asked back.
//!
//! - **Private**: created readable by its owner only (what a player says is theirs); an
//!   older file that others could read is made private when opened (through the open file).
//! - **hector's own**: a symbolic link, a file of several names or no file where the log
//!   belongs is not written (`io::owned_file`): the log is then not kept, and the player is
//!   told once why.
//! - **Bounded**: past [`MAX_BYTES`] the file becomes `voice.log.1` (the one before is
//!   replaced) and a new one begins, so the two never hold more than twice that.
//! - **Never in the way**: lines are written on a thread of their own; a line that cannot be
//!   written is dropped (voice input goes on), and the program's end waits for the last
//!   lines at most [`FLUSH_WAIT`].

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, bounded, unbounded};

/// The file's name in the data directory.
pub(crate) const FILE_NAME: &str = "voice.log";
/// The size past which the file is set aside as `voice.log.1`.
pub(crate) const MAX_BYTES: u64 = 1 << 20;
/// How long the end of the program waits for the lines not yet written.
pub(crate) const FLUSH_WAIT: Duration = Duration::from_secs(2);

/// Why the log cannot be written (voice input works without it).
#[derive(Debug, thiserror::Error)]
pub(crate) enum LogError {
    #[error("cannot {doing} {}", path.display())]
    Io {
        doing: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Owned(#[from] crate::io::owned_file::OwnedError),
}

fn error(doing: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> LogError {
    let path = path.to_path_buf();
    move |source| LogError::Io {
        doing,
        path,
        source,
    }
}

/// The log file, appended to line by line and set aside when it is full.
pub(crate) struct LogFile {
    path: PathBuf,
    file: File,
    size: u64,
    limit: u64,
}

impl LogFile {
    /// Opens (or creates) `path` for appending, readable by its owner only; only a regular
    /// file of one name, never through a link.
    pub(crate) fn open(path: &Path, limit: u64) -> Result<LogFile, LogError> {
        let (file, size) =
            crate::io::owned_file::open_append(path, crate::io::platform::files::Privacy::Owner)?;
        Ok(LogFile {
            path: path.to_path_buf(),
            file,
            size,
            limit,
        })
    }

    /// Appends one line (a line end is added); a full file is set aside first.
    pub(crate) fn write_line(&mut self, line: &str) -> Result<(), LogError> {
        if self.size > 0 && self.size + line.len() as u64 + 1 > self.limit {
            let mut old = self.path.clone().into_os_string();
            old.push(".1");
            std::fs::rename(&self.path, &old).map_err(error("set aside", &self.path))?;
            *self = LogFile::open(&self.path, self.limit)?;
        }
        // One line, one write: a line is never split between two files or two writers.
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.replace('\n', " ").as_bytes());
        bytes.push(b'\n');
        self.file
            .write_all(&bytes)
            .map_err(error("write to", &self.path))?;
        self.size += bytes.len() as u64;
        Ok(())
    }
}

/// The log's writing thread.
pub(crate) struct VoiceLog {
    lines: Option<Sender<String>>,
    done: Receiver<()>,
}

impl VoiceLog {
    /// Starts writing to `path`; the file is opened with the first line, so that a log that
    /// cannot be written costs nothing but its lines. What stands at `path` is looked at
    /// first: a link or another stranger there is the reason to tell the player (the log is
    /// then not kept).
    pub(crate) fn start(path: PathBuf) -> (VoiceLog, Option<LogError>) {
        if let Err(e) = crate::io::owned_file::check(&path) {
            let (_, done) = bounded(1);
            return (VoiceLog { lines: None, done }, Some(e.into()));
        }
        (VoiceLog::spawn(path), None)
    }

    fn spawn(path: PathBuf) -> VoiceLog {
        let (tx, rx) = unbounded::<String>();
        let (done_tx, done) = bounded(1);
        let spawned = thread::Builder::new()
            .name("hector-voice-log".into())
            .spawn(move || {
                let mut file: Option<LogFile> = None;
                for line in rx {
                    if file.is_none() {
                        file = LogFile::open(&path, MAX_BYTES).ok();
                    }
                    if let Some(f) = file.as_mut()
                        && f.write_line(&line).is_err()
                    {
                        file = None;
                    }
                }
                let _ = done_tx.send(());
            });
        VoiceLog {
            lines: spawned.is_ok().then_some(tx),
            done,
        }
    }

    /// Hands a line to the writing thread.
    pub(crate) fn write(&self, line: String) {
        if let Some(tx) = &self.lines {
            let _ = tx.send(line);
        }
    }
}

impl Drop for VoiceLog {
    fn drop(&mut self) {
        if self.lines.take().is_some() {
            let _ = self.done.recv_timeout(FLUSH_WAIT);
        }
    }
}

// Modes and links are read and planted with Unix calls.
#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A folder removed when the test ends, also when it fails.
    struct Temp(PathBuf);

    impl Drop for Temp {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn temp(name: &str) -> Temp {
        let dir =
            std::env::temp_dir().join(format!("hector-voice-log-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Temp(dir)
    }

    #[test]
    fn lines_are_appended_to_a_private_file() {
        let temp = temp("private");
        let path = temp.0.join(FILE_NAME);
        {
            let (log, problem) = VoiceLog::start(path.clone());
            assert!(problem.is_none(), "{problem:?}");
            log.write("one".into());
            log.write("two\nthree".into());
        }
        let text = std::fs::read_to_string(&path).expect("the log");
        assert_eq!(text, "one\ntwo three\n");
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_file_others_could_read_is_made_private() {
        let temp = temp("open");
        std::fs::create_dir_all(&temp.0).expect("dir");
        let path = temp.0.join(FILE_NAME);
        std::fs::write(&path, "old\n").expect("file");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("mode");
        let mut f = LogFile::open(&path, MAX_BYTES).expect("open");
        f.write_line("new").expect("write");
        assert_eq!(std::fs::read_to_string(&path).expect("log"), "old\nnew\n");
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn a_full_file_is_set_aside_and_the_two_stay_bounded() {
        let temp = temp("bounded");
        let dir = &temp.0;
        let path = dir.join(FILE_NAME);
        let mut f = LogFile::open(&path, 100).expect("open");
        for i in 0..50 {
            f.write_line(&format!("line {i:04} of the log"))
                .expect("write");
        }
        let now = std::fs::read_to_string(&path).expect("log");
        let old = std::fs::read_to_string(dir.join("voice.log.1")).expect("old log");
        assert!(now.len() <= 100 && old.len() <= 100, "{now:?} {old:?}");
        assert!(now.ends_with("line 0049 of the log\n"), "{now:?}");
        assert!(old.ends_with("line 0047 of the log\n"), "{old:?}");
        let names = std::fs::read_dir(dir).expect("dir").count();
        assert_eq!(names, 2);
    }

    #[test]
    fn a_link_where_the_log_belongs_is_named_and_never_written() {
        let temp = temp("link");
        std::fs::create_dir_all(&temp.0).expect("dir");
        let outside = temp.0.join("profile");
        std::fs::write(&outside, "mine\n").expect("outside");
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).expect("mode");
        let path = temp.0.join(FILE_NAME);
        std::os::unix::fs::symlink(&outside, &path).expect("link");
        let (log, problem) = VoiceLog::start(path.clone());
        assert!(matches!(problem, Some(LogError::Owned(_))), "{problem:?}");
        log.write("heard".into());
        drop(log);
        assert!(LogFile::open(&path, MAX_BYTES).is_err());
        assert_eq!(
            std::fs::read_to_string(&outside).expect("outside"),
            "mine\n"
        );
        let mode = std::fs::metadata(&outside)
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o644);
    }
}
