//! A tolerant, zero-copy PGN reader over bytes in memory (no I/O).
//!
//! Splits a text into games, reads tag pairs, and yields the movetext as items with the line
//! they stand on, so that every complaint can name its line. Real-world files are accepted:
//! a byte-order mark, CRLF line ends, `%` escape lines, `;` and `{}` comments, nested
//! variations, NAGs, `!?` suffixes, move numbers glued to moves, castling with zeros, and
//! Latin-1 tag values. Syntax problems are collected per game, at most one report per cause
//! (with a count of the others); reading goes on with the next game.
//!
//! Hostile input stays bounded: every construct is read in time linear in its length, and a
//! game longer than [`MAX_GAME_BYTES`] is not kept. It is reported with one error and skipped
//! up to the next line that starts with `[Event `. The same reader finds where games end in a
//! stream ([`Reader::scanning`]), so a text cut into games and read game by game gives the
//! same games as the whole text read at once.

use std::borrow::Cow;

/// The longest game kept, in bytes: far above real games (a richly annotated one has some
/// tens of kilobytes), and small enough that the few games being read at once stay within a
/// few tens of megabytes (a game's items take at most 16 bytes per byte of it).
pub const MAX_GAME_BYTES: usize = 1 << 20;

/// How many characters of a token or tag name a message shows.
pub(crate) const SHOWN_CHARS: usize = 40;

/// One tag pair, e.g. `[White "Morphy, Paul"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag<'a> {
    pub(crate) name: &'a str,
    pub(crate) value: Cow<'a, str>,
    pub(crate) line: usize,
}

/// A piece of movetext.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item<'a> {
    /// A move token as written, with any `!?` suffix removed (e.g. `Nf3`, `exd6e.p.`, `--`).
    San(&'a [u8]),
    /// Numeric annotation glyph, `$1`, or one spelled as `!`, `?`, `!!`, `??`, `!?`, `?!`.
    Nag(u8),
    /// Comment text without its braces (or after `;` up to the line end).
    Comment(&'a [u8]),
    StartVariation,
    EndVariation,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Located<T> {
    pub item: T,
    pub line: usize,
}

/// What kind of syntax problem: a game reports each kind once, with how often it recurred.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    TagName,
    TagQuote,
    TagValueOpen,
    TagBracket,
    CommentOpen,
    VariationNotOpened,
    VariationOpen,
    Nag,
    Unexpected,
    TooLarge,
    /// Found when the record is checked, not read (Result tag, start position).
    Record,
}

/// A syntax problem in one game, with the line where it first is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub line: usize,
    pub message: String,
    /// How many more times the same kind of problem occurs later in the game.
    pub more: usize,
    pub(crate) cause: Cause,
}

impl SyntaxError {
    /// A problem found in a record after reading it.
    pub(crate) fn new(line: usize, message: String) -> SyntaxError {
        SyntaxError {
            line,
            message,
            more: 0,
            cause: Cause::Record,
        }
    }
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)?;
        match self.more {
            0 => Ok(()),
            1 => write!(f, " (and once more in this game)"),
            n => write!(f, " (and {n} more times in this game)"),
        }
    }
}

/// Bytes as a message may show them: at most [`SHOWN_CHARS`] characters (then `…`), control
/// characters and bytes that are not UTF-8 escaped (`\x00`, `\xff`), never raw.
pub fn shown(bytes: &[u8]) -> String {
    shown_limited(bytes, SHOWN_CHARS)
}

/// [`shown`] with another length limit, e.g. for players' names.
pub fn shown_limited(bytes: &[u8], limit: usize) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let mut count = 0usize;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if count == limit {
                out.push('…');
                return out;
            }
            count += 1;
            if c.is_control() {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            if count == limit {
                out.push('…');
                return out;
            }
            count += 1;
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// An item packed into 16 bytes, relative to its game: a game of [`MAX_GAME_BYTES`] holding
/// only `(` must not take more memory than a few times its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Packed {
    start: u32,
    len: u32,
    line: u32,
    kind: u8,
    nag: u8,
}

