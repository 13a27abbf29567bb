//! What is at stake on the board: the pieces each side has lost (`geschlagen`), the
//! opponent's threats against the player (`drohungen`), and what an opponent's piece could do
//! were it the opponent's turn (`züge e7`). Pure: a game or a position in, sentences out.

use shakmaty::{Bitboard, ByColor, Chess, Color, Move, Position, Role, Square};

use crate::game::Game;
use crate::notation::language::{Language, fill};
use crate::notation::speak::{Form, announce};

/// The usual values, for "attacked by a lesser piece"; the king is never given away.
fn value(role: Role) -> u32 {
    match role {
        Role::King => 100,
        other => super::values::value(other),
    }
}

/// The pieces each colour has lost in the game, by kind, most valuable first.
pub(crate) fn captured_roles(game: &Game) -> ByColor<Vec<Role>> {
    let mut lost: ByColor<Vec<Role>> = ByColor::default();
    for (i, played) in game.moves().iter().enumerate() {
        let Some(role) = played.mv.capture() else {
            continue;
        };
        let mover = game.position_at(i).map_or(Color::White, |p| p.turn());
        lost.get_mut(!mover).push(role);
    }
    for list in lost.iter_mut() {
        list.sort_by_key(|r| std::cmp::Reverse(value(*r)));
    }
    lost
}

/// "Geschlagene weiße Figuren: 2 Bauern, Springer. Geschlagene schwarze Figuren: keine".
pub(crate) fn captured(game: &Game, lang: &Language) -> String {
    let lost = captured_roles(game);
    let words = |roles: &[Role]| {
        let count = |role: Role| roles.iter().filter(|r| **r == role).count();
        let parts = super::values::counted_pieces(count, lang);
        if parts.is_empty() {
            lang.play.none.clone()
        } else {
            parts.join(", ")
        }
    };
    fill(
        &lang.captures.captured,
        &[
            ("white", &words(&lost.white)),
            ("black", &words(&lost.black)),
        ],
    )
}

/// The position with the other side to move, as if it were its turn: no en passant (that
/// belongs to the side really to move). `None` when that side would be giving check to a
/// king not its own (the side really to move stands in check).
pub(crate) fn turned(pos: &Chess) -> Option<Chess> {
    // A castling right the turned position does not allow is dropped, as it would be.
    match pos.clone().swap_turn() {
        Ok(p) => Some(p),
        Err(e) => e.ignore_invalid_castling_rights().ok(),
    }
}

/// The position in which `color` is to move: this one, or it turned.
fn with_turn(pos: &Chess, color: Color) -> Option<Chess> {
    if pos.turn() == color {
        Some(pos.clone())
    } else {
        turned(pos)
    }
}

/// "Schwarz könnte Bauer Eva sieben ziehen: Eva sechs, Eva fünf": the moves of the opponent's
/// piece on `sq` were it the opponent's turn. `None` when that cannot be said (no such
/// piece, or the side to move stands in check).
pub(crate) fn could(pos: &Chess, sq: Square, lang: &Language, form: Form) -> Option<String> {
    let piece = pos.board().piece_at(sq)?;
    let theirs = with_turn(pos, piece.color)?;
    let list: Vec<String> = theirs
        .legal_moves()
        .iter()
        .filter(|m| m.from() == Some(sq))
        .map(|m| announce(&theirs, *m, lang, form))
        .collect();
    let moves = if list.is_empty() {
        lang.play.no_moves.clone()
    } else {
        list.join(", ")
    };
    Some(fill(
        &lang.captures.could,
        &[
            ("color", lang.color(piece.color)),
            ("piece", lang.piece(piece.role)),
            ("square", &lang.square(sq)),
            ("moves", &moves),
        ],
    ))
}

/// One of `player`'s pieces that is attacked and not defended enough, with every attacker,
/// the cheapest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Attacked {
    pub(crate) square: Square,
    pub(crate) role: Role,
    pub(crate) attackers: Vec<(Square, Role)>,
}

