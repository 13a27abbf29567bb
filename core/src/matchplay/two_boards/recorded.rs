//! A two-board game as its journal keeps it: the header and the settings `hector assist` and
//! `hector arbiter` write when the game begins, and the set-up a resume reads back from them.
//! One mapping for the modes and their model tests.

use std::collections::BTreeMap;

use shakmaty::{Chess, Color};

use super::{Duty, TwoBoardSetup};
use crate::clock::TimeControl;
use crate::game::Game;
use crate::matchplay::session::recorded::{RecordError, rules_for};
use crate::notation::language::Language;
use crate::record::Header;

/// The settings that name each board: the blind player's, the sighted player's.
pub const PEG_BOARD: &str = "peg_board";
pub const SIGHTED_BOARD: &str = "sighted_board";

impl TwoBoardSetup {
    /// The journal's header of a new game from `game`'s start; `opponent` names the blind
    /// player's opponent as the record says it ("Brett von Schwarz"); `lang` the language and
    /// the words the table announces with.
    pub fn header(
        &self,
        game: &Game,
        created: &str,
        (white, black): (&str, &str),
        opponent: &str,
        lang: &Language,
    ) -> Header {
        let mut h = Header::new(created, white, black);
        h.variant = game.variant();
        if game.start() != &Chess::default() {
            h.start_fen = Some(
                shakmaty::fen::Fen::from_position(game.start(), shakmaty::EnPassantMode::Legal)
                    .to_string(),
            );
        }
        h.time_control = self.control.as_ref().map(ToString::to_string);
        // The record is the blind player's (D6, D9c), also when the arbiter runs the table.
        h.local_player = Some(self.blind);
        h.opponent = opponent.to_string();
        h.language = lang.code.clone();
        h.words = Some(lang.words);
        h.form = self.form;
        h.rules = self.rules;
        h
    }

    /// The settings a resume needs: the blind player's colour, the duty, and each board
    /// (`peg` and `sighted` as the mode names them, "peg:/dev/ttyACM0").
    pub fn settings(&self, peg: Option<String>, sighted: Option<String>) -> Vec<(String, String)> {
        let mut settings = vec![
            (
                "blind".to_string(),
                self.blind.fold_wb("white", "black").to_string(),
            ),
            (
                "duty".to_string(),
                match self.duty {
                    Duty::Blind => "blind",
                    Duty::Sighted => "sighted",
                    Duty::Arbiter => "arbiter",
                }
                .to_string(),
            ),
        ];
        let boards = [(PEG_BOARD, peg), (SIGHTED_BOARD, sighted)];
        for (key, board) in boards {
            if let Some(value) = board {
                settings.push((key.to_string(), value));
            }
        }
        settings
    }

    /// Reads the set-up back from a journal's header and its settings (each one's latest
    /// value). The boards are there when their settings are; the mode reads their ports.
    pub fn read(
        header: &Header,
        settings: &BTreeMap<String, String>,
    ) -> Result<TwoBoardSetup, RecordError> {
        let control = match &header.time_control {
            Some(tc) => Some(
                tc.parse::<TimeControl>()
                    .map_err(|e| RecordError::TimeControl(tc.clone(), e.to_string()))?,
            ),
            None => None,
        };
        let blind = match settings.get("blind").map(String::as_str) {
            Some("black") => Color::Black,
            Some("white") => Color::White,
            _ => header.local_player.unwrap_or(Color::White),
        };
        let duty = match settings.get("duty").map(String::as_str) {
            Some("sighted") => Duty::Sighted,
            Some("arbiter") => Duty::Arbiter,
            _ => Duty::Blind,
        };
        Ok(TwoBoardSetup {
            blind,
            blind_board: settings.contains_key(PEG_BOARD),
            sighted_board: settings.contains_key(SIGHTED_BOARD),
            rules: rules_for(control.as_ref()),
            control,
            form: header.form,
            duty,
        })
    }
}