const SAN: u8 = 0;
const NAG: u8 = 1;
const COMMENT: u8 = 2;
const START_VARIATION: u8 = 3;
const END_VARIATION: u8 = 4;

/// The movetext of one game, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Movetext<'a> {
    /// The text from the game's first byte; items are offsets into it.
    src: &'a [u8],
    first_line: usize,
    items: Vec<Packed>,
}

impl<'a> Movetext<'a> {
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    fn unpack(&self, p: Packed) -> Located<Item<'a>> {
        let src: &'a [u8] = self.src;
        let slice = || {
            let start = p.start as usize;
            src.get(start..start + p.len as usize).unwrap_or_default()
        };
        let item = match p.kind {
            SAN => Item::San(slice()),
            NAG => Item::Nag(p.nag),
            COMMENT => Item::Comment(slice()),
            START_VARIATION => Item::StartVariation,
            _ => Item::EndVariation,
        };
        Located {
            item,
            line: self.first_line + p.line as usize,
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = Located<Item<'a>>> + '_ {
        self.items.iter().map(|&p| self.unpack(p))
    }

    pub(crate) fn last(&self) -> Option<Located<Item<'a>>> {
        self.items.last().map(|&p| self.unpack(p))
    }
}

/// One game as it stands in the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame<'a> {
    /// 1 for the first game of the file.
    pub number: usize,
    /// The line the game starts on.
    pub line: usize,
    pub tags: Vec<Tag<'a>>,
    pub movetext: Movetext<'a>,
    /// The game termination marker at the end of the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub termination: Option<&'a str>,
    pub errors: Vec<SyntaxError>,
}

impl RawGame<'_> {
    /// The value of the first tag called `name` (tag names are case-sensitive in PGN).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_ref())
    }

    /// The main line's move tokens, without variations.
    pub fn mainline(&self) -> impl Iterator<Item = Located<&[u8]>> + '_ {
        let mut depth = 0usize;
        self.movetext.iter().filter_map(move |l| match l.item {
            Item::StartVariation => {
                depth += 1;
                None
            }
            Item::EndVariation => {
                depth = depth.saturating_sub(1);
                None
            }
            Item::San(s) if depth == 0 => Some(Located {
                item: s,
                line: l.line,
            }),
            _ => None,
        })
    }

    /// Neither tags nor moves nor anything wrong: a stretch of stray text, not a game.
    pub fn is_blank(&self) -> bool {
        self.tags.is_empty()
            && self.movetext.is_empty()
            && self.termination.is_none()
            && self.errors.is_empty()
    }

    /// Whether the game was too long to keep (see [`MAX_GAME_BYTES`]).
    pub fn is_too_large(&self) -> bool {
        self.errors.iter().any(|e| e.cause == Cause::TooLarge)
    }

    /// The game that stood at `line` as game `number` but was longer than [`MAX_GAME_BYTES`]:
    /// nothing of it is kept but the error.
    pub fn too_large(number: usize, line: usize) -> RawGame<'static> {
        RawGame {
            number,
            line,
            errors: vec![SyntaxError {
                line,
                message: format!(
                    "the game is longer than {} MiB, the most hector reads as one game; it is \
                     skipped up to the next line that starts with [Event",
                    MAX_GAME_BYTES >> 20
                ),
                more: 0,
                cause: Cause::TooLarge,
            }],
            ..RawGame::default()
        }
    }

    /// Records a problem, or counts it when the game already reported one of its kind.
    fn report(&mut self, cause: Cause, line: usize, message: impl FnOnce() -> String) {
        match self.errors.iter_mut().find(|e| e.cause == cause) {
            Some(first) => first.more += 1,
            None => self.errors.push(SyntaxError {
                line,
                message: message(),
                more: 0,
                cause,
            }),
        }
    }
}

