//! A tolerant, zero-copy PGN reader over bytes in memory (no I/O).
//!
//! Splits a file into games, reads tag pairs, and yields the movetext as items with the line
//! they stand on, so that every complaint can name its line. Real-world files are accepted:
//! a byte-order mark, CRLF line ends, `%` escape lines, `;` and `{}` comments, nested
//! variations, NAGs, `!?` suffixes, move numbers glued to moves, castling with zeros, and
//! Latin-1 tag values. Syntax problems are collected per game; reading goes on with the next
//! game.

use std::borrow::Cow;

/// One tag pair, e.g. `[White "Morphy, Paul"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag<'a> {
    pub name: &'a str,
    pub value: Cow<'a, str>,
    pub line: usize,
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

/// A syntax problem in one game, with the line where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
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
    pub movetext: Vec<Located<Item<'a>>>,
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
}

/// Iterates over the games of a PGN text.
pub struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    line: usize,
    games: usize,
}

impl<'a> Reader<'a> {
    pub fn new(input: &'a [u8]) -> Reader<'a> {
        let pos = if input.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        Reader {
            input,
            pos,
            line: 1,
            games: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0
            || matches!(self.input.get(self.pos.wrapping_sub(1)), Some(b'\n') | None)
            || (self.pos == 3 && self.input.starts_with(b"\xEF\xBB\xBF"))
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

    /// Reads a tag pair starting at `[`. On a syntax error, skips to the end of the line.
    fn read_tag(&mut self, game: &mut RawGame<'a>) {
        let line = self.line;
        let start = self.pos;
        self.pos += 1; // '['
        let rest = &self.input[self.pos..];
        let name_len = rest
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        let fail = |reader: &mut Reader<'a>, game: &mut RawGame<'a>, msg: &str| {
            reader.pos = start;
            reader.skip_to_line_end();
            game.errors.push(SyntaxError {
                line,
                message: msg.to_string(),
            });
        };
        if name_len == 0 {
            return fail(
                self,
                game,
                "a tag pair must start with a name, like [Event \"…\"]",
            );
        }
        let name = std::str::from_utf8(&rest[..name_len]).unwrap_or("");
        self.pos += name_len;
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
        if self.peek() != Some(b'"') {
            return fail(
                self,
                game,
                &format!("the value of tag {name} must be in double quotes"),
            );
        }
        self.pos += 1;
        let value_start = self.pos;
        let mut escaped = false;
        loop {
            match self.peek() {
                None | Some(b'\n') => {
                    return fail(
                        self,
                        game,
                        &format!("the value of tag {name} is not closed with a quote"),
                    );
                }
                Some(b'\\') => {
                    escaped = true;
                    self.pos += 2.min(self.input.len() - self.pos);
                }
                Some(b'"') => break,
                Some(_) => self.pos += 1,
            }
        }
        let raw = &self.input[value_start..self.pos];
        self.pos += 1; // closing quote
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
        if self.peek() != Some(b']') {
            return fail(self, game, &format!("tag {name} is not closed with ]"));
        }
        self.pos += 1;
        game.tags.push(Tag {
            name,
            value: decode_value(raw, escaped),
            line,
        });
    }

    /// Reads a `{…}` comment; an unclosed one ends at the next `[Event "` line or the end.
    fn read_brace_comment(&mut self, game: &mut RawGame<'a>) -> &'a [u8] {
        let line = self.line;
        let start = self.pos + 1;
        let input: &'a [u8] = self.input;
        match memchr::memchr(b'}', &input[start..]) {
            Some(len) => {
                let text = &input[start..start + len];
                // A new game's tags inside means the brace was never closed.
                if let Some(cut) = find_event_tag(text) {
                    self.count_lines(start, start + cut);
                    self.pos = start + cut;
                    game.errors.push(SyntaxError {
                        line,
                        message: "a comment opened with { is not closed".to_string(),
                    });
                    return &text[..cut];
                }
                self.count_lines(start, start + len);
                self.pos = start + len + 1;
                text
            }
            None => {
                let text = &input[start..];
                let cut = find_event_tag(text).unwrap_or(text.len());
                self.count_lines(start, start + cut);
                self.pos = start + cut;
                game.errors.push(SyntaxError {
                    line,
                    message: "a comment opened with { is not closed".to_string(),
                });
                &text[..cut]
            }
        }
    }

    fn starts_second_event(&self, game: &RawGame<'a>) -> bool {
        game.tag("Event").is_some() && self.input[self.pos..].starts_with(b"[Event ")
    }

    fn push(game: &mut RawGame<'a>, item: Item<'a>, line: usize) {
        game.movetext.push(Located { item, line });
    }
}

/// Where a line starting with `[Event "` begins inside `text`, if anywhere.
fn find_event_tag(text: &[u8]) -> Option<usize> {
    memchr::memmem::find_iter(text, b"\n[Event ")
        .next()
        .map(|i| i + 1)
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
        let mut game = RawGame {
            number: self.games,
            line: self.line,
            ..RawGame::default()
        };
        let mut in_movetext = false;
        let mut depth = 0usize;
        let mut open_variations: Vec<usize> = Vec::new();
        loop {
            self.skip_space();
            let Some(c) = self.peek() else { break };
            let line = self.line;
            match c {
                // A second Event tag starts a new game even without movetext in between.
                b'[' if !in_movetext && !self.starts_second_event(&game) => {
                    self.read_tag(&mut game)
                }
                b'[' => break, // the next game's tags: this one had no termination marker
                b'{' => {
                    in_movetext = true;
                    let text = self.read_brace_comment(&mut game);
                    Self::push(&mut game, Item::Comment(text), line);
                }
                b';' => {
                    in_movetext = true;
                    let start = self.pos + 1;
                    self.skip_to_line_end();
                    let text = &self.input[start..self.pos];
                    Self::push(&mut game, Item::Comment(text), line);
                }
                b'(' => {
                    in_movetext = true;
                    self.pos += 1;
                    depth += 1;
                    open_variations.push(line);
                    Self::push(&mut game, Item::StartVariation, line);
                }
                b')' => {
                    self.pos += 1;
                    if depth == 0 {
                        game.errors.push(SyntaxError {
                            line,
                            message: "a variation is closed with ) that was never opened".into(),
                        });
                    } else {
                        depth -= 1;
                        open_variations.pop();
                        Self::push(&mut game, Item::EndVariation, line);
                    }
                }
                b'$' => {
                    in_movetext = true;
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
                        Some(n) => Self::push(&mut game, Item::Nag(n), line),
                        None => game.errors.push(SyntaxError {
                            line,
                            message: "a $ must be followed by a number from 0 to 255".into(),
                        }),
                    }
                }
                b'}' | b']' | b'"' => {
                    self.pos += 1;
                    game.errors.push(SyntaxError {
                        line,
                        message: format!("unexpected {} in the moves", char::from(c)),
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
                            game.termination = Some(result);
                            break;
                        }
                        continue; // results inside variations are ignored
                    }
                    self.push_move_token(&mut game, token, line);
                }
            }
        }
        for opened in open_variations {
            game.errors.push(SyntaxError {
                line: opened,
                message: "a variation opened with ( is not closed".into(),
            });
        }
        Some(game)
    }
}

impl<'a> Reader<'a> {
    /// Splits a token such as `12.Nf3!?` into its move number, move and annotation.
    fn push_move_token(&mut self, game: &mut RawGame<'a>, token: &'a [u8], line: usize) {
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
            Self::push(game, Item::San(mv), line);
        }
        if let Some(n) = suffix_nag(suffix) {
            Self::push(game, Item::Nag(n), line);
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
}
