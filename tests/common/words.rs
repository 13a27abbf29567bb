//! The words of the spoken notation, written here for the tests from their sources and not
//! taken from hector's tables (assets/lang): German from the FIDE Laws, Appendix D
//! (/work/shared/seeds, the 2014 text: Anna … Hector, eins … acht, König … Bauer, Kurze and
//! Lange Rochade, schlägt); English from the agreed spoken-notation table; Spanish, French and
//! Dutch from the federations' translations of Appendix D that the language files name as
//! their sources (FEDA's "Leyes del Ajedrez", the FFE's rules for blind players, the KNSB's
//! "FIDE-Regels voor het Schaakspel"). A wrong word shared by hector's table and a test that
//! read that table could not be seen; against these it is.
#![allow(
    dead_code,
    reason = "each test binary uses its own part of the helpers"
)]

use shakmaty::san::San;
use shakmaty::{Chess, Color, Move, Position, Role, Square};

/// One language's words for squares, pieces and castling.
pub struct Words {
    pub code: &'static str,
    pub files: [&'static str; 8],
    pub ranks: [&'static str; 8],
    /// King, queen, rook, bishop, knight, pawn.
    pub pieces: [&'static str; 6],
    pub short_castling: &'static str,
    pub long_castling: &'static str,
    pub takes: &'static str,
    pub yes: &'static str,
    pub no: &'static str,
    /// The scoresheet's letters (Appendix C) for king, queen, rook, bishop, knight.
    pub letters: [char; 5],
    /// The sides, as a sentence names them ("Weiß", "las blancas": compared without case).
    pub white: &'static str,
    pub black: &'static str,
}

pub const DE: Words = Words {
    code: "de",
    files: [
        "Anna", "Bella", "Cäsar", "David", "Eva", "Felix", "Gustav", "Hector",
    ],
    ranks: [
        "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht",
    ],
    pieces: ["König", "Dame", "Turm", "Läufer", "Springer", "Bauer"],
    short_castling: "Kurze Rochade",
    long_castling: "Lange Rochade",
    takes: "schlägt",
    yes: "ja",
    no: "nein",
    letters: ['K', 'D', 'T', 'L', 'S'],
    white: "Weiß",
    black: "Schwarz",
};

pub const EN: Words = Words {
    code: "en",
    files: [
        "Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector",
    ],
    ranks: [
        "one", "two", "three", "four", "five", "six", "seven", "eight",
    ],
    pieces: ["King", "Queen", "Rook", "Bishop", "Knight", "Pawn"],
    short_castling: "short castling",
    long_castling: "long castling",
    takes: "takes",
    yes: "yes",
    no: "no",
    letters: ['K', 'Q', 'R', 'B', 'N'],
    white: "White",
    black: "Black",
};

pub const ES: Words = Words {
    code: "es",
    files: [
        "Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector",
    ],
    ranks: [
        "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho",
    ],
    pieces: ["Rey", "Dama", "Torre", "Alfil", "Caballo", "Peón"],
    short_castling: "enroque corto",
    long_castling: "enroque largo",
    takes: "captura",
    yes: "sí",
    no: "no",
    letters: ['R', 'D', 'T', 'A', 'C'],
    white: "blancas",
    black: "negras",
};

pub const FR: Words = Words {
    code: "fr",
    files: [
        "Anna", "Bella", "César", "David", "Eva", "Felix", "Gustav", "Hector",
    ],
    ranks: [
        "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit",
    ],
    pieces: ["Roi", "Dame", "Tour", "Fou", "Cavalier", "Pion"],
    short_castling: "petit roque",
    long_castling: "grand roque",
    takes: "prend",
    yes: "oui",
    no: "non",
    letters: ['R', 'D', 'T', 'F', 'C'],
    white: "blancs",
    black: "noirs",
};

pub const NL: Words = Words {
    code: "nl",
    files: [
        "Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector",
    ],
    ranks: [
        "een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht",
    ],
    pieces: ["Koning", "Dame", "Toren", "Loper", "Paard", "Pion"],
    short_castling: "korte rochade",
    long_castling: "lange rochade",
    takes: "slaat",
    yes: "ja",
    no: "nee",
    letters: ['K', 'D', 'T', 'L', 'P'],
    white: "wit",
    black: "zwart",
};

pub fn of(code: &str) -> &'static Words {
    match code {
        "de" => &DE,
        "es" => &ES,
        "fr" => &FR,
        "nl" => &NL,
        _ => &EN,
    }
}

fn role_index(role: Role) -> usize {
    match role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    }
}

const ROLES: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

impl Words {
    /// "Felix drei".
    pub fn square(&self, sq: Square) -> String {
        format!(
            "{} {}",
            self.files[usize::from(sq.file())],
            self.ranks[usize::from(sq.rank())]
        )
    }