/// Where a text cut out of a longer one continues: what a reader of the whole text would know
/// at its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resume {
    /// The line of the first byte.
    pub line: usize,
    /// Games read before it.
    pub games: usize,
    /// Whether the first byte begins a line (a `%` there is an escape line).
    pub starts_line: bool,
}

impl Resume {
    /// The start of a text.
    pub const START: Resume = Resume {
        line: 1,
        games: 0,
        starts_line: true,
    };
}

/// Iterates over the games of a PGN text.
pub struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    line: usize,
    games: usize,
    starts_line: bool,
    /// Where the current game's first byte is.
    game_start: usize,
    /// False when only finding where games end: nothing is kept.
    keep: bool,
    /// The whole text began with a byte-order mark (position 3 begins the first line).
    bom: bool,
}

impl<'a> Reader<'a> {
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        let bom = input.starts_with(b"\xEF\xBB\xBF");
        let mut reader = Reader::resume(&input[if bom { 3 } else { 0 }..], Resume::START);
        // Positions stay those of the whole input.
        reader.input = input;
        if bom {
            reader.pos = 3;
            reader.bom = true;
        }
        reader
    }

    /// Reads a text that continues another at `at`.
    pub fn resume(input: &'a [u8], at: Resume) -> Reader<'a> {
        Reader {
            input,
            pos: 0,
            line: at.line,
            games: at.games,
            starts_line: at.starts_line,
            game_start: 0,
            keep: true,
            bom: false,
        }
    }

    /// Only finds where games end and how many lines they take; the games it yields are empty
    /// but for their number and line (and the error of a game that is too long).
    pub fn scanning(mut self) -> Reader<'a> {
        self.keep = false;
        self
    }

    /// Where the last game yielded began (after the blank space before it).
    pub fn game_start(&self) -> usize {
        self.game_start
    }

    /// Where reading stands: after the last game yielded.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// What a reader of the rest of the text must know, at [`Reader::position`].
    pub fn resume_point(&self) -> Resume {
        Resume {
            line: self.line,
            games: self.games,
            starts_line: self.at_line_start(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn at_line_start(&self) -> bool {
        match self.pos {
            0 => self.starts_line,
            3 if self.bom => true,
            p => self.input.get(p - 1) == Some(&b'\n'),
        }
    }

    /// Skips whitespace and `%` escape lines.
    fn skip_space(&mut self) {
        let input = self.input;
        let mut pos = self.pos;
        while let Some(&c) = input.get(pos) {
            match CLASS[usize::from(c)] {
                NEWLINE => {
                    self.line += 1;
                    pos += 1;
                }
                SPACE => pos += 1,
                _ if c == b'%' => {
                    self.pos = pos;
                    if !self.at_line_start() {
                        return;
                    }
                    self.skip_to_line_end();
                    pos = self.pos;
                }
                _ => break,
            }
        }
        self.pos = pos;
    }

    fn skip_to_line_end(&mut self) {
        match memchr::memchr(b'\n', &self.input[self.pos..]) {
            Some(i) => self.pos += i,
            None => self.pos = self.input.len(),
        }
    }

    fn count_lines(&mut self, from: usize, to: usize) {
        self.line += memchr::memchr_iter(b'\n', &self.input[from..to]).count();
    }

    fn report(
        &self,
        game: &mut RawGame<'a>,
        cause: Cause,
        line: usize,
        message: impl FnOnce() -> String,
    ) {
        if self.keep {
            game.report(cause, line, message);
        }
    }

    /// Reads a tag pair starting at `[`. On a syntax error, skips to the end of the line.
    /// Returns whether it was an Event tag.
    fn read_tag(&mut self, game: &mut RawGame<'a>) -> bool {
        let line = self.line;
        let start = self.pos;
        self.pos += 1; // '['
        let rest = &self.input[self.pos..];
        let name_len = rest
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        let fail = |reader: &mut Reader<'a>,
                    game: &mut RawGame<'a>,
                    cause: Cause,
                    msg: &dyn Fn() -> String| {
            reader.pos = start;
            reader.skip_to_line_end();
            reader.report(game, cause, line, msg);
            false
        };
        if name_len == 0 {
            return fail(self, game, Cause::TagName, &|| {
                "a tag pair must start with a name, like [Event \"…\"]".to_string()
            });
        }
        let name_bytes = &rest[..name_len];
        let name = std::str::from_utf8(name_bytes).unwrap_or("");
        self.pos += name_len;
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
        if self.peek() != Some(b'"') {
            return fail(self, game, Cause::TagQuote, &|| {
                format!(
                    "the value of tag {} must be in double quotes",
                    shown(name_bytes)
                )
            });
        }
        self.pos += 1;
        let value_start = self.pos;
        let Some(escaped) = self.scan_value() else {
            return fail(self, game, Cause::TagValueOpen, &|| {
                format!(
                    "the value of tag {} is not closed with a quote",
                    shown(name_bytes)
                )
            });
        };
        let raw = &self.input[value_start..self.pos];
        self.pos += 1; // closing quote
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
        if self.peek() != Some(b']') {
            return fail(self, game, Cause::TagBracket, &|| {
                format!("tag {} is not closed with ]", shown(name_bytes))
            });
        }
        self.pos += 1;
        if self.keep {
            game.tags.push(Tag {
                name,
                value: decode_value(raw, escaped),
                line,
            });
        }
        name == "Event"
    }

    /// Moves to the closing quote of a tag's value: whether the value has escapes, or
    /// `None` when the line (or the input) ends first.
    fn scan_value(&mut self) -> Option<bool> {
        let mut escaped = false;
        loop {
            // Everything up to the next quote, backslash or line end is plain value text.
            match memchr::memchr3(b'"', b'\\', b'\n', &self.input[self.pos..]) {
                None => self.pos = self.input.len(),
                Some(i) => self.pos += i,
            }
            match self.peek() {
                None | Some(b'\n') => return None,
                Some(b'\\') => {
                    escaped = true;
                    self.pos += 2.min(self.input.len() - self.pos);
                }
                _ => return Some(escaped),
            }
        }
    }

    /// Reads a `{…}` comment; an unclosed one ends at the next `[Event "` line or the end.
    /// Looks no further than where the comment ends, so many comments cost their length.
    fn read_brace_comment(&mut self, game: &mut RawGame<'a>) -> &'a [u8] {
        let line = self.line;
        let start = self.pos + 1;
        let input: &'a [u8] = self.input;
        let mut at = start;
        let cut = loop {
            match memchr::memchr2(b'}', b'\n', &input[at..]) {
                None => break input.len(),
                Some(i) if input[at + i] == b'}' => {
                    self.pos = at + i + 1;
                    return &input[start..at + i];
                }
                Some(i) => {
                    self.line += 1;
                    at += i + 1;
                    // A new game's tags: the brace was never closed.
                    if input[at..].starts_with(b"[Event ") {
                        break at;
                    }
                }
            }
        };
        self.pos = cut;
        self.report(game, Cause::CommentOpen, line, || {
            "a comment opened with { is not closed".to_string()
        });
        &input[start..cut]
    }

    fn push(&self, game: &mut RawGame<'a>, kind: u8, span: (usize, usize), nag: u8, line: usize) {
        if !self.keep {
            return;
        }
        // A game longer than u32 offsets is dropped as too large before it is used.
        let offset = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        game.movetext.items.push(Packed {
            start: offset(span.0.saturating_sub(self.game_start)),
            len: offset(span.1 - span.0),
            line: offset(line - game.line),
            kind,
            nag,
        });
    }

    /// The game has grown past [`MAX_GAME_BYTES`]: keep only the error, and go on at the next
    /// line starting with `[Event ` at or after the limit.
    fn too_large(&mut self, game: RawGame<'a>) -> RawGame<'a> {
        let limit = self.game_start + MAX_GAME_BYTES;
        let from = (limit - 1).min(self.input.len());
        self.pos = find_event_tag(&self.input[from..]).map_or(self.input.len(), |i| from + i);
        self.line = game.line;
        self.count_lines(self.game_start, self.pos);
        RawGame::too_large(game.number, game.line)
    }

    /// An Event tag when the game has one already: it starts the next game.
    fn second_event(&self, has_event: bool) -> bool {
        has_event && self.input[self.pos..].starts_with(b"[Event ")
    }
}

/// Where a line starting with `[Event ` begins inside `text`, if anywhere.
fn find_event_tag(text: &[u8]) -> Option<usize> {
    memchr::memmem::find(text, b"\n[Event ").map(|i| i + 1)
}

fn decode_value(raw: &[u8], escaped: bool) -> Cow<'_, str> {
    let text: Cow<'_, str> = match std::str::from_utf8(raw) {
        Ok(s) => Cow::Borrowed(s),
        // Older files are Latin-1 (the PGN standard's own encoding).
        Err(_) => Cow::Owned(raw.iter().map(|&b| char::from(b)).collect()),
    };
    if !escaped {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

const OTHER: u8 = 0;
const SPACE: u8 = 1;
const NEWLINE: u8 = 2;
const DELIMITER: u8 = 3;

/// Byte classes for the movetext scanner: a table is faster than a chain of comparisons.
static CLASS: [u8; 256] = {
    let mut table = [OTHER; 256];
    table[b' ' as usize] = SPACE;
    table[b'\t' as usize] = SPACE;
    table[b'\r' as usize] = SPACE;
    table[0x0b] = SPACE;
    table[0x0c] = SPACE;
    table[b'\n' as usize] = NEWLINE;
    let delimiters = b"{}();[]$\"";
    let mut i = 0;
    while i < delimiters.len() {
        table[delimiters[i] as usize] = DELIMITER;
        i += 1;
    }
    table
};

fn is_token_end(c: u8) -> bool {
    CLASS[usize::from(c)] != OTHER
}

fn result_marker(token: &[u8]) -> Option<&'static str> {
    match token {
        b"1-0" => Some("1-0"),
        b"0-1" => Some("0-1"),
        b"1/2-1/2" | b"\xC2\xBD-\xC2\xBD" => Some("1/2-1/2"),
        b"*" => Some("*"),
        _ => None,
    }
}

fn suffix_nag(suffix: &[u8]) -> Option<u8> {
    match suffix {
        b"!" => Some(1),
        b"?" => Some(2),
        b"!!" => Some(3),
        b"??" => Some(4),
        b"!?" => Some(5),
        b"?!" => Some(6),
        _ => None,
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = RawGame<'a>;

    fn next(&mut self) -> Option<RawGame<'a>> {
        self.skip_space();
        self.peek()?;
        self.games += 1;
        self.game_start = self.pos;
        let mut game = RawGame {
            number: self.games,
            line: self.line,
            ..RawGame::default()
        };
        if self.keep {
            game.movetext.src = &self.input[self.pos..];
            game.movetext.first_line = self.line;
            // About one item per five bytes in real games: growing the list costs more than
            // this guess, which is bounded for a whole file read at once.
            game.movetext.items = Vec::with_capacity(((self.input.len() - self.pos) / 5).min(512));
        }
        let mut in_movetext = false;
        let mut has_event = false;
        let mut depth = 0usize;
        // The line of the outermost variation still open.
        let mut outer_open = 0usize;
        loop {
            self.skip_space();
            if self.pos - self.game_start > MAX_GAME_BYTES {
                return Some(self.too_large(game));
            }
            let Some(c) = self.peek() else { break };
            let line = self.line;
            match c {
                // A second Event tag starts a new game even without movetext in between.
                b'[' if !in_movetext && !self.second_event(has_event) => {
                    has_event |= self.read_tag(&mut game);
                }
                b'[' => break, // the next game's tags: this one had no termination marker
                b'{' => {
                    in_movetext = true;
                    let text = self.read_brace_comment(&mut game);
                    self.push_slice(&mut game, COMMENT, text, line);
                }
                b';' => {
                    in_movetext = true;
                    let start = self.pos + 1;
                    self.skip_to_line_end();
                    self.push(&mut game, COMMENT, (start, self.pos), 0, line);
                }
                b'(' => {
                    in_movetext = true;
                    self.pos += 1;
                    if depth == 0 {
                        outer_open = line;
                    }
                    depth += 1;
                    self.push(&mut game, START_VARIATION, (self.pos, self.pos), 0, line);
                }
                b')' => {
                    self.pos += 1;
                    if depth == 0 {
                        self.report(&mut game, Cause::VariationNotOpened, line, || {
                            "a variation is closed with ) that was never opened".into()
                        });
                    } else {
                        depth -= 1;
                        self.push(&mut game, END_VARIATION, (self.pos, self.pos), 0, line);
                    }
                }
                b'$' => {
                    in_movetext = true;
                    self.read_nag(&mut game, line);
                }
                b'}' | b']' | b'"' => {
                    self.pos += 1;
                    self.report(&mut game, Cause::Unexpected, line, || {
                        format!("unexpected {} in the moves", char::from(c))
                    });
                }
                _ => {
                    in_movetext = true;
                    let start = self.pos;
                    let rest = &self.input[start..];
                    self.pos += rest
                        .iter()
                        .position(|&c| is_token_end(c))
                        .unwrap_or(rest.len());
                    let token = &self.input[start..self.pos];
                    if let Some(result) = result_marker(token) {
                        if depth == 0 {
                            if self.keep {
                                game.termination = Some(result);
                            }
                            break;
                        }
                        continue; // results inside variations are ignored
                    }
                    if self.keep {
                        self.push_move_token(&mut game, token, line);
                    }
                }
            }
        }
        if depth > 0 && self.keep {
            variations_open(&mut game, depth, outer_open);
        }
        Some(game)
    }
}

/// The game ended with `depth` variations still open, the outermost opened on `line`: one
/// error, counting the others.
fn variations_open(game: &mut RawGame<'_>, depth: usize, line: usize) {
    game.report(Cause::VariationOpen, line, || {
        "a variation opened with ( is not closed".into()
    });
    if let Some(e) = game
        .errors
        .iter_mut()
        .find(|e| e.cause == Cause::VariationOpen)
    {
        e.more += depth - 1;
    }
}

impl<'a> Reader<'a> {
    /// A NAG (`$` and its number, at the `$`).
    fn read_nag(&mut self, game: &mut RawGame<'a>, line: usize) {
        self.pos += 1;
        let digits = self.input[self.pos..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let value = std::str::from_utf8(&self.input[self.pos..self.pos + digits])
            .ok()
            .and_then(|s| s.parse::<u8>().ok());
        self.pos += digits;
        match value {
            Some(n) => self.push(game, NAG, (self.pos, self.pos), n, line),
            None => self.report(game, Cause::Nag, line, || {
                "a $ must be followed by a number from 0 to 255".into()
            }),
        }
    }

    fn push_slice(&self, game: &mut RawGame<'a>, kind: u8, text: &'a [u8], line: usize) {
        let start = text.as_ptr() as usize - self.input.as_ptr() as usize;
        self.push(game, kind, (start, start + text.len()), 0, line);
    }

    /// Splits a token such as `12.Nf3!?` into its move number, move and annotation.
    fn push_move_token(&self, game: &mut RawGame<'a>, token: &'a [u8], line: usize) {
        let mut t = token;
        // Move number: digits followed by one or more dots ("12." "12..." "12.Nf3").
        let digits = t.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits > 0 && t.get(digits) == Some(&b'.') {
            t = &t[digits..];
            while let Some(rest) = t.strip_prefix(b".") {
                t = rest;
            }
        } else if digits == t.len() {
            // A bare move number without a dot.
            return;
        }
        while let Some(rest) = t.strip_prefix(b".") {
            t = rest; // "..." standing alone for Black's move
        }
        if t.is_empty() {
            return;
        }
        let bangs = t
            .iter()
            .rev()
            .take_while(|c| matches!(c, b'!' | b'?'))
            .count();
        let (mv, suffix) = t.split_at(t.len() - bangs);
        if !mv.is_empty() {
            self.push_slice(game, SAN, mv, line);
        }
        if let Some(n) = suffix_nag(suffix) {
            self.push(game, NAG, (0, 0), n, line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sans<'a>(g: &'a RawGame<'a>) -> Vec<&'a str> {
        g.mainline()
            .map(|l| std::str::from_utf8(l.item).expect("ascii"))
            .collect()
    }

    #[test]
    fn reads_tags_moves_and_result() {
        let text = b"[Event \"Casual\"]\n[White \"Morphy, Paul\"]\n\n1. e4 e5 2.Nf3 d6 1-0\n";
        let games: Vec<_> = Reader::new(text).collect();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("White"), Some("Morphy, Paul"));
        assert_eq!(sans(g), ["e4", "e5", "Nf3", "d6"]);
        assert_eq!(g.termination, Some("1-0"));
        assert!(g.errors.is_empty());
    }

    #[test]
    fn tolerates_bom_crlf_comments_variations_nags_and_escapes() {
        let text = "\u{feff}[Event \"A \\\"quoted\\\" name\"]\r\n% escape line\r\n\r\n1. e4 {best by test} (1. d4 d5 (1... Nf6)) 1... e5!? $14 ; rest\r\n2. Nf3 Nc6 *\r\n";
        let games: Vec<_> = Reader::new(text.as_bytes()).collect();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("A \"quoted\" name"));
        assert_eq!(sans(g), ["e4", "e5", "Nf3", "Nc6"]);
        assert_eq!(g.termination, Some("*"));
        assert!(g.errors.is_empty(), "{:?}", g.errors);
        assert!(g.movetext.iter().any(|l| l.item == Item::Nag(5)));
        assert!(g.movetext.iter().any(|l| l.item == Item::Nag(14)));
    }

    #[test]
    fn games_without_result_are_split_at_the_next_tags() {
        let text = b"[Event \"1\"]\n1. e4\n\n[Event \"2\"]\n1. d4 0-1\n";
        let games: Vec<_> = Reader::new(text).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].termination, None);
        assert_eq!(games[1].line, 4);
        assert_eq!(sans(&games[1]), ["d4"]);
    }

    #[test]
    fn syntax_errors_name_their_line_and_later_games_survive() {
        let text = b"[Event \"broken\n1. e4 {never closed\n\n[Event \"ok\"]\n1. d4 1-0\n";
        let games: Vec<_> = Reader::new(text).collect();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].errors[0].line, 1);
        assert_eq!(games[0].errors[1].line, 2);
        assert_eq!(games[1].tag("Event"), Some("ok"));
        assert_eq!(sans(&games[1]), ["d4"]);
    }

    #[test]
    fn latin1_tag_values_are_decoded() {
        let text = b"[White \"M\xfcller\"]\n*\n";
        let g = Reader::new(text).next().expect("game");
        assert_eq!(g.tag("White"), Some("Müller"));
    }

    #[test]
    fn move_numbers_glued_and_black_dots() {
        let text = b"12.Nf3 12...Nc6 13. O-O 0-0 *";
        let g = Reader::new(text).next().expect("game");
        assert_eq!(sans(&g), ["Nf3", "Nc6", "O-O", "0-0"]);
    }

    #[test]
    fn never_panics_on_garbage() {
        let inputs: [&[u8]; 8] = [
            b"[",
            b"[\"",
            b"[A \"\\",
            b"{",
            b"(((",
            b")))",
            b"$",
            b"\xff\xfe\x00[Event \"x\"] }",
        ];
        for input in inputs {
            let _ = Reader::new(input).count();
        }
    }

    #[test]
    fn the_same_problem_is_reported_once_with_a_count() {
        let text = b"[Event \"x\"]\n1. e4 ( ( ( (\n) } } $999 e5 *";
        let g = Reader::new(text).next().expect("game");
        let messages: Vec<String> = g.errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "line 3: unexpected } in the moves (and once more in this game)",
                "line 3: a $ must be followed by a number from 0 to 255",
                "line 2: a variation opened with ( is not closed (and 2 more times in this game)",
            ]
        );
    }

    #[test]
    fn a_game_too_long_is_reported_and_the_next_one_read() {
        let mut text = b"[Event \"big\"]\n1. e4 ".to_vec();
        text.extend(std::iter::repeat_n(b'(', MAX_GAME_BYTES + 10));
        text.extend_from_slice(b"\n\n[Event \"next\"]\n1. d4 *\n");
        let games: Vec<_> = Reader::new(&text).collect();
        assert_eq!(games.len(), 2);
        assert!(games[0].is_too_large());
        assert!(games[0].movetext.is_empty() && games[0].tags.is_empty());
        assert_eq!(games[1].tag("Event"), Some("next"));
        assert_eq!(games[1].line, 4);
        assert_eq!(sans(&games[1]), ["d4"]);
    }

    #[test]
    fn shown_cuts_and_escapes() {
        assert_eq!(shown(b"Nf3"), "Nf3");
        assert_eq!(shown(b"a\x00b\xffc\x1b"), "a\\x00b\\xffc\\x1b");
        let long = shown(&[b'a'; 1000]);
        assert_eq!(long.chars().count(), SHOWN_CHARS + 1);
        assert!(long.ends_with('…'));
        assert_eq!(shown("Müller".as_bytes()), "Müller");
    }

    /// Reads `text` the way a stream does: find each game's bytes with a scanning reader,
    /// then read those bytes alone, resumed where the game stood.
    fn game_by_game(text: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        let mut scan = Reader::new(text).scanning();
        let mut at = Resume::START;
        while let Some(g) = scan.next() {
            let (start, end) = (scan.game_start(), scan.position());
            let game = if g.is_too_large() {
                RawGame::too_large(g.number, g.line)
            } else {
                let starts_line = start == 0
                    || text[start - 1] == b'\n'
                    || (start == 3 && text.starts_with(b"\xEF\xBB\xBF"));
                at.starts_line = starts_line;
                at.line = g.line;
                at.games = g.number - 1;
                let mut one = Reader::resume(&text[start..end], at);
                let game = one.next().expect("the scanned game");
                assert!(one.next().is_none(), "one game per span");
                game
            };
            out.push(summary(&game));
        }
        out
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

    fn whole(text: &[u8]) -> Vec<String> {
        let mut out = Vec::new();
        for game in Reader::new(text) {
            out.push(summary(&game));
        }
        out
    }

    #[test]
    fn read_game_by_game_is_read_whole() {
        let text = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/data/faulty.pgn"
        ))
        .expect("faulty.pgn");
        assert_eq!(game_by_game(&text), whole(&text));
    }

    proptest::proptest! {
        #[test]
        fn pgn_like_text_reads_the_same_game_by_game(
            text in "[\\[\\]{}()$;%\"a-hEventKQRBNOx0-9=+#!?./ \n-]{0,400}"
        ) {
            let text = text.as_bytes();
            proptest::prop_assert_eq!(game_by_game(text), whole(text));
        }
    }
}
