//! Reading input files, standard input and typed lines, with errors that name the file and
//! limits that keep endless input (`/dev/zero`, a line without end) from filling the memory.

use std::fs::File;
use std::io::{self, BufRead, ErrorKind, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::io::platform::files::{Kind, kind};

/// Why an input file or standard input could not be read: what was refused and why, the
/// system's error as the source where the system refused.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("cannot read {name}")]
    Io {
        name: String,
        #[source]
        source: io::Error,
    },
    #[error("cannot read {name}: it is a directory")]
    Directory { name: String },
    /// A device such as /dev/zero never ends.
    #[error("cannot read {name}: it is a device; give a file, or - for standard input")]
    Device { name: String },
    #[error("cannot read {name}: it is not a regular file")]
    NotRegular { name: String },
    #[error("{name} is larger than {mib} MiB, more than hector reads")]
    TooLarge { name: String, mib: u64 },
    #[error("{name} is larger than 1 MiB, more than such a file holds")]
    TooLargeText { name: String },
    #[error("{name} is not UTF-8 text")]
    NotUtf8 {
        name: String,
        #[source]
        source: std::string::FromUtf8Error,
    },
    #[error("{name} is named like {named} data but holds {found} data")]
    Misnamed {
        name: String,
        named: &'static str,
        found: &'static str,
    },
    #[error("cannot start reading {name} ({format})")]
    Decoder {
        name: String,
        format: &'static str,
        #[source]
        source: io::Error,
    },
}

fn io_error(name: &str) -> impl FnOnce(io::Error) -> InputError + '_ {
    move |source| InputError::Io {
        name: name.to_string(),
        source,
    }
}

type Result<T, E = InputError> = std::result::Result<T, E>;

/// The largest input file read whole (a PGN collection of some million games fits).
pub(crate) const MAX_INPUT_BYTES: u64 = 512 * 1024 * 1024;

/// The longest typed or piped line kept; the rest of a longer line is skipped.
pub(crate) const MAX_LINE_BYTES: usize = 4096;

/// Reads a whole file, or standard input for `-`, of at most [`MAX_INPUT_BYTES`].
pub(crate) fn read_input(path: &Path) -> Result<Vec<u8>> {
    read_limited(path, MAX_INPUT_BYTES)
}

fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    let too_large = |name: String| InputError::TooLarge {
        name,
        mib: limit / (1024 * 1024),
    };
    if path.as_os_str() == "-" {
        let name = "standard input";
        std::io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut buf)
            .map_err(io_error(name))?;
        if buf.len() as u64 > limit {
            return Err(too_large(name.to_string()));
        }
        return Ok(buf);
    }
    let name = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(io_error(&name))?;
    if meta.is_dir() {
        return Err(InputError::Directory { name });
    }
    // A device such as /dev/zero never ends; `-` reads standard input.
    if kind(&meta) == Kind::Device {
        return Err(InputError::Device { name });
    }
    std::fs::File::open(path)
        .and_then(|f| f.take(limit + 1).read_to_end(&mut buf))
        .map_err(io_error(&name))?;
    if buf.len() as u64 > limit {
        return Err(too_large(name));
    }
    Ok(buf)
}

/// The largest small text file (a game file, an envelope, a simulator script).
pub(crate) const MAX_TEXT_BYTES: u64 = 1024 * 1024;

/// Reads a small UTF-8 text file of at most [`MAX_TEXT_BYTES`]; a device, a pipe or a folder
/// is refused before it is opened (opening a pipe would wait for a writer). `what` names it
/// in errors: "cannot read the script PATH: …".
pub(crate) fn read_small_text(path: &Path, what: &str) -> Result<String> {
    let name = format!("{what} {}", path.display());
    let meta = std::fs::metadata(path).map_err(io_error(&name))?;
    if !meta.is_file() {
        return Err(InputError::NotRegular { name });
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_TEXT_BYTES + 1).read_to_end(&mut bytes))
        .map_err(io_error(&name))?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(InputError::TooLargeText { name });
    }
    String::from_utf8(bytes).map_err(|source| InputError::NotUtf8 { name, source })
}

/// Lines of at most [`MAX_LINE_BYTES`] (a longer line is cut there and its rest skipped),
/// without their line ending, bytes that are not UTF-8 replaced; ends at end of input or at
/// a read error.
pub(crate) fn bounded_lines<R: BufRead>(reader: R) -> BoundedLines<R> {
    BoundedLines {
        reader,
        max: MAX_LINE_BYTES,
        buf: Vec::new(),
    }
}

