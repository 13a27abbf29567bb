//! The grammars a recogniser listens with, in JSGF (the Java Speech Grammar Format that
//! PocketSphinx reads), built from a language's tokens:
//!
//! - [`position`]: the phrases of the legal moves of one position (each phrase names exactly
//!   its move: hector's parser is asked) and the spoken commands;
//! - [`language`]: every move phrase of the language, legal here or not, and the commands;
//!   a phrase heard by both and naming the same move is one the player most likely said;
//! - [`answer`]: yes and no to a question, beside every phrase of [`language`], so that a
//!   move or a command is not forced into a "yes".
//!
//! Yes and no are kept out of the move grammars: a short word swallows a long phrase that
//! sounds nothing like it more easily than another phrase does.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use shakmaty::san::{San, SanPlus};
use shakmaty::{CastlingSide, Chess, Move, Position, Role, Square};

use super::tokens::{Tokens, VoiceCommand};
use crate::notation::parse::parse_move;

/// What a phrase of these grammars names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    Move(Move),
    Command(VoiceCommand),
}

fn square(tokens: &Tokens, sq: Square) -> String {
    format!(
        "{} {}",
        tokens.files[usize::from(sq.file())],
        tokens.ranks[usize::from(sq.rank())]
    )
}

/// Words joined by single spaces, empty ones left out.
fn join(words: &[&str]) -> String {
    words
        .iter()
        .filter(|w| !w.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The phrases a player may say for `m`, a legal move in `pos`: the short and the long form
/// of hector's own announcements, and the piece with only its target square, with a capture
/// or "to" word, and with its square. Only those that name `m` and no other move are kept.
pub(crate) fn phrases(pos: &Chess, m: Move, tokens: &Tokens) -> Vec<String> {
    let mut out: BTreeSet<String> = BTreeSet::new();
    if let Some(side) = m.castling_side().filter(|_| m.is_castle()) {
        out.insert(match side {
            CastlingSide::KingSide => tokens.short_castling.clone(),
            CastlingSide::QueenSide => tokens.long_castling.clone(),
        });
    } else if let Some(from) = m.from() {
        let to = square(tokens, m.to());
        let from_sq = square(tokens, from);
        let verb = if m.is_capture() {
            tokens.capture.as_str()
        } else {
            tokens.to.as_str()
        };
        let role = m.role();
        let piece = tokens.piece(role);
        let mut bases: Vec<String> = Vec::new();
        // Hector's short form, with the disambiguation of SAN (C10).
        if let San::Normal { file, rank, .. } = SanPlus::from_move(pos.clone(), m).san {
            let file = file.map_or("", |f| tokens.files[usize::from(f)].as_str());
            let rank = rank.map_or("", |r| tokens.ranks[usize::from(r)].as_str());
            let capture = if m.is_capture() { &tokens.capture } else { "" };
            let named = if role == Role::Pawn { "" } else { piece };
            bases.push(join(&[named, file, rank, capture, &to]));
        }
        // The long form, and "to" or the capture word with the piece's own square.
        bases.push(join(&[piece, &from_sq, verb, &to]));
        if role == Role::Pawn {
            if m.is_capture() {
                let file = tokens.files[usize::from(from.file())].as_str();
                bases.push(join(&[file, &tokens.capture, &to]));
                bases.push(join(&[piece, &tokens.capture, &to]));
            } else {
                bases.push(to.clone());
            }
        } else {
            bases.push(join(&[piece, &to]));
            bases.push(join(&[piece, verb, &to]));
            bases.push(join(&[piece, &from_sq, &to]));
        }
        if m.is_en_passant() {
            let with: Vec<String> = bases
                .iter()
                .map(|b| join(&[b, &tokens.en_passant]))
                .collect();
            bases.extend(with);
        }
        match m.promotion() {
            Some(promoted) => {
                let p = tokens.piece(promoted);
                for b in &bases {
                    out.insert(join(&[b, p]));
                    out.insert(join(&[b, &tokens.promotion, p, &tokens.promotion_after]));
                }
            }
            None => out.extend(bases),
        }
    }
    out.into_iter()
        .filter(|phrase| parse_move(phrase, pos).ok() == Some(m))
        .collect()
}

/// The commands' tokens, without `without`.
fn commands(tokens: &Tokens, without: Option<VoiceCommand>) -> Vec<&str> {
    tokens
        .commands
        .iter()
        .filter(|(c, _)| Some(*c) != without)
        .map(|(_, w)| w.as_str())
        .collect()
}

/// "check" and "mate", said after a move by those who say them.
fn suffix(tokens: &Tokens) -> String {
    format!("[{} | {}]", tokens.check, tokens.mate)
}

/// The grammar of the legal moves of `pos` and the commands, without what `without` names
/// (the second pass: how much worse the best phrase of anything else fits).
pub fn position(pos: &Chess, tokens: &Tokens, without: Option<Heard>) -> String {
    position_with(pos, tokens, without, true)
}

/// The grammar of the legal moves of `pos` alone: what a phrase is heard as again when a
/// short command swallowed it ("rook bella four" heard as "clock", covering little of it).
pub fn position_moves(pos: &Chess, tokens: &Tokens) -> String {
    position_with(pos, tokens, None, false)
}

fn position_with(
    pos: &Chess,
    tokens: &Tokens,
    without: Option<Heard>,
    with_commands: bool,
) -> String {
    let mut moves: BTreeSet<String> = BTreeSet::new();
    for m in pos.legal_moves() {
        if without != Some(Heard::Move(m)) {
            moves.extend(phrases(pos, m, tokens));
        }
    }
    let without_command = match without {
        Some(Heard::Command(c)) => Some(c),
        _ => None,
    };
    let mut top: Vec<String> = Vec::new();
    if !moves.is_empty() {
        top.push(format!("<move> {}", suffix(tokens)));
    }
    if with_commands {
        top.extend(
            commands(tokens, without_command)
                .into_iter()
                .map(String::from),
        );
    }
    let mut out = format!(
        "#JSGF V1.0;\ngrammar position;\npublic <utt> = {};\n",
        top.join(" | ")
    );
    if !moves.is_empty() {
        let list: Vec<String> = moves.into_iter().collect();
        let _ = writeln!(out, "<move> = {};", list.join("\n    | "));
    }
    out
}

fn alternatives(words: &[String]) -> String {
    words.join(" | ")
}

/// The rules of every move phrase of a language, legal or not: a piece with its target
/// square (and its own square, file or rank, a capture or "to" word), a pawn's push, a pawn's
/// capture, a promotion, hector's long form of a pawn's move. Shaped so that words cannot be
/// dropped or added freely: the capture word needs a piece or a file before it, a promotion
/// piece only follows a pawn that reaches the last rank.
fn move_rules(tokens: &Tokens) -> String {
    let files = alternatives(&tokens.files);
    let mid = alternatives(&tokens.ranks[1..7]);
    let edge = format!("{} | {}", tokens.ranks[0], tokens.ranks[7]);
    let ranks = alternatives(&tokens.ranks);
    let pieces = alternatives(&tokens.pieces[..5]);
    let promoted = alternatives(&tokens.pieces[1..5]);
    let promo_before = if tokens.promotion.is_empty() {
        String::new()
    } else {
        format!("[{}] ", tokens.promotion)
    };
    let promo_after = if tokens.promotion_after.is_empty() {
        String::new()
    } else {
        format!(" [{}]", tokens.promotion_after)
    };
    let (pawn, capture, to, ep) = (
        tokens.piece(Role::Pawn),
        &tokens.capture,
        &tokens.to,
        &tokens.en_passant,
    );
    format!(
        "<file> = {files};\n\
         <rank> = {ranks};\n\
         <square> = <file> ({mid} | {edge});\n\
         <last> = <file> ({edge});\n\
         <piece> = {pieces};\n\
         <promo> = {promo_before}({promoted}){promo_after};\n\
         <move> = <piece> [<square> | <file> | <rank>] [{capture} | {to}] <square>\n    \
         | <file> ({mid})\n    \
         | (<file> | {pawn}) {capture} <file> ({mid}) [{ep}]\n    \
         | [<file> [{capture}] | {pawn} {capture}] <last> [<promo>]\n    \
         | {pawn} <square> ({capture} | {to}) <square> [<promo>] [{ep}];\n"
    )
}

/// The grammar of every move phrase of the language and the commands.
pub fn language(tokens: &Tokens) -> String {
    let mut top = vec![
        format!("<move> {}", suffix(tokens)),
        tokens.short_castling.clone(),
        tokens.long_castling.clone(),
    ];
    top.extend(commands(tokens, None).into_iter().map(String::from));
    format!(
        "#JSGF V1.0;\ngrammar language;\npublic <utt> = {};\n{}",
        top.join(" | "),
        move_rules(tokens)
    )
}

/// Which words an answer grammar leaves out: the second pass of a "yes" or of the second's
/// word measures how much better the word heard fits than anything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Without {
    Nothing,
    Yes,
    Second,
}

/// The grammar of an answer: yes, the word for the second move of a two-move question, no,
/// and every phrase of [`language`] (so that a move or a command is not forced into an
/// answer); `without` leaves one choice out.
pub fn answer(tokens: &Tokens, without: Without) -> String {
    let mut top: Vec<String> = Vec::new();
    if without != Without::Yes {
        top.push(tokens.yes.clone());
    }
    if without != Without::Second {
        top.push(tokens.second.clone());
    }
    top.push(tokens.no.clone());
    top.push(format!("<move> {}", suffix(tokens)));
    top.push(tokens.short_castling.clone());
    top.push(tokens.long_castling.clone());
    top.extend(commands(tokens, None).into_iter().map(String::from));
    format!(
        "#JSGF V1.0;\ngrammar answer;\npublic <utt> = {};\n{}",
        top.join(" | "),
        move_rules(tokens)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language as table;
    use crate::variant::{Variant, position_from_fen};

    fn tokens(code: &str) -> Tokens {
        Tokens::spelled(table(code).expect("table"), |_| true).expect("tokens")
    }

    fn pos(fen: &str) -> Chess {
        position_from_fen(fen, Variant::Standard).expect("fen")
    }

    fn uci(pos: &Chess, text: &str) -> Move {
        parse_move(text, pos).expect(text)
    }

    #[test]
    fn a_knights_phrases_in_the_start_position() {
        let p = Chess::default();
        let m = uci(&p, "g1f3");
        assert_eq!(
            phrases(&p, m, &tokens("de")),
            [
                "springer felix drei",
                "springer gustav eins felix drei",
                "springer gustav eins nach felix drei",
                "springer nach felix drei",
            ]
        );
        let m = uci(&p, "e2e4");
        assert_eq!(
            phrases(&p, m, &tokens("en")),
            ["eva four", "pawn eva two to eva four"]
        );
    }

    #[test]
    fn ambiguous_phrases_are_left_out_and_the_disambiguated_kept() {
        // Knights on b1 and f3 both reach d2: "Springer David zwei" names neither.
        let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        let m = uci(&p, "b1d2");
        let got = phrases(&p, m, &tokens("de"));
        assert!(
            got.contains(&"springer bella david zwei".to_string()),
            "{got:?}"
        );
        assert!(!got.contains(&"springer david zwei".to_string()), "{got:?}");
    }

    #[test]
    fn captures_promotions_and_en_passant() {
        let p = pos("1r2k3/P7/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let t = tokens("de");
        let ep = phrases(&p, uci(&p, "e5d6"), &t);
        assert!(
            ep.contains(&"eva schlaegt david sechs".to_string()),
            "{ep:?}"
        );
        assert!(ep.contains(&"eva schlaegt david sechs en passant".to_string()));
        assert!(ep.contains(&"bauer schlaegt david sechs".to_string()));
        let promo = phrases(&p, uci(&p, "a7b8n"), &t);
        assert!(promo.contains(&"anna schlaegt bella acht springer".to_string()));
        assert!(promo.contains(&"anna schlaegt bella acht umwandlung in springer".to_string()));
        assert!(!promo.iter().any(|x| x.ends_with("dame")), "{promo:?}");
        let castle = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(
            phrases(&castle, uci(&castle, "e1g1"), &t),
            ["kurze rochade"]
        );
    }

    #[test]
    fn every_phrase_of_a_position_names_its_own_move() {
        for fen in [
            "r1bqkbnr/ppp1pppp/2n5/3p4/1PP1P3/N4P2/P2P2PP/R1BQKBNR b KQkq - 0 6",
            "1r2k3/P7/8/3pP3/8/8/8/4K3 w - d6 0 2",
        ] {
            let p = pos(fen);
            for code in ["de", "en"] {
                let t = tokens(code);
                for m in p.legal_moves() {
                    let list = phrases(&p, m, &t);
                    assert!(!list.is_empty(), "{fen}: {m:?} has no phrase in {code}");
                    for phrase in list {
                        assert_eq!(parse_move(&phrase, &p).ok(), Some(m), "{phrase}");
                    }
                }
            }
        }
    }

    /// The alternatives of a position grammar's <move> rule.
    fn moves_of(grammar: &str) -> Vec<String> {
        let body = grammar.split("<move> = ").nth(1).unwrap_or_default();
        body.trim_end_matches(";\n")
            .split("\n    | ")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    }

    #[test]
    fn the_position_grammar_leaves_out_what_was_heard() {
        let p = Chess::default();
        let t = tokens("de");
        let full = position(&p, &t, None);
        assert!(full.starts_with(
            "#JSGF V1.0;\ngrammar position;\npublic <utt> = <move> [schach | schachmatt] | hilfe | brett | uhr | wer | material | wiederholen | remis | aufgeben | ende | explorer;\n<move> = "
        ), "{full}");
        let moves = moves_of(&full);
        assert!(
            moves.contains(&"springer felix drei".to_string()),
            "{moves:?}"
        );
        assert!(moves.contains(&"felix drei".to_string()));
        let without = moves_of(&position(&p, &t, Some(Heard::Move(uci(&p, "g1f3")))));
        assert!(
            !without
                .iter()
                .any(|m| m.starts_with("springer") && m.ends_with("felix drei"))
        );
        assert!(without.contains(&"felix drei".to_string()));
        assert!(without.contains(&"springer hector drei".to_string()));
        assert_eq!(moves.len(), without.len() + 4);
        let no_clock = position(&p, &t, Some(Heard::Command(VoiceCommand::Clock)));
        assert!(!no_clock.contains("| uhr |") && moves_of(&no_clock) == moves);
    }

    #[test]
    fn the_moves_grammar_has_the_same_moves_and_no_command() {
        let p = Chess::default();
        let t = tokens("en");
        let full = position(&p, &t, None);
        let moves = position_moves(&p, &t);
        assert!(
            moves.contains("\npublic <utt> = <move> [check | checkmate];\n"),
            "{moves}"
        );
        assert_eq!(moves_of(&moves), moves_of(&full));
    }

    #[test]
    fn a_position_without_moves_has_only_the_commands() {
        let mate = pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        let g = position(&mate, &tokens("en"), None);
        assert!(g.ends_with("public <utt> = help | board | clock | turn | material | repeat | draw | resign | quit | explorer;\n"), "{g}");
    }

    #[test]
    fn the_language_and_answer_grammars() {
        let t = tokens("en");
        let g = language(&t);
        assert!(g.contains(
            "public <utt> = <move> [check | checkmate] | short castling | long castling | help |"
        ));
        assert!(
            g.contains("<promo> = [promotes to] (queen | rook | bishop | knight);"),
            "{g}"
        );
        assert!(!g.contains(" yes"));
        let a = answer(&t, Without::Nothing);
        assert!(
            a.contains("public <utt> = yes | second | no | <move>"),
            "{a}"
        );
        let n = answer(&t, Without::Yes);
        assert!(n.contains("public <utt> = second | no | <move>"));
        let s = answer(&t, Without::Second);
        assert!(s.contains("public <utt> = yes | no | <move>"));
    }
}
