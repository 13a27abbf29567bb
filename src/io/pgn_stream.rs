//! Cuts a PGN stream into games without holding more than the game being read: the core's
//! reader, in its scanning mode, finds where each game ends in a buffer that is refilled as
//! needed. A game longer than [`MAX_GAME_BYTES`] is handed on as too large, and the text after
//! it is skipped up to the next line starting with `[Event ` as it streams by.

use std::io::{self, Read};

use crate::core::pgn::{MAX_GAME_BYTES, RawGame, Reader, Resume};

/// Bytes read at a time.
const READ_SIZE: usize = 256 * 1024;

/// The reader looks at most this far past the end of a game to know it has ended.
const LOOKAHEAD: usize = 8;

/// A game cut out of the stream.
pub(crate) struct GameText<'b> {
    /// Its bytes; empty when it was too large.
    pub(crate) bytes: &'b [u8],
    /// Where it stands in the stream: its line, the games before it, whether it begins a line.
    pub(crate) at: Resume,
    /// Its first byte's offset in the (decompressed) stream: a splitter resumed there with
    /// `at` ([`Splitter::resuming`]) reads it again.
    pub(crate) offset: u64,
    pub(crate) too_large: bool,
}

impl<'b> GameText<'b> {
    /// The games in it (more than one when the reader finds no end between them), without
    /// blank ones; a too large one as one game that says so.
    pub(crate) fn games(&self) -> Vec<RawGame<'b>> {
        if self.too_large {
            vec![RawGame::too_large(self.at.games + 1, self.at.line)]
        } else {
            Reader::resume(self.bytes, self.at)
                .filter(|raw| !raw.is_blank())
                .collect()
        }
    }
}

pub(crate) struct Splitter<R> {
    input: R,
    buf: Vec<u8>,
    /// The unread text is `buf[start..]`.
    start: usize,
    /// The stream's bytes dropped from the front of `buf` so far: `buf[0]`'s offset.
    dropped: u64,
    /// What a reader of the whole stream knows at `buf[start]`.
    at: Resume,
    eof: bool,
    /// Inside a `%` escape line whose end has not been read yet.
    in_escape: bool,
    /// After a game that was too large: looking for a line starting with `[Event `.
    resyncing: bool,
    /// The stream's first bytes were looked at for a byte-order mark.
    began: bool,
    /// The least read at a time ([`READ_SIZE`]; less in tests, to cut games everywhere).
    read_size: usize,
    /// A read that failed after some bytes came: the games in those bytes go first.
    failed: Option<io::Error>,
}

enum Step {
    Game {
        start: usize,
        end: usize,
        at: Resume,
        next: Resume,
        too_large: bool,
    },
    More,
    Done,
}

impl<R: Read> Splitter<R> {
    pub(crate) fn new(input: R) -> Splitter<R> {
        Splitter::reading_at_least(input, READ_SIZE)
    }

    /// Reads on from a game's text found before ([`GameText::offset`]): `input` begins at that
    /// offset, `at` is the game's [`GameText::at`].
    pub(crate) fn resuming(input: R, at: Resume) -> Splitter<R> {
        Splitter {
            at,
            began: true,
            ..Splitter::new(input)
        }
    }

    fn reading_at_least(input: R, read_size: usize) -> Splitter<R> {
        Splitter {
            read_size,
            failed: None,
            input,
            buf: Vec::new(),
            start: 0,
            dropped: 0,
            at: Resume::START,
            eof: false,
            in_escape: false,
            resyncing: false,
            began: false,
        }
    }

