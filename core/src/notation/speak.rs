//! Announcing a move in the words of a language table (FIDE Appendix D2.1,
//! ../shared/spec/spoken-notation.md): the short form mirrors SAN, the long form names the
//! piece, its square and the target square.

use shakmaty::{
    CastlingSide, Chess, Move, Role,
    san::{San, SanPlus, Suffix},
};

use super::language::Language;

/// Which spoken form to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Form {
    /// Mirrors SAN: "Springer Felix drei", "Eva schlägt David fünf".
    #[default]
    Short,
    /// From-square and to-square, every piece named: "Springer Gustav eins nach Felix drei".
    Long,
}

/// The phrase for `m`, a legal move in `pos`.
pub fn announce(pos: &Chess, m: Move, lang: &Language, form: Form) -> String {
    let san = SanPlus::from_move(pos.clone(), m);
    announce_san(san, m, lang, form)
}

/// The phrase for a move whose SAN (with its check suffix) is already known.
pub(crate) fn announce_san(san: SanPlus, m: Move, lang: &Language, form: Form) -> String {
    let mut out = String::with_capacity(48);
    announce_into(&mut out, san, m, lang, form);
    out
}

fn push_square(out: &mut String, lang: &Language, sq: shakmaty::Square) {
    out.push_str(lang.file(sq.file()));
    out.push(' ');
    out.push_str(lang.rank(sq.rank()));
}

/// The phrase for a move that names the piece it takes: "Springer schlägt Bauer auf Felix
/// fünf" (`letzter`, and every move with --say-captured).
pub(crate) fn announce_san_taking(san: SanPlus, m: Move, lang: &Language, form: Form) -> String {
    let mut out = String::with_capacity(64);
    phrase_into(&mut out, san, m, lang, form, m.capture());
    out
}

/// Appends the phrase to `out` without allocating (the transcript's hot path).
pub(crate) fn announce_into(out: &mut String, san: SanPlus, m: Move, lang: &Language, form: Form) {
    phrase_into(out, san, m, lang, form, None);
}

/// "{piece} auf" after the capture word, when the taken piece is to be said.
fn push_taken(out: &mut String, lang: &Language, taken: Option<Role>) {
    if let Some(role) = taken {
        let (head, tail) = lang
            .captures
            .taken
            .split_once("{piece}")
            .unwrap_or(("", &lang.captures.taken));
        out.push_str(head);
        out.push_str(lang.piece(role));
        out.push_str(tail);
        out.push(' ');
    }
}

fn phrase_into(
    out: &mut String,
    san: SanPlus,
    m: Move,
    lang: &Language,
    form: Form,
    taken: Option<Role>,
) {
    match san.san {
        // Chess960 castling is spoken like standard castling, by the king's side (F3).
        San::Normal { .. } if m.is_castle() => {
            out.push_str(castling_words(
                lang,
                m.castling_side().unwrap_or(CastlingSide::KingSide),
            ));
        }
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => match form {
            Form::Short => {
                if role != Role::Pawn {
                    out.push_str(lang.piece(role));
                    out.push(' ');
                }
                if let Some(f) = file {
                    out.push_str(lang.file(f));
                    out.push(' ');
                }
                if let Some(r) = rank {
                    out.push_str(lang.rank(r));
                    out.push(' ');
                }
                if capture {
                    out.push_str(&lang.moves.capture);
                    out.push(' ');
                    push_taken(out, lang, taken);
                }
                push_square(out, lang, to);
                finish(out, m, promotion, lang);
            }
            Form::Long => {
                out.push_str(lang.piece(role));
                if let Some(from) = m.from() {
                    out.push(' ');
                    push_square(out, lang, from);
                }
                out.push(' ');
                out.push_str(if capture {
                    &lang.moves.capture
                } else {
                    &lang.moves.to
                });
                out.push(' ');
                if capture {
                    push_taken(out, lang, taken);
                }
                push_square(out, lang, to);
                finish(out, m, promotion, lang);
            }
        },
        San::Castle(side) => out.push_str(castling_words(lang, side)),
        San::Put { role, to } => {
            out.push_str(lang.piece(role));
            out.push(' ');
            push_square(out, lang, to);
        }
        San::Null => out.push_str("--"),
    }
    push_suffix(out, lang, san.suffix);
}

/// ", Schach" or ", matt" after the move.
fn push_suffix(out: &mut String, lang: &Language, suffix: Option<Suffix>) {
    match suffix {
        Some(Suffix::Check) => {
            out.push_str(", ");
            out.push_str(&lang.moves.check);
        }
        Some(Suffix::Checkmate) => {
            out.push_str(", ");
            out.push_str(&lang.moves.mate);
        }
        None => {}
    }
}

