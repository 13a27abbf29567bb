//! The journal's bytes: one self-checking record per line.
//!
//! ```text
//! <length>\t<crc32>\t<json>\n
//! ```
//!
//! `length` is the number of bytes of `json` in decimal, `crc32` the CRC-32 (IEEE, as zlib
//! and PNG compute it) of those bytes as eight lowercase hex digits. The first record is the
//! header, `{"journal":"hector","version":1,…}`; each later one an [`Entry`], `{"type":…}`.
//!
//! A record is complete only with its line end. Whatever follows the last complete, intact
//! record (a write cut off by a power cut or a crash: a prefix of a record, or zeros) is a
//! *torn tail*: it is reported and left out, and everything before it is kept. A bad record
//! with intact records after it cannot come from a torn write: the journal is *damaged*, and
//! [`decode`] refuses it, naming the line and byte; [`decode_good_part`] gives what comes
//! before the damage as well, so that the game up to there can still be read.
//!
//! When a journal with a torn tail is continued, the writer does not cut the tail away: it
//! ends the fragment with a line end if needed and appends a *torn marker*,
//! `{"type":"torn","bytes":N,"crc32":"…"}`, which names the length and checksum of exactly the
//! bytes it acknowledges. Those bytes are then skipped; a marker that does not match them is
//! damage. (A record cut off just before its line end reads as intact once the line end is
//! added: the marker after it takes it back out.) So the file is only ever appended to, and
//! no byte a crash left is destroyed.

use serde::Serialize;
use serde_json::Value;

use super::entry::{Entry, FORMAT_VERSION, Header};

/// The CRC-32 used by zlib, PNG and Ethernet (reflected, polynomial 0xEDB88320).
pub fn crc32(bytes: &[u8]) -> u32 {
    static TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    let mut crc = !0u32;
    for &b in bytes {
        crc = TABLE[((crc ^ u32::from(b)) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}

/// Why a journal cannot be read. The file must then be left exactly as it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JournalError {
    #[error("the file is empty: no game was recorded in it")]
    Empty,
    #[error("the header (line 1) was cut off while it was written: the game had not begun")]
    TornHeader,
    #[error("not a hector journal: {0}")]
    NotAJournal(String),
    #[error(
        "the journal was written by a newer hector (format version {found}; this hector reads \
         versions up to {supported}): update hector to read it"
    )]
    NewerVersion { found: u64, supported: u32 },
    #[error(
        "the journal is damaged at line {line} (byte {offset}): {problem}; intact records \
         follow it, so it is not a write cut off by a crash"
    )]
    Damaged {
        line: usize,
        offset: usize,
        problem: String,
    },
    #[error("the journal is damaged at its end: {0}")]
    DamagedTail(String),
    #[error("cannot encode a record: {0}")]
    Encode(String),
}

/// A journal as read: the header, the entries, and whether a torn last record was left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub header: Header,
    pub entries: Vec<Entry>,
    /// The line each entry stands on (1 is the header), for messages.
    pub(crate) lines: Vec<usize>,
    /// A cut-off record at the end was left out.
    pub torn_tail: bool,
    /// The length of the intact part; the torn tail, if any, is `bytes[valid_len..]`.
    pub valid_len: usize,
    /// Torn fragments earlier in the file that a torn marker acknowledged.
    pub acknowledged: usize,
}

/// The header record's wrapper: the magic word, then the header's own fields.
#[derive(Serialize)]
struct HeaderRecord<'a> {
    journal: &'static str,
    #[serde(flatten)]
    header: &'a Header,
}

const MAGIC: &str = "hector";

fn frame(json: &[u8]) -> Vec<u8> {
    let mut out = format!("{}\t{:08x}\t", json.len(), crc32(json)).into_bytes();
    out.extend_from_slice(json);
    out.push(b'\n');
    out
}

/// The first record of a journal.
pub fn encode_header(header: &Header) -> Result<Vec<u8>, JournalError> {
    let json = serde_json::to_vec(&HeaderRecord {
        journal: MAGIC,
        header,
    })
    .map_err(|e| JournalError::Encode(e.to_string()))?;
    Ok(frame(&json))
}