    /// The next game, or `None` at the end of the stream.
    pub(crate) fn next_game(&mut self) -> io::Result<Option<GameText<'_>>> {
        loop {
            if !self.began {
                if self.buf.len() < 3 && !self.eof {
                    self.fill()?;
                    continue;
                }
                if self.buf.starts_with(b"\xEF\xBB\xBF") {
                    self.start = 3;
                }
                self.began = true;
            }
            if self.resyncing {
                self.resync();
                if self.resyncing {
                    if self.eof {
                        return Ok(None);
                    }
                    self.fill()?;
                }
                continue;
            }
            if self.in_escape {
                match memchr::memchr(b'\n', &self.buf[self.start..]) {
                    Some(i) => {
                        self.start += i;
                        self.in_escape = false;
                    }
                    None if self.eof => return Ok(None),
                    None => {
                        self.start = self.buf.len();
                        self.fill()?;
                        continue;
                    }
                }
            }
            match self.step() {
                Step::Game {
                    start,
                    end,
                    at,
                    next,
                    too_large,
                } => {
                    let base = self.start;
                    self.start += end;
                    self.at = next;
                    if too_large && self.start == self.buf.len() && !self.eof {
                        // The next [Event line is not in the buffer yet: keep the last bytes,
                        // which may begin it, and look on as the stream comes.
                        self.resyncing = true;
                        self.keep_tail(base + start);
                    }
                    let bytes = if too_large {
                        &[][..]
                    } else {
                        &self.buf[base + start..base + end]
                    };
                    return Ok(Some(GameText {
                        bytes,
                        at,
                        offset: self.dropped + (base + start) as u64,
                        too_large,
                    }));
                }
                Step::More => self.fill()?,
                Step::Done => return Ok(None),
            }
        }
    }

    /// Scans the buffered text for the next game.
    fn step(&mut self) -> Step {
        let text = &self.buf[self.start..];
        let mut reader = Reader::resume(text, self.at).scanning();
        let Some(game) = reader.next() else {
            if self.eof {
                return Step::Done;
            }
            // Only blank space and escape lines: drop them, remembering an escape line that
            // goes on in the next bytes.
            let line_begin = memchr::memrchr(b'\n', text).map_or(0, |i| i + 1);
            let begins_line = line_begin > 0 || self.at.starts_line;
            self.in_escape = begins_line && text.get(line_begin) == Some(&b'%');
            self.at = reader.resume_point();
            self.start = self.buf.len();
            return Step::More;
        };
        let (start, end) = (reader.game_start(), reader.position());
        let too_large = game.is_too_large();
        let complete = self.eof || end + LOOKAHEAD <= text.len() || (too_large && end < text.len());
        if !complete && !too_large {
            return Step::More;
        }
        let starts_line = if start == 0 {
            self.at.starts_line
        } else {
            text[start - 1] == b'\n'
        };
        Step::Game {
            start,
            end,
            at: Resume {
                line: game.line,
                games: game.number - 1,
                starts_line,
            },
            next: reader.resume_point(),
            too_large,
        }
    }

    /// Keeps the buffer's last bytes (a line start `\n[Event ` may be cut), from no earlier
    /// than `game_start + MAX_GAME_BYTES - 1`, where the search for the next game begins.
    fn keep_tail(&mut self, game_start: usize) {
        let from =
            (game_start + MAX_GAME_BYTES - 1).max(self.buf.len().saturating_sub(LOOKAHEAD - 1));
        let from = from.min(self.buf.len());
        // `self.at.line` counts the lines up to the buffer's end; the kept bytes are counted
        // again when they are searched.
        self.at.line -= memchr::memchr_iter(b'\n', &self.buf[from..]).count();
        self.start = from;
    }

    /// Looks for `\n[Event ` in the buffered text after a game too large to keep.
    fn resync(&mut self) {
        let text = &self.buf[self.start..];
        match memchr::memmem::find(text, b"\n[Event ") {
            Some(i) => {
                self.at.line += memchr::memchr_iter(b'\n', &text[..=i]).count();
                self.at.starts_line = true;
                self.start += i + 1;
                self.resyncing = false;
            }
            None => {
                let keep = text.len().min(LOOKAHEAD - 1);
                let drop = text.len() - keep;
                self.at.line += memchr::memchr_iter(b'\n', &text[..drop]).count();
                self.start += drop;
            }
        }
    }

    /// Reads more of the stream, dropping what was read already: at least as much as is kept
    /// (and `read_size`), so that a game read again after each refill is read a bounded
    /// number of times.
    fn fill(&mut self) -> io::Result<()> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        if self.start > 0 {
            self.buf.drain(..self.start);
            self.dropped += self.start as u64;
            self.start = 0;
        }
        let kept = self.buf.len();
        let want = kept + self.read_size.max(kept);
        self.buf.resize(want, 0);
        let mut filled = kept;
        while filled < want {
            match self.input.read(&mut self.buf[filled..]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if filled > kept => {
                    self.failed = Some(e);
                    break;
                }
                Err(e) => {
                    self.buf.truncate(filled);
                    return Err(e);
                }
            }
        }
        self.buf.truncate(filled);
        Ok(())
    }
}

/// Why a game could not be taken from a PGN file.
#[derive(Debug, thiserror::Error)]
pub enum GameFromFile {
    /// The file (or its decompression) could not be read.
    #[error("{}", crate::io::error_chain(.0))]
    Read(crate::io::files::InputError),
    #[error("{0}")]
    Import(crate::core::record::ImportError),
}

