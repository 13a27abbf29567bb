//! Reading input files, with errors that name the file.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result, bail};

/// Reads a whole file, or standard input for `-`.
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut buf)
            .context("cannot read standard input")?;
        return Ok(buf);
    }
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// How a file is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    Zstd,
    Gzip,
    Bzip2,
}

impl Compression {
    /// By the first bytes of the data.
    pub fn from_magic(head: &[u8]) -> Compression {
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
    pub fn from_name(path: &Path) -> Compression {
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
pub struct Input {
    /// The text (decompressed).
    pub reader: Box<dyn Read + Send>,
    /// How many bytes of the file as stored were read so far (for progress).
    pub consumed: Arc<AtomicU64>,
    /// The stored size, when the input is a regular file.
    pub size: Option<u64>,
    /// The file's name for messages ("standard input" for `-`).
    pub name: String,
}

/// Opens a file, or standard input for `-`, and decompresses zstd, gzip or bzip2 data as it
/// streams. The first bytes decide; a name ending in `.zst`, `.gz` or `.bz2` whose data is not
/// of that kind is an error.
pub fn open_input(path: &Path) -> Result<Input> {
    let consumed = Arc::new(AtomicU64::new(0));
    let (source, size, name): (Box<dyn Read + Send>, Option<u64>, String) =
        if path.as_os_str() == "-" {
            (Box::new(io::stdin()), None, "standard input".to_string())
        } else {
            let name = path.display().to_string();
            let file = File::open(path).with_context(|| format!("cannot read {name}"))?;
            let meta = file
                .metadata()
                .with_context(|| format!("cannot read {name}"))?;
            if meta.is_dir() {
                bail!("cannot read {name}: it is a directory");
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
            Err(e) => return Err(e).with_context(|| format!("cannot read {name}")),
        }
    }
    let found = Compression::from_magic(&head);
    let named = Compression::from_name(path);
    if named != Compression::None && named != found {
        bail!(
            "{name} is named like {} data but holds {} data",
            named.name(),
            found.name()
        );
    }
    let raw = io::Cursor::new(head).chain(counted);
    let reader: Box<dyn Read + Send> = match found {
        Compression::None => Box::new(raw),
        Compression::Zstd => Box::new(
            zstd::stream::read::Decoder::new(raw)
                .with_context(|| format!("cannot start reading {name} (zstd)"))?,
        ),
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(raw)),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(raw)),
    };
    Ok(Input {
        reader,
        consumed,
        size,
        name,
    })
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