fn finish(out: &mut String, m: Move, promotion: Option<Role>, lang: &Language) {
    if m.is_en_passant() {
        out.push(' ');
        out.push_str(&lang.moves.en_passant);
    }
    if let Some(p) = promotion {
        out.push_str(", ");
        // "Umwandlung in {piece}": text around the placeholder, the piece in between.
        let (head, tail) = lang
            .moves
            .promotion
            .split_once("{piece}")
            .unwrap_or((&lang.moves.promotion, ""));
        out.push_str(head);
        out.push_str(lang.piece(p));
        out.push_str(tail);
    }
}

pub(crate) fn castling_words(lang: &Language, side: CastlingSide) -> &str {
    match side {
        CastlingSide::KingSide => &lang.moves.short_castling,
        CastlingSide::QueenSide => &lang.moves.long_castling,
    }
}

/// A line of moves from `pos` in words, each move named with its number and side
/// ("Zug 9, Schwarz: Dame Anna fünf, Schach; Zug 10, Weiß: Läufer Cäsar vier; Schwarz:
/// Springer Felix sechs"): said as one sentence, never "9..." or "10.", where speech breaks
/// it. Stops before a move that is not legal; returns the position at the end.
pub(crate) fn line_words(
    pos: &Chess,
    line: &[Move],
    lang: &Language,
    form: Form,
) -> (String, Chess) {
    use shakmaty::{Color, Position};
    let mut pos = pos.clone();
    let colon = &lang.messages.colon;
    let mut said = String::new();
    for (i, &mv) in line.iter().enumerate() {
        if !pos.is_legal(mv) {
            break;
        }
        let number = pos.fullmoves().get();
        let mover = pos.turn();
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, mv);
        if i > 0 {
            said.push_str(&lang.moves.separator);
        }
        if i == 0 || mover == Color::White {
            said.push_str(&super::language::fill(
                &lang.moves.numbered,
                &[
                    ("number", &number.to_string()),
                    ("color", lang.color(mover)),
                ],
            ));
        } else {
            said.push_str(lang.color(mover));
        }
        said.push_str(colon);
        announce_into(&mut said, san, mv, lang, form);
    }
    (said, pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;
    use crate::variant::{Variant, position_from_fen};
    use shakmaty::Position;

    /// Plays `sans` from `fen` and speaks the last one in both languages and a form.
    fn spoken(fen: &str, sans: &[&str], form: Form) -> (String, String) {
        let mut pos = position_from_fen(fen, Variant::Standard).expect("fen");
        let (last, before) = sans.split_last().expect("a move");
        for san in before {
            let m = san
                .parse::<SanPlus>()
                .expect("san")
                .san
                .to_move(&pos)
                .expect("legal");
            pos.play_unchecked(m);
        }
        let m = last
            .parse::<SanPlus>()
            .expect("san")
            .san
            .to_move(&pos)
            .expect("legal");
        let de = announce(&pos, m, language("de").expect("de"), form);
        let en = announce(&pos, m, language("en").expect("en"), form);
        (de, en)
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn the_taken_piece_is_named() {
        let pos = position_from_fen(
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            Variant::Standard,
        )
        .expect("fen");
        let m = "dxe4"
            .parse::<SanPlus>()
            .expect("san")
            .san
            .to_move(&pos)
            .expect("legal");
        let san = SanPlus::from_move(pos.clone(), m);
        let de = language("de").expect("de");
        let en = language("en").expect("en");
        assert_eq!(
            announce_san_taking(san, m, de, Form::Short),
            "David schlägt Bauer auf Eva vier"
        );
        assert_eq!(
            announce_san_taking(san, m, en, Form::Short),
            "David takes Pawn on Eva four"
        );
        assert_eq!(
            announce_san_taking(san, m, de, Form::Long),
            "Bauer David fünf schlägt Bauer auf Eva vier"
        );
        // Without a capture nothing changes.
        let quiet = "Nc6"
            .parse::<SanPlus>()
            .expect("san")
            .san
            .to_move(&pos)
            .expect("legal");
        assert_eq!(
            announce_san_taking(
                SanPlus::from_move(pos.clone(), quiet),
                quiet,
                de,
                Form::Short
            ),
            "Springer Cäsar sechs"
        );
    }

    /// Every row of the spec's short-form table.
    #[test]
    fn short_form_golden() {
        let rows: [(&str, &[&str], &str, &str); 13] = [
            (START, &["e4"], "Eva vier", "Eva four"),
            (START, &["Nf3"], "Springer Felix drei", "Knight Felix three"),
            // Knights on e1 and g1, both can reach f3.
            (
                "4k3/8/8/8/8/8/8/4N1NK w - - 0 1",
                &["Ngf3"],
                "Springer Gustav Felix drei",
                "Knight Gustav Felix three",
            ),
            // Knights on f5 and f1 (same file).
            (
                "4k3/8/8/6N1/8/8/8/6NK w - - 0 1",
                &["N5f3"],
                "Springer fünf Felix drei",
                "Knight five Felix three",
            ),
            // Queens on h4, e4 and h1 all reach e1: both file and rank are needed.
            (
                "8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1",
                &["Qh4e1"],
                "Dame Hector vier Eva eins",
                "Queen Hector four Eva one",
            ),
            (
                "4k3/8/8/4p3/8/8/1B6/4K3 w - - 0 1",
                &["Bxe5"],
                "Läufer schlägt Eva fünf",
                "Bishop takes Eva five",
            ),
            (
                "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
                &["exd5"],
                "Eva schlägt David fünf",
                "Eva takes David five",
            ),
            (
                "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
                &["exd6"],
                "Eva schlägt David sechs en passant",
                "Eva takes David six en passant",
            ),
            (
                "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
                &["e8=Q"],
                "Eva acht, Umwandlung in Dame",
                "Eva eight, promotes to Queen",
            ),
            (
                "5b2/4P2k/8/8/8/8/8/4K3 w - - 0 1",
                &["exf8=N+"],
                "Eva schlägt Felix acht, Umwandlung in Springer, Schach",
                "Eva takes Felix eight, promotes to Knight, check",
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
                &["O-O"],
                "Kurze Rochade",
                "short castling",
            ),
            (
                "2rkr3/2p1p3/8/8/8/8/8/R3K3 w Q - 0 1",
                &["O-O-O#"],
                "Lange Rochade, Schachmatt",
                "long castling, checkmate",
            ),
            (
                "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
                &["Qxf7#"],
                "Dame schlägt Felix sieben, Schachmatt",
                "Queen takes Felix seven, checkmate",
            ),
        ];
        for (fen, sans, de, en) in rows {
            assert_eq!(
                spoken(fen, sans, Form::Short),
                (de.to_string(), en.to_string()),
                "{sans:?}"
            );
        }
    }

    /// Every row of the spec's long-form table.
    #[test]
    fn long_form_golden() {
        let rows: [(&str, &[&str], &str, &str); 5] = [
            (
                START,
                &["e4"],
                "Bauer Eva zwei nach Eva vier",
                "Pawn Eva two to Eva four",
            ),
            (
                START,
                &["Nf3"],
                "Springer Gustav eins nach Felix drei",
                "Knight Gustav one to Felix three",
            ),
            (
                "4k3/8/8/4p3/8/8/1B6/4K3 w - - 0 1",
                &["Bxe5"],
                "Läufer Bella zwei schlägt Eva fünf",
                "Bishop Bella two takes Eva five",
            ),
            (
                "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
                &["exd6"],
                "Bauer Eva fünf schlägt David sechs en passant",
                "Pawn Eva five takes David six en passant",
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
                &["O-O"],
                "Kurze Rochade",
                "short castling",
            ),
        ];
        for (fen, sans, de, en) in rows {
            assert_eq!(
                spoken(fen, sans, Form::Long),
                (de.to_string(), en.to_string()),
                "{sans:?}"
            );
        }
        // Promotion, check and mate suffixes are the same as in the short form.
        assert_eq!(
            spoken("5b2/4P2k/8/8/8/8/8/4K3 w - - 0 1", &["exf8=N+"], Form::Long).0,
            "Bauer Eva sieben schlägt Felix acht, Umwandlung in Springer, Schach"
        );
    }

    #[test]
    fn chess960_castling_is_named_by_the_kings_side() {
        let pos = position_from_fen(
            "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1",
            Variant::Chess960,
        )
        .expect("fen");
        let de = language("de").expect("de");
        let short = pos.castling_moves(CastlingSide::KingSide)[0];
        let long = pos.castling_moves(CastlingSide::QueenSide)[0];
        assert_eq!(announce(&pos, short, de, Form::Short), "Kurze Rochade");
        assert_eq!(announce(&pos, long, de, Form::Long), "Lange Rochade");
    }
}
