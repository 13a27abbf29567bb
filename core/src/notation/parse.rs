//! Understanding a typed or dictated move: text plus position to exactly one legal move, or an
//! error that says why (../shared/spec/spoken-notation.md, "Input").
//!
//! The text is read into tokens (files, ranks, squares, pieces, capture, "to", promotion,
//! castling) whatever its form: SAN with English or German letters, coordinates, or spoken
//! words in any language table. The tokens give a reading (which piece, from where, to where,
//! promotion), and the reading is matched against the legal moves.

use std::sync::OnceLock;

use shakmaty::{CastlingSide, Chess, Color, File, Move, MoveList, Position, Rank, Role, Square};

use super::language::{Language, TABLE_ROLES, capitalized, default_language, fill, languages};
use super::speak::{Form, announce, castling_words};
use super::vocabulary::{Meaning, Vocabulary};
use crate::legality::{CastlingBlock, Illegal, explain_castling, geometric_movers};

/// Why a text does not name exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing that could be a move.
    Empty,
    /// A word that is in no language table and is not notation.
    UnknownWord(String),
    /// A piece was named but no square.
    NoSquare,
    /// More than a from-square and a to-square.
    TooManySquares,
    /// A from-square without a piece of the player to move.
    NoPieceOn(Square),
    /// A bare square names a pawn's push; no pawn can go there without capturing, and these
    /// captures could (they are named, not made).
    CaptureNotSaid {
        to: Square,
        captures: Vec<Move>,
    },
    /// "Rochade" alone while both castlings are legal.
    WhichCastling,
    /// "Rochade" alone while neither castling is legal: why not, short then long.
    NoCastling(Illegal, Illegal),
    Illegal(Illegal),
    /// A capture mark ("x", "schlägt") on a move that takes nothing: no legal move the text
    /// names captures on this square, though some go there.
    NothingToTake(Square),
}

/// Whether a capture mark or word ("x", "schlägt") a text adds to a move is held against the
/// position. "+", "#" and "e.p." are read and ignored (the agreed input notation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marks {
    /// A player's own text: a mark that is not true is refused, so that a wrong picture of
    /// the board is told, not played over. A missing mark is no fault.
    Held,
    /// The recogniser's phrases: a capture word only narrows the choice.
    Ignored,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    File(File),
    Rank(Rank),
    Square(Square),
    Piece(Role),
    Capture,
    To,
    Promote,
    Castle(CastlingSide),
    /// Castling without a side.
    CastleEither,
}

/// What the tokens say about the move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Reading {
    castle: Option<CastlingSide>,
    castle_either: bool,
    role: Option<Role>,
    from: Option<Square>,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Option<Square>,
    capture: bool,
    promotion: Option<Role>,
    /// The promotion was announced ("Umwandlung", "=", "promotes"), not just a piece named
    /// after the square (which may also be the moving piece: "Felix drei Springer").
    promotion_announced: bool,
}

/// Reads `text` as a move in `pos` with the default language's (German) letters, leniently:
/// a capture word or mark only narrows the choice. The voice
/// recogniser asks this of its phrases, where a capture word may be misheard; what a player
/// types goes through [`parse_move_in`].
pub fn parse_move(text: &str, pos: &Chess) -> Result<Move, ParseError> {
    let lang = default_language();
    parse_with(
        text,
        pos,
        Vocabulary::for_language(lang),
        Letters::for_language(lang),
        Marks::Ignored,
    )
}

/// Reads `text` as a move in `pos`, typed or said by a player of `lang`: every language's
/// words are understood, `lang`'s first where a word means two things, and a SAN letter means
/// the piece it names in `lang` (see [`Letters`]). A capture mark or word on a move that takes
/// nothing is refused (a mark left out is no fault); "+", "#" and "e.p." are ignored.
pub fn parse_move_in(text: &str, pos: &Chess, lang: &Language) -> Result<Move, ParseError> {
    parse_with(
        text,
        pos,
        Vocabulary::for_language(lang),
        Letters::for_language(lang),
        Marks::Held,
    )
}

