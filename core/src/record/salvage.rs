//! A journal that does not replay in full never makes its game inaccessible. Its good part,
//! every entry before the damaged bytes or before the entry the game refuses, is replayed,
//! and where and why it stops is told in the game's words. Pure: bytes in, a game out.

use std::fmt;

use shakmaty::{Color, Position};

use super::codec::{Decoded, JournalError, decode_good_part};
use super::entry::{Entry, Header};
use super::replay::{ReplayError, Replayed, replay_prefix};
use crate::game::GameError;
use crate::notation::language::{Language, fill};

/// Where and why the good part of a journal ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The bytes of entry `entry` (from 1) and after cannot be read.
    Unreadable { entry: usize, damage: JournalError },
    /// The game refuses an entry.
    Refused(ReplayError),
}

impl Stop {
    /// The first entry (from 1, the first after the header) not in the good part.
    pub fn entry(&self) -> usize {
        match self {
            Stop::Unreadable { entry, .. } => *entry,
            Stop::Refused(e) => refused_entry(e),
        }
    }
}

/// In English, for errors and logs; [`stop_words`] says it in the game's words.
impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Unreadable { damage, .. } => write!(f, "{damage}"),
            Stop::Refused(e) => write!(f, "{e}"),
        }
    }
}

/// The entry a replay error names (0 for a start position that cannot be set up).
fn refused_entry(e: &ReplayError) -> usize {
    match e {
        ReplayError::BadStart(_) => 0,
        ReplayError::IllegalMove { entry, .. }
        | ReplayError::SanMismatch { entry, .. }
        | ReplayError::Refused { entry, .. }
        | ReplayError::ClaimMismatch { entry, .. }
        | ReplayError::TakeBackMismatch { entry, .. }
        | ReplayError::ResultMismatch { entry, .. } => *entry,
    }
}

/// The good part of a journal.
#[derive(Clone, Debug)]
pub struct Salvaged {
    pub header: Header,
    /// The entries that replay: every one before the stop.
    pub entries: Vec<Entry>,
    /// The game after them.
    pub replayed: Replayed,
    /// `None`: the whole journal replays.
    pub stop: Option<Stop>,
    /// A cut-off last record was left out (not damage: see `codec`).
    pub torn_tail: bool,
}

impl Salvaged {
    /// The move numbers played in the good part (a move is White's and Black's half-move).
    pub fn moves(&self) -> u32 {
        let game = &self.replayed.game;
        let black_first = usize::from(game.start().turn() == Color::Black);
        u32::try_from((game.ply() + black_first).div_ceil(2)).unwrap_or(u32::MAX)
    }
}