    pub fn piece(&self, role: Role) -> &'static str {
        self.pieces[role_index(role)]
    }

    /// A move said the short way a player says it (the spoken notation's short form, after
    /// SAN): the piece (none for a pawn), the file or rank that tells it from another, the
    /// capture's word, the target square, a promotion's piece; castling by its name.
    pub fn short(&self, pos: &Chess, m: Move) -> String {
        match San::from_move(pos, m) {
            San::Castle(shakmaty::CastlingSide::KingSide) => self.short_castling.to_string(),
            San::Castle(shakmaty::CastlingSide::QueenSide) => self.long_castling.to_string(),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let mut words = Vec::new();
                if role != Role::Pawn {
                    words.push(self.piece(role).to_string());
                }
                if let Some(f) = file {
                    words.push(self.files[usize::from(f)].to_string());
                }
                if let Some(r) = rank {
                    words.push(self.ranks[usize::from(r)].to_string());
                }
                if capture {
                    words.push(self.takes.to_string());
                }
                words.push(self.square(to));
                if let Some(p) = promotion {
                    words.push(self.piece(p).to_string());
                }
                words.join(" ")
            }
            San::Put { .. } | San::Null => String::new(),
        }
    }

    /// A move as the scoresheet writes it in this language: SAN with the language's letters.
    pub fn san(&self, pos: &Chess, m: Move) -> String {
        let english = San::from_move(pos, m).to_string();
        english
            .chars()
            .map(|c| match "KQRBN".find(c) {
                Some(i) => self.letters[i],
                None => c,
            })
            .collect()
    }
}

/// German: a piece on a square as the answer to `feld` names it ("schwarzer Bauer"), with
/// the adjective's ending of the piece's gender.
pub fn de_piece_on(color: Color, role: Role) -> String {
    let feminine = role == Role::Queen;
    let adjective = match (color, feminine) {
        (Color::White, false) => "weißer",
        (Color::White, true) => "weiße",
        (Color::Black, false) => "schwarzer",
        (Color::Black, true) => "schwarze",
    };
    format!("{adjective} {}", DE.piece(role))
}

/// German: the answer to `feld SQ` in `pos` ("Felix sieben: schwarzer Bauer", "Gustav vier:
/// leer").
pub fn de_square_answer(pos: &Chess, sq: Square) -> String {
    let what = match pos.board().piece_at(sq) {
        Some(p) => de_piece_on(p.color, p.role),
        None => "leer".to_string(),
    };
    format!("{}: {what}", DE.square(sq))
}

/// The move a phrase in `words` names in `pos`, read as a player reads it: castling by its
/// name; otherwise the last square named is the target, a piece's name before it the piece
/// (none: a pawn), a file or a square named before the target where it came from, a piece's
/// name after the target the promotion. `None` unless exactly one legal move fits.
pub fn read_move(pos: &Chess, words: &Words, phrase: &str) -> Option<Move> {
    let lower = phrase.to_lowercase();
    let legal = pos.legal_moves();
    for (name, side) in [
        (words.short_castling, shakmaty::CastlingSide::KingSide),
        (words.long_castling, shakmaty::CastlingSide::QueenSide),
    ] {
        if lower.contains(&name.to_lowercase()) {
            let found: Vec<&Move> = legal
                .iter()
                .filter(|m| m.castling_side() == Some(side))
                .collect();
            return (found.len() == 1).then(|| *found[0]);
        }
    }
    let tokens: Vec<String> = lower
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect();
    let file_of = |t: &str| {
        words
            .files
            .iter()
            .position(|f| f.to_lowercase() == t)
            .and_then(|i| shakmaty::File::try_from(i as u32).ok())
    };
    let rank_of = |t: &str| {
        words
            .ranks
            .iter()
            .position(|r| r.to_lowercase() == t)
            .and_then(|i| shakmaty::Rank::try_from(i as u32).ok())
    };
    let role_of = |t: &str| {
        words
            .pieces
            .iter()
            .position(|p| p.to_lowercase() == t)
            .map(|i| ROLES[i])
    };
    // Squares, lone files and pieces in the order said.
    enum Part {
        Square(Square),
        File(shakmaty::File),
        Rank(shakmaty::Rank),
        Piece(Role),
    }
    let mut parts = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if let Some(f) = file_of(t) {
            if let Some(r) = tokens.get(i + 1).and_then(|n| rank_of(n)) {
                parts.push(Part::Square(Square::from_coords(f, r)));
                i += 2;
                continue;
            }
            parts.push(Part::File(f));
        } else if let Some(r) = rank_of(t) {
            parts.push(Part::Rank(r));
        } else if let Some(role) = role_of(t) {
            parts.push(Part::Piece(role));
        }
        i += 1;
    }
    let target_at = parts.iter().rposition(|p| matches!(p, Part::Square(_)))?;
    let Part::Square(to) = parts[target_at] else {
        return None;
    };
    let before = &parts[..target_at];
    let role = before
        .iter()
        .find_map(|p| match p {
            Part::Piece(r) => Some(*r),
            _ => None,
        })
        .unwrap_or(Role::Pawn);
    let promotion = parts[target_at + 1..].iter().find_map(|p| match p {
        Part::Piece(r) => Some(*r),
        _ => None,
    });
    let found: Vec<&Move> = legal
        .iter()
        .filter(|m| m.role() == role && m.to() == to && m.promotion() == promotion)
        .filter(|m| {
            before.iter().all(|p| match p {
                Part::Square(s) => m.from() == Some(*s),
                Part::File(f) => m.from().is_some_and(|s| s.file() == *f),
                Part::Rank(r) => m.from().is_some_and(|s| s.rank() == *r),
                Part::Piece(_) => true,
            })
        })
        .collect();
    (found.len() == 1).then(|| *found[0])
}