/// The SAN piece letters as a player of one language reads them. A letter means the piece it
/// names in the player's own table; a letter that table does not use means what it means in
/// English SAN (the letters of PGN, with P for a pawn), else in the first other table (in the
/// order of their codes) that uses it, unless it is also a file's letter (A, C, F): "C4" from
/// a German player is the square, not a Spanish knight. So R is the king for a French or
/// Spanish player and the rook for everyone else; P is the knight for a Dutch player and a
/// pawn for everyone else.
pub(crate) struct Letters([Option<Role>; 26]);

impl Letters {
    fn build(lang: &Language) -> Letters {
        let mut letters = Letters([None; 26]);
        letters.take_table(lang, true);
        if let Some(english) = languages().find(|l| l.code == "en") {
            letters.take_table(english, true);
        }
        letters.take(b'P', Role::Pawn);
        for other in languages().filter(|l| l.code != lang.code && l.code != "en") {
            letters.take_table(other, false);
        }
        letters
    }

    /// Takes the letters of `table` that are still free; a file's letter only if `files`.
    fn take_table(&mut self, table: &Language, files: bool) {
        for (letter, role) in table.pieces.letters.iter().zip(TABLE_ROLES) {
            if let [c] = letter.as_bytes()
                && (files || !matches!(c.to_ascii_lowercase(), b'a'..=b'h'))
            {
                self.take(*c, role);
            }
        }
    }

    fn take(&mut self, c: u8, role: Role) {
        if let Some(slot) = self.slot(c)
            && slot.is_none()
        {
            *slot = Some(role);
        }
    }

    fn slot(&mut self, c: u8) -> Option<&mut Option<Role>> {
        let upper = c.to_ascii_uppercase();
        upper
            .is_ascii_uppercase()
            .then(|| &mut self.0[usize::from(upper - b'A')])
    }

    /// The piece a letter names, in either case.
    pub(crate) fn role(&self, c: u8) -> Option<Role> {
        let upper = c.to_ascii_uppercase();
        if upper.is_ascii_uppercase() {
            self.0[usize::from(upper - b'A')]
        } else {
            None
        }
    }

    /// The letters of a player of `lang` (built once per language).
    pub(crate) fn for_language(lang: &Language) -> &'static Letters {
        static EACH: OnceLock<Vec<(String, Letters)>> = OnceLock::new();
        let each = EACH.get_or_init(|| {
            languages()
                .map(|l| (l.code.clone(), Letters::build(l)))
                .collect()
        });
        // A table that is not embedded (only in tests) reads no letters.
        static NONE: Letters = Letters([None; 26]);
        each.iter()
            .find(|(code, _)| *code == lang.code)
            .map_or(&NONE, |(_, letters)| letters)
    }
}

fn parse_with(
    text: &str,
    pos: &Chess,
    vocabulary: &Vocabulary,
    letters: &Letters,
    marks: Marks,
) -> Result<Move, ParseError> {
    let alternatives = tokenize(text, vocabulary, letters)?;
    if alternatives.iter().all(|a| a.iter().all(Vec::is_empty)) {
        return Err(ParseError::Empty);
    }
    // The exact reading first; the other readings differ only in the case of SAN letters.
    let mut readings: Vec<Vec<Tok>> = vec![Vec::new()];
    for options in &alternatives {
        let mut next = Vec::with_capacity(readings.len() * options.len());
        for reading in &readings {
            for option in options {
                let mut r = reading.clone();
                r.extend_from_slice(option);
                next.push(r);
            }
        }
        next.truncate(32);
        readings = next;
    }
    let first = resolve(&readings[0], pos, marks);
    if first.is_ok() || matches!(first, Err(ParseError::Illegal(Illegal::Ambiguous(_)))) {
        return first;
    }
    let mut found: Option<Move> = None;
    for tokens in &readings[1..] {
        if let Ok(m) = resolve(tokens, pos, marks) {
            match found {
                Some(f) if f != m => return first,
                _ => found = Some(m),
            }
        }
    }
    found.ok_or(()).or(first)
}