pub(crate) struct BoundedLines<R> {
    reader: R,
    max: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> BoundedLines<R> {
    /// Reads up to and including the next line end (or `limit` bytes) into `buf`.
    fn read_some(&mut self, limit: usize) -> Option<usize> {
        loop {
            match (&mut self.reader)
                .take(limit as u64)
                .read_until(b'\n', &mut self.buf)
            {
                Ok(n) => return Some(n),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => return None,
            }
        }
    }
}

impl<R: BufRead> Iterator for BoundedLines<R> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        self.buf.clear();
        let n = self.read_some(self.max)?;
        if n == 0 {
            return None;
        }
        if self.buf.last() != Some(&b'\n') && self.buf.len() >= self.max {
            let kept = std::mem::take(&mut self.buf);
            // Skip to the end of the line, a bounded piece at a time.
            loop {
                self.buf.clear();
                match self.read_some(64 * 1024) {
                    Some(0) | None => break,
                    Some(_) if self.buf.last() == Some(&b'\n') => break,
                    Some(_) => {}
                }
            }
            self.buf = kept;
        }
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        Some(String::from_utf8_lossy(&self.buf).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded_and_never_stop_at_bad_bytes() {
        let mut input = b"e4\r\nSpringer \xff drei\n".to_vec();
        input.extend(std::iter::repeat_n(b'N', 100_000));
        input.extend(b"\nquit");
        let lines: Vec<String> = bounded_lines(&input[..]).collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], "e4");
        assert_eq!(lines[1], "Springer \u{fffd} drei");
        assert_eq!(lines[2], "N".repeat(MAX_LINE_BYTES));
        assert_eq!(lines[3], "quit");
    }

    // /dev/zero, the endless file, is Unix's.
    #[cfg(unix)]
    #[test]
    fn input_larger_than_the_limit_is_refused() {
        let dir = std::env::temp_dir().join(format!("hector-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("big.pgn");
        std::fs::write(&file, vec![b'x'; 2048]).expect("file");
        let err = read_limited(&file, 1024).expect_err("too big");
        let read = read_limited(&file, 4096).map(|b| b.len());
        let zero = read_input(Path::new("/dev/zero")).map(|b| b.len());
        let _ = std::fs::remove_dir_all(&dir);
        assert!(err.to_string().contains("larger than"), "{err}");
        assert!(matches!(err, InputError::TooLarge { .. }), "{err:?}");
        assert_eq!(read.expect("small enough"), 2048);
        assert!(matches!(zero, Err(InputError::Device { .. })), "{zero:?}");
        // A file that is not there: the system's words come as the source.
        let missing = read_input(&dir.join("missing.pgn")).expect_err("missing");
        assert!(
            crate::io::error_chain(&missing).ends_with("No such file or directory (os error 2)"),
            "{missing:?}"
        );
    }
}

/// How a file is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Compression {
    None,
    Zstd,
    Gzip,
    Bzip2,
}

impl Compression {
    /// By the first bytes of the data.
    pub(crate) fn from_magic(head: &[u8]) -> Compression {
        if head.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
            Compression::Zstd
        } else if head.starts_with(&[0x1F, 0x8B]) {
            Compression::Gzip
        } else if head.starts_with(b"BZh") {
            Compression::Bzip2
        } else {
            Compression::None
        }
    }

    /// By the file name's ending.
    pub(crate) fn from_name(path: &Path) -> Compression {
        match path.extension().and_then(|e| e.to_str()) {
            Some("zst" | "zstd") => Compression::Zstd,
            Some("gz") => Compression::Gzip,
            Some("bz2") => Compression::Bzip2,
            _ => Compression::None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Compression::None => "uncompressed",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
        }
    }
}

/// An input opened for streaming: decompressed while it is read.
pub(crate) struct Input {
    /// The text (decompressed).
    pub(crate) reader: Box<dyn Read + Send>,
    /// How many bytes of the file as stored were read so far (for progress).
    pub(crate) consumed: Arc<AtomicU64>,
    /// The stored size, when the input is a regular file.
    pub(crate) size: Option<u64>,
    /// The file's name for messages ("standard input" for `-`).
    pub(crate) name: String,
    /// Whether the text is decompressed from the file (an offset in it is no offset in the
    /// file).
    pub(crate) compressed: bool,
}