/// Game `number` (1 for the first) of a PGN file, or of standard input for `-`, compressed
/// (zstd, gzip, bzip2) or not, read as it streams: no more than one game is held, and a game
/// too long to keep is refused with the reason `hector check` gives, never read as a game
/// without moves.
pub fn import_from(
    path: &std::path::Path,
    number: usize,
) -> Result<crate::core::record::Imported, GameFromFile> {
    use crate::core::record::{ImportError, import_game};
    let input = crate::io::files::open_input(path).map_err(GameFromFile::Read)?;
    let name = input.name.clone();
    let mut splitter = Splitter::new(input.reader);
    let mut found = 0usize;
    loop {
        let text = match splitter.next_game() {
            Ok(Some(text)) => text,
            Ok(None) => break,
            Err(e) => {
                return Err(GameFromFile::Read(crate::io::files::InputError::Io {
                    name,
                    source: e,
                }));
            }
        };
        for raw in text.games() {
            found += 1;
            if found == number {
                return import_game(&raw, found).map_err(GameFromFile::Import);
            }
        }
    }
    Err(GameFromFile::Import(if found == 0 {
        ImportError::NoGames
    } else {
        ImportError::NoSuchGame {
            requested: number,
            found,
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::pgn::RawGame;

    /// Hands out at most `step` bytes per read.
    struct Trickle<'a> {
        text: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.text.len());
            buf[..n].copy_from_slice(&self.text[..n]);
            self.text = &self.text[n..];
            Ok(n)
        }
    }

    fn summary(g: &RawGame<'_>) -> String {
        format!(
            "{} {} {:?} {:?} {:?} {:?}",
            g.number,
            g.line,
            g.tags,
            g.termination,
            g.errors,
            g.movetext.iter().collect::<Vec<_>>()
        )
    }

    fn streamed(text: &[u8], step: usize) -> Vec<String> {
        // Refills of `step` bytes cut games and lines everywhere.
        let mut splitter = Splitter::reading_at_least(Trickle { text, step }, step);
        let mut out = Vec::new();
        while let Some(g) = splitter.next_game().expect("reads") {
            // Resumed at its offset, the stream gives this game again.
            let offset = usize::try_from(g.offset).expect("offset");
            let mut again = Splitter::resuming(&text[offset..], g.at);
            let first = again
                .next_game()
                .expect("reads again")
                .expect("a game again");
            assert_eq!(
                (first.bytes, first.at, first.too_large),
                (g.bytes, g.at, g.too_large)
            );
            if g.too_large {
                out.push(summary(&RawGame::too_large(g.at.games + 1, g.at.line)));
            } else {
                let mut reader = Reader::resume(g.bytes, g.at);
                let game = reader.next().expect("a game");
                assert!(reader.next().is_none());
                out.push(summary(&game));
            }
        }
        out
    }

    fn whole(text: &[u8]) -> Vec<String> {
        Reader::new(text).map(|g| summary(&g)).collect()
    }

    #[test]
    fn a_stream_in_small_pieces_gives_the_games_of_the_whole_text() {
        let mut text =
            b"\xEF\xBB\xBF% escape [Event \"no\"]\n[Event \"1\"]\n1. e4 {a\nb} e5 1-0\n".to_vec();
        text.extend_from_slice(b"   %not an escape\n[Event \"2\"]\n[Event \"3\"]\n1. d4 (1. c4) *");
        text.extend_from_slice(
            b"\n\n%% escape at the end\n[Event \"4\"]\n{unclosed\n[Event \"5\"]\n1-0",
        );
        let faulty = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/faulty.pgn"
        ))
        .expect("faulty.pgn");
        for text in [&text[..], &faulty[..]] {
            let expected = whole(text);
            for step in [1, 2, 3, 7, 64, 1 << 20] {
                assert_eq!(streamed(text, step), expected, "step {step}");
            }
        }
    }

    #[test]
    fn a_game_too_large_is_skipped_to_the_next_event_line() {
        let mut text = b"[Event \"big\"]\n".to_vec();
        for _ in 0..MAX_GAME_BYTES / 8 + 10 {
            text.extend_from_slice(b"1. e4\n(\n");
        }
        text.extend_from_slice(b"[Event \"next\"]\n1. d4 *\n");
        let expected = whole(&text);
        assert_eq!(expected.len(), 2);
        for step in [1000, 4096, 1 << 20] {
            assert_eq!(streamed(&text, step), expected, "step {step}");
        }
    }

    /// Hands out its text, then fails.
    struct Failing<'a>(&'a [u8]);

    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("the data is damaged"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn the_games_before_a_read_error_come_first() {
        let text = b"[Event \"1\"]\n1. e4 *\n\n[Event \"2\"]\n1. d4";
        let mut splitter = Splitter::new(Failing(text));
        let first = splitter
            .next_game()
            .expect("the first game")
            .expect("a game");
        assert_eq!(first.bytes, b"[Event \"1\"]\n1. e4 *");
        // The second game is cut off by the failure: the error, not a game.
        let err = splitter.next_game().err().expect("the read error");
        assert_eq!(err.to_string(), "the data is damaged");
    }

    proptest::proptest! {
        #[test]
        fn any_pgn_like_text_streams_as_it_reads(
            text in "[\\[\\]{}()$;%\"a-hEventKQRBNOx0-9=+#!?./ \n-]{0,300}",
            step in 1usize..20,
        ) {
            proptest::prop_assert_eq!(streamed(text.as_bytes(), step), whole(text.as_bytes()));
        }
    }
}