/// Splits the text into words and each word into token alternatives.
fn tokenize(
    text: &str,
    vocabulary: &Vocabulary,
    letters: &Letters,
) -> Result<Vec<Vec<Vec<Tok>>>, ParseError> {
    let raw: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '"' | '\''))
        .filter(|w| !w.is_empty())
        .filter(|w| !is_move_number(w))
        .collect();
    let words: Vec<String> = raw
        .iter()
        .map(|w| w.trim_end_matches(['.', '!', '?']).to_string())
        .collect();
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        if words[i].is_empty() {
            i += 1;
            continue;
        }
        // A piece letter on its own ("N f3", "S f3"); upper-case B and D are pieces here as in
        // SAN, lower-case b and d stay files.
        if let [c] = raw[i].as_bytes()
            && let Some(role) = letters.role(*c)
            && (c.is_ascii_uppercase() || file_of(*c).is_none())
        {
            out.push(vec![vec![Tok::Piece(role)]]);
            i += 1;
            continue;
        }
        if let Some((meaning, n)) = vocabulary.longest_match(&words[i..]) {
            out.push(vec![meaning_tokens(meaning)]);
            i += n;
            continue;
        }
        let original = raw[i].trim_end_matches(['.', '!', '?']);
        if let Some(rank) = digit_rank(original) {
            out.push(vec![vec![Tok::Rank(rank)]]);
        } else if let Some(alts) = notation_token(original, letters) {
            out.push(alts);
        } else if let Some(parts) = split_letters_digits(original, vocabulary) {
            out.push(vec![parts]);
        } else if let Some(side) = castling_marked(original, vocabulary) {
            out.push(vec![vec![Tok::Castle(side)]]);
        } else {
            return Err(ParseError::UnknownWord(raw[i].to_string()));
        }
        i += 1;
    }
    Ok(out)
}

fn is_move_number(word: &str) -> bool {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && digits < word.len() && word.bytes().skip(digits).all(|b| b == b'.')
}

fn meaning_tokens(meaning: Meaning) -> Vec<Tok> {
    match meaning {
        Meaning::File(f) => vec![Tok::File(f)],
        Meaning::Rank(r) => vec![Tok::Rank(r)],
        Meaning::Piece(r) => vec![Tok::Piece(r)],
        Meaning::Capture => vec![Tok::Capture],
        Meaning::To => vec![Tok::To],
        Meaning::Promote => vec![Tok::Promote],
        Meaning::Castle(side) => vec![Tok::Castle(side)],
        Meaning::CastleEither => vec![Tok::CastleEither],
        Meaning::Ignore | Meaning::Filler => Vec::new(),
    }
}

/// "Felix3", "e4dame": letters and digits run together.
fn split_letters_digits(word: &str, vocabulary: &Vocabulary) -> Option<Vec<Tok>> {
    let mut parts: Vec<String> = Vec::new();
    let mut last_digit: Option<bool> = None;
    for c in word.chars() {
        let digit = c.is_ascii_digit();
        if last_digit != Some(digit) {
            parts.push(String::new());
            last_digit = Some(digit);
        }
        parts.last_mut()?.push(c);
    }
    if parts.len() < 2 {
        return None;
    }
    let mut tokens = Vec::new();
    for part in parts {
        if let Some(rank) = digit_rank(&part) {
            tokens.push(Tok::Rank(rank));
        } else {
            tokens.extend(meaning_tokens(vocabulary.lookup(&part)?));
        }
    }
    Some(tokens)
}

fn digit_rank(text: &str) -> Option<Rank> {
    match text.as_bytes() {
        [d @ b'1'..=b'8'] => Some(Rank::new(u32::from(d - b'1'))),
        _ => None,
    }
}

fn file_of(c: u8) -> Option<File> {
    matches!(c, b'a'..=b'h').then(|| File::new(u32::from(c - b'a')))
}

