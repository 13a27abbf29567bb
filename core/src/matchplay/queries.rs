//! Answers to questions about the position, in the Appendix D words. Pure: a position or a
//! game in, sentences out.

use shakmaty::{Bitboard, Board, Chess, Color, File, Move, Piece, Position, Rank, Role, Square};

use super::values::{counted_pieces, value};
use crate::game::Game;
use crate::notation::describe::describe_square;
use crate::notation::language::{Language, TABLE_ROLES, capitalized, fill, role_index};
use crate::notation::speak::{Form, announce, announce_san, announce_san_taking};
use crate::notation::transcript::{BETWEEN_SIDES, NO_WHITE_MOVE};
use crate::notation::wording::{Order, Wording};
use crate::outcome::GameResult;

fn colored_list(board: &Board, squares: Bitboard, lang: &Language, w: &Wording) -> String {
    squares
        .into_iter()
        .filter_map(|sq| {
            board
                .piece_at(sq)
                .map(|p| w.piece_on(p, sq, Order::SquareFirst, false, lang))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn line_or_empty(text: String, lang: &Language) -> String {
    if text.is_empty() {
        lang.play.empty_line.clone()
    } else {
        text
    }
}

/// The whole board, one sentence per rank, from the eighth rank down (from the first rank
/// up when seen from Black's side).
pub fn board(pos: &Chess, from: Color, lang: &Language, w: &Wording) -> Vec<String> {
    let ranks: Vec<Rank> = match from {
        Color::White => Rank::ALL.into_iter().rev().collect(),
        Color::Black => Rank::ALL.into_iter().collect(),
    };
    ranks.into_iter().map(|r| rank(pos, r, lang, w)).collect()
}

pub(crate) fn rank(pos: &Chess, r: Rank, lang: &Language, w: &Wording) -> String {
    let squares = colored_list(pos.board(), Bitboard::from_rank(r), lang, w);
    fill(
        &lang.play.rank,
        &[
            ("rank", lang.rank(r)),
            ("squares", &line_or_empty(squares, lang)),
        ],
    )
}

pub(crate) fn file(pos: &Chess, f: File, lang: &Language, w: &Wording) -> String {
    let squares = colored_list(pos.board(), Bitboard::from_file(f), lang, w);
    fill(
        &lang.play.file,
        &[
            ("file", lang.file(f)),
            ("squares", &line_or_empty(squares, lang)),
        ],
    )
}

/// The two diagonals through a square, each named by its ends (a diagonal of one square is
/// left out).
pub(crate) fn diagonals(pos: &Chess, sq: Square, lang: &Language, w: &Wording) -> Vec<String> {
    let mut out = Vec::new();
    for (df, dr) in [(1i32, 1i32), (1, -1)] {
        let mut line: Vec<Square> = vec![sq];
        for dir in [1i32, -1] {
            let mut cur = sq;
            while let Some(next) = step(cur, df * dir, dr * dir) {
                line.push(next);
                cur = next;
            }
        }
        if line.len() < 2 {
            continue;
        }
        line.sort_by_key(|s| (s.file(), s.rank()));
        let bits: Bitboard = line.iter().copied().collect();
        let (Some(first), Some(last)) = (line.first(), line.last()) else {
            continue;
        };
        let squares = colored_list(pos.board(), bits, lang, w);
        out.push(fill(
            &lang.play.diagonal,
            &[
                ("from", &lang.square(*first)),
                ("to", &lang.square(*last)),
                ("squares", &line_or_empty(squares, lang)),
            ],
        ));
    }
    out
}

fn step(sq: Square, df: i32, dr: i32) -> Option<Square> {
    let f = i32::from(sq.file()) + df;
    let r = i32::from(sq.rank()) + dr;
    ((0..8).contains(&f) && (0..8).contains(&r))
        .then(|| Square::from_coords(File::new(f as u32), Rank::new(r as u32)))
}

/// One square: "Felix drei: weißer Springer".
pub(crate) fn square(pos: &Chess, sq: Square, lang: &Language, w: &Wording) -> String {
    match pos.board().piece_at(sq) {
        Some(piece) => w.square_alone(piece, sq, lang),
        None => describe_square(pos.board(), sq, lang),
    }
}

/// Where the pieces stand at the start of a game that does not begin from the usual
/// position: a Chess960 array as White's back rank from Anna to Hector (Black's mirrors it),
/// any other position as each side's pieces. `None` for the usual start.
pub(crate) fn start_position(start: &Chess, lang: &Language) -> Option<String> {
    if *start == Chess::default() {
        return None;
    }
    let board = start.board();
    let rank = |r: Rank| -> Vec<Option<Piece>> {
        File::ALL
            .iter()
            .map(|&f| board.piece_at(Square::from_coords(f, r)))
            .collect()
    };
    let white_back = rank(Rank::First);
    let black_back = rank(Rank::Eighth);
    let mirrored = white_back
        .iter()
        .zip(&black_back)
        .all(|(w, b)| matches!((w, b), (Some(w), Some(b)) if w.color == Color::White && b.color == Color::Black && w.role == b.role));
    let pawns = |r: Rank, c: Color| {
        rank(r).iter().all(|p| {
            *p == Some(Piece {
                color: c,
                role: Role::Pawn,
            })
        })
    };
    let only_those = board.occupied().count() == 32;
    if mirrored
        && pawns(Rank::Second, Color::White)
        && pawns(Rank::Seventh, Color::Black)
        && only_those
    {
        let names: Vec<&str> = white_back
            .iter()
            .flatten()
            .map(|p| lang.piece(p.role))
            .collect();
        return Some(fill(
            &lang.play.start_back_rank,
            &[("pieces", &names.join(", "))],
        ));
    }
    let mut sides = Vec::new();
    for color in Color::ALL {
        sides.extend(pieces(start, Some(color), None, lang));
    }
    Some(fill(
        &lang.play.start_pieces,
        &[("pieces", &sides.join(". "))],
    ))
}

/// The pieces of one side or both, of one kind or all.
pub(crate) fn pieces(
    pos: &Chess,
    color: Option<Color>,
    role: Option<Role>,
    lang: &Language,
) -> Vec<String> {
    let board = pos.board();
    let colors: Vec<Color> = color.map_or_else(|| Color::ALL.to_vec(), |c| vec![c]);
    let mut out = Vec::new();
    for c in colors {
        match role {
            None => out.push(crate::notation::describe::describe_side(board, c, lang)),
            Some(r) => {
                let squares: Vec<String> = (board.by_color(c) & board.by_role(r))
                    .into_iter()
                    .map(|sq| lang.square(sq))
                    .collect();
                let label = pieces_label(c, r, squares.len(), lang);
                out.push(if squares.is_empty() {
                    fill(&lang.play.pieces_none, &[("pieces", &label)])
                } else {
                    fill(
                        &lang.play.pieces_of,
                        &[("pieces", &label), ("squares", &squares.join(", "))],
                    )
                });
            }
        }
    }
    out
}

/// "Weißer König" for one piece, "Weiße Springer" for none or several.
fn pieces_label(color: Color, role: Role, count: usize, lang: &Language) -> String {
    if count == 1 {
        return capitalized(lang.colored_piece(color, role));
    }
    match color {
        Color::White => lang.play.white_plural[role_index(role)].clone(),
        Color::Black => lang.play.black_plural[role_index(role)].clone(),
    }
}

/// Pieces of one side: their colour is clear from the sentence that names the side.
fn pieces_with_squares(board: &Board, bits: Bitboard, lang: &Language, w: &Wording) -> String {
    bits.into_iter()
        .filter_map(|sq| {
            board
                .piece_at(sq)
                .map(|p| w.piece_on(p, sq, Order::PieceFirst, true, lang))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Who attacks and who defends a square. For an occupied square, attackers are the other
/// side's pieces that bear on it and defenders the owner's; for an empty one, both sides'.
pub(crate) fn attacks_on(pos: &Chess, sq: Square, lang: &Language, w: &Wording) -> String {
    let board = pos.board();
    let occupied = board.occupied();
    let by = |c: Color| board.attacks_to(sq, c, occupied);
    match board.piece_at(sq) {
        Some(piece) => {
            let attackers = by(!piece.color);
            let defenders = by(piece.color);
            let name = |bits: Bitboard| {
                if bits.is_empty() {
                    lang.play.none.clone()
                } else {
                    pieces_with_squares(board, bits, lang, w)
                }
            };
            format!(
                "{}; {}; {}",
                w.square_alone(piece, sq, lang),
                fill(&lang.play.attacked_by, &[("pieces", &name(attackers))]),
                fill(&lang.play.defended_by, &[("pieces", &name(defenders))]),
            )
        }
        None => {
            let parts: Vec<String> = Color::ALL
                .into_iter()
                .filter(|c| by(*c).any())
                .map(|c| {
                    fill(
                        &lang.play.attacks_empty,
                        &[
                            ("color", lang.color(c)),
                            ("pieces", &pieces_with_squares(board, by(c), lang, w)),
                        ],
                    )
                })
                .collect();
            if parts.is_empty() {
                fill(&lang.play.nobody_attacks, &[("square", &lang.square(sq))])
            } else {
                format!("{}: {}", lang.square(sq), parts.join("; "))
            }
        }
    }
}

/// Every piece each side attacks: "Weiß greift an: schwarzer Bauer Eva fünf; Schwarz greift
/// an: keine".
pub(crate) fn threats(pos: &Chess, lang: &Language, w: &Wording) -> String {
    let board = pos.board();
    let occupied = board.occupied();
    Color::ALL
        .into_iter()
        .map(|c| {
            let targets: Bitboard = board
                .by_color(!c)
                .into_iter()
                .filter(|&sq| board.attacks_to(sq, c, occupied).any())
                .collect();
            let pieces = if targets.is_empty() {
                lang.play.none.clone()
            } else {
                pieces_with_squares(board, targets, lang, w)
            };
            fill(
                &lang.play.attacks_empty,
                &[("color", lang.color(c)), ("pieces", &pieces)],
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// "Springer Bella acht: Anna sechs, Cäsar sechs; Springer Gustav acht: Felix sechs, Hector
/// sechs": every piece of that kind of the side to move, from its square, with where it can
/// go.
pub(crate) fn piece_moves(pos: &Chess, role: Role, lang: &Language) -> String {
    let us = pos.turn();
    let squares = pos.board().by_color(us) & pos.board().by_role(role);
    if squares.is_empty() {
        let label = pieces_label(us, role, 0, lang);
        return fill(&lang.play.pieces_none, &[("pieces", &label)]);
    }
    let legal = pos.legal_moves();
    squares
        .into_iter()
        .map(|sq| {
            let mine: Vec<Move> = legal
                .iter()
                .filter(|m| m.from() == Some(sq))
                .copied()
                .collect();
            let targets = grouped_targets(pos, &mine, lang);
            let moves = if targets.is_empty() {
                lang.play.no_moves.clone()
            } else {
                targets.join(", ")
            };
            fill(
                &lang.play.moves_of,
                &[
                    ("piece", lang.piece(role)),
                    ("square", &lang.square(sq)),
                    ("moves", &moves),
                ],
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Where the moves of one piece go; the promotions on one square are said once, with the
/// pieces together: "Anna acht, Umwandlung in Dame, Turm, Läufer oder Springer". Pieces that
/// give check (or mate) where the others do not are said apart, each group with its word.
fn grouped_targets(pos: &Chess, moves: &[Move], lang: &Language) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut done: Vec<(Option<Square>, Square)> = Vec::new();
    for m in moves {
        if m.promotion().is_none() {
            out.push(target_words(pos, *m, lang));
            continue;
        }
        let key = (m.from(), m.to());
        if done.contains(&key) {
            continue;
        }
        done.push(key);
        // The promotions of this pawn to this square, grouped by what follows them.
        let mut groups: Vec<(String, Vec<Role>)> = Vec::new();
        for p in moves
            .iter()
            .filter(|o| (o.from(), o.to()) == key && o.promotion().is_some())
        {
            let Some(role) = p.promotion() else {
                continue;
            };
            let suffix = after_words(pos, *p, lang);
            match groups.iter_mut().find(|(s, _)| *s == suffix) {
                Some((_, roles)) => roles.push(role),
                None => groups.push((suffix, vec![role])),
            }
        }
        let mut text = String::new();
        if m.is_capture() {
            text.push_str(&lang.moves.capture);
            text.push(' ');
        }
        text.push_str(&lang.square(m.to()));
        for (suffix, roles) in groups {
            let names: Vec<&str> = roles.iter().map(|r| lang.piece(*r)).collect();
            let pieces = match names.split_last() {
                Some((last, rest)) if !rest.is_empty() => {
                    format!("{} {} {last}", rest.join(", "), lang.messages.or)
                }
                _ => names.concat(),
            };
            text.push_str(", ");
            text.push_str(&fill(&lang.moves.promotion, &[("piece", &pieces)]));
            text.push_str(&suffix);
        }
        out.push(text);
    }
    out
}

/// ", Schach" or ", Matt" after a move that gives it; nothing otherwise.
fn after_words(pos: &Chess, m: Move, lang: &Language) -> String {
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_checkmate() {
        format!(", {}", lang.moves.mate)
    } else if after.is_check() {
        format!(", {}", lang.moves.check)
    } else {
        String::new()
    }
}

/// Where a move goes, its piece already named: "Felix drei", "schlägt Eva fünf", "Eva acht,
/// Umwandlung in Dame", "Kurze Rochade", with check or mate as a move says them.
fn target_words(pos: &Chess, m: Move, lang: &Language) -> String {
    let mut out = String::new();
    if let Some(side) = m.castling_side() {
        out.push_str(crate::notation::speak::castling_words(lang, side));
    } else {
        if m.is_capture() {
            out.push_str(&lang.moves.capture);
            out.push(' ');
        }
        out.push_str(&lang.square(m.to()));
        if m.is_en_passant() {
            out.push(' ');
            out.push_str(&lang.moves.en_passant);
        }
        if let Some(p) = m.promotion() {
            out.push_str(", ");
            out.push_str(&fill(&lang.moves.promotion, &[("piece", lang.piece(p))]));
        }
    }
    out.push_str(&after_words(pos, m, lang));
    out
}

/// The legal moves of the piece on a square, or of every piece of the side to move.
pub(crate) fn moves(pos: &Chess, from: Option<Square>, lang: &Language, form: Form) -> String {
    let legal = pos.legal_moves();
    let say = |ms: &[&Move]| -> String {
        ms.iter()
            .map(|m| announce(pos, **m, lang, form))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match from {
        Some(sq) => {
            let Some(piece) = pos.board().piece_at(sq) else {
                return fill(&lang.play.no_piece, &[("square", &lang.square(sq))]);
            };
            // An opponent's piece: what it could do were it the opponent's turn.
            if piece.color != pos.turn()
                && let Some(text) = super::dangers::could(pos, sq, lang, form)
            {
                return text;
            }
            if piece.color != pos.turn() {
                return fill(
                    &lang.play.not_to_move,
                    &[("color", lang.color(piece.color))],
                );
            }
            let mine: Vec<&Move> = legal.iter().filter(|m| m.from() == Some(sq)).collect();
            let list = if mine.is_empty() {
                lang.play.no_moves.clone()
            } else {
                say(&mine)
            };
            fill(
                &lang.play.moves_of,
                &[
                    // The answer begins with the piece: a capital, as every sentence.
                    (
                        "piece",
                        &capitalized(lang.colored_piece(piece.color, piece.role)),
                    ),
                    ("square", &lang.square(sq)),
                    ("moves", &list),
                ],
            )
        }
        None => {
            let all: Vec<&Move> = legal.iter().collect();
            let forms = &lang.play.all_moves;
            fill(
                if all.len() == 1 { &forms[0] } else { &forms[1] },
                &[("count", &all.len().to_string()), ("moves", &say(&all))],
            )
        }
    }
}

/// "Zuletzt: Zug 12, Schwarz: Springer Felix sechs".
pub(crate) fn last_move(game: &Game, lang: &Language, form: Form) -> String {
    last_move_at(game, game.ply(), lang, form)
}

/// The move that led to the position after `ply` half-moves (looking back: the last move of
/// the position looked at).
pub(crate) fn last_move_at(game: &Game, ply: usize, lang: &Language, form: Form) -> String {
    let Some(last) = ply.checked_sub(1).and_then(|i| game.moves().get(i)) else {
        return lang.play.no_last_move.clone();
    };
    let before = game.position_at(ply - 1).unwrap_or(game.start());
    fill(
        &lang.play.last_move,
        &[
            ("number", &before.fullmoves().get().to_string()),
            ("color", lang.color(before.turn())),
            // The piece taken is named: "Springer schlägt Bauer auf Felix fünf".
            ("move", &announce_san_taking(last.san, last.mv, lang, form)),
        ],
    )
}

/// "Weiß ist am Zug" (with "Schach" when in check); in a mated or stalemated position, how
/// the game ended there: nobody is to move ("Partie beendet: Schachmatt. Schwarz gewinnt").
pub fn turn(pos: &Chess, lang: &Language) -> String {
    let ended = |how: usize, result| {
        fill(
            &lang.play.game_over,
            &[
                ("how", &lang.play.how[how]),
                ("result", lang.result(Some(result))),
            ],
        )
    };
    if pos.is_checkmate() {
        return ended(
            0,
            pos.turn()
                .other()
                .fold_wb(GameResult::WhiteWins, GameResult::BlackWins),
        );
    }
    if pos.is_stalemate() {
        return ended(2, GameResult::Draw);
    }
    let text = fill(&lang.play.to_move, &[("color", lang.color(pos.turn()))]);
    if pos.is_check() {
        format!("{text}, {}", lang.play.check)
    } else {
        text
    }
}

/// Material of both sides and who is ahead, by the usual values (9, 5, 3, 3, 1).
pub(crate) fn material(pos: &Chess, lang: &Language) -> Vec<String> {
    let board = pos.board();
    let mut points = [0u32; 2];
    let mut out = Vec::new();
    for (i, c) in Color::ALL.into_iter().enumerate() {
        let count = |role: Role| match role {
            Role::King => 0,
            _ => (board.by_color(c) & board.by_role(role)).count(),
        };
        let parts = counted_pieces(count, lang);
        for role in TABLE_ROLES {
            points[i] += value(role) * count(role) as u32;
        }
        let list = if parts.is_empty() {
            lang.play.only_king.clone()
        } else {
            parts.join(", ")
        };
        out.push(fill(
            &lang.play.material_side,
            &[("color", lang.color(c)), ("pieces", &list)],
        ));
    }
    let (w, b) = (points[0], points[1]);
    out.push(if w == b {
        lang.play.material_even.clone()
    } else {
        let (ahead, diff) = if w > b {
            (Color::White, w - b)
        } else {
            (Color::Black, b - w)
        };
        let forms = &lang.play.points;
        let pts = fill(
            if diff == 1 { &forms[0] } else { &forms[1] },
            &[("n", &diff.to_string())],
        );
        fill(
            &lang.play.material_ahead,
            &[("color", lang.color(ahead)), ("points", &pts)],
        )
    });
    out
}

/// The game's moves from move number `from` (the last five moves when `None`), numbered as on
/// the scoresheet.
pub(crate) fn move_list(game: &Game, from: Option<u32>, lang: &Language, form: Form) -> String {
    let moves = game.moves();
    if moves.is_empty() {
        return lang.play.no_last_move.clone();
    }
    let first_number = game.start().fullmoves().get();
    let number_of = |ply: usize| {
        game.position_at(ply)
            .map_or(first_number, |p| p.fullmoves().get())
    };
    let start_ply = match from {
        Some(n) => (0..moves.len())
            .find(|&ply| number_of(ply) >= n)
            .unwrap_or(moves.len().saturating_sub(1)),
        None => {
            let last_number = number_of(moves.len() - 1);
            (0..moves.len())
                .find(|&ply| number_of(ply) + 4 >= last_number)
                .unwrap_or(0)
        }
    };
    let mut parts: Vec<String> = Vec::new();
    for (ply, played) in moves.iter().enumerate().skip(start_ply) {
        let before = game.position_at(ply).unwrap_or(game.start());
        let phrase = announce_san(played.san, played.mv, lang, form);
        if before.turn() == Color::White {
            parts.push(format!("{}. {phrase}", before.fullmoves()));
        } else if ply == start_ply {
            parts.push(format!(
                "{}. {NO_WHITE_MOVE}{BETWEEN_SIDES}{phrase}",
                before.fullmoves()
            ));
        } else if let Some(last) = parts.last_mut() {
            last.push_str(BETWEEN_SIDES);
            last.push_str(&phrase);
        }
    }
    fill(
        &lang.play.move_list,
        &[
            ("number", &number_of(start_ply).to_string()),
            ("moves", &parts.join(". ")),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Variant, position_from_fen};

    use crate::testkit::de;

    /// `züge Springer`: which knight goes where, and every kind of target said as a move
    /// says it.
    #[test]
    fn the_moves_of_a_kind_of_piece_name_each_piece() {
        let en = crate::notation::language::language("en").expect("en");
        let start = Chess::default();
        assert_eq!(
            piece_moves(&start, Role::Knight, de()),
            "Springer Bella eins: Anna drei, Cäsar drei; Springer Gustav eins: Felix drei, \
             Hector drei"
        );
        assert_eq!(
            piece_moves(&start, Role::Knight, en),
            "Knight Bella one: Anna three, Cesar three; Knight Gustav one: Felix three, Hector \
             three"
        );
        assert_eq!(
            piece_moves(&start, Role::Bishop, de()),
            "Läufer Cäsar eins: keine Züge; Läufer Felix eins: keine Züge"
        );
        // Captures, en passant, promotion, castling, check.
        let pos = position_from_fen("r3k3/1P6/8/3pP3/8/8/8/4K2R w Kq d6 0 2", Variant::Standard)
            .expect("fen");
        assert_eq!(
            piece_moves(&pos, Role::Pawn, de()),
            "Bauer Eva fünf: schlägt David sechs en passant, Eva sechs; Bauer Bella sieben: \
             schlägt Anna acht, Umwandlung in Dame oder Turm, Schach, Umwandlung in Läufer \
             oder Springer, Bella acht, Umwandlung in Dame oder Turm, Schach, Umwandlung in \
             Läufer oder Springer"
        );
        // Without a check, one square's promotions are said once, the pieces together.
        let quiet =
            position_from_fen("8/P6k/8/8/8/8/1P6/K7 w - - 0 1", Variant::Standard).expect("fen");
        assert_eq!(
            piece_moves(&quiet, Role::Pawn, de()),
            "Bauer Bella zwei: Bella drei, Bella vier; Bauer Anna sieben: Anna acht, Umwandlung \
             in Dame, Turm, Läufer oder Springer"
        );
        let king = piece_moves(&pos, Role::King, de());
        assert!(king.starts_with("König Eva eins: "), "{king}");
        assert!(king.contains("Kurze Rochade"), "{king}");
        let rook = piece_moves(&pos, Role::Rook, de());
        assert!(rook.contains("Hector acht, Schach"), "{rook}");
        assert_eq!(piece_moves(&pos, Role::Queen, de()), "Weiße Damen: keine");
    }

    fn game(sans: &str) -> Game {
        let mut g = Game::default();
        for s in sans.split_whitespace().filter(|s| !s.ends_with('.')) {
            g.play_san(s).expect("legal");
        }
        g
    }

    #[test]
    fn board_rank_file_and_diagonals() {
        let pos = Chess::default();
        let lines = board(&pos, Color::White, de(), &Wording::default());
        assert_eq!(lines.len(), 8);
        assert!(
            lines[0]
                .starts_with("Reihe acht: Anna acht schwarzer Turm, Bella acht schwarzer Springer"),
            "{}",
            lines[0]
        );
        assert_eq!(lines[4], "Reihe vier: leer");
        assert!(board(&pos, Color::Black, de(), &Wording::default())[0].starts_with("Reihe eins"));
        assert_eq!(
            file(&pos, File::E, de(), &Wording::default()),
            "Linie Eva: Eva eins weißer König, Eva zwei weißer Bauer, Eva sieben schwarzer Bauer, Eva acht schwarzer König"
        );
        let d = diagonals(&pos, Square::C1, de(), &Wording::default());
        assert_eq!(d.len(), 2);
        assert!(d[0].starts_with("Diagonale Cäsar eins bis Hector sechs: Cäsar eins weißer Läufer, David zwei weißer Bauer"), "{d:?}");
        assert!(
            d[1].starts_with("Diagonale Anna drei bis Cäsar eins"),
            "{d:?}"
        );
    }

    #[test]
    fn where_are_the_black_rooks() {
        let pos = Chess::default();
        assert_eq!(
            pieces(&pos, Some(Color::Black), Some(Role::Rook), de()),
            ["Schwarze Türme: Anna acht, Hector acht"]
        );
        let g = game("1. e4 d5 2. exd5 Qxd5");
        assert_eq!(
            pieces(g.position(), Some(Color::White), Some(Role::Queen), de()),
            ["Weiße Dame: David eins"]
        );
        let empty =
            position_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Variant::Standard).expect("fen");
        assert_eq!(
            pieces(&empty, Some(Color::White), Some(Role::Rook), de()),
            ["Weiße Türme: keine"]
        );
    }

    #[test]
    fn attackers_and_defenders() {
        let g = game("1. e4 e5 2. Nf3 Nc6");
        assert_eq!(
            attacks_on(g.position(), Square::E5, de(), &Wording::default()),
            "Eva fünf: schwarzer Bauer; Angreifer: weißer Springer Felix drei; Verteidiger: schwarzer Springer Cäsar sechs"
        );
        assert_eq!(
            attacks_on(g.position(), Square::D4, de(), &Wording::default()),
            "David vier: Weiß greift an: weißer Springer Felix drei; Schwarz greift an: schwarzer Bauer Eva fünf, schwarzer Springer Cäsar sechs"
        );
        assert_eq!(
            attacks_on(g.position(), Square::A4, de(), &Wording::default()),
            "Niemand greift Anna vier an"
        );
    }

    #[test]
    fn moves_last_turn_material_and_list() {
        let g = game("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6");
        assert_eq!(
            moves(g.position(), Some(Square::F3), de(), Form::Short)
                .split(": ")
                .next(),
            Some("Weißer Springer Felix drei")
        );
        assert!(
            moves(g.position(), Some(Square::F3), de(), Form::Short)
                .contains("Springer schlägt Eva fünf")
        );
        assert_eq!(
            moves(g.position(), Some(Square::E5), de(), Form::Short),
            // An opponent's piece: what it could do were it its turn (blocked here).
            "Schwarz könnte Bauer Eva fünf ziehen: keine Züge"
        );
        assert_eq!(
            moves(g.position(), Some(Square::E4), de(), Form::Short),
            "Weißer Bauer Eva vier: keine Züge"
        );
        assert_eq!(
            last_move(&g, de(), Form::Short),
            "Zuletzt: Zug 4, Schwarz: David schlägt Läufer auf Cäsar sechs"
        );
        assert_eq!(turn(g.position(), de()), "Weiß ist am Zug");
        let m = material(g.position(), de());
        assert_eq!(m[0], "Weiß: Dame, 2 Türme, Läufer, 2 Springer, 8 Bauern");
        assert_eq!(m[1], "Schwarz: Dame, 2 Türme, 2 Läufer, Springer, 8 Bauern");
        assert_eq!(m[2], "Material ausgeglichen");
        let up = game("1. e4 d5 2. exd5");
        assert_eq!(material(up.position(), de())[2], "Weiß hat 1 Punkt mehr");
        assert_eq!(
            move_list(&g, Some(3), de(), Form::Short),
            "Züge ab 3: 3. Läufer Bella fünf; Anna sechs. 4. Läufer schlägt Cäsar sechs; David schlägt Cäsar sechs"
        );
        assert!(
            move_list(&g, None, de(), Form::Short).starts_with("Züge ab 1: 1. Eva vier; Eva fünf")
        );
        let check = game("1. e4 f5 2. Qh5+");
        assert_eq!(turn(check.position(), de()), "Schwarz ist am Zug, Schach");
    }
}
