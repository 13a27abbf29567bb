//! A game of `hector play` as its journal keeps it: the header and the settings written when
//! it begins (and when a new game or a rematch follows it), and the set-up `hector resume`
//! reads back from them. One mapping for the mode and its model tests, so that whatever is
//! written is what a resume reads: the player's colour, who the opponent is, the names, the
//! clock, the level and the switches.

use std::collections::BTreeMap;

use shakmaty::{Chess, Color};

use super::{ClockAnswer, Setup, Side};
use crate::clock::{AnnounceSettings, Category, TimeControl};
use crate::game::Game;
use crate::laws::Rules;
use crate::notation::language::WordSet;
use crate::notation::speak::Form;
use crate::notation::wording::Wording;
use crate::record::{Entry, Header};
use crate::variant::Variant;

/// Who plays the other side, as the journal's setting `opponent` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordedOpponent {
    /// A second player at the keyboard (also the computer's side when no engine could be
    /// started).
    Keyboard,
    /// The computer: Stockfish, or the UCI engine at this path.
    Engine(Option<String>),
    /// The sighted player's e-board: its protocol ("dgt", "peg") and port.
    Board { protocol: String, port: String },
}

impl RecordedOpponent {
    /// Who makes the opponent's moves in the session.
    #[cfg(test)]
    pub(crate) fn side(&self) -> Side {
        match self {
            RecordedOpponent::Keyboard => Side::Keyboard,
            RecordedOpponent::Engine(_) => Side::Engine,
            RecordedOpponent::Board { .. } => Side::Board,
        }
    }

    fn setting(&self) -> String {
        match self {
            RecordedOpponent::Keyboard => "keyboard".to_string(),
            RecordedOpponent::Engine(None) => "engine".to_string(),
            RecordedOpponent::Engine(Some(path)) => format!("engine:{path}"),
            RecordedOpponent::Board { protocol, port } => format!("board:{protocol}:{port}"),
        }
    }

    fn read(value: Option<&str>) -> Result<RecordedOpponent, RecordError> {
        Ok(match value {
            None | Some("keyboard") => RecordedOpponent::Keyboard,
            Some("engine") => RecordedOpponent::Engine(None),
            Some(other) => match other.split_once(':') {
                Some(("engine", path)) => RecordedOpponent::Engine(Some(path.to_string())),
                Some(("board", rest)) => {
                    let (protocol, port) =
                        board_setting(rest).ok_or_else(|| RecordError::Board(rest.to_string()))?;
                    RecordedOpponent::Board { protocol, port }
                }
                // A word this hector does not know: a person plays the side.
                _ => RecordedOpponent::Keyboard,
            },
        })
    }
}

/// Why a journal's set-up cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("the journal's time control {0:?}: {1}")]
    TimeControl(String, String),
    #[error("the journal names a board hector cannot read: {0}")]
    Board(String),
}

/// How a game of `hector play` was set up: what its journal keeps for a resume.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayRecord {
    /// The colour of the player hector serves ("Sie spielen Weiß"); with two players at one
    /// keyboard, the one who started the game (swapped by a rematch).
    pub local: Color,
    pub opponent: RecordedOpponent,
    /// The computer's level (1..8).
    pub level: u8,
    pub control: Option<TimeControl>,
    /// Time announcements without asking (--announce).
    pub announce: bool,
    /// `zurücknehmen` allowed (off with --no-takeback).
    pub takeback: bool,
    /// bewertung and tipp (off with --no-hints).
    pub hints: bool,
    /// The local player's own board: its protocol and port.
    pub board: Option<(String, String)>,
    pub form: Form,
    /// The language of the words (`de`, `en`).
    pub language: String,
    /// The words moves are announced with; `None` when the journal did not record them.
    pub words: Option<WordSet>,
}

/// "peg:/dev/ttyACM0" to its protocol and port.
fn board_setting(value: &str) -> Option<(String, String)> {
    let (protocol, port) = value.split_once(':')?;
    crate::board::Protocol::from_name(protocol).map(|p| (p.name().to_string(), port.to_string()))
}

/// The rules a time control brings: A4b in blitz.
pub(crate) fn rules_for(control: Option<&TimeControl>) -> Rules {
    match control {
        Some(tc) if tc.category() == Category::Blitz => Rules::BLITZ,
        _ => Rules::STANDARD,
    }
}