/// `player`'s pieces (the king aside) that the opponent attacks and that are either
/// undefended, attacked by a lesser piece, or attacked more often than defended.
pub(crate) fn attacked(pos: &Chess, player: Color) -> Vec<Attacked> {
    let board = pos.board();
    let occupied = board.occupied();
    let mut out = Vec::new();
    for sq in board.by_color(player) & !board.kings() {
        let Some(role) = board.role_at(sq) else {
            continue;
        };
        let attackers: Bitboard = board.attacks_to(sq, !player, occupied);
        let mut named: Vec<(Square, Role)> = attackers
            .into_iter()
            .filter_map(|a| board.role_at(a).map(|r| (a, r)))
            .collect();
        // The cheapest first (a stable sort keeps the board's order among equals).
        named.sort_by_key(|(_, r)| value(*r));
        let Some(&(_, cheapest)) = named.first() else {
            continue;
        };
        let defenders = board.attacks_to(sq, player, occupied);
        let weak = defenders.is_empty()
            || value(cheapest) < value(role)
            || attackers.count() > defenders.count();
        if weak {
            out.push(Attacked {
                square: sq,
                role,
                attackers: named,
            });
        }
    }
    out
}

/// The checks the side to move in `theirs` could give.
fn checks(theirs: &Chess) -> Vec<Move> {
    theirs
        .legal_moves()
        .into_iter()
        .filter(|m| {
            let mut after = theirs.clone();
            after.play_unchecked(*m);
            after.is_check()
        })
        .collect()
}

/// `drohungen`: the opponent's checks (or the check `player` stands in now), and `player`'s
/// pieces attacked and not defended enough, each with its attacker.
pub(crate) fn dangers(pos: &Chess, player: Color, lang: &Language, form: Form) -> String {
    let w = &lang.captures;
    let opponent = !player;
    let mut parts = Vec::new();
    if pos.turn() == player && pos.is_check() {
        let checkers: Vec<String> = pos
            .checkers()
            .into_iter()
            .filter_map(|sq| {
                pos.board()
                    .role_at(sq)
                    .map(|r| format!("{} {}", lang.piece(r), lang.square(sq)))
            })
            .collect();
        parts.push(fill(
            &w.in_check,
            &[
                ("color", lang.color(player)),
                ("pieces", &checkers.join(", ")),
            ],
        ));
    } else if let Some(theirs) = with_turn(pos, opponent) {
        let moves = checks(&theirs);
        if moves.is_empty() {
            parts.push(fill(&w.no_checks, &[("color", lang.color(opponent))]));
        } else {
            let list: Vec<String> = moves
                .iter()
                .map(|m| announce(&theirs, *m, lang, form))
                .collect();
            parts.push(fill(
                &w.checks,
                &[("color", lang.color(opponent)), ("moves", &list.join(", "))],
            ));
        }
    }
    let weak = attacked(pos, player);
    if weak.is_empty() {
        parts.push(fill(&w.none_attacked, &[("color", lang.color(player))]));
    } else {
        let list: Vec<String> = weak
            .iter()
            .map(|a| {
                let attackers: Vec<String> = a
                    .attackers
                    .iter()
                    .map(|&(sq, r)| format!("{} {}", lang.piece(r), lang.square(sq)))
                    .collect();
                fill(
                    &w.attacked_piece,
                    &[
                        ("piece", lang.piece(a.role)),
                        ("square", &lang.square(a.square)),
                        ("attackers", &and_list(&attackers, lang)),
                    ],
                )
            })
            .collect();
        parts.push(fill(&w.attacked, &[("pieces", &list.join("; "))]));
    }
    parts.join(". ")
}