fn rank_of(c: u8) -> Option<Rank> {
    matches!(c, b'1'..=b'8').then(|| Rank::new(u32::from(c - b'1')))
}

/// A token in algebraic notation (SAN with English or German letters, or coordinates), as one
/// or more readings: the exact one first, then readings with the case of letters changed.
fn notation_token(word: &str, letters: &Letters) -> Option<Vec<Vec<Tok>>> {
    if !word.is_ascii() || word.is_empty() {
        return None;
    }
    let mut readings = Vec::new();
    let exact = read_notation(word.as_bytes(), false, letters);
    // An upper-case piece letter that reads as a piece is never reread as a file: "Bb4" is the
    // bishop, whether or not a bishop can go there.
    let piece_first = word.as_bytes()[0].is_ascii_uppercase() && exact.is_some();
    if let Some(exact) = exact {
        readings.push(exact);
    }
    // Case-insensitive readings: a leading letter may be a piece or a file.
    let lower = word.to_ascii_lowercase();
    let mut variants = if piece_first {
        Vec::new()
    } else {
        vec![lower.clone()]
    };
    let mut upper_first = lower.clone().into_bytes();
    upper_first[0] = upper_first[0].to_ascii_uppercase();
    variants.push(String::from_utf8(upper_first).unwrap_or_default());
    for v in variants {
        if v != word
            && let Some(r) = read_notation(v.as_bytes(), true, letters)
            && !readings.contains(&r)
        {
            readings.push(r);
        }
    }
    (!readings.is_empty()).then_some(readings)
}

/// A word without its trailing "+", "#", "!" and "?": tolerated and ignored.
fn strip_marks(b: &[u8]) -> &[u8] {
    let mut b = b;
    while let Some((&last, rest)) = b.split_last() {
        if !matches!(last, b'+' | b'#' | b'!' | b'?') {
            break;
        }
        b = rest;
    }
    b
}

/// Castling with a check or mate mark run together ("O-O+", "0-0-0#").
fn castling_marked(word: &str, vocabulary: &Vocabulary) -> Option<CastlingSide> {
    let rest = strip_marks(word.as_bytes());
    if rest.len() == word.len() {
        return None;
    }
    match vocabulary.lookup(std::str::from_utf8(rest).ok()?)? {
        Meaning::Castle(side) => Some(side),
        _ => None,
    }
}

/// [piece] [file] [rank] [x|:|-] square [=] [promotion] [e.p.|ep] [+|#]*, or a bare square.
/// `lenient` allows lower-case promotion letters anywhere (they are always allowed after
/// coordinates, as in UCI's e7e8q).
fn read_notation(b: &[u8], lenient: bool, letters: &Letters) -> Option<Vec<Tok>> {
    let mut b = strip_marks(b);
    for suffix in [&b"e.p."[..], b"e.p", b"ep"] {
        if b.len() > suffix.len() + 1 && b.ends_with(suffix) {
            b = &b[..b.len() - suffix.len()];
            break;
        }
    }
    let mut i = 0;
    let mut toks = Vec::with_capacity(6);
    // A leading upper-case letter is a piece (a file is always lower case).
    if let Some(&c) = b.first()
        && c.is_ascii_uppercase()
    {
        toks.push(Tok::Piece(letters.role(c)?));
        i = 1;
    }
    // Everything left: squares, lone files/ranks, capture marks, promotion.
    let rest = &b[i..];
    let mut j = 0;
    let mut squares = 0;
    let mut promoting = false;
    while j < rest.len() {
        let c = rest[j];
        if let (Some(f), Some(r)) = (file_of(c), rest.get(j + 1).and_then(|&d| rank_of(d))) {
            toks.push(Tok::Square(Square::from_coords(f, r)));
            squares += 1;
            j += 2;
        } else if let Some(f) = file_of(c).filter(|_| squares == 0) {
            toks.push(Tok::File(f));
            j += 1;
        } else if let Some(r) = rank_of(c).filter(|_| squares == 0) {
            toks.push(Tok::Rank(r));
            j += 1;
        } else if matches!(c, b'x' | b':') && squares == 0 {
            toks.push(Tok::Capture);
            j += 1;
        } else if c == b'-' && squares == 1 {
            j += 1;
        } else if c == b'=' && squares > 0 && !promoting {
            promoting = true;
            j += 1;
        } else if squares > 0 && j + 1 == rest.len() {
            let after_coordinates = squares == 2;
            if !(c.is_ascii_uppercase() || after_coordinates || lenient) {
                return None;
            }
            toks.push(Tok::Promote);
            toks.push(Tok::Piece(letters.role(c)?));
            j += 1;
        } else {
            return None;
        }
    }
    if squares == 0 || squares > 2 {
        return None;
    }
    // "bb4": a file and a square on it, without a piece, is no pawn move (a pawn that names
    // its file captures); the upper-case reading takes it as the bishop.
    if let [Tok::File(f), Tok::Square(sq), ..] = toks.as_slice()
        && sq.file() == *f
    {
        return None;
    }
    Some(toks)
}

