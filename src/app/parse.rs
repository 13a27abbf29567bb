//! `hector parse`: what hector understands from a typed or dictated move.

use std::process::ExitCode;

use shakmaty::uci::UciMove;

use crate::core::notation::language::Language;
use crate::core::notation::parse::{message, parse_move};
use crate::core::notation::speak::{Form, announce};
use crate::core::variant::{Variant, position_from_fen};

pub fn run(text: &str, fen: Option<&str>, chess960: bool, lang: &Language) -> ExitCode {
    let variant = if chess960 {
        Variant::Chess960
    } else {
        Variant::Standard
    };
    let pos = match fen {
        Some(f) => match position_from_fen(f, variant) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("hector parse: {e}");
                return ExitCode::from(2);
            }
        },
        None => shakmaty::Chess::default(),
    };
    match parse_move(text, &pos) {
        Ok(m) => {
            let uci = UciMove::from_move(m, variant.castling_mode());
            println!("{uci}\t{}", announce(&pos, m, lang, Form::Short));
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{}", message(&e, &pos, lang));
            ExitCode::from(1)
        }
    }
}