impl PlayRecord {
    /// The session's set-up. `opponent` is who really plays the other side (the computer's
    /// side goes to the keyboard when no engine can be started), `opponent_port` names the
    /// opponent's board; the wording and the openings come from the player's configuration,
    /// not from the record.
    pub fn setup(
        &self,
        opponent: Side,
        opponent_port: Option<String>,
        openings: bool,
        wording: Wording,
    ) -> Setup {
        let local_side = if self.board.is_some() {
            Side::Board
        } else {
            Side::Keyboard
        };
        Setup {
            white: self.local.fold_wb(local_side, opponent),
            black: self.local.fold_wb(opponent, local_side),
            local: self.local,
            local_board: self.board.is_some(),
            control: self.control.clone(),
            announce: if self.announce {
                AnnounceSettings::casual()
            } else {
                AnnounceSettings::tournament()
            },
            form: self.form,
            rules: rules_for(self.control.as_ref()),
            engine_level: self.level,
            opponent_port,
            clock_answer: ClockAnswer::Remaining,
            openings,
            wording,
        }
    }

    /// The journal's header of a new game from `game`'s start: `player` plays the local
    /// colour, `opponent` (a name as PGN tags hold it) the other.
    pub fn header(&self, game: &Game, created: &str, player: &str, opponent: &str) -> Header {
        let (white, black) = self.local.fold_wb((player, opponent), (opponent, player));
        let mut header = Header::new(created, white, black);
        let variant = game.variant();
        header.variant = variant;
        header.start_fen = (game.start() != &Chess::default() || variant == Variant::Chess960)
            .then(|| {
                shakmaty::fen::Fen::from_position(game.start(), shakmaty::EnPassantMode::Legal)
                    .to_string()
            });
        header.time_control = self.control.as_ref().map(ToString::to_string);
        // Also with two players at one keyboard: the resume says "Sie spielen …" for the
        // side that started, and a rematch swaps it.
        header.local_player = Some(self.local);
        header.opponent = opponent.to_string();
        header.language = self.language.clone();
        header.words = self.words;
        header.form = self.form;
        header.rules = rules_for(self.control.as_ref());
        header
    }

    /// The settings a resume needs, as `setting` entries.
    pub fn settings(&self) -> Vec<Entry> {
        let mut settings = vec![
            ("opponent", self.opponent.setting()),
            ("level", self.level.to_string()),
            ("announce", self.announce.to_string()),
        ];
        // A resume keeps take-back off.
        if !self.takeback {
            settings.push(("takeback", "off".to_string()));
        }
        if let Some((protocol, port)) = &self.board {
            settings.push(("board", format!("{protocol}:{port}")));
        }
        // Only when switched off, so that older records read as they were.
        if !self.hints {
            settings.push(("hints", "false".to_string()));
        }
        settings
            .into_iter()
            .map(|(key, value)| Entry::Setting {
                key: key.to_string(),
                value,
            })
            .collect()
    }

    /// Reads the set-up back from a journal's header and its settings (each one's latest
    /// value).
    pub fn read(
        header: &Header,
        settings: &BTreeMap<String, String>,
    ) -> Result<PlayRecord, RecordError> {
        let control = match &header.time_control {
            Some(tc) => Some(
                tc.parse::<TimeControl>()
                    .map_err(|e| RecordError::TimeControl(tc.clone(), e.to_string()))?,
            ),
            None => None,
        };
        let opponent = RecordedOpponent::read(settings.get("opponent").map(String::as_str))?;
        let local = header.local_player.unwrap_or_else(|| older_local(header));
        Ok(PlayRecord {
            local,
            opponent,
            level: settings
                .get("level")
                .and_then(|l| l.parse().ok())
                .unwrap_or(1),
            control,
            announce: settings.get("announce").is_some_and(|a| a == "true"),
            takeback: settings.get("takeback").is_none_or(|t| t != "off"),
            hints: settings.get("hints").is_none_or(|h| h != "false"),
            board: settings.get("board").and_then(|b| board_setting(b)),
            form: header.form,
            language: header.language.clone(),
            words: header.words,
        })
    }
}

/// Journals written before every game named its player: a game at one keyboard has none.
/// The opponent's name in Black's place means the player had White; in White's place (a
/// rematch), Black.
fn older_local(header: &Header) -> Color {
    if !header.opponent.is_empty()
        && header.white == header.opponent
        && header.black != header.opponent
    {
        Color::Black
    } else {
        Color::White
    }
}