/// Turns tokens into a reading: which piece, from where, to where.
fn read(tokens: &[Tok]) -> Result<Reading, ParseError> {
    let mut r = Reading::default();
    if let Some(side) = tokens.iter().find_map(|t| match t {
        Tok::Castle(side) => Some(*side),
        _ => None,
    }) {
        r.castle = Some(side);
        return Ok(r);
    }
    if tokens.contains(&Tok::CastleEither) {
        r.castle_either = true;
        return Ok(r);
    }
    // Join a spoken file and the rank after it into a square.
    let mut merged: Vec<Tok> = Vec::with_capacity(tokens.len());
    for &t in tokens {
        match (merged.last().copied(), t) {
            (Some(Tok::File(f)), Tok::Rank(rank)) => {
                merged.pop();
                merged.push(Tok::Square(Square::from_coords(f, rank)));
            }
            _ => merged.push(t),
        }
    }
    let squares: Vec<(usize, Square)> = merged
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t {
            Tok::Square(s) => Some((i, *s)),
            _ => None,
        })
        .collect();
    let (target_index, target) = match squares.as_slice() {
        [] => return Err(ParseError::NoSquare),
        [one] => *one,
        [from, to] => {
            r.from = Some(from.1);
            *to
        }
        _ => return Err(ParseError::TooManySquares),
    };
    r.to = Some(target);
    let mut promoting = false;
    for (i, &t) in merged.iter().enumerate() {
        match t {
            Tok::Promote => {
                promoting = true;
                r.promotion_announced = true;
            }
            Tok::Piece(role) if promoting || i > target_index => r.promotion = Some(role),
            // The first piece named before the square is the one that moves.
            Tok::Piece(role) if r.role.is_none() => r.role = Some(role),
            Tok::File(f) if i < target_index => r.from_file = Some(f),
            Tok::Rank(rank) if i < target_index => r.from_rank = Some(rank),
            Tok::Capture => r.capture = true,
            _ => {}
        }
    }
    Ok(r)
}

/// The square a move takes the king to when it is castling, else its target square.
fn destination(m: &Move, turn: shakmaty::Color) -> Square {
    match m.castling_side() {
        Some(side) => side.king_to(turn),
        None => m.to(),
    }
}

fn resolve(tokens: &[Tok], pos: &Chess, marks: Marks) -> Result<Move, ParseError> {
    let reading = read(tokens)?;
    if reading.promotion.is_some() && !reading.promotion_announced && reading.role.is_none() {
        let as_promotion = resolve_reading(&reading, pos, marks);
        if as_promotion.is_ok() {
            as_promotion
        } else {
            let mut as_mover = reading.clone();
            as_mover.role = as_mover.promotion.take();
            resolve_reading(&as_mover, pos, marks).or(as_promotion)
        }
    } else {
        resolve_reading(&reading, pos, marks)
    }
}