/// Why nothing of a journal can be used: no readable header, or no start position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SalvageError {
    #[error(transparent)]
    Unreadable(#[from] JournalError),
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// Reads and replays a journal as far as it goes.
pub fn salvage(bytes: &[u8]) -> Result<Salvaged, SalvageError> {
    let (decoded, damage) = decode_good_part(bytes)?;
    Ok(salvage_decoded(decoded, damage)?)
}

/// Replays what [`decode_good_part`] read, as far as the game accepts it.
pub fn salvage_decoded(
    decoded: Decoded,
    damage: Option<JournalError>,
) -> Result<Salvaged, ReplayError> {
    let Decoded {
        header,
        mut entries,
        torn_tail,
        ..
    } = decoded;
    let read = entries.len();
    let prefix = replay_prefix(&header, &entries)?;
    entries.truncate(prefix.good);
    // A refusal comes first: the entries after it do not count, readable or not.
    let stop = match (prefix.error, damage) {
        (Some(e), _) => Some(Stop::Refused(e)),
        (None, Some(damage)) => Some(Stop::Unreadable {
            entry: read + 1,
            damage,
        }),
        (None, None) => None,
    };
    Ok(Salvaged {
        header,
        entries,
        replayed: prefix.replayed,
        stop,
        torn_tail,
    })
}

/// Why nothing of a journal can be used, in `lang` (to follow "… ist nicht lesbar:").
pub fn unusable_words(error: &SalvageError, lang: &Language) -> String {
    let w = &lang.record.damaged;
    match error {
        SalvageError::Unreadable(e) => match e {
            JournalError::Empty => w.file_empty.clone(),
            JournalError::TornHeader => w.torn_header.clone(),
            JournalError::NotAJournal(_) => w.not_a_journal.clone(),
            JournalError::NewerVersion { found, supported } => fill(
                &w.newer_version,
                &[
                    ("found", &found.to_string()),
                    ("supported", &supported.to_string()),
                ],
            ),
            JournalError::Damaged { .. }
            | JournalError::DamagedTail(_)
            | JournalError::Encode(_) => w.damaged_header.clone(),
        },
        SalvageError::Replay(_) => w.bad_start.clone(),
    }
}

/// Where and why the good part ends, in one sentence in `lang`.
pub fn stop_words(stop: &Stop, lang: &Language) -> String {
    let w = &lang.record.damaged;
    let entry = stop.entry().to_string();
    let error = match stop {
        Stop::Unreadable {
            damage: JournalError::Damaged { line, offset, .. },
            ..
        } => {
            return fill(
                &w.unreadable_at,
                &[
                    ("entry", &entry),
                    ("line", &line.to_string()),
                    ("offset", &offset.to_string()),
                ],
            );
        }
        Stop::Unreadable { .. } => return fill(&w.unreadable_entry, &[("entry", &entry)]),
        Stop::Refused(e) => e,
    };
    let verdict = |word: &str| {
        if word == "correct" {
            lang.record.correct.as_str()
        } else {
            lang.record.incorrect.as_str()
        }
    };
    let why = match error {
        ReplayError::BadStart(_) => w.bad_start.clone(),
        ReplayError::IllegalMove { uci, .. } => fill(&w.illegal_move, &[("move", uci)]),
        ReplayError::SanMismatch {
            uci,
            recorded,
            actual,
            ..
        } => fill(
            &w.san_differs,
            &[("move", uci), ("recorded", recorded), ("actual", actual)],
        ),
        ReplayError::Refused { error, .. } => match error {
            GameError::GameOver(_) | GameError::Aborted => w.game_over.clone(),
            GameError::IllegalMove | GameError::TooLateToAbort => w.not_legal.clone(),
            GameError::NotYourTurn(c) => fill(&w.not_to_move, &[("color", lang.color(*c))]),
            GameError::NoDrawOffer => w.no_offer.clone(),
            GameError::ClaimRightLost => w.claim_right_lost.clone(),
        },
        ReplayError::ClaimMismatch {
            recorded, found, ..
        } => fill(
            &w.claim_differs,
            &[("recorded", verdict(recorded)), ("found", verdict(found))],
        ),
        ReplayError::TakeBackMismatch { .. } => w.take_back_differs.clone(),
        ReplayError::ResultMismatch { .. } => w.result_differs.clone(),
    };
    fill(&w.refused_entry, &[("entry", &entry), ("why", &why)])
}

#[cfg(test)]
mod tests {
    use shakmaty::Color;

    use super::*;
    use crate::game::Game;
    use crate::notation::language::language;
    use crate::outcome::{GameResult, Termination};
    use crate::record::codec::{encode_entry, encode_header};
    use crate::record::{import_pgn, replay, salvaged_pgn, salvaged_scoresheet};
    use crate::variant::Variant;

    fn header() -> Header {
        Header::new("2026-11-21T14:03:05Z", "Anna", "Bert")
    }

    /// Move entries for `sans`, played from the start.
    fn moves(sans: &str) -> Vec<Entry> {
        let mut game = Game::new(Variant::Standard);
        sans.split_whitespace()
            .map(|san| {
                let by = game.turn();
                let report = game.play_san(san).expect(san);
                Entry::from_played(&report.played, by, Variant::Standard, None)
            })
            .collect()
    }

    fn bytes_of(entries: &[Entry]) -> Vec<u8> {
        let mut bytes = encode_header(&header()).expect("header");
        for e in entries {
            bytes.extend(encode_entry(e).expect("entry"));
        }
        bytes
    }

    /// Where line `n` (from 1) begins.
    fn line_start(bytes: &[u8], n: usize) -> usize {
        std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1))
            .nth(n - 1)
            .expect("line")
    }

    /// A journal whose entry 4 the game refuses: Black moves twice (a gap after writes that
    /// failed), then more moves.
    fn refused_at_4() -> Vec<Entry> {
        let mut entries = moves("e4 e5 Nf3");
        let wrong = moves("e4 e5 Nf3 Nc6 Bb5");
        entries.push(wrong[4].clone());
        entries.extend(moves("d4 d5").into_iter().take(1));
        entries
    }

    #[test]
    fn the_prefix_replays_up_to_the_refused_entry() {
        let entries = refused_at_4();
        let prefix = replay_prefix(&header(), &entries).expect("start");
        assert_eq!(prefix.good, 3);
        assert_eq!(prefix.replayed.game.ply(), 3);
        assert!(
            matches!(
                prefix.error,
                Some(ReplayError::IllegalMove { entry: 4, .. })
            ),
            "{:?}",
            prefix.error
        );
        // The same as replaying the good entries alone.
        let good = replay(&header(), &entries[..3]).expect("good part");
        assert_eq!(prefix.replayed.game.moves(), good.game.moves());

        let all = moves("e4 e5 Nf3 Nc6");
        let whole = replay_prefix(&header(), &all).expect("start");
        assert_eq!((whole.good, whole.error), (4, None));

        let mut bad = header();
        bad.start_fen = Some("not a position".into());
        assert!(matches!(
            replay_prefix(&bad, &all),
            Err(ReplayError::BadStart(_))
        ));
    }

    #[test]
    fn a_refused_entry_that_changed_the_game_is_undone() {
        // The SAN disagrees only after the move was played on the game.
        let mut entries = moves("e4 e5");
        if let Some(Entry::Move { san, .. }) = entries.get_mut(1) {
            *san = "d5".parse().expect("san");
        }
        let prefix = replay_prefix(&header(), &entries).expect("start");
        assert_eq!(prefix.good, 1);
        assert_eq!(prefix.replayed.game.ply(), 1);
        assert!(matches!(
            prefix.error,
            Some(ReplayError::SanMismatch { entry: 2, .. })
        ));
    }

    #[test]
    fn damaged_bytes_keep_what_decodes_before_them() {
        let entries = moves("e4 e5 Nf3 Nc6 Bb5 a6");
        let bytes = bytes_of(&entries);
        // Line 5 is entry 4: flip a bit in its JSON.
        let mut bad = bytes.clone();
        bad[line_start(&bytes, 5) + 15] ^= 0x01;
        let s = salvage(&bad).expect("a good part");
        assert_eq!(s.entries, entries[..3]);
        assert_eq!(s.replayed.game.ply(), 3);
        assert_eq!(s.moves(), 2);
        assert!(!s.torn_tail);
        match &s.stop {
            Some(Stop::Unreadable {
                entry: 4,
                damage: JournalError::Damaged { line: 5, .. },
            }) => {}
            other => panic!("{other:?}"),
        }
        assert!(
            s.stop
                .as_ref()
                .is_some_and(|stop| stop.to_string().contains("line 5"))
        );

        // Two unreadable lines at the end are damage too.
        let mut tail = bytes.clone();
        tail.extend_from_slice(b"garbage\nmore garbage\n");
        let s = salvage(&tail).expect("a good part");
        assert_eq!(s.entries, entries);
        assert!(matches!(s.stop, Some(Stop::Unreadable { entry: 7, .. })));

        // A torn tail is no damage, and an intact journal has no stop.
        let cut = &bytes[..bytes.len() - 5];
        let s = salvage(cut).expect("torn");
        assert!(s.torn_tail && s.stop.is_none());
        assert_eq!(s.entries, entries[..5]);
        assert!(salvage(&bytes).expect("whole").stop.is_none());

        // Nothing to salvage without a header.
        assert!(matches!(
            salvage(b"garbage\n"),
            Err(SalvageError::Unreadable(JournalError::NotAJournal(_)))
        ));
    }

    #[test]
    fn a_refusal_before_the_damage_is_where_it_stops() {
        let entries = refused_at_4();
        let bytes = bytes_of(&entries);
        let mut bad = bytes.clone();
        bad[line_start(&bytes, 6) + 15] ^= 0x01;
        let s = salvage(&bad).expect("a good part");
        assert_eq!(s.entries.len(), 3);
        assert_eq!(s.stop.as_ref().map(Stop::entry), Some(4));
        assert!(matches!(s.stop, Some(Stop::Refused(_))));
    }

    #[test]
    fn the_stop_in_words_in_both_languages() {
        let de = language("de").expect("de");
        let en = language("en").expect("en");
        let refused = salvage(&bytes_of(&refused_at_4())).expect("salvage");
        let stop = refused.stop.expect("a stop");
        assert_eq!(
            stop_words(&stop, de),
            "Eintrag 4 passt nicht zur Partie, denn der Zug f1b5 ist nicht erlaubt"
        );
        assert_eq!(
            stop_words(&stop, en),
            "Entry 4 does not fit the game, because the move f1b5 is not legal"
        );
        let no_offer = Stop::Refused(ReplayError::Refused {
            entry: 7,
            kind: "declined draw offer",
            error: GameError::NoDrawOffer,
        });
        assert_eq!(
            stop_words(&no_offer, de),
            "Eintrag 7 passt nicht zur Partie, denn es liegt kein Remisangebot vor"
        );
        let turn = Stop::Refused(ReplayError::Refused {
            entry: 2,
            kind: "move",
            error: GameError::NotYourTurn(Color::White),
        });
        assert_eq!(
            stop_words(&turn, en),
            "Entry 2 does not fit the game, because White is not to move"
        );
        let not_legal = Stop::Refused(ReplayError::Refused {
            entry: 3,
            kind: "unpromoted pawn",
            error: GameError::IllegalMove,
        });
        assert_eq!(
            stop_words(&not_legal, de),
            "Eintrag 3 passt nicht zur Partie, denn der Zug ist nicht erlaubt"
        );
        let claim = Stop::Refused(ReplayError::ClaimMismatch {
            entry: 9,
            recorded: "correct",
            found: "incorrect",
        });
        assert_eq!(
            stop_words(&claim, de),
            "Eintrag 9 passt nicht zur Partie, denn die Reklamation ist als berechtigt \
             aufgezeichnet, ist aber unberechtigt"
        );
        let damaged = Stop::Unreadable {
            entry: 3,
            damage: JournalError::Damaged {
                line: 4,
                offset: 310,
                problem: "x".into(),
            },
        };
        assert_eq!(
            stop_words(&damaged, de),
            "Ab Eintrag 3 ist die Datei beschädigt, Zeile 4, Byte 310"
        );
        let unreadable = Stop::Unreadable {
            entry: 5,
            damage: JournalError::DamagedTail("x".into()),
        };
        assert_eq!(
            stop_words(&unreadable, de),
            "Ab Eintrag 5 ist die Datei beschädigt"
        );
        assert_eq!(
            stop_words(&unreadable, en),
            "The file is damaged from entry 5 on"
        );
    }

    #[test]
    fn the_good_part_exports_with_where_it_stops() {
        let en = language("en").expect("en");
        let de = language("de").expect("de");
        let s = salvage(&bytes_of(&refused_at_4())).expect("salvage");
        let pgn = salvaged_pgn(&s, en).expect("pgn");
        assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
        assert!(
            pgn.contains(
                "1. e4 e5 2. Nf3 { The record stops here. Entry 4 does not fit the game, because\n\
                 the move f1b5 is not legal. } *"
            ),
            "{pgn}"
        );
        // Any PGN reader gets the good moves.
        let imported = import_pgn(pgn.as_bytes(), 1).expect("import");
        assert_eq!(imported.game.ply(), 3);
        let text = salvaged_scoresheet(&s, de).expect("text");
        assert!(
            text.ends_with(
                "1. e4 e5\n2. Sf3\nDie Aufzeichnung endet hier. Eintrag 4 passt nicht zur \
                 Partie, denn der Zug f1b5 ist nicht erlaubt.\nDie Partie ist nicht beendet\n"
            ),
            "{text}"
        );

        // A good part that ended the game keeps its result.
        let mut entries = moves("e4 e5");
        entries.push(Entry::Resigned { by: Color::Black });
        entries.push(Entry::Result {
            result: GameResult::WhiteWins,
            termination: Termination::Resignation,
        });
        entries.extend(moves("e4 e5 Nf3").into_iter().skip(2));
        let s = salvage(&bytes_of(&entries)).expect("salvage");
        assert_eq!(s.stop.as_ref().map(Stop::entry), Some(5));
        let pgn = salvaged_pgn(&s, en).expect("pgn");
        assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
        assert!(pgn.trim_end().ends_with("} 1-0"), "{pgn}");

        // A journal that replays whole exports as before.
        let whole = salvage(&bytes_of(&moves("d4 d5"))).expect("salvage");
        let pgn = salvaged_pgn(&whole, en).expect("pgn");
        assert!(pgn.ends_with("1. d4 d5 *\n\n"), "{pgn}");
    }

    proptest::proptest! {
        /// Whatever happens to a journal's bytes, its good part is a prefix of what was
        /// written, replays whole, exports, and is never more than the bytes hold.
        #[test]
        fn the_good_part_of_any_damage_is_a_prefix_that_replays(
            game in 0usize..12,
            cut in 0usize..20_000,
            flips in proptest::collection::vec((0usize..20_000, 1u8..=255), 0..4),
        ) {
            static JOURNALS: std::sync::OnceLock<Vec<crate::testkit::record::SampleJournal>> =
                std::sync::OnceLock::new();
            let journals = JOURNALS.get_or_init(|| crate::testkit::record::sample_journals(12, 7));
            let j = &journals[game % journals.len()];
            let mut bytes = encode_header(&j.header).expect("header");
            for e in &j.entries {
                bytes.extend(encode_entry(e).expect("entry"));
            }
            for (at, x) in flips {
                let n = bytes.len();
                bytes[at % n] ^= x;
            }
            bytes.truncate(cut.min(bytes.len()).max(1));
            if let Ok(s) = salvage(&bytes) {
                // No damage reads as another entry: every record carries its CRC-32.
                proptest::prop_assert!(s.entries.len() <= j.entries.len());
                proptest::prop_assert_eq!(&s.entries[..], &j.entries[..s.entries.len()]);
                let replayed = replay(&s.header, &s.entries);
                proptest::prop_assert!(replayed.is_ok(), "{:?}", replayed.err());
                if let Some(stop) = &s.stop {
                    proptest::prop_assert_eq!(stop.entry(), s.entries.len() + 1);
                }
                let en = language("en").expect("en");
                proptest::prop_assert!(salvaged_pgn(&s, en).is_ok());
                proptest::prop_assert!(salvaged_scoresheet(&s, en).is_ok());
            }
        }
    }
}