/// The journal of the game that follows the one recorded in `header` and `entries` (`neu`,
/// or `revanche` with the colours and the names swapped): its header and the settings it
/// keeps. The moves stay behind, and so do the notes of the old game's own events (where it
/// continues, the advice asked in it).
pub fn next_game(
    header: &Header,
    entries: &[Entry],
    created: &str,
    rematch: bool,
) -> (Header, Vec<Entry>) {
    let old_local = header.local_player.unwrap_or_else(|| older_local(header));
    let mut header = header.clone();
    header.created = created.to_string();
    if rematch {
        std::mem::swap(&mut header.white, &mut header.black);
        header.local_player = Some(!old_local);
    } else {
        header.local_player = Some(old_local);
    }
    let settings = entries
        .iter()
        .filter(
            |e| matches!(e, Entry::Setting { key, .. } if key != "continues" && key != "advice"),
        )
        .cloned()
        .collect();
    (header, settings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::replay;

    fn records() -> Vec<PlayRecord> {
        let mut all = Vec::new();
        for local in Color::ALL {
            for opponent in [
                RecordedOpponent::Keyboard,
                RecordedOpponent::Engine(None),
                RecordedOpponent::Engine(Some("/opt/engine".into())),
                RecordedOpponent::Board {
                    protocol: "dgt".into(),
                    port: "/dev/ttyUSB0".into(),
                },
            ] {
                for flags in 0..8u8 {
                    all.push(PlayRecord {
                        local,
                        opponent: opponent.clone(),
                        level: 1 + flags,
                        control: (flags & 1 == 1).then(|| "300+3".parse().expect("tc")),
                        announce: flags & 2 == 2,
                        takeback: flags & 4 == 4,
                        hints: flags & 1 == 0,
                        board: (flags & 2 == 0).then(|| ("peg".into(), "/dev/ttyACM0".into())),
                        form: Form::Long,
                        language: "en".into(),
                        // Either set, and none as in older journals.
                        words: [None, Some(WordSet::Fide), Some(WordSet::Language)]
                            [usize::from(flags % 3)],
                    });
                }
            }
        }
        all
    }

    fn read_back(header: &Header, entries: &[Entry]) -> PlayRecord {
        let replayed = replay(header, entries).expect("replays");
        PlayRecord::read(header, &replayed.settings).expect("reads")
    }

    /// Whatever is written is read back, for every kind of game; a new game keeps it, a
    /// rematch swaps the colour and the names and keeps the rest.
    #[test]
    fn a_record_reads_back_and_a_rematch_swaps_the_player() {
        for record in records() {
            let header = record.header(&Game::default(), "2026-11-23T12:00:00Z", "Anna", "B");
            let entries = record.settings();
            assert_eq!(read_back(&header, &entries), record);
            let names = record.local.fold_wb(("Anna", "B"), ("B", "Anna"));
            assert_eq!((header.white.as_str(), header.black.as_str()), names);
            let (same, kept) = next_game(&header, &entries, "later", false);
            assert_eq!(read_back(&same, &kept), record);
            let (swapped, kept) = next_game(&header, &entries, "later", true);
            let back = read_back(&swapped, &kept);
            assert_eq!(back.local, !record.local, "{record:?}");
            assert_eq!(
                PlayRecord {
                    local: record.local,
                    ..back
                },
                record
            );
            assert_eq!((swapped.black.as_str(), swapped.white.as_str()), names);
            let (again, kept) = next_game(&swapped, &kept, "later", true);
            assert_eq!(read_back(&again, &kept), record);
        }
    }

    /// Journals written before every game named its player: the opponent's name in White's
    /// place means the player had Black.
    #[test]
    fn an_older_journal_at_one_keyboard_finds_the_players_colour() {
        let mut h = Header::new("2026-11-23T12:00:00Z", "Spieler", "Spieler 2");
        h.opponent = "Spieler 2".into();
        let settings = BTreeMap::from([("opponent".to_string(), "keyboard".to_string())]);
        assert_eq!(
            PlayRecord::read(&h, &settings).expect("reads").local,
            Color::White
        );
        std::mem::swap(&mut h.white, &mut h.black);
        assert_eq!(
            PlayRecord::read(&h, &settings).expect("reads").local,
            Color::Black
        );
        // Its rematch, written now, names the player.
        let (next, _) = next_game(&h, &[], "later", true);
        assert_eq!(next.local_player, Some(Color::White));
        assert_eq!(
            PlayRecord::read(
                &h,
                &BTreeMap::from([("opponent".to_string(), "board:usb:x".to_string())])
            ),
            Err(RecordError::Board("usb:x".into()))
        );
    }
}