/// One entry as a record, ready to append.
pub fn encode_entry(entry: &Entry) -> Result<Vec<u8>, JournalError> {
    let json = serde_json::to_vec(entry).map_err(|e| JournalError::Encode(e.to_string()))?;
    Ok(frame(&json))
}

/// What to append to a journal whose torn tail is `tail` (`bytes[valid_len..]`) before new
/// records: a line end if the fragment lacks one, and a torn marker acknowledging it.
pub fn encode_torn_marker(tail: &[u8]) -> Vec<u8> {
    let (fragment, mut out) = match tail.strip_suffix(b"\n") {
        Some(f) => (f, Vec::new()),
        None => (tail, vec![b'\n']),
    };
    let json = format!(
        "{{\"type\":\"torn\",\"bytes\":{},\"crc32\":\"{:08x}\"}}",
        fragment.len(),
        crc32(fragment)
    );
    out.extend_from_slice(&frame(json.as_bytes()));
    out
}

/// Checks a record's frame (the line without its line end) and returns its JSON text.
fn unframe(line: &[u8]) -> Result<&[u8], String> {
    let Some(tab) = line.iter().take(21).position(|&b| b == b'\t') else {
        return Err("no length field at the start of the line".into());
    };
    let len_field = &line[..tab];
    if len_field.is_empty() || !len_field.iter().all(u8::is_ascii_digit) {
        return Err("the length field is not a number".into());
    }
    let len: usize = std::str::from_utf8(len_field)
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or("the length field is too large")?;
    let rest = &line[tab + 1..];
    let (crc_field, json) = match rest.get(..9) {
        Some(head) if head[8] == b'\t' => (&head[..8], &rest[9..]),
        _ => return Err("no checksum field after the length".into()),
    };
    let crc = std::str::from_utf8(crc_field)
        .ok()
        .filter(|s| s.bytes().all(|b| b.is_ascii_hexdigit()))
        .and_then(|s| u32::from_str_radix(s, 16).ok())
        .ok_or("the checksum field is not eight hex digits")?;
    if json.len() != len {
        return Err(format!(
            "the record says it holds {len} bytes but holds {}",
            json.len()
        ));
    }
    if crc32(json) != crc {
        return Err("the checksum does not match the record (its bytes were changed)".into());
    }
    Ok(json)
}

/// The prefix with which the writer starts every torn marker.
const TORN_PREFIX: &[u8] = br#"{"type":"torn""#;

/// A record after its frame was checked.
enum Record {
    Entry(Entry),
    Torn { bytes: usize, crc: u32 },
}

fn record(json: &[u8]) -> Result<Record, String> {
    // Entries are read straight into their type (no intermediate tree): a resume reads tens
    // of thousands of clock checkpoints.
    if json.starts_with(TORN_PREFIX) {
        let value: Value = serde_json::from_slice(json)
            .map_err(|e| format!("the record is not valid JSON: {e}"))?;
        let bytes = value
            .get("bytes")
            .and_then(Value::as_u64)
            .and_then(|b| usize::try_from(b).ok());
        let crc = value
            .get("crc32")
            .and_then(Value::as_str)
            .and_then(|s| u32::from_str_radix(s, 16).ok());
        return match (bytes, crc) {
            (Some(bytes), Some(crc)) => Ok(Record::Torn { bytes, crc }),
            _ => Err("a torn marker without its length and checksum".into()),
        };
    }
    serde_json::from_slice::<Entry>(json)
        .map(Record::Entry)
        .map_err(|e| format!("not an entry hector knows: {e}"))
}