/// A line of moves said one after another, each labelled with its number and side ("Zug 3,
/// Schwarz: Gustav sechs; Zug 4, Weiß: Dame Felix drei; Schwarz: Springer Felix sechs"),
/// played from `pos`: the position at its end and the moves; `None` when a part names no
/// one legal move.
pub fn play_line(pos: &Chess, words: &Words, line: &str) -> Option<(Chess, Vec<Move>)> {
    let mut pos = pos.clone();
    let mut moves = Vec::new();
    let parts = line.split(';').flat_map(|said| {
        // "Zug 4, Weiß: Dame Felix drei": the label before the colon goes.
        let said = said.rsplit_once(':').map_or(said, |(_, m)| m);
        said.split(", ")
    });
    for part in parts {
        let part = part.trim();
        // Check and mate are said after the move.
        if ["Schach", "Schachmatt", "check", "checkmate"].contains(&part) {
            continue;
        }
        let m = read_move(&pos, words, part)?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Some((pos, moves))
}

/// The tests' blunder game (tests/data/blunder.pgn, and the games the tests play) before
/// Black's 3... Nf6??: 1. e4 e5 2. Qh5 Nc6 3. Bc4, Black to move, mate on f7 threatened.
pub fn before_blunder() -> Chess {
    let mut pos = Chess::default();
    for san in ["e4", "e5", "Qh5", "Nc6", "Bc4"] {
        let m = san
            .parse::<San>()
            .ok()
            .and_then(|s| s.to_move(&pos).ok())
            .unwrap_or_else(|| panic!("{san} is legal"));
        pos.play_unchecked(m);
    }
    pos
}

/// Whether Black's `m` in [`before_blunder`] keeps the game, the only thing a test can ask
/// of whatever move an engine prefers (g6, Qe7, Qf6, Nh6, …): it is not the blunder Nf6,
/// and White has no mate in one after it.
pub fn holds_before_blunder(m: Move) -> bool {
    let pos = before_blunder();
    if !pos.is_legal(m) || (m.role() == Role::Knight && m.to() == Square::F6) {
        return false;
    }
    let mut after = pos;
    after.play_unchecked(m);
    !after.legal_moves().iter().any(|reply| {
        let mut mated = after.clone();
        mated.play_unchecked(*reply);
        mated.is_checkmate()
    })
}

/// The move `said` in [`before_blunder`] (its words, a label before a colon allowed), read
/// with `words`, when it keeps the game; the reason otherwise.
pub fn better_than_blunder(words: &Words, said: &str) -> Result<Move, String> {
    let said = said.rsplit_once(':').map_or(said, |(_, m)| m).trim();
    let m = read_move(&before_blunder(), words, said)
        .ok_or_else(|| format!("{said:?} is no move of Black's before the blunder"))?;
    if holds_before_blunder(m) {
        Ok(m)
    } else {
        Err(format!("{said:?} does not keep the game"))
    }
}