fn resolve_reading(reading: &Reading, pos: &Chess, marks: Marks) -> Result<Move, ParseError> {
    let turn = pos.turn();
    let legal = pos.legal_moves();
    if let Some(castling) = resolve_castling(reading, pos, &legal) {
        return castling;
    }
    let to = reading.to.ok_or(ParseError::NoSquare)?;
    if let Some(from) = reading.from
        && pos.board().color_at(from) != Some(turn)
    {
        return Err(ParseError::NoPieceOn(from));
    }
    if matches!(reading.promotion, Some(Role::King | Role::Pawn)) {
        return Err(ParseError::Illegal(Illegal::BadPromotionPiece));
    }
    // A bare square without a piece or a from-square is a pawn move (Appendix C4).
    let role = reading
        .role
        .or_else(|| reading.from.is_none().then_some(Role::Pawn));
    let candidates = fitting_moves(reading, &legal, to, role, turn);
    // A bare square is a pawn's push: a pawn capture names its file or says "takes", as in
    // the announcement ("Eva schlägt David fünf"), so that no capture happens unasked. A
    // pawn that names its file without a from-square captures ("ed5"): "b b4" is no push.
    let pawn_kind = pawn_kind(reading);
    let captures_asked: Vec<Move> = candidates
        .iter()
        .filter(|m| m.is_capture())
        .copied()
        .collect();
    let candidates: Vec<Move> = match pawn_kind {
        PawnKind::Push => candidates.into_iter().filter(|m| !m.is_capture()).collect(),
        PawnKind::Capture => candidates
            .into_iter()
            .filter(|m| m.role() != Role::Pawn || m.is_capture())
            .collect(),
        PawnKind::Any => candidates,
    };
    if candidates.is_empty() && pawn_kind == PawnKind::Push && !captures_asked.is_empty() {
        return Err(ParseError::CaptureNotSaid {
            to,
            captures: captures_asked,
        });
    }
    // A capture mark narrows the choice but is not required; a player's mark on a square
    // where nothing can be taken is refused.
    let captures: Vec<Move> = candidates
        .iter()
        .filter(|m| m.is_capture())
        .copied()
        .collect();
    if marks == Marks::Held && reading.capture && captures.is_empty() && !candidates.is_empty() {
        return Err(ParseError::NothingToTake(to));
    }
    let pool = if reading.capture && !captures.is_empty() {
        captures
    } else {
        candidates
    };
    if pool.is_empty() {
        return Err(ParseError::Illegal(explain(
            pos, reading, role, to, pawn_kind,
        )));
    }
    let chosen = by_promotion(pool, reading.promotion)?;
    match chosen.as_slice() {
        [one] => Ok(*one),
        [] => Err(ParseError::Illegal(Illegal::NotAMove)),
        many => Err(ParseError::Illegal(Illegal::Ambiguous(many.to_vec()))),
    }
}

/// A reading of castling (one side, or either): the castling move, or why not; `None` for
/// any other reading.
fn resolve_castling(
    reading: &Reading,
    pos: &Chess,
    legal: &MoveList,
) -> Option<Result<Move, ParseError>> {
    if let Some(side) = reading.castle {
        return Some(
            legal
                .iter()
                .find(|m| m.castling_side() == Some(side))
                .copied()
                .ok_or_else(|| ParseError::Illegal(explain_castling(pos, side))),
        );
    }
    if !reading.castle_either {
        return None;
    }
    let castlings: Vec<&Move> = legal.iter().filter(|m| m.is_castle()).collect();
    Some(match castlings.as_slice() {
        [one] => Ok(**one),
        [] => Err(ParseError::NoCastling(
            explain_castling(pos, CastlingSide::KingSide),
            explain_castling(pos, CastlingSide::QueenSide),
        )),
        _ => Err(ParseError::WhichCastling),
    })
}

