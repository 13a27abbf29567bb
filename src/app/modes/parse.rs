//! `hector parse`: what hector understands from a typed or dictated move.

use std::process::ExitCode;

use shakmaty::uci::UciMove;

use crate::app::services::output::Out;
use crate::core::notation::Language;
use crate::core::notation::{Form, announce};
use crate::core::notation::{message, parse_move_in};
use crate::core::variant::{Variant, position_from_fen};

pub(crate) fn run(text: &str, fen: Option<&str>, chess960: bool, lang: &Language) -> ExitCode {
    let variant = if chess960 {
        Variant::Chess960
    } else {
        Variant::Standard
    };
    let pos = match fen {
        Some(f) => match position_from_fen(f, variant) {
            Ok(p) => p,
            Err(e) => {
                errln!("hector parse: {e}");
                return ExitCode::from(2);
            }
        },
        None => shakmaty::Chess::default(),
    };
    let mut out = Out::new();
    let code = match parse_move_in(text, &pos, lang) {
        Ok(m) => {
            let uci = UciMove::from_move(m, variant.castling_mode());
            out.line(&format!("{uci}\t{}", announce(&pos, m, lang, Form::Short)));
            ExitCode::SUCCESS
        }
        Err(e) => {
            out.line(&message(&e, &pos, lang));
            ExitCode::from(1)
        }
    };
    out.finish("hector parse", &lang.messages.output_failed, code)
}