/// Opens a file, or standard input for `-`, and decompresses zstd, gzip or bzip2 data as it
/// streams. The first bytes decide; a name ending in `.zst`, `.gz` or `.bz2` whose data is not
/// of that kind is an error.
pub(crate) fn open_input(path: &Path) -> Result<Input> {
    let consumed = Arc::new(AtomicU64::new(0));
    let (source, size, name): (Box<dyn Read + Send>, Option<u64>, String) =
        if path.as_os_str() == "-" {
            (Box::new(io::stdin()), None, "standard input".to_string())
        } else {
            let name = path.display().to_string();
            let file = File::open(path).map_err(io_error(&name))?;
            let meta = file.metadata().map_err(io_error(&name))?;
            if meta.is_dir() {
                return Err(InputError::Directory { name });
            }
            // A device that never ends (/dev/zero) is not read at all; a pipe streams.
            if kind(&meta) == Kind::Device {
                return Err(InputError::Device { name });
            }
            let size = meta.is_file().then_some(meta.len());
            (Box::new(file), size, name)
        };
    let mut counted = Counted {
        inner: source,
        count: Arc::clone(&consumed),
    };
    // Four bytes tell the format; a pipe may hand them over one at a time.
    let mut head = Vec::with_capacity(4);
    while head.len() < 4 {
        let mut byte = [0u8; 4];
        let want = 4 - head.len();
        match counted.read(&mut byte[..want]) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&byte[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io_error(&name)(e)),
        }
    }
    let found = Compression::from_magic(&head);
    let named = Compression::from_name(path);
    if named != Compression::None && named != found {
        return Err(InputError::Misnamed {
            name,
            named: named.name(),
            found: found.name(),
        });
    }
    let raw = io::Cursor::new(head).chain(counted);
    let reader: Box<dyn Read + Send> = match found {
        Compression::None => Box::new(raw),
        Compression::Zstd => {
            let decoder_error = |source| InputError::Decoder {
                name: name.clone(),
                format: "zstd",
                source,
            };
            let mut decoder = zstd::stream::read::Decoder::new(raw).map_err(decoder_error)?;
            decoder
                .window_log_max(ZSTD_WINDOW_LOG_MAX)
                .map_err(decoder_error)?;
            Box::new(WindowCapped(decoder))
        }
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(raw)),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(raw)),
    };
    Ok(Input {
        reader,
        consumed,
        size,
        name,
        compressed: found != Compression::None,
    })
}

/// The largest zstd window read, as a power of two: 32 MiB, so that reading any file stays
/// under 64 MB. A file compressed with a longer window (`zstd --long=27`, `--ultra -22`)
/// would make the decoder hold that much; it is refused with the reason.
pub(crate) const ZSTD_WINDOW_LOG_MAX: u32 = 25;

/// A zstd decoder whose refusal of a window over the cap says what it means.
struct WindowCapped<R>(R);

impl<R: Read> Read for WindowCapped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(|e| {
            // libzstd's words for a window over the cap (frameParameter_windowTooLarge).
            if e.to_string().contains("too much memory") {
                io::Error::other(format!(
                    "the zstd data needs a window of more than {} MiB (it was compressed with \
                     --long or --ultra); hector reads windows of up to {} MiB: decompress it \
                     first with zstd -d --long=31",
                    1u32 << (ZSTD_WINDOW_LOG_MAX - 20),
                    1u32 << (ZSTD_WINDOW_LOG_MAX - 20),
                ))
            } else {
                e
            }
        })
    }
}

/// Whether the file at `path` holds compressed data (zstd, gzip, bzip2), by its first bytes.
pub(crate) fn looks_compressed(path: &Path) -> bool {
    // A pipe would wait for a writer; a device is no file.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = [0u8; 4];
    let read = File::open(path)
        .and_then(|f| {
            let mut n = 0;
            let mut f = f.take(4);
            while n < 4 {
                match f.read(&mut head[n..])? {
                    0 => break,
                    k => n += k,
                }
            }
            Ok(n)
        })
        .unwrap_or(0);
    Compression::from_magic(&head[..read]) != Compression::None
}

/// Counts the bytes read through it.
struct Counted {
    inner: Box<dyn Read + Send>,
    count: Arc<AtomicU64>,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}
