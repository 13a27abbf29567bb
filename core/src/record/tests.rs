//! Tests of the record: the codec's round trips and torn tails, replay, export and import.

use shakmaty::{Color, Square};

use super::codec::{crc32, encode_torn_marker};
use super::entry::termination_from_name;
use super::export::{clk, pgn_date};
use super::*;
use crate::game::{EventKind, Game};
use crate::laws::{ClaimKind, Rules};
use crate::notation::language::language;
use crate::outcome::{ClaimBasis, GameResult, Outcome, Termination};
use crate::variant::Variant;

/// Builds a journal by playing through the game's own API, as the play mode does.
struct Builder {
    header: Header,
    game: Game,
    entries: Vec<Entry>,
    clock: Times,
}

impl Builder {
    fn new(header: Header) -> Builder {
        let game = replay(&header, &[]).expect("start").game;
        Builder {
            header,
            game,
            entries: Vec::new(),
            clock: Times {
                white_ms: 5_400_000,
                black_ms: 5_400_000,
            },
        }
    }

    fn standard() -> Builder {
        let mut h = Header::new("2026-11-21T14:03:05Z", "Anna Schmidt", "Stockfish");
        h.event = "Vereinsabend".into();
        h.site = "Berlin GER".into();
        h.time_control = Some("5400+30".into());
        h.opponent = "engine Stockfish 15.1, level 3".into();
        Builder::new(h)
    }

    fn mv(&mut self, san: &str) -> &mut Builder {
        let by = self.game.turn();
        let report = self.game.play_san(san).expect(san);
        // Each move takes 40 s, then 30 s come back.
        let now = self.clock.of(by);
        self.clock.set(by, now - 40_000 + 30_000);
        self.entries.push(Entry::from_played(
            &report.played,
            by,
            self.game.variant(),
            Some(self.clock),
        ));
        self
    }

    fn moves(&mut self, sans: &str) -> &mut Builder {
        for san in sans.split_whitespace() {
            self.mv(san);
        }
        self
    }

    fn entry(&mut self, e: Entry) -> &mut Builder {
        // The clock receives a penalty as it is written.
        if let Entry::Penalty {
            beneficiary, ms, ..
        } = &e
        {
            let now = self.clock.of(*beneficiary);
            self.clock.set(*beneficiary, now + ms);
        }
        self.entries.push(e);
        self
    }

    fn replayed(&self) -> Replayed {
        replay(&self.header, &self.entries).expect("replays")
    }
}

fn uci(s: &str) -> shakmaty::uci::UciMove {
    s.parse().expect("uci")
}

/// One entry of every kind.
fn every_kind() -> Vec<Entry> {
    vec![
        Entry::Move {
            uci: uci("e2e4"),
            san: "e4".parse().expect("san"),
            by: Color::White,
            clock: Some(Times {
                white_ms: 1,
                black_ms: 2,
            }),
        },
        Entry::Move {
            uci: uci("e7e8q"),
            san: "e8=Q+".parse().expect("san"),
            by: Color::Black,
            clock: None,
        },
        Entry::Touched {
            by: Color::Black,
            square: Square::G8,
        },
        Entry::DrawOffered { by: Color::White },
        Entry::DrawDeclined { by: Color::Black },
        Entry::DrawAccepted { by: Color::Black },
        Entry::Claim {
            by: Color::White,
            kind: ClaimKind::Threefold,
            intended: Some(uci("g1f3")),
            correct: false,
        },
        Entry::Claim {
            by: Color::Black,
            kind: ClaimKind::FiftyMoves,
            intended: None,
            correct: true,
        },
        Entry::Penalty {
            beneficiary: Color::Black,
            ms: 120_000,
            article: "7.5b".into(),
        },
        Entry::IllegalMove { by: Color::White },
        Entry::UnpromotedPawn {
            by: Color::White,
            uci: uci("a7a8"),
            clock: None,
        },
        Entry::Resigned { by: Color::Black },
        Entry::FlagFell {
            color: Color::White,
        },
        Entry::BothFlagsFell { last_period: true },
        Entry::TakenBack { uci: uci("e1h1") },
        Entry::ClockCheckpoint {
            white_ms: 3,
            black_ms: 4,
            running: Some(Color::Black),
            paused: false,
            used: None,
        },
        Entry::ClockCheckpoint {
            white_ms: 3,
            black_ms: 4,
            running: None,
            paused: true,
            used: Some(Times {
                white_ms: 5,
                black_ms: 6,
            }),
        },
        Entry::ClockPaused,
        Entry::ClockResumed,
        Entry::MovesAdjusted {
            color: Color::Black,
            moves: 20,
        },
        Entry::BoardMismatch {
            board: Color::White,
            agreed_plies: Some(3),
            detail: "Eva fünf: weißer Bauer".into(),
        },
        Entry::BoardMismatch {
            board: Color::Black,
            agreed_plies: None,
            detail: "x".into(),
        },
        Entry::BoardReconciled {
            board: Color::Black,
            how: entry::Reconciled::TakenBack,
        },
        Entry::Adjourned {
            by: Color::White,
            move_number: 41,
        },
        Entry::AdjournmentResumed,
        Entry::TakebackAgreed { by: Color::Black },
        Entry::TakebackDeclined { by: Color::White },
        Entry::Aborted { by: Color::White },
        Entry::ClockAdjusted {
            color: Color::White,
            remaining_ms: 600_000,
        },
        Entry::Result {
            result: GameResult::Draw,
            termination: Termination::Threefold(ClaimBasis::OnTheBoard),
        },
        Entry::Setting {
            key: "speech.rate".into(),
            value: "20".into(),
        },
        Entry::Note {
            text: "Uhr getauscht, \"neue\" {Batterie}\n\tok".into(),
        },
    ]
}

fn full_header() -> Header {
    let mut h = Header::new("2026-11-21T14:03:05Z", "Weiß, \"Anna\"", "Schwarz\\Bert");
    h.event = "Vereinsabend".into();
    h.variant = Variant::Chess960;
    h.start_fen = Some("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1".into());
    h.time_control = Some("40/5400+30:1800+30".into());
    h.local_player = Some(Color::Black);
    h.opponent = "keyboard".into();
    h.language = "en".into();
    h.form = crate::notation::speak::Form::Long;
    h.rules = Rules::UNSUPERVISED_RAPID;
    h
}

/// A record around any JSON, framed as the codec does.
fn framed(json: &[u8]) -> Vec<u8> {
    let mut out = format!("{}\t{:08x}\t", json.len(), crc32(json)).into_bytes();
    out.extend_from_slice(json);
    out.push(b'\n');
    out
}

fn journal_of(entries: &[Entry]) -> Vec<u8> {
    let mut bytes = encode_header(&full_header()).expect("header");
    for e in entries {
        bytes.extend(encode_entry(e).expect("entry"));
    }
    bytes
}

#[test]
fn crc32_matches_the_standard_check_value() {
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    assert_eq!(crc32(b""), 0);
}