/// The legal moves to `to` that fit what the reading names: the piece, the from-square, its
/// file or rank.
fn fitting_moves(
    reading: &Reading,
    legal: &MoveList,
    to: Square,
    role: Option<Role>,
    turn: Color,
) -> Vec<Move> {
    legal
        .iter()
        .filter(|m| {
            let target_fits = destination(m, turn) == to
                // Chess960 coordinates: the king "takes" its own rook.
                || (m.is_castle() && reading.from.is_some() && m.to() == to);
            target_fits
                && reading.from.is_none_or(|f| m.from() == Some(f))
                && role.is_none_or(|r| m.role() == r)
                && reading.from_file.is_none_or(|f| m.from().is_some_and(|s| s.file() == f))
                && reading.from_rank.is_none_or(|r| m.from().is_some_and(|s| s.rank() == r))
                // Castling is understood from a king move only when the king is named or given.
                && (!m.is_castle() || reading.from.is_some() || reading.role == Some(Role::King))
        })
        .copied()
        .collect()
}

/// The moves of a non-empty `pool` with the promotion piece named; without one, a promotion
/// must name it (and several pawns that could promote are ambiguous).
fn by_promotion(pool: Vec<Move>, promotion: Option<Role>) -> Result<Vec<Move>, ParseError> {
    let promotions = pool.iter().filter(|m| m.is_promotion()).count();
    match promotion {
        Some(p) => {
            if promotions == 0 {
                return Err(ParseError::Illegal(Illegal::NotAPromotion));
            }
            Ok(pool
                .into_iter()
                .filter(|m| m.promotion() == Some(p))
                .collect())
        }
        None if promotions == pool.len() => {
            let first = (pool[0].from(), pool[0].to());
            if pool.iter().all(|m| (m.from(), m.to()) == first) {
                return Err(ParseError::Illegal(Illegal::PromotionMissing));
            }
            // Several pawns could promote: ask which move, then the piece.
            let queens: Vec<Move> = pool
                .iter()
                .filter(|m| m.promotion() == Some(Role::Queen))
                .copied()
                .collect();
            Err(ParseError::Illegal(Illegal::Ambiguous(queens)))
        }
        None => Ok(pool),
    }
}

/// Which pawn moves a reading can mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PawnKind {
    /// A bare square: pushes only.
    Push,
    /// A file without a from-square: captures only.
    Capture,
    Any,
}

fn pawn_kind(reading: &Reading) -> PawnKind {
    if reading.role.is_some() || reading.from.is_some() {
        PawnKind::Any
    } else if reading.from_file.is_some() {
        PawnKind::Capture
    } else if reading.capture {
        PawnKind::Any
    } else {
        PawnKind::Push
    }
}

/// Why no legal move fits the reading.
fn explain(
    pos: &Chess,
    reading: &Reading,
    role: Option<Role>,
    to: Square,
    pawn_kind: PawnKind,
) -> Illegal {
    let role = role
        .or_else(|| reading.from.and_then(|f| pos.board().role_at(f)))
        .unwrap_or(Role::Pawn);
    let mut movers = geometric_movers(pos, role, to);
    // A pawn's push stays on its file, a capture leaves it.
    if role == Role::Pawn {
        let file = shakmaty::Bitboard::from_file(to.file());
        match pawn_kind {
            PawnKind::Push => movers &= file,
            PawnKind::Capture => movers &= !file,
            PawnKind::Any => {}
        }
    }
    if let Some(from) = reading.from {
        movers &= shakmaty::Bitboard::from_square(from);
    }
    if let Some(f) = reading.from_file {
        movers &= shakmaty::Bitboard::from_file(f);
    }
    if let Some(r) = reading.from_rank {
        movers &= shakmaty::Bitboard::from_rank(r);
    }
    // A king asked to go two squares along its rank means castling.
    if role == Role::King
        && let Some(king) = pos.board().king_of(pos.turn())
        && king.rank() == to.rank()
        && king.distance(to) == 2
    {
        let side = CastlingSide::from_king_side(to.file() > king.file());
        return explain_castling(pos, side);
    }
    if movers.is_empty() {
        Illegal::NoPieceCanReach { role, to }
    } else if pos.is_check() {
        Illegal::IgnoresCheck
    } else {
        Illegal::LeavesKingInCheck
    }
}