/// "Läufer Cäsar vier und Springer Gustav fünf": a list with its last two joined by "und".
fn and_list(items: &[String], lang: &Language) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {} {last}", rest.join(", "), lang.captures.and),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;
    use crate::variant::{Variant, position_from_fen};

    use crate::testkit::de;

    fn game(sans: &[&str]) -> Game {
        let mut g = Game::default();
        for san in sans {
            g.play_san(san).expect("legal");
        }
        g
    }

    #[test]
    fn captured_pieces_of_both_sides() {
        let g = game(&["e4", "d5", "exd5", "Qxd5", "Nc3", "Qxa2", "Rxa2"]);
        assert_eq!(
            captured(&g, de()),
            "Geschlagene weiße Figuren: 2 Bauern. Geschlagene schwarze Figuren: Dame, Bauer"
        );
        assert_eq!(
            captured(&Game::default(), language("en").expect("en")),
            "Captured white pieces: none. Captured black pieces: none"
        );
        let lost = captured_roles(&g);
        assert_eq!(lost.black, vec![Role::Queen, Role::Pawn]);
    }

    #[test]
    fn threats_name_checks_and_weak_pieces_with_their_attackers() {
        // White to move; Black's bishop b4 pins the knight c3.
        let pos = position_from_fen(
            "r1bqk2r/pppp1ppp/2n2n2/4p3/1b2P3/2NP1N2/PPP2PPP/R1BQKB1R w KQkq - 1 5",
            Variant::Standard,
        )
        .expect("fen");
        let text = dangers(&pos, Color::White, de(), Form::Short);
        // Were it Black's turn, the bishop could take c3 with check (d3 opened the diagonal).
        assert!(
            text.starts_with("Schwarz kann Schach geben: Läufer schlägt Cäsar drei, Schach."),
            "{text}"
        );
        // c3 is attacked by a bishop (of equal value) and defended by b2; e4 is attacked by
        // the knight f6 and defended by d3 and the knight c3: neither is weak.
        assert!(text.contains("Keine Figur von Weiß"), "{text}");

        // A queen attacked by a pawn, and a loose knight.
        let pos =
            position_from_fen("k7/8/8/3p4/4Q3/8/8/N3K3 b - - 0 1", Variant::Standard).expect("fen");
        let text = dangers(&pos, Color::White, de(), Form::Short);
        assert!(
            text.contains("Dame Eva vier, angegriffen von Bauer David fünf"),
            "{text}"
        );
        assert!(!text.contains("Springer Anna eins"), "{text}");
        // Black is to move here: White's checks are those of the position as it stands.
        let text = dangers(&pos, Color::Black, de(), Form::Short);
        assert!(text.starts_with("Weiß kann Schach geben: "), "{text}");
        assert!(text.contains("Dame Eva acht, Schach"), "{text}");
        assert!(
            text.contains("Bauer David fünf, angegriffen von Dame Eva vier"),
            "{text}"
        );
    }

    /// The case the players met: after 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.Ng5 the pawn f7 is
    /// attacked by the bishop and the knight, and both are named, in both languages.
    #[test]
    fn every_attacker_of_a_weak_piece_is_named() {
        let g = game(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Ng5"]);
        let text = dangers(g.position(), Color::Black, de(), Form::Short);
        assert!(
            text.contains(
                "Nicht genug gedeckt: Bauer Felix sieben, angegriffen von Läufer Cäsar vier und \
                 Springer Gustav fünf"
            ),
            "{text}"
        );
        let text = dangers(
            g.position(),
            Color::Black,
            language("en").expect("en"),
            Form::Short,
        );
        assert!(
            text.contains(
                "Not defended enough: Pawn Felix seven, attacked by Bishop Cesar four and \
                 Knight Gustav five"
            ),
            "{text}"
        );
        // Three attackers: a list, the cheapest first.
        let pos = position_from_fen("k7/8/8/3r4/8/2N1N3/8/3QK3 b - - 0 1", Variant::Standard)
            .expect("fen");
        let text = dangers(&pos, Color::Black, de(), Form::Short);
        assert!(
            text.contains(
                "Turm David fünf, angegriffen von Springer Cäsar drei, Springer Eva drei und \
                 Dame David eins"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_player_in_check_hears_who_gives_it() {
        let pos =
            position_from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", Variant::Standard).expect("fen");
        let text = dangers(&pos, Color::White, de(), Form::Short);
        assert!(
            text.starts_with("Weiß steht im Schach durch Turm Eva zwei"),
            "{text}"
        );
    }

    #[test]
    fn an_opponents_piece_says_what_it_could_do() {
        let pos = Chess::default();
        assert_eq!(
            could(&pos, Square::E7, de(), Form::Short).as_deref(),
            Some("Schwarz könnte Bauer Eva sieben ziehen: Eva sechs, Eva fünf")
        );
        assert_eq!(
            could(&pos, Square::B8, language("en").expect("en"), Form::Short).as_deref(),
            Some("Black could move Knight Bella eight: Knight Anna six, Knight Cesar six")
        );
        assert_eq!(could(&pos, Square::E4, de(), Form::Short), None);
        // The side to move stands in check: the other side's turn cannot be imagined.
        let pos =
            position_from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", Variant::Standard).expect("fen");
        assert_eq!(could(&pos, Square::E2, de(), Form::Short), None);
        // En passant belongs to the side really to move.
        let pos =
            position_from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", Variant::Standard).expect("fen");
        let turned = turned(&pos).expect("turned");
        assert_eq!(turned.turn(), Color::Black);
        assert!(turned.ep_square(shakmaty::EnPassantMode::Legal).is_none());
    }
}