#[test]
fn every_entry_kind_round_trips() {
    let entries = every_kind();
    let bytes = journal_of(&entries);
    let d = decode(&bytes).expect("decodes");
    assert_eq!(d.header, full_header());
    assert_eq!(d.entries, entries);
    assert!(!d.torn_tail);
    assert_eq!(d.valid_len, bytes.len());
    assert_eq!(d.lines, (2..entries.len() + 2).collect::<Vec<_>>());
    // One record per line, each `len<TAB>crc<TAB>json`.
    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let fields: Vec<&[u8]> = line.splitn(3, |&b| b == b'\t').collect();
        assert_eq!(fields.len(), 3);
        let len: usize = std::str::from_utf8(fields[0])
            .expect("ascii")
            .parse()
            .expect("length");
        assert_eq!(len, fields[2].len());
        assert_eq!(
            std::str::from_utf8(fields[1]).expect("ascii"),
            format!("{:08x}", crc32(fields[2]))
        );
    }
}

#[test]
fn the_header_record_names_the_format_and_version() {
    let bytes = encode_header(&Header::new("2026-11-21T14:03:05Z", "A", "B")).expect("header");
    let text = String::from_utf8(bytes).expect("utf-8");
    assert!(
        text.contains(
            "\t{\"journal\":\"hector\",\"version\":2,\"created\":\"2026-11-21T14:03:05Z\""
        ),
        "{text}"
    );
}

#[test]
fn terminations_have_names_that_read_back() {
    for name in [
        "checkmate",
        "resignation",
        "stalemate",
        "insufficient-material",
        "locked-pawns",
        "agreement",
        "threefold-intended-move",
        "threefold-on-the-board",
        "fifty-moves-intended-move",
        "fifty-moves-on-the-board",
        "fivefold",
        "seventy-five-moves",
        "flag-fall",
        "both-flags",
        "illegal-moves",
    ] {
        let t = termination_from_name(name).expect(name);
        assert_eq!(super::entry::termination_name(t), name);
    }
    assert_eq!(termination_from_name("forfeit"), None);
}

#[test]
fn a_last_record_cut_at_every_byte_is_a_torn_tail() {
    let entries = every_kind();
    let complete = journal_of(&entries);
    let last = encode_entry(entries.last().expect("entries")).expect("entry");
    let start = complete.len() - last.len();
    for cut in start + 1..complete.len() {
        let d = decode(&complete[..cut]).unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
        assert!(d.torn_tail, "cut at {cut}");
        assert_eq!(d.entries, entries[..entries.len() - 1], "cut at {cut}");
        assert_eq!(d.valid_len, start);
    }
    // Cut exactly between records: nothing is torn.
    let d = decode(&complete[..start]).expect("clean");
    assert!(!d.torn_tail);
    assert_eq!(d.entries.len(), entries.len() - 1);
}

#[test]
fn zeros_after_a_power_cut_are_a_torn_tail() {
    let entries = every_kind();
    let mut bytes = journal_of(&entries);
    bytes.extend_from_slice(&[0u8; 4096]);
    let d = decode(&bytes).expect("decodes");
    assert!(d.torn_tail);
    assert_eq!(d.entries, entries);
}

#[test]
fn a_damaged_middle_record_is_an_error_naming_line_and_byte() {
    let entries = every_kind();
    let bytes = journal_of(&entries);
    let lines: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', &bytes).map(|i| i + 1))
        .collect();
    // Line 5: flip a bit inside its JSON.
    let offset = lines[4];
    let mut bad = bytes.clone();
    bad[offset + 15] ^= 0x01;
    match decode(&bad) {
        Err(JournalError::Damaged {
            line,
            offset: at,
            problem,
        }) => {
            assert_eq!(line, 5);
            assert_eq!(at, offset);
            assert!(problem.contains("checksum"), "{problem}");
        }
        other => panic!("{other:?}"),
    }
    let message = decode(&bad).expect_err("damaged").to_string();
    assert!(
        message.contains("line 5") && message.contains("byte"),
        "{message}"
    );
    // A missing line end glues two records: damage as well.
    let mut glued = bytes.clone();
    glued.remove(lines[3] - 1);
    assert!(matches!(
        decode(&glued),
        Err(JournalError::Damaged { line: 3, .. })
    ));
    // Two unreadable lines at the end are not one cut-off write.
    let mut two = bytes.clone();
    two.extend_from_slice(b"garbage\nmore garbage\n");
    assert!(matches!(decode(&two), Err(JournalError::DamagedTail(_))));
}

#[test]
fn a_newer_version_is_refused_clearly() {
    let json = br#"{"journal":"hector","version":3,"something":"new"}"#;
    let mut bytes = format!("{}\t{:08x}\t", json.len(), crc32(json)).into_bytes();
    bytes.extend_from_slice(json);
    bytes.extend_from_slice(b"\nwhatever a newer hector writes\n");
    let err = decode(&bytes).expect_err("newer");
    assert_eq!(
        err,
        JournalError::NewerVersion {
            found: 3,
            supported: FORMAT_VERSION
        }
    );
    assert!(err.to_string().contains("newer hector"), "{err}");
}

#[test]
fn other_files_and_torn_headers() {
    assert_eq!(decode(b""), Err(JournalError::Empty));
    assert!(matches!(
        decode(b"[Event \"x\"]\n1. e4 *\n"),
        Err(JournalError::NotAJournal(_))
    ));
    let header = encode_header(&full_header()).expect("header");
    for cut in 1..header.len() {
        assert_eq!(
            decode(&header[..cut]),
            Err(JournalError::TornHeader),
            "cut at {cut}"
        );
    }
    let json = br#"{"journal":"other","version":1}"#;
    let mut other = format!("{}\t{:08x}\t", json.len(), crc32(json)).into_bytes();
    other.extend_from_slice(json);
    other.push(b'\n');
    assert!(matches!(decode(&other), Err(JournalError::NotAJournal(_))));
}