/// The error as a sentence in `lang`, to be spoken and printed.
pub fn message(err: &ParseError, pos: &Chess, lang: &Language) -> String {
    let m = &lang.messages;
    match err {
        ParseError::Empty => m.empty.clone(),
        ParseError::UnknownWord(w) => unknown_word_message(w, lang),
        ParseError::NoSquare => m.no_square.clone(),
        ParseError::TooManySquares => m.too_many_squares.clone(),
        ParseError::NoPieceOn(sq) => fill(&m.no_piece_on, &[("square", &lang.square(*sq))]),
        ParseError::CaptureNotSaid { to, captures } => {
            let sep = format!(" {} ", m.or);
            let phrases: Vec<String> = captures
                .iter()
                .map(|mv| announce(pos, *mv, lang, Form::Short))
                .collect();
            fill(
                &m.capture_not_said,
                &[
                    ("square", &lang.square(*to)),
                    ("moves", &phrases.join(&sep)),
                ],
            )
        }
        ParseError::WhichCastling => m.which_castling.clone(),
        ParseError::NoCastling(short, long) => format!(
            "{}. {}",
            illegal_message(short, pos, lang),
            illegal_message(long, pos, lang)
        ),
        ParseError::Illegal(illegal) => illegal_message(illegal, pos, lang),
        ParseError::NothingToTake(to) => fill(&m.nothing_to_take, &[("square", &lang.square(*to))]),
    }
}

/// "Unbekanntes Wort: Springa. Meinten Sie Springer?": the nearest known words, if any are
/// near, so that a typo is named and nothing is guessed.
pub(crate) fn unknown_word_message(word: &str, lang: &Language) -> String {
    // Control characters the player typed are shown, never sent to the terminal.
    let text = fill(
        &lang.messages.unknown_word,
        &[("word", &super::printable(word))],
    );
    let near = super::vocabulary::nearest_words(word, lang);
    if near.is_empty() {
        return text;
    }
    let sep = format!(" {} ", lang.messages.or);
    format!(
        "{text}. {}",
        fill(&lang.messages.did_you_mean, &[("words", &near.join(&sep))])
    )
}

/// An [`Illegal`] reason in `lang`.
pub(crate) fn illegal_message(illegal: &Illegal, pos: &Chess, lang: &Language) -> String {
    let m = &lang.messages;
    match illegal {
        Illegal::NotAMove => m.not_a_move.clone(),
        Illegal::NullMove => m.null_move.clone(),
        Illegal::GameOver => m.game_over.clone(),
        Illegal::NoPieceCanReach { role, to } => fill(
            &m.cannot_reach,
            &[
                (
                    "none",
                    &lang.pieces.none[super::language::role_index(*role)],
                ),
                ("square", &lang.square(*to)),
            ],
        ),
        Illegal::LeavesKingInCheck => m.leaves_king_in_check.clone(),
        Illegal::IgnoresCheck => m.ignores_check.clone(),
        Illegal::Ambiguous(moves) => {
            let sep = format!(" {} ", m.or);
            let phrases: Vec<String> = moves
                .iter()
                .map(|mv| announce(pos, *mv, lang, Form::Short))
                .collect();
            fill(&m.ambiguous, &[("moves", &phrases.join(&sep))])
        }
        Illegal::PromotionMissing => m.which_promotion.clone(),
        Illegal::NotAPromotion => m.not_a_promotion.clone(),
        Illegal::BadPromotionPiece => m.bad_promotion.clone(),
        Illegal::Castling(side, block) => {
            let template = match block {
                CastlingBlock::NoRight => &m.castling_no_right,
                CastlingBlock::PathBlocked => &m.castling_blocked,
                CastlingBlock::InCheck => &m.castling_in_check,
                CastlingBlock::Attacked => &m.castling_attacked,
            };
            capitalized(&fill(
                template,
                &[("castling", castling_words(lang, *side))],
            ))
        }
    }
}