fn header(json: &[u8]) -> Result<Header, JournalError> {
    let value: Value = serde_json::from_slice(json).map_err(|e| JournalError::Damaged {
        line: 1,
        offset: 0,
        problem: format!("the header is not valid JSON: {e}"),
    })?;
    if value.get("journal").and_then(Value::as_str) != Some(MAGIC) {
        return Err(JournalError::NotAJournal(
            "its first record does not say \"journal\":\"hector\"".into(),
        ));
    }
    let version = value.get("version").and_then(Value::as_u64).unwrap_or(0);
    if version > u64::from(FORMAT_VERSION) {
        return Err(JournalError::NewerVersion {
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    if version == 0 {
        return Err(JournalError::Damaged {
            line: 1,
            offset: 0,
            problem: "the header has no format version".into(),
        });
    }
    serde_json::from_value(value).map_err(|e| JournalError::Damaged {
        line: 1,
        offset: 0,
        problem: format!("the header is incomplete: {e}"),
    })
}

/// A run of bad bytes not yet explained: a torn fragment if a marker or the end follows.
struct BadRun {
    start: usize,
    line: usize,
    problem: String,
    complete_lines: usize,
}

impl BadRun {
    /// The run as damage before an intact record.
    fn damage(self) -> JournalError {
        JournalError::Damaged {
            line: self.line,
            offset: self.start,
            problem: self.problem,
        }
    }
}

impl Decoded {
    /// The journal's header alone, its record `valid_len` bytes long.
    fn header_only(header: Header, valid_len: usize) -> Decoded {
        Decoded {
            header,
            entries: Vec::new(),
            lines: Vec::new(),
            torn_tail: false,
            valid_len,
            acknowledged: 0,
        }
    }
}

/// Reads a journal. Never panics; see the module documentation for what is accepted.
pub fn decode(bytes: &[u8]) -> Result<Decoded, JournalError> {
    match decode_good_part(bytes)? {
        (decoded, None) => Ok(decoded),
        (_, Some(damage)) => Err(damage),
    }
}

/// Reads a journal as far as it is intact: the header and every entry before the damage,
/// with the damage itself (`None` when there is none; a torn tail is no damage). Only a
/// journal without a readable header is an error: nothing of it can be used.
pub fn decode_good_part(bytes: &[u8]) -> Result<(Decoded, Option<JournalError>), JournalError> {
    let (header, first_end) = read_header(bytes)?;
    let mut decoded = Decoded::header_only(header, first_end + 1);
    let mut bad: Option<BadRun> = None;
    // Where the latest entry's line is, while it is the last record read.
    let mut last_entry: Option<(usize, usize)> = None;
    let mut start = first_end + 1;
    let mut line = 1usize;
    while start < bytes.len() {
        line += 1;
        let Some(len) = memchr::memchr(b'\n', &bytes[start..]) else {
            // An unterminated last line: a write cut off.
            bad.get_or_insert(BadRun {
                start,
                line,
                problem: "cut off".into(),
                complete_lines: 0,
            });
            break;
        };
        let end = start + len;
        let parsed = unframe(&bytes[start..end]).and_then(record);
        let is_entry = matches!(parsed, Ok(Record::Entry(_)));
        match (parsed, bad.take()) {
            (Ok(Record::Torn { bytes: n, crc }), Some(run)) => {
                // The fragment is the run without the line end before this marker.
                if !is_fragment(&bytes[run.start..start - 1], n, crc) {
                    return Ok(damaged(decoded, torn_mismatch(run, line)));
                }
                decoded.acknowledged += 1;
                decoded.valid_len = end + 1;
            }
            (Ok(Record::Torn { bytes: n, crc }), None) => {
                // A record complete but for its line end was torn too: the writer ended it
                // with a line end before the marker, so it reads as intact. Take it back out.
                if !last_entry.is_some_and(|(s, e)| is_fragment(&bytes[s..e], n, crc)) {
                    let problem = "a torn marker follows an intact record".into();
                    let damage = JournalError::Damaged {
                        line,
                        offset: start,
                        problem,
                    };
                    return Ok(damaged(decoded, damage));
                }
                decoded.entries.pop();
                decoded.lines.pop();
                decoded.acknowledged += 1;
                decoded.valid_len = end + 1;
            }
            (Ok(Record::Entry(_)), Some(run)) => return Ok(damaged(decoded, run.damage())),
            (Ok(Record::Entry(entry)), None) => {
                last_entry = Some((start, end));
                decoded.entries.push(entry);
                decoded.lines.push(line);
                decoded.valid_len = end + 1;
            }
            (Err(problem), None) => {
                bad = Some(BadRun {
                    start,
                    line,
                    problem,
                    complete_lines: 1,
                });
            }
            (Err(_), Some(mut run)) => {
                run.complete_lines += 1;
                bad = Some(run);
            }
        }
        if !is_entry {
            last_entry = None;
        }
        start = end + 1;
    }
    Ok(match bad {
        Some(run) => bad_tail(decoded, run),
        None => (decoded, None),
    })
}

/// The header record, and where its line ends.
fn read_header(bytes: &[u8]) -> Result<(Header, usize), JournalError> {
    if bytes.is_empty() {
        return Err(JournalError::Empty);
    }
    let first_end = memchr::memchr(b'\n', bytes);
    let header_line = &bytes[..first_end.unwrap_or(bytes.len())];
    let header = match unframe(header_line) {
        Ok(value) => header(value)?,
        // A header cut off on its way to the disk: nothing was played yet.
        Err(_)
            if first_end.is_none() && (is_frame_prefix(header_line) || is_zeros(header_line)) =>
        {
            return Err(JournalError::TornHeader);
        }
        Err(problem) => {
            let looks_framed = header_line.contains(&b'\t');
            return Err(if looks_framed {
                JournalError::Damaged {
                    line: 1,
                    offset: 0,
                    problem,
                }
            } else {
                JournalError::NotAJournal("its first line is not a journal record".into())
            });
        }
    };
    match first_end {
        Some(end) => Ok((header, end)),
        // The header record lacks its line end: complete content, but the write was cut.
        None => Err(JournalError::TornHeader),
    }
}

/// Whether a torn marker's length `n` and checksum `crc` describe `fragment`.
fn is_fragment(fragment: &[u8], n: usize, crc: u32) -> bool {
    fragment.len() == n && crc32(fragment) == crc
}

/// A torn marker on `line` that does not describe the bad run before it.
fn torn_mismatch(run: BadRun, line: usize) -> JournalError {
    JournalError::Damaged {
        line: run.line,
        offset: run.start,
        problem: format!(
            "{}, and the torn marker on line {line} does not match it",
            run.problem
        ),
    }
}

/// The journal ends in a bad run: a torn write, or damage when it is longer than one.
fn bad_tail(mut decoded: Decoded, run: BadRun) -> (Decoded, Option<JournalError>) {
    // One cut-off write leaves at most one bad line, and a cut-off torn marker one more
    // unterminated line after it. More than that is damage, not a torn write.
    if run.complete_lines > 1 {
        let damage = JournalError::DamagedTail(format!(
            "{} lines from line {} (byte {}) on are unreadable: {}",
            run.complete_lines, run.line, run.start, run.problem
        ));
        return damaged(decoded, damage);
    }
    decoded.torn_tail = true;
    decoded.valid_len = run.start;
    (decoded, None)
}

/// The good part of a damaged journal: it is never written to, so it has no torn tail.
fn damaged(mut decoded: Decoded, damage: JournalError) -> (Decoded, Option<JournalError>) {
    decoded.torn_tail = false;
    (decoded, Some(damage))
}

/// Whether `bytes` could be the beginning of a record: digits, a tab, hex digits, a tab, JSON.
fn is_frame_prefix(bytes: &[u8]) -> bool {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let rest = &bytes[digits..];
    if rest.is_empty() {
        return true;
    }
    if digits == 0 || rest[0] != b'\t' {
        return false;
    }
    let rest = &rest[1..];
    let hex = rest
        .iter()
        .take(8)
        .take_while(|b| b.is_ascii_hexdigit())
        .count();
    let rest = &rest[hex..];
    rest.is_empty() || (hex == 8 && rest[0] == b'\t')
}

fn is_zeros(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| b == 0)
}