#[test]
fn a_torn_marker_acknowledges_exactly_its_fragment() {
    let entries = every_kind();
    let bytes = journal_of(&entries[..3]);
    let record = encode_entry(&entries[3]).expect("entry");
    for cut in 1..record.len() {
        let mut torn = bytes.clone();
        torn.extend_from_slice(&record[..cut]);
        let d = decode(&torn).expect("torn");
        assert!(d.torn_tail);
        // Continue as io::journal does: the marker, then new records.
        torn.extend(encode_torn_marker(&torn[d.valid_len..]));
        torn.extend(encode_entry(&entries[3]).expect("entry"));
        torn.extend(encode_entry(&entries[4]).expect("entry"));
        let d = decode(&torn).unwrap_or_else(|e| panic!("cut {cut}: {e}"));
        assert!(!d.torn_tail);
        assert_eq!(d.acknowledged, 1);
        assert_eq!(d.entries, entries[..5]);
    }
    // A marker whose count does not match is damage.
    let mut wrong = bytes.clone();
    wrong.extend_from_slice(&record[..10]);
    wrong.extend(encode_torn_marker(&record[..9]));
    wrong.extend(encode_entry(&entries[3]).expect("entry"));
    assert!(matches!(decode(&wrong), Err(JournalError::Damaged { .. })));
    // A marker after an intact record it does not match is damage too.
    let mut stray = bytes.clone();
    stray.extend(framed(br#"{"type":"torn","bytes":5,"crc32":"00000000"}"#));
    assert!(matches!(
        decode(&stray),
        Err(JournalError::Damaged { line: 5, .. })
    ));
}

#[test]
fn a_marker_cut_off_in_its_turn_is_still_a_torn_tail() {
    let entries = every_kind();
    let mut bytes = journal_of(&entries[..3]);
    let record = encode_entry(&entries[3]).expect("entry");
    bytes.extend_from_slice(&record[..20]);
    let d = decode(&bytes).expect("torn");
    let marker = encode_torn_marker(&bytes[d.valid_len..]);
    bytes.extend_from_slice(&marker[..marker.len() / 2]);
    let d = decode(&bytes).expect("still torn");
    assert!(d.torn_tail);
    assert_eq!(d.entries, entries[..3]);
    // The next resume acknowledges both fragments with one marker.
    bytes.extend(encode_torn_marker(&bytes[d.valid_len..]));
    bytes.extend(encode_entry(&entries[3]).expect("entry"));
    let d = decode(&bytes).expect("continued");
    assert_eq!(d.entries, entries[..4]);
}

proptest::proptest! {
    #[test]
    fn any_bytes_never_panic_the_decoder(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600)) {
        let _ = decode(&bytes);
    }

    #[test]
    fn damaged_journals_never_panic(cut in 0usize..4000, flips in proptest::collection::vec((0usize..4000, 0u8..=255), 0..4)) {
        let mut bytes = journal_of(&every_kind());
        for (at, x) in flips {
            let n = bytes.len();
            bytes[at % n] ^= x;
        }
        bytes.truncate(cut.min(bytes.len()));
        if let Ok(d) = decode(&bytes) {
            proptest::prop_assert!(d.valid_len <= bytes.len());
            let _ = replay(&d.header, &d.entries);
        }
    }

    #[test]
    fn record_like_lines_never_panic(text in "([0-9]{0,3}\t[0-9a-f]{0,8}\t\\{[\"a-z:,0-9{}]{0,40}\\}?\n?){0,5}") {
        let _ = decode(text.as_bytes());
    }
}

// ---------------------------------------------------------------------------------------
// Replay

#[test]
fn replay_rebuilds_moves_clock_and_settings() {
    let mut b = Builder::standard();
    b.moves("e4 e5 Nf3 Nc6")
        .entry(Entry::Setting {
            key: "speech.rate".into(),
            value: "10".into(),
        })
        .entry(Entry::Setting {
            key: "speech.rate".into(),
            value: "20".into(),
        })
        .entry(Entry::ClockCheckpoint {
            white_ms: 5_000_000,
            black_ms: 5_100_000,
            running: Some(Color::White),
            paused: false,
            used: None,
        });
    let r = b.replayed();
    assert_eq!(r.game.ply(), 4);
    assert_eq!(r.game.moves()[2].san.to_string(), "Nf3");
    let clock = r.clock.expect("clock");
    assert_eq!(clock.times.white_ms, 5_000_000);
    assert_eq!(clock.running, Some(Color::White));
    assert_eq!(
        r.settings.get("speech.rate").map(String::as_str),
        Some("20")
    );
    assert_eq!(r.outcome(), None);

    // Without the checkpoint, the last move's times; Black's clock runs after White's move.
    b.entries.pop();
    b.mv("Bb5");
    let clock = b.replayed().clock.expect("clock");
    assert_eq!(clock.running, Some(Color::Black));
    assert_eq!(clock.times, b.clock);
}

#[test]
fn replay_of_offers_declined_aloud_by_move_and_accepted() {
    let mut b = Builder::standard();
    b.moves("e4")
        .entry(Entry::DrawOffered { by: Color::White })
        .entry(Entry::DrawDeclined { by: Color::Black })
        .moves("e5 Nf3")
        .entry(Entry::DrawOffered { by: Color::White })
        .moves("Nc6");
    let r = b.replayed();
    let kinds: Vec<&EventKind> = r.game.events().iter().map(|e| &e.kind).collect();
    assert_eq!(
        kinds,
        [
            &EventKind::DrawOffered(Color::White),
            &EventKind::DrawDeclined(Color::Black),
            &EventKind::DrawOffered(Color::White),
            &EventKind::DrawDeclined(Color::Black),
        ]
    );
    assert_eq!(r.game.pending_draw_offer(), None);

    b.entry(Entry::DrawOffered { by: Color::Black });
    assert_eq!(b.replayed().game.pending_draw_offer(), Some(Color::Black));
    b.entry(Entry::DrawAccepted { by: Color::White })
        .entry(Entry::Result {
            result: GameResult::Draw,
            termination: Termination::Agreement,
        });
    let r = b.replayed();
    assert_eq!(r.outcome(), Some(Outcome::draw(Termination::Agreement)));
    assert_eq!(r.declared, None);
}

#[test]
fn replay_of_claims_correct_and_incorrect() {
    // Incorrect claim on the board: penalty, the claim stands as an offer (9.1b4).
    let mut b = Builder::standard();
    b.moves("Nf3 Nf6 Ng1 Ng8")
        .entry(Entry::Claim {
            by: Color::White,
            kind: ClaimKind::Threefold,
            intended: None,
            correct: false,
        })
        .entry(Entry::Penalty {
            beneficiary: Color::Black,
            ms: 120_000,
            article: "9.5b".into(),
        })
        // The game made the offer itself; a DrawOffered entry for it is tolerated.
        .entry(Entry::DrawOffered { by: Color::White });
    let r = b.replayed();
    assert_eq!(r.game.pending_draw_offer(), Some(Color::White));
    let offers = r
        .game
        .events()
        .iter()
        .filter(|e| e.kind == EventKind::DrawOffered(Color::White))
        .count();
    assert_eq!(offers, 1, "the offer is not made twice");
    // The penalty went to Black's clock.
    let clock = r.clock.expect("clock");
    assert_eq!(clock.times.black_ms, b.clock.black_ms);

    // Incorrect claim on an intended move: the game plays it; the Move entry after it gives
    // its clock times only.
    b.moves("Nf3 Nf6");
    b.entry(Entry::Claim {
        by: Color::White,
        kind: ClaimKind::Threefold,
        intended: Some(uci("f3g5")),
        correct: false,
    });
    let before = b.replayed().game.ply();
    b.entry(Entry::Move {
        uci: uci("f3g5"),
        san: "Ng5".parse().expect("san"),
        by: Color::White,
        clock: Some(Times {
            white_ms: 1,
            black_ms: 2,
        }),
    });
    let r = b.replayed();
    assert_eq!(r.game.ply(), before, "the move is not played twice");
    assert_eq!(r.clock.map(|c| c.times.white_ms), Some(1));
    b.entries.pop();
    b.game = b.replayed().game;

    // Correct claim with an intended move: Ng1 brings the start position a third time? Play
    // on to a real repetition first.
    b.moves("Ng8 Nf3 Nf6 Ng1");
    b.entry(Entry::Claim {
        by: Color::Black,
        kind: ClaimKind::Threefold,
        intended: Some(uci("f6g8")),
        correct: true,
    })
    .entry(Entry::Result {
        result: GameResult::Draw,
        termination: Termination::Threefold(ClaimBasis::IntendedMove),
    });
    let r = b.replayed();
    assert_eq!(
        r.outcome(),
        Some(Outcome::draw(Termination::Threefold(
            ClaimBasis::IntendedMove
        )))
    );

    // A claim recorded with the wrong verdict is an error.
    let last = b.entries.len() - 2;
    b.entries[last] = Entry::Claim {
        by: Color::Black,
        kind: ClaimKind::Threefold,
        intended: Some(uci("f6g8")),
        correct: false,
    };
    let err = replay(&b.header, &b.entries).expect_err("mismatch");
    assert!(matches!(err, ReplayError::ClaimMismatch { .. }), "{err}");
}

#[test]
fn replay_of_illegal_moves_and_results() {
    let mut b = Builder::standard();
    b.moves("e4 e5")
        .entry(Entry::IllegalMove { by: Color::White })
        .entry(Entry::Penalty {
            beneficiary: Color::Black,
            ms: 120_000,
            article: "7.5b".into(),
        });
    let r = b.replayed();
    assert_eq!(r.game.illegal_move_count(Color::White), 1);
    assert!(r.outcome().is_none());
    b.entry(Entry::IllegalMove { by: Color::White })
        .entry(Entry::Result {
            result: GameResult::BlackWins,
            termination: Termination::IllegalMoves,
        });
    let r = b.replayed();
    assert_eq!(
        r.outcome(),
        Some(Outcome::win(Color::Black, Termination::IllegalMoves))
    );
    // A move after the end is refused, naming the entry.
    b.mv_raw("g1f3", "Nf3", Color::White);
    let err = replay(&b.header, &b.entries).expect_err("after the end");
    assert!(
        err.to_string()
            .contains(&format!("entry {}", b.entries.len())),
        "{err}"
    );

    // Under A4b the first illegal move loses.
    let mut b = Builder::standard();
    b.header.rules = Rules::UNSUPERVISED_RAPID;
    b.moves("e4").entry(Entry::IllegalMove { by: Color::Black });
    assert_eq!(b.replayed().result(), Some(GameResult::WhiteWins));
}

impl Builder {
    fn mv_raw(&mut self, u: &str, san: &str, by: Color) {
        self.entries.push(Entry::Move {
            uci: uci(u),
            san: san.parse().expect("san"),
            by,
            clock: None,
        });
    }
}

#[test]
fn replay_checks_results_and_keeps_declared_ones() {
    let mut b = Builder::standard();
    b.moves("f3 e5 g4 Qh4#");
    b.entry(Entry::Result {
        result: GameResult::BlackWins,
        termination: Termination::Checkmate,
    });
    assert_eq!(
        b.replayed().outcome(),
        Some(Outcome::win(Color::Black, Termination::Checkmate))
    );
    let last = b.entries.len() - 1;
    b.entries[last] = Entry::Result {
        result: GameResult::WhiteWins,
        termination: Termination::Resignation,
    };
    assert!(matches!(
        replay(&b.header, &b.entries),
        Err(ReplayError::ResultMismatch { .. })
    ));

    // A result the moves do not decide is kept as declared (an arbiter's decision).
    let mut b = Builder::standard();
    b.moves("e4 e5").entry(Entry::Result {
        result: GameResult::WhiteWins,
        termination: Termination::FlagFall,
    });
    let r = b.replayed();
    assert_eq!(r.declared, r.game.outcome());
    assert_eq!(
        r.outcome(),
        Some(Outcome::win(Color::White, Termination::FlagFall))
    );
    // The game ends there: nothing is played after a declared result.
    assert!(r.game.is_over());
}

#[test]
fn replay_of_resignation_flags_touch_takeback_and_unpromoted_pawn() {
    let mut b = Builder::standard();
    b.moves("e4 e5").entry(Entry::Touched {
        by: Color::White,
        square: Square::G1,
    });
    assert_eq!(
        b.replayed().game.touched(),
        Some((Color::White, Square::G1))
    );
    b.moves("Nf3").entry(Entry::TakenBack { uci: uci("g1f3") });
    assert_eq!(b.replayed().game.ply(), 2);
    b.entry(Entry::TakenBack { uci: uci("g1f3") });
    assert!(matches!(
        replay(&b.header, &b.entries),
        Err(ReplayError::TakeBackMismatch { .. })
    ));
    b.entries.pop();
    b.entry(Entry::FlagFell {
        color: Color::White,
    });
    assert_eq!(
        b.replayed().outcome(),
        Some(Outcome::win(Color::Black, Termination::FlagFall))
    );

    let mut b = Builder::standard();
    b.moves("e4").entry(Entry::Resigned { by: Color::Black });
    assert_eq!(b.replayed().result(), Some(GameResult::WhiteWins));

    // 7.5a: the pawn becomes a queen and the illegal move counts.
    let mut h = Header::new("2026-11-21T14:03:05Z", "A", "B");
    h.start_fen = Some("4k3/P7/8/8/8/8/8/4K3 w - - 0 1".into());
    let mut b = Builder::new(h);
    b.entry(Entry::UnpromotedPawn {
        by: Color::White,
        uci: uci("a7a8"),
        clock: Some(Times {
            white_ms: 7,
            black_ms: 8,
        }),
    })
    .entry(Entry::Move {
        uci: uci("a7a8q"),
        san: "a8=Q+".parse().expect("san"),
        by: Color::White,
        clock: Some(Times {
            white_ms: 9,
            black_ms: 8,
        }),
    });
    let r = b.replayed();
    assert_eq!(r.game.ply(), 1);
    assert_eq!(r.game.moves()[0].san.to_string(), "a8=Q+");
    assert_eq!(r.game.illegal_move_count(Color::White), 1);
    assert_eq!(r.clock.map(|c| c.times.white_ms), Some(9));
}

#[test]
fn replay_refuses_wrong_moves_and_bad_starts() {
    let mut b = Builder::standard();
    b.mv_raw("e2e5", "e5", Color::White);
    assert!(matches!(
        replay(&b.header, &b.entries),
        Err(ReplayError::IllegalMove { entry: 1, .. })
    ));
    let mut b = Builder::standard();
    b.mv_raw("e2e4", "d4", Color::White);
    let err = replay(&b.header, &b.entries).expect_err("san");
    assert!(err.to_string().contains("journal says d4"), "{err}");
    let mut b = Builder::standard();
    b.mv_raw("e2e4", "e4", Color::Black);
    assert!(replay(&b.header, &b.entries).is_err());
    let mut h = Header::new("x", "a", "b");
    h.start_fen = Some("not a fen".into());
    assert!(matches!(replay(&h, &[]), Err(ReplayError::BadStart(_))));
}

#[test]
fn chess960_castling_replays() {
    let mut h = Header::new("2026-11-21T14:03:05Z", "A", "B");
    h.variant = Variant::Chess960;
    h.start_fen = Some("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1".into());
    let mut b = Builder::new(h);
    b.moves("O-O O-O-O");
    match &b.entries[0] {
        Entry::Move { uci: u, .. } => assert_eq!(u.to_string(), "b1h1"),
        other => panic!("{other:?}"),
    }
    let r = b.replayed();
    assert_eq!(r.game.ply(), 2);
    let pgn = to_pgn(&b.header, &b.entries, language("en").expect("en")).expect("pgn");
    // X-FEN: KQkq stands for the outermost rooks. The tags after the roster in ASCII order.
    assert!(
        pgn.contains(
            "[Result \"*\"]\n\
             [FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1\"]\n\
             [SetUp \"1\"]\n\
             [Termination \"unterminated\"]\n\
             [TimeControl \"-\"]\n\
             [Variant \"Chess960\"]\n\n"
        ),
        "{pgn}"
    );
    let imported = import_pgn(pgn.as_bytes(), 1).expect("import");
    assert_eq!(imported.game.moves(), r.game.moves());
}

// ---------------------------------------------------------------------------------------
// Export

fn golden_game() -> Builder {
    let mut b = Builder::standard();
    b.moves("e4 e5 Nf3")
        .entry(Entry::DrawOffered { by: Color::White })
        .moves("Nc6 Bb5 a6")
        .entry(Entry::IllegalMove { by: Color::White })
        .entry(Entry::Penalty {
            beneficiary: Color::Black,
            ms: 120_000,
            article: "7.5b".into(),
        })
        .entry(Entry::Note {
            text: "Die Uhr wurde getauscht {neue Batterie}".into(),
        })
        .moves("Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7")
        .entry(Entry::Claim {
            by: Color::White,
            kind: ClaimKind::FiftyMoves,
            intended: None,
            correct: false,
        })
        .entry(Entry::Penalty {
            beneficiary: Color::Black,
            ms: 120_000,
            article: "9.5b".into(),
        })
        .moves("c4")
        .entry(Entry::Resigned { by: Color::Black })
        .entry(Entry::Result {
            result: GameResult::WhiteWins,
            termination: Termination::Resignation,
        });
    b
}

const GOLDEN_PGN: &str = r#"[Event "Vereinsabend"]
[Site "Berlin GER"]
[Date "2026.11.21"]
[Round "-"]
[White "Anna Schmidt"]
[Black "Stockfish"]
[Result "1-0"]
[Termination "normal"]
[TimeControl "5400+30"]

1. e4 { [%clk 1:29:50] } 1... e5 { [%clk 1:29:50] } 2. Nf3 { [%clk 1:29:40] }
{ (=) } 2... Nc6 { [%clk 1:29:40] } 3. Bb5 { [%clk 1:29:30] } 3... a6
{ [%clk 1:29:30] } { Illegal move by White, Article 7.5 } { 2 minutes added to
Black's clock, Article 7.5b } { Arbiter: Die Uhr wurde getauscht (neue
Batterie) } 4. Ba4 { [%clk 1:29:20] } 4... Nf6 { [%clk 1:31:20] } 5. O-O
{ [%clk 1:29:10] } 5... Be7 { [%clk 1:31:10] } 6. Re1 { [%clk 1:29:00] }
6... b5 { [%clk 1:31:00] } 7. Bb3 { [%clk 1:28:50] } 7... d6 { [%clk 1:30:50] }
8. c3 { [%clk 1:28:40] } 8... O-O { [%clk 1:30:40] } 9. h3 { [%clk 1:28:30] }
9... Nb8 { [%clk 1:30:30] } 10. d4 { [%clk 1:28:20] } 10... Nbd7
{ [%clk 1:30:20] } { White claims a draw by the fifty-move rule: incorrect }
{ 2 minutes added to Black's clock, Article 9.5b } 11. c4 { [%clk 1:28:10] }
1-0

"#;

#[test]
fn pgn_export_golden() {
    let b = golden_game();
    let pgn = to_pgn(&b.header, &b.entries, language("en").expect("en")).expect("pgn");
    assert_eq!(pgn, GOLDEN_PGN, "\n{pgn}");
    for line in pgn.lines() {
        assert!(line.chars().count() < 80, "{line}");
        assert!(!line.starts_with('%'), "{line}");
    }
    // hector's own reader gets the same game back.
    let imported = import_pgn(pgn.as_bytes(), 1).expect("import");
    assert_eq!(imported.game.moves(), b.replayed().game.moves());
    assert_eq!(imported.tags.result, Some(GameResult::WhiteWins));
    assert_eq!(imported.tags.time_control.as_deref(), Some("5400+30"));
}

#[test]
fn pgn_export_in_german_and_unfinished() {
    let mut b = Builder::standard();
    b.header.white = String::new();
    b.header.event = String::new();
    b.header.time_control = None;
    b.moves("d4").entry(Entry::Penalty {
        beneficiary: Color::White,
        ms: 60_000,
        article: "12.9".into(),
    });
    let pgn = to_pgn(&b.header, &b.entries, language("de").expect("de")).expect("pgn");
    assert!(pgn.contains("[Event \"?\"]\n"), "{pgn}");
    assert!(pgn.contains("[White \"?\"]\n"), "{pgn}");
    assert!(pgn.contains("[Result \"*\"]\n"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"-\"]\n"), "{pgn}");
    assert!(pgn.contains("[Termination \"unterminated\"]\n"), "{pgn}");
    assert!(
        pgn.contains("{ 1 Minute Zeitgutschrift für Weiß, Artikel 12.9 } *"),
        "{pgn}"
    );
}

#[test]
fn tag_values_are_escaped_and_long_notes_wrapped() {
    let mut b = Builder::new(full_header());
    b.header.variant = Variant::Standard;
    b.header.start_fen = None;
    b.entry(Entry::Note {
        text: format!("{} %escape {}", "wort ".repeat(30), "x".repeat(200)),
    });
    let pgn = to_pgn(&b.header, &b.entries, language("en").expect("en")).expect("pgn");
    assert!(pgn.contains(r#"[White "Weiß, \"Anna\""]"#), "{pgn}");
    assert!(pgn.contains(r#"[Black "Schwarz\\Bert"]"#), "{pgn}");
    for line in pgn.lines() {
        assert!(line.chars().count() < 80, "{line}");
        assert!(!line.starts_with('%'), "{line}");
    }
}

/// A tag value is held to the standard's 255 characters as written: cut at a character
/// (never inside a letter of several bytes, never between a backslash and what it escapes).
#[test]
fn long_tag_values_are_cut_to_255_characters() {
    let value = |pgn: &str, name: &str| -> String {
        let head = format!("[{name} \"");
        let line = pgn
            .lines()
            .find(|l| l.starts_with(&head))
            .unwrap_or_else(|| panic!("{name}: {pgn}"));
        line[head.len()..line.len() - 2].to_string()
    };
    let mut b = Builder::standard();
    b.header.event = "ü".repeat(300);
    b.header.site = format!("{}\"{}", "s".repeat(254), "t".repeat(10));
    b.header.white = "a".repeat(255);
    b.header.black = format!("{}\\", "b".repeat(253));
    let pgn = to_pgn(&b.header, &b.entries, language("en").expect("en")).expect("pgn");
    assert_eq!(value(&pgn, "Event"), "ü".repeat(255));
    // The quote would be the 255th and 256th character: it is left out whole.
    assert_eq!(value(&pgn, "Site"), "s".repeat(254));
    assert_eq!(value(&pgn, "White"), "a".repeat(255));
    assert_eq!(value(&pgn, "Black"), format!("{}\\\\", "b".repeat(253)));
    let imported = import_pgn(pgn.as_bytes(), 1).expect("import");
    assert_eq!(imported.tags.event, Some("ü".repeat(255)));
    assert_eq!(imported.tags.black, Some(format!("{}\\", "b".repeat(253))));
}

#[test]
fn scoresheet_text_golden() {
    let b = golden_game();
    let text = scoresheet_text(&b.header, &b.entries, language("de").expect("de")).expect("text");
    assert_eq!(
        text,
        "Anna Schmidt gegen Stockfish\n\
         Veranstaltung: Vereinsabend\n\
         Ort: Berlin GER\n\
         Datum: 2026-11-21\n\
         Bedenkzeit: 5400+30\n\
         Gegner: engine Stockfish 15.1, level 3\n\
         \n\
         1. e4 e5\n\
         2. Sf3 (=) Sc6\n\
         3. Lb5 a6\n\
         4. La4 Sf6\n\
         5. 0-0 Le7\n\
         6. Te1 b5\n\
         7. Lb3 d6\n\
         8. c3 0-0\n\
         9. h3 Sb8\n\
         10. d4 Sbd7\n\
         11. c4\n\
         Ergebnis: 1-0, Weiß gewinnt: Aufgabe, Artikel 5.1b\n"
    );
    let en = scoresheet_text(&b.header, &b.entries, language("en").expect("en")).expect("text");
    assert!(en.contains("2. Nf3 (=) Nc6\n"), "{en}");
    assert!(
        en.ends_with("Result: 1-0, White wins: resignation, Article 5.1b\n"),
        "{en}"
    );
}

#[test]
fn an_offer_before_ones_own_move_is_marked_at_that_move() {
    let mut b = Builder::standard();
    b.moves("e4")
        // Black offers before moving (9.1b3): (=) belongs beside Black's move.
        .entry(Entry::DrawOffered { by: Color::Black })
        .moves("e5 Nf3");
    let text = scoresheet_text(&b.header, &b.entries, language("en").expect("en")).expect("text");
    assert!(text.contains("1. e4 e5 (=)\n2. Nf3\n"), "{text}");
    assert!(text.ends_with("The game is not finished\n"), "{text}");
}

/// Every (=) without a name stands right after a move of the player who offered; every
/// other offer names its player.
fn offers_are_attributed(b: &Builder) {
    let record = Record::build(&b.header, &b.entries).expect("record");
    for (slot, remarks) in record.remarks.iter().enumerate() {
        for r in remarks {
            if let export::Remark::DrawOffer(by) = r {
                let own = slot
                    .checked_sub(1)
                    .and_then(|i| record.plies.get(i))
                    .is_some_and(|p| p.by == *by);
                let en = language("en").expect("en");
                let pgn = to_pgn(&b.header, &b.entries, en).expect("pgn");
                let named = format!("{by:?} offers a draw (=)");
                assert!(own || pgn.contains(&named), "{slot} {by:?}:\n{pgn}");
            }
        }
    }
}

#[test]
fn a_draw_offer_is_attributed_to_the_player_who_made_it() {
    let en = language("en").expect("en");
    // White offers before his move, Black declines aloud, White moves and offers again.
    let mut b = Builder::standard();
    b.header.time_control = None;
    b.moves("e4 e5")
        .entry(Entry::DrawOffered { by: Color::White })
        .entry(Entry::DrawDeclined { by: Color::Black })
        .moves("Nf3")
        .entry(Entry::DrawOffered { by: Color::White })
        .moves("Nc6 Bb5");
    b.entries.iter_mut().for_each(|e| {
        if let Entry::Move { clock, .. } = e {
            *clock = None;
        }
    });
    offers_are_attributed(&b);
    let pgn = to_pgn(&b.header, &b.entries, en).expect("pgn");
    assert!(
        pgn.contains("1. e4 e5 2. Nf3 { (=) } { (=) } 2... Nc6 3. Bb5 *"),
        "{pgn}"
    );
    let text = scoresheet_text(&b.header, &b.entries, en).expect("text");
    assert!(
        text.contains("\n1. e4 e5\n2. Nf3 (=) Nc6\n3. Bb5\n"),
        "{text}"
    );

    // White offers before a move that never comes: Black accepts at once. The offer follows
    // Black's move, so it names White instead of reading as Black's.
    let mut b = Builder::standard();
    b.moves("e4 e5")
        .entry(Entry::DrawOffered { by: Color::White })
        .entry(Entry::DrawAccepted { by: Color::Black })
        .entry(Entry::Result {
            result: GameResult::Draw,
            termination: Termination::Agreement,
        });
    offers_are_attributed(&b);
    let pgn = to_pgn(&b.header, &b.entries, en).expect("pgn");
    assert!(
        pgn.contains("1... e5 { [%clk 1:29:50] } { White offers a draw (=) }\n1/2-1/2"),
        "{pgn}"
    );
    let text = scoresheet_text(&b.header, &b.entries, en).expect("text");
    assert!(
        text.contains("\n1. e4 e5\nWhite offers a draw (=)\nResult: 1/2-1/2"),
        "{text}"
    );
    let de = language("de").expect("de");
    let text = scoresheet_text(&b.header, &b.entries, de).expect("text");
    assert!(
        text.contains("\n1. e4 e5\nWeiß bietet Remis an (=)\n"),
        "{text}"
    );

    // The same while the game goes on: an unfinished game exported after the offer.
    let mut b = Builder::standard();
    b.moves("e4 e5 Nf3")
        .entry(Entry::DrawOffered { by: Color::Black });
    offers_are_attributed(&b);
    let pgn = to_pgn(&b.header, &b.entries, en).expect("pgn");
    assert!(pgn.contains("{ Black offers a draw (=) } *"), "{pgn}");

    // Black offers before any move of his: the remark names him.
    let mut b = Builder::standard();
    b.entry(Entry::DrawOffered { by: Color::Black })
        .entry(Entry::DrawDeclined { by: Color::White })
        .moves("d4");
    offers_are_attributed(&b);
    let pgn = to_pgn(&b.header, &b.entries, en).expect("pgn");
    assert!(pgn.contains("{ Black offers a draw (=) } 1. d4"), "{pgn}");

    // Offers after one's own move, by both players in turn, declined by moves and aloud.
    let mut b = Builder::standard();
    b.moves("e4")
        .entry(Entry::DrawOffered { by: Color::White })
        .moves("e5")
        .entry(Entry::DrawOffered { by: Color::Black })
        .entry(Entry::DrawDeclined { by: Color::White })
        .moves("Nf3 Nc6")
        .entry(Entry::DrawOffered { by: Color::Black })
        .moves("Bb5");
    offers_are_attributed(&b);
    let text = scoresheet_text(&b.header, &b.entries, en).expect("text");
    assert!(
        text.contains("\n1. e4 (=) e5 (=)\n2. Nf3 Nc6 (=)\n3. Bb5\n"),
        "{text}"
    );

    // An offer made before a move, then the arbiter takes back the opponent's last move:
    // the opponent moves next, and the offer does not slip beside his move.
    let mut b = Builder::standard();
    b.moves("e4 e5")
        .entry(Entry::DrawOffered { by: Color::White })
        .entry(Entry::TakenBack { uci: uci("e7e5") });
    b.game.take_back();
    b.moves("c5 Nf3");
    offers_are_attributed(&b);
    let pgn = to_pgn(&b.header, &b.entries, en).expect("pgn");
    assert!(
        !pgn.contains("c5 { [%clk 1:29:50] } { (=) }"),
        "the offer is White's:\n{pgn}"
    );
}

#[test]
fn offers_in_the_sample_journals_are_attributed() {
    for j in crate::testkit::record::sample_journals(40, 13) {
        let b = Builder {
            header: j.header.clone(),
            game: Game::new(Variant::Standard),
            entries: j.entries.clone(),
            clock: Times::default(),
        };
        offers_are_attributed(&b);
    }
}

#[test]
fn a_black_start_is_numbered_with_an_ellipsis() {
    let mut h = Header::new("2026-11-21T14:03:05Z", "A", "B");
    h.start_fen = Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 12".into());
    let mut b = Builder::new(h);
    b.moves("Kd7 e4 Kc6");
    let text = scoresheet_text(&b.header, &b.entries, language("de").expect("de")).expect("text");
    assert!(text.contains("\n12. … Kd7\n13. e4 Kc6\n"), "{text}");
    let pgn = to_pgn(&b.header, &b.entries, language("de").expect("de")).expect("pgn");
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(pgn.contains("12... Kd7 { [%clk 1:29:50] } 13. e4"), "{pgn}");
}

#[test]
fn clocks_and_dates() {
    assert_eq!(clk(5_400_000), "1:30:00");
    assert_eq!(clk(59_999), "0:00:59");
    assert_eq!(clk(36_000_000 + 61_000), "10:01:01");
    assert_eq!(pgn_date("2026-11-21T14:03:05Z"), "2026.11.21");
    assert_eq!(pgn_date("gestern"), "????.??.??");
    assert_eq!(pgn_date(""), "????.??.??");
}

// ---------------------------------------------------------------------------------------
// Import

#[test]
fn import_real_world_pgn_to_the_last_position() {
    let text = "\u{feff}[Event \"Casual\"]\r\n[White \"Morphy, Paul\"]\r\n[Black \"?\"]\r\n\
        [TimeControl \"40/5400+30\"]\r\n\r\n1. e4 {best by test} (1. d4 d5) 1... e5!? $14 \
        2.Nf3 d6 ; comment\r\n3. d4 Bg4 *\r\n\r\n[Event \"Second\"]\n1. d4 d5 1/2-1/2\n";
    let g = import_pgn(text.as_bytes(), 1).expect("first");
    assert_eq!(g.game.ply(), 6);
    assert_eq!(g.tags.white.as_deref(), Some("Morphy, Paul"));
    assert_eq!(g.tags.black, None);
    assert_eq!(g.tags.time_control.as_deref(), Some("40/5400+30"));
    assert_eq!(g.tags.result, None);
    assert!(g.warnings.is_empty());
    let g2 = import_pgn(text.as_bytes(), 2).expect("second");
    assert_eq!(g2.game.ply(), 2);
    assert_eq!(g2.tags.result, Some(GameResult::Draw));
    assert_eq!(g2.line, 9);
    assert_eq!(
        import_pgn(text.as_bytes(), 3).map(|_| ()),
        Err(ImportError::NoSuchGame {
            requested: 3,
            found: 2
        })
    );
    assert_eq!(
        import_pgn(b"   \n", 1).map(|_| ()),
        Err(ImportError::NoGames)
    );

    // The header and entries to go on with it as a journal.
    let header = g.header("2026-11-21T14:03:05Z");
    assert_eq!(header.white, "Morphy, Paul");
    assert_eq!(header.start_fen, None);
    let r = replay(&header, &g.entries()).expect("replays");
    assert_eq!(r.game.moves(), g.game.moves());
}

#[test]
fn import_errors_name_the_line() {
    let text = "[Event \"x\"]\n\n1. e4 e5\n2. Nf4 Nc6 *\n";
    let err = import_pgn(text.as_bytes(), 1)
        .map(|_| ())
        .expect_err("illegal");
    assert_eq!(
        err.to_string(),
        "game 1, line 4: the move 2. Nf4 is not legal: no knight can reach f4"
    );
    let text = "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *\n";
    let err = import_pgn(text.as_bytes(), 1).map(|_| ()).expect_err("fen");
    assert!(
        matches!(err, ImportError::BadStart { line: 3, .. }),
        "{err}"
    );
    let text = "1. f3 e5 2. g4 Qh4# 3. a3 0-1";
    let err = import_pgn(text.as_bytes(), 1)
        .map(|_| ())
        .expect_err("after mate");
    assert!(err.to_string().contains("3. a3"), "{err}");
}

#[test]
fn import_chess960_by_the_variant_tag() {
    let text = "[Variant \"Chess960\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\"]\n\n1. O-O O-O-O *\n";
    let g = import_pgn(text.as_bytes(), 1).expect("960");
    assert_eq!(g.game.variant(), Variant::Chess960);
    assert_eq!(g.game.ply(), 2);
    let header = g.header("2026-11-21T14:03:05Z");
    assert_eq!(header.variant, Variant::Chess960);
    let r = replay(&header, &g.entries()).expect("replays");
    assert_eq!(r.game.position(), g.game.position());
}

#[test]
fn sample_journals_replay_export_and_import_again() {
    let en = language("en").expect("en");
    let samples = crate::testkit::record::sample_journals(60, 7);
    assert!(samples.len() >= 55);
    let mut claims = 0;
    let mut chess960 = 0;
    for (i, s) in samples.iter().enumerate() {
        let bytes = {
            let mut b = encode_header(&s.header).expect("header");
            for e in &s.entries {
                b.extend(encode_entry(e).expect("entry"));
            }
            b
        };
        let d = decode(&bytes).expect("decodes");
        assert_eq!(d.entries, s.entries);
        let r = replay(&d.header, &d.entries).unwrap_or_else(|e| panic!("game {i}: {e}"));
        let pgn = to_pgn(&d.header, &d.entries, en).expect("pgn");
        let back = import_pgn(pgn.as_bytes(), 1).unwrap_or_else(|e| panic!("game {i}: {e}\n{pgn}"));
        assert_eq!(back.game.moves(), r.game.moves(), "game {i}");
        assert_eq!(back.tags.result, r.result(), "game {i}");
        claims += s
            .entries
            .iter()
            .filter(|e| matches!(e, Entry::Claim { .. }))
            .count();
        chess960 += usize::from(s.header.variant == Variant::Chess960);
    }
    assert!(
        claims > 10 && chess960 > 3,
        "{claims} claims, {chess960} Chess960 games"
    );
}

#[test]
fn a_long_game_for_the_benchmark_replays() {
    let g = (1..20)
        .find_map(|seed| crate::testkit::record::long_game(600, 1_000, seed))
        .expect("a seed that reaches 600 plies");
    let r = replay(&g.header, &g.entries).expect("replays");
    assert_eq!(r.game.ply(), 600);
    assert_eq!(r.outcome(), None);
    let checkpoints = g
        .entries
        .iter()
        .filter(|e| matches!(e, Entry::ClockCheckpoint { .. }))
        .count();
    assert!(checkpoints > 600 * 5, "{checkpoints}");
}

#[test]
fn a_version_1_journal_still_reads() {
    let json = br#"{"journal":"hector","version":1,"created":"2026-11-21T14:03:05Z","white":"A","black":"B","variant":"standard","language":"de","form":"short","rules":{"time_penalty_ms":120000,"illegal_move_that_loses":2}}"#;
    let mut bytes = framed(json);
    let entry = br#"{"type":"clock_checkpoint","white_ms":5,"black_ms":6,"running":"white","paused":false}"#;
    bytes.extend(framed(entry));
    let decoded = decode(&bytes).expect("version 1");
    assert_eq!(decoded.header.version, 1);
    assert!(matches!(
        decoded.entries[0],
        Entry::ClockCheckpoint { used: None, .. }
    ));
}

#[test]
fn replay_of_the_arbiters_clock_entries() {
    let mut b = Builder::standard();
    b.moves("e4 e5 Nf3")
        .entry(Entry::ClockCheckpoint {
            white_ms: 5_000_000,
            black_ms: 5_100_000,
            running: Some(Color::Black),
            paused: false,
            used: Some(Times {
                white_ms: 90_000,
                black_ms: 70_000,
            }),
        })
        .entry(Entry::ClockPaused)
        .entry(Entry::MovesAdjusted {
            color: Color::White,
            moves: 20,
        });
    let r = b.replayed();
    let clock = r.clock.expect("clock");
    assert!(clock.paused);
    assert_eq!(clock.used.map(|u| u.white_ms), Some(90_000));
    // White's counter as set; Black's from the moves.
    assert_eq!(
        r.clock_moves(),
        shakmaty::ByColor {
            white: 20,
            black: 1
        }
    );
    b.entry(Entry::ClockResumed).moves("Nc6 Bb5");
    let r = b.replayed();
    assert!(!r.clock.expect("clock").paused);
    // The used times stay known through later moves; the counters go on.
    assert_eq!(
        r.clock.and_then(|c| c.used).map(|u| u.black_ms),
        Some(70_000)
    );
    assert_eq!(
        r.clock_moves(),
        shakmaty::ByColor {
            white: 21,
            black: 2
        }
    );
    b.entry(Entry::TakenBack { uci: uci("f1b5") });
    assert_eq!(
        b.replayed().clock_moves(),
        shakmaty::ByColor {
            white: 20,
            black: 2
        }
    );
}

#[test]
fn replay_of_boards_and_adjournment() {
    let mut b = Builder::standard();
    b.moves("e4 e5")
        .entry(Entry::BoardMismatch {
            board: Color::Black,
            agreed_plies: Some(1),
            detail: "Eva sechs".into(),
        })
        .entry(Entry::BoardReconciled {
            board: Color::Black,
            how: entry::Reconciled::Board,
        })
        .entry(Entry::Adjourned {
            by: Color::White,
            move_number: 2,
        });
    let r = b.replayed();
    assert_eq!(r.adjourned, Some((Color::White, 2)));
    assert!(!r.game.is_over());
    b.entry(Entry::AdjournmentResumed).moves("Nf3");
    assert_eq!(b.replayed().adjourned, None);
    // Only the player to move seals a move.
    let mut wrong = Builder::standard();
    wrong.moves("e4").entry(Entry::Adjourned {
        by: Color::White,
        move_number: 1,
    });
    assert!(matches!(
        replay(&wrong.header, &wrong.entries),
        Err(ReplayError::Refused { .. })
    ));
}

#[test]
fn the_arbiters_actions_are_pgn_comments() {
    let mut b = Builder::standard();
    b.moves("e4 e5")
        .entry(Entry::ClockPaused)
        .entry(Entry::ClockAdjusted {
            color: Color::White,
            remaining_ms: 3_600_000,
        })
        .entry(Entry::MovesAdjusted {
            color: Color::Black,
            moves: 1,
        })
        .entry(Entry::ClockResumed)
        .entry(Entry::BoardMismatch {
            board: Color::Black,
            agreed_plies: Some(1),
            detail: "Eva sechs: schwarzer Bauer zu viel".into(),
        })
        .entry(Entry::BoardReconciled {
            board: Color::Black,
            how: entry::Reconciled::TakenBack,
        })
        .entry(Entry::Adjourned {
            by: Color::White,
            move_number: 2,
        });
    let de = language("de").expect("de");
    let pgn = to_pgn(&b.header, &b.entries, de).expect("pgn");
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "Uhr vom Schiedsrichter angehalten, Artikel 6.12",
        "Restzeit von Weiß auf 1 Stunde gesetzt, Artikel 6.10",
        "Zugzähler von Schwarz auf 1 gesetzt, Artikel 7.1",
        "Uhr wieder in Gang gesetzt",
        "Die Bretter weichen ab, Brett von Schwarz: Eva sechs: schwarzer Bauer zu viel. Die \
         Aufzeichnungen stimmen nur bis Zug 1 Weiß überein, Anhang D2.8",
        "Brett von Schwarz: Züge bis zur letzten Übereinstimmung zurückgenommen",
        "Partie abgebrochen, Weiß gibt den 2. Zug ab, Anhang E",
    ] {
        let expected = expected.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&expected), "missing {expected:?} in\n{pgn}");
    }
    let en = language("en").expect("en");
    let pgn = to_pgn(&b.header, &b.entries, en).expect("pgn");
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("Clock paused by the arbiter"), "{pgn}");
}

#[test]
fn the_event_log_tells_what_happened_at_the_board() {
    let mut b = Builder::standard();
    b.entry(Entry::Touched {
        by: Color::White,
        square: Square::G1,
    })
    .entry(Entry::Touched {
        by: Color::White,
        square: Square::B1,
    })
    .moves("Nf3 e5")
    .entry(Entry::DrawOffered { by: Color::White })
    .entry(Entry::DrawDeclined { by: Color::Black })
    .entry(Entry::BoardMismatch {
        board: Color::White,
        agreed_plies: None,
        detail: "Eva fünf: schwarzer Bauer fehlt".into(),
    })
    .entry(Entry::BoardReconciled {
        board: Color::White,
        how: entry::Reconciled::Board,
    })
    .entry(Entry::IllegalMove { by: Color::White })
    .entry(Entry::Penalty {
        beneficiary: Color::Black,
        ms: 120_000,
        article: "7.5b".into(),
    })
    .entry(Entry::Setting {
        key: "x".into(),
        value: "y".into(),
    })
    .entry(Entry::Resigned { by: Color::White })
    .entry(Entry::Result {
        result: GameResult::BlackWins,
        termination: Termination::Resignation,
    });
    let de = language("de").expect("de");
    let log = event_log(&b.header, &b.entries, de).expect("log");
    assert_eq!(
        log,
        vec![
            "Weiß berührt Springer auf Bella eins",
            "Zug 1, Weiß: Springer Felix drei. Uhr: Weiß 1:29:50, Schwarz 1:30:00",
            "Zug 1, Schwarz: Eva fünf. Uhr: Weiß 1:29:50, Schwarz 1:29:50",
            "Weiß bietet Remis an",
            "Schwarz lehnt Remis ab",
            "Die Bretter weichen ab, Brett von Weiß: Eva fünf: schwarzer Bauer fehlt. Die \
             Aufzeichnungen stimmen überein, das Brett wird berichtigt, Anhang D2.8",
            "Brett von Weiß stimmt wieder mit der Aufzeichnung überein",
            "Regelwidriger Zug von Weiß, Artikel 7.5",
            "2 Minuten Zeitgutschrift für Schwarz, Artikel 7.5b",
            "Weiß gibt auf",
            "Schwarz gewinnt, 0 zu 1: Aufgabe",
        ]
    );
}
