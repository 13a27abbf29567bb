//! The match logic with virtual time: what is said, recorded and asked for, in which order.

use crate::machine::Common;
use std::time::Duration;

use shakmaty::{Color, Move, Position, Role, Square, uci::UciMove};

use super::*;
use crate::board::SquareDiff;
use crate::notation::language::language;
use crate::outcome::GameResult;

/// A game at the keyboard or against the engine, without a clock; shared by the tests of the
/// session's modules.
pub(super) fn setup(white: Side, black: Side) -> Setup {
    Setup {
        white,
        black,
        local: Color::White,
        local_board: false,
        control: None,
        announce: AnnounceSettings::tournament(),
        form: Form::Short,
        rules: Rules::STANDARD,
        engine_level: 1,
        opponent_port: None,
        clock_answer: ClockAnswer::Remaining,
        openings: false,
        wording: Default::default(),
    }
}

use crate::testkit::t;

pub(crate) mod model;
mod wording;

fn start(s: Setup) -> (Match, Vec<Effect>) {
    Match::new(s, Game::default(), language("de").expect("de"), t(0))
}

/// What `effects` say, an utterance an entry with its lines joined by " / ", after the label
/// the narrator puts before it ("Computer: Eva fünf"): the one reader of the session's speech
/// for the tests of its modules.
pub(super) fn said(effects: &[Effect]) -> Vec<String> {
    let mut label = None;
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Label(l) => {
                label = Some(l.as_str());
                None
            }
            Effect::Common(Common::Say { lines, .. }) => {
                let text = lines.join(" / ");
                Some(match label.take() {
                    Some(l) => format!("{l}: {text}"),
                    None => text,
                })
            }
            _ => None,
        })
        .collect()
}

/// White at the keyboard against `black`, in German, at the start.
pub(super) fn start_against(black: Side) -> Match {
    start(setup(Side::Keyboard, black)).0
}

/// What is said in answer to `event`, an utterance a line.
pub(super) fn said_to(m: &mut Match, event: Event) -> Vec<String> {
    said(&m.handle(event, t(10)))
}

fn line(m: &mut Match, text: &str, ms: u64) -> Vec<Effect> {
    m.handle(Event::Line(text.to_string()), t(ms))
}

fn uci(m: &Match, text: &str) -> Move {
    text.parse::<UciMove>()
        .expect("uci")
        .to_move(m.game().position())
        .expect("legal")
}

#[test]
fn welcome_names_sides_opponent_and_turn() {
    let (_, effects) = start(setup(Side::Keyboard, Side::Engine));
    assert_eq!(
        said(&effects),
        ["Sie spielen Weiß gegen den Computer, Stufe 1. Weiß ist am Zug"]
    );
    let (_, effects) = start(setup(Side::Engine, Side::Keyboard));
    assert!(
        effects.contains(&Effect::EngineThink),
        "the engine opens with White"
    );
}

#[test]
fn a_typed_move_is_recorded_before_it_is_announced() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    let e = line(&mut m, "Springer Felix drei", 10);
    let record = e
        .iter()
        .position(|x| matches!(x, Effect::Record(Recorded::Move { .. })));
    let announce = e.iter().position(|x| {
        matches!(
            x,
            Effect::Common(Common::Say {
                urgency: Urgency::Move,
                ..
            })
        )
    });
    assert!(record.is_some() && record < announce, "{e:?}");
    assert_eq!(said(&e), ["Springer Felix drei"]);
    // The other player at the keyboard answers in English words.
    assert_eq!(
        said(&line(&mut m, "knight felix six", 20)),
        ["Schwarz: Springer Felix sechs"]
    );
    assert_eq!(m.game().ply(), 2);
}

#[test]
fn a_wrong_move_is_explained_and_changes_nothing() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    assert_eq!(
        said(&line(&mut m, "Springer Felix vier", 10)),
        ["Kein Springer kann Felix vier erreichen"]
    );
    assert_eq!(
        said(&line(&mut m, "Elefant Felix drei", 10)),
        ["Unbekanntes Wort: Elefant"]
    );
    assert_eq!(m.game().ply(), 0);
}

#[test]
fn the_engine_is_asked_and_its_move_announced() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Engine));
    let e = line(&mut m, "e4", 10);
    assert!(e.contains(&Effect::EngineThink));
    assert_eq!(said(&line(&mut m, "e5", 20)), ["Der Computer ist am Zug"]);
    let reply = uci(&m, "c7c5");
    let e = m.handle(Event::EngineMove(reply), t(30));
    assert_eq!(said(&e), ["Computer: Cäsar fünf"]);
    assert!(!e.contains(&Effect::EngineThink));
}

#[test]
fn a_promotion_asks_for_the_piece() {
    let game = Game::from_position(
        crate::variant::position_from_fen(
            "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
            crate::variant::Variant::Standard,
        )
        .expect("fen"),
        crate::variant::Variant::Standard,
    );
    let (mut m, _) = Match::new(
        setup(Side::Keyboard, Side::Keyboard),
        game,
        language("de").expect("de"),
        t(0),
    );
    assert_eq!(
        said(&line(&mut m, "Eva acht", 10)),
        ["Umwandlung in welche Figur? Dame, Turm, Läufer oder Springer"]
    );
    assert_eq!(
        said(&line(&mut m, "Turm", 20)),
        ["Eva acht, Umwandlung in Turm"]
    );
    assert_eq!(
        m.game().position().board().role_at(Square::E8),
        Some(Role::Rook)
    );
}

#[test]
fn every_query_gets_an_answer() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    line(&mut m, "e4", 10);
    for q in [
        "hilfe",
        "brett",
        "figuren",
        "wo sind die schwarzen Türme",
        "feld e4",
        "reihe 2",
        "linie e",
        "diagonale c1",
        "angriff e4",
        "züge g8",
        "züge",
        "letzter",
        "wer",
        "material",
        "liste",
        "liste 1",
        "uhr",
    ] {
        let e = line(&mut m, q, 20);
        assert!(!said(&e).is_empty(), "{q}: {e:?}");
    }
    assert_eq!(
        said(&line(&mut m, "letzter", 30)),
        ["Zuletzt: Zug 1, Weiß: Eva vier"]
    );
    assert_eq!(said(&line(&mut m, "uhr", 30)), ["Ohne Uhr gespielt"]);
    assert_eq!(
        said(&line(&mut m, "feld", 30)),
        ["Welches Feld? Etwa e4 oder Eva vier"]
    );
    assert_eq!(
        line(&mut m, "wiederholen", 30),
        [Effect::Common(Common::Speech(SpeechControl::Repeat))]
    );
}

/// The wrong word of a query is named with what the query needs; every query a player tried
/// gets a real answer.
#[test]
fn queries_name_the_wrong_word_and_answer_what_was_asked() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    let ask = |m: &mut Match, q: &str| said(&line(m, q, 20));
    assert_eq!(
        ask(&mut m, "reihe Eva"),
        ["Eva ist keine Reihe. Eine Reihe ist eine Zahl von eins bis acht, etwa reihe 4"]
    );
    assert_eq!(
        ask(&mut m, "linie 5"),
        [
            "5 ist keine Linie. Eine Linie ist ein Buchstabe oder ein Wort von Anna bis Hector, etwa linie e"
        ]
    );
    assert_eq!(
        ask(&mut m, "feld e9"),
        ["e9 ist kein Feld. Ein Feld ist etwa e4 oder Eva vier"]
    );
    assert_eq!(
        ask(&mut m, "wo sind die schwarzen Tüirme"),
        ["Unbekanntes Wort: Tüirme. Meinten Sie Türme?"]
    );
    assert_eq!(
        ask(&mut m, "angriff"),
        ["Weiß greift an: keine; Schwarz greift an: keine"]
    );
    // Which knight goes where.
    assert_eq!(
        ask(&mut m, "züge Springer"),
        [
            "Springer Bella eins: Anna drei, Cäsar drei; Springer Gustav eins: Felix drei, Hector drei"
        ]
    );
    assert_eq!(ask(&mut m, "weiße figuren"), ask(&mut m, "figuren weiß"));
    assert_eq!(
        ask(&mut m, "wo ist der weiße König"),
        ["Weißer König: Eva eins"]
    );
    for text in ["e4", "d5"] {
        line(&mut m, text, 30);
    }
    assert_eq!(
        ask(&mut m, "angriff"),
        ["Weiß greift an: schwarzer Bauer David fünf; Schwarz greift an: weißer Bauer Eva vier"]
    );
    assert_eq!(ask(&mut m, "züge Dame").len(), 1);
    assert!(ask(&mut m, "züge Dame")[0].starts_with("Dame David eins: Eva zwei, "));
    // After the game, no "0 Züge".
    line(&mut m, "aufgeben", 40);
    line(&mut m, "ja", 40);
    assert!(m.game().is_over());
    assert_eq!(ask(&mut m, "züge"), ["Die Partie ist beendet"]);
    assert_eq!(ask(&mut m, "züge Springer"), ["Die Partie ist beendet"]);
}

/// One legal move: "1 Zug", in both languages.
#[test]
fn one_move_is_said_in_the_singular() {
    let fen = "7k/8/8/8/8/8/7r/K7 w - - 0 1";
    let variant = crate::variant::Variant::Standard;
    let game = Game::from_position(
        crate::variant::position_from_fen(fen, variant).expect("fen"),
        variant,
    );
    for (code, expected) in [
        ("de", "1 Zug: König Bella eins"),
        ("en", "1 move: King Bella one"),
    ] {
        let (mut m, _) = Match::new(
            setup(Side::Keyboard, Side::Keyboard),
            game.clone(),
            language(code).expect("lang"),
            t(0),
        );
        assert_eq!(said(&line(&mut m, "züge", 10)), [expected]);
    }
}

/// Never a move that was not meant: a piece letter that no piece can use is refused with the
/// true reason, "Rochade" asks which when both are legal, and a typo plays nothing.
#[test]
fn only_the_move_meant_is_played() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    for text in ["Bb4", "Lb4", "Läufer Bella vier", "bishop b4"] {
        assert_eq!(
            said(&line(&mut m, text, 10)),
            ["Kein Läufer kann Bella vier erreichen"],
            "{text}"
        );
    }
    assert_eq!(
        said(&line(&mut m, "Springa Felix drei", 10)),
        ["Unbekanntes Wort: Springa. Meinten Sie Springer?"]
    );
    assert_eq!(m.game().ply(), 0);
    for text in ["e4", "d5"] {
        line(&mut m, text, 10);
    }
    for text in ["d5", "David fünf"] {
        assert_eq!(
            said(&line(&mut m, text, 10)),
            [
                "Kein Bauer kann David fünf erreichen, ohne zu schlagen. Schlagen: Eva schlägt David fünf"
            ]
        );
    }
    assert_eq!(m.game().ply(), 2);
    // A space after the piece letter.
    assert_eq!(said(&line(&mut m, "S f3", 10)), ["Springer Felix drei"]);
    assert_eq!(
        said(&line(&mut m, "N c6", 10)),
        ["Schwarz: Springer Cäsar sechs"]
    );
    for text in [
        "Lc4", "Sf6", "d3", "Be6", "Be3", "Qd7", "Qd2", "h6", "Nc3", "h5",
    ] {
        line(&mut m, text, 10);
    }
    assert_eq!(m.game().ply(), 14);
    // Both castlings are legal for White: asked, nothing played, and the answer plays it.
    assert_eq!(
        said(&line(&mut m, "Rochade", 10)),
        ["Kurze oder lange Rochade?"]
    );
    assert_eq!(m.game().ply(), 14);
    assert_eq!(said(&line(&mut m, "lang", 10)), ["Lange Rochade"]);
    // Letters O for Black.
    assert_eq!(said(&line(&mut m, "OOO", 10)), ["Schwarz: Lange Rochade"]);
    assert_eq!(m.game().ply(), 16);
}

#[test]
fn draw_offers_between_two_players() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    line(&mut m, "e4", 10);
    // White has just moved and offers.
    let e = line(&mut m, "remis", 20);
    assert!(e.contains(&Effect::Record(Recorded::DrawOffered { by: Color::White })));
    assert_eq!(said(&e), ["Weiß bietet Remis an"]);
    let e = line(&mut m, "remis annehmen", 30);
    assert!(e.contains(&Effect::Record(Recorded::DrawAccepted { by: Color::Black })));
    assert_eq!(m.game().result(), Some(GameResult::Draw));
    assert_eq!(said(&e), ["Partie beendet: Remis vereinbart. Remis"]);
}

#[test]
fn the_engine_declines_a_draw() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Engine));
    let e = line(&mut m, "remis", 10);
    assert_eq!(
        said(&e),
        ["Weiß bietet Remis an", "Der Computer lehnt das Remis ab"]
    );
    assert!(!m.game().is_over());
}

#[test]
fn claims_are_checked_and_an_incorrect_one_costs_time() {
    let mut s = setup(Side::Keyboard, Side::Keyboard);
    s.control = Some("300".parse().expect("control"));
    let (mut m, _) = start(s);
    for (i, mv) in ["Nf3", "Nf6", "Ng1"].iter().enumerate() {
        line(&mut m, mv, 100 * (i as u64 + 1));
    }
    // Black claims too early: two minutes for White (9.5b).
    let e = line(&mut m, "reklamieren", 1000);
    assert!(
        e.iter()
            .any(|x| matches!(x, Effect::Record(Recorded::Penalty(_)))),
        "{e:?}"
    );
    assert_eq!(
        said(&e),
        [
            "Reklamation nicht berechtigt. Weiß bekommt 2 Minuten dazu. Sie gilt als Remisangebot von Schwarz"
        ]
    );
    let white = m.clock().map(|c| c.remaining(Color::White, t(1000)));
    assert_eq!(white, Some(Duration::from_millis(300_000 - 200 + 120_000)));
    // With the intended move that repeats the position a third time.
    for mv in ["Ng8", "Nf3", "Nf6", "Ng1"] {
        line(&mut m, mv, 2000);
    }
    let e = line(&mut m, "reklamieren Sg8", 3000);
    assert_eq!(
        said(&e),
        [
            "Reklamation berechtigt: dreifache Stellungswiederholung",
            "Partie beendet: dreifache Stellungswiederholung. Remis"
        ]
    );
}

/// Without a clock a wrong claim gives no time; a bare claim claims the rule that holds, and a
/// wrong one after many quiet moves is a fifty-move claim.
#[test]
fn claims_without_a_clock_and_the_rule_that_applies() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    line(&mut m, "Nf3", 10);
    assert_eq!(
        said(&line(&mut m, "reklamieren", 20)),
        ["Reklamation nicht berechtigt. Sie gilt als Remisangebot von Schwarz"]
    );
    assert_eq!(m.game().pending_draw_offer(), Some(Color::Black));
    let variant = crate::variant::Variant::Standard;
    let quiet = |fen: &str| {
        let game = Game::from_position(
            crate::variant::position_from_fen(fen, variant).expect("fen"),
            variant,
        );
        Match::new(
            setup(Side::Keyboard, Side::Keyboard),
            game,
            language("de").expect("de"),
            t(0),
        )
        .0
    };
    let claimed_kind = |e: &[Effect]| {
        e.iter().find_map(|x| match x {
            Effect::Record(Recorded::Claim { kind, correct, .. }) => Some((*kind, *correct)),
            _ => None,
        })
    };
    // Fifty moves without a capture or a pawn move: the bare claim is right.
    let mut m = quiet("8/8/4k3/8/8/8/8/R3K3 w - - 100 90");
    let e = line(&mut m, "reklamieren", 10);
    assert_eq!(claimed_kind(&e), Some((ClaimKind::FiftyMoves, true)));
    assert_eq!(said(&e)[0], "Reklamation berechtigt: 50-Züge-Regel");
    // With the move that completes them.
    let mut m = quiet("8/8/4k3/8/8/8/8/R3K3 w - - 99 90");
    let e = line(&mut m, "reklamieren Ta2", 10);
    assert_eq!(claimed_kind(&e), Some((ClaimKind::FiftyMoves, true)));
    // Forty quiet moves: a wrong claim is taken for a fifty-move claim, not threefold.
    let mut m = quiet("8/8/4k3/8/8/8/8/R3K3 w - - 80 90");
    let e = line(&mut m, "reklamieren", 10);
    assert_eq!(claimed_kind(&e), Some((ClaimKind::FiftyMoves, false)));
}

#[test]
fn resigning_and_quitting_ask_first() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Engine));
    assert_eq!(
        said(&line(&mut m, "aufgeben", 10)),
        ["Wirklich aufgeben? Ja oder nein"]
    );
    assert!(!m.game().is_over());
    // The command again is a slip, not an answer: it asks again.
    assert_eq!(
        said(&line(&mut m, "aufgeben", 20)),
        ["Wirklich aufgeben? Ja oder nein"]
    );
    assert!(!m.game().is_over());
    let e = line(&mut m, "ja", 25);
    assert_eq!(m.game().result(), Some(GameResult::BlackWins));
    assert!(e.contains(&Effect::EngineStop));
    // After the end, quitting needs no confirmation.
    assert!(line(&mut m, "ende", 30).contains(&Effect::Common(Common::Quit)));
    let (mut m, _) = start(setup(Side::Keyboard, Side::Engine));
    assert!(!line(&mut m, "ende", 10).contains(&Effect::Common(Common::Quit)));
    assert!(!line(&mut m, "ende", 20).contains(&Effect::Common(Common::Quit)));
    assert!(line(&mut m, "ja", 30).contains(&Effect::Common(Common::Quit)));
}

/// A word that is no answer lets the question lapse and says so: "aufgeben", "vielleicht",
/// "aufgeben" asks twice and resigns nothing.
#[test]
fn a_refused_line_lets_the_question_lapse_in_words() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    line(&mut m, "aufgeben", 10);
    let e = said(&line(&mut m, "vielleicht", 20));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("Unbekanntes Wort: vielleicht")
            && e[0].ends_with("Nicht aufgegeben. Die Partie geht weiter"),
        "{e:?}"
    );
    assert!(!m.asks_confirmation());
    assert_eq!(
        said(&line(&mut m, "aufgeben", 30)),
        ["Wirklich aufgeben? Ja oder nein"]
    );
    // An impossible move is refused and lets it lapse too; "ja" then answers nothing.
    let e = said(&line(&mut m, "Sf4", 40));
    assert!(
        e[0].ends_with("Nicht aufgegeben. Die Partie geht weiter"),
        "{e:?}"
    );
    assert_eq!(
        said(&line(&mut m, "ja", 50)),
        ["Es gibt keine Frage zu beantworten"]
    );
    assert!(!m.game().is_over());
}

mod confirmation {
    use proptest::prelude::*;

    use super::*;

    /// The questions for confirmation, each with the lines that lead to it from the start
    /// (a second player at the keyboard, so that a take-back is asked of the opponent).
    fn questions(lang: &str) -> Vec<(&'static str, Vec<&'static str>, &'static str)> {
        let de = lang == "de";
        vec![
            ("resign", vec![], if de { "aufgeben" } else { "resign" }),
            ("quit", vec![], if de { "ende" } else { "quit" }),
            ("new", vec!["e4"], if de { "neu" } else { "new" }),
            (
                "takeback",
                vec!["e4"],
                if de { "zurücknehmen" } else { "takeback" },
            ),
        ]
    }

    fn asked(lang: &'static str, lead: &[&str], command: &str) -> Match {
        let (mut m, _) = Match::new(
            setup(Side::Keyboard, Side::Keyboard),
            Game::default(),
            language(lang).expect("lang"),
            t(0),
        );
        m.set_extras(PlayExtras {
            takeback: true,
            agreements: true,
            say_captured: false,
        });
        for l in lead {
            line(&mut m, l, 5);
        }
        line(&mut m, command, 10);
        assert!(m.asks_confirmation(), "{command} asks");
        m
    }

    /// Whether the question was answered by yes: the game ended, hector quits or starts
    /// anew, or the move was taken back.
    fn confirmed(kind: &str, m: &Match, e: &[Effect]) -> bool {
        match kind {
            "resign" => m.game().is_over(),
            "quit" => e.contains(&Effect::Common(Common::Quit)),
            "new" => e.contains(&Effect::NewGame),
            _ => e
                .iter()
                .any(|x| matches!(x, Effect::Record(Recorded::TakebackAgreed { .. }))),
        }
    }

    /// Lines that are neither yes, nor no, nor any question's command (nor `abbrechen`, which
    /// ends a game at its start by itself): other commands, moves legal and not, words hector
    /// does not know, and words near the yes words.
    fn other_line() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("brett".to_string()),
            Just("board".to_string()),
            Just("vielleicht".to_string()),
            Just("jaa".to_string()),
            Just("yess".to_string()),
            Just("j".to_string()),
            Just("y".to_string()),
            Just("ok".to_string()),
            Just("d5".to_string()),
            Just("Sf3".to_string()),
            Just("Sf4".to_string()),
            Just("feld x9".to_string()),
            Just("uhr".to_string()),
            Just("remis".to_string()),
            "[a-zäöü]{1,9}",
        ]
        .prop_filter("not an answer or a question's command", |l| {
            !matches!(
                read_line(l),
                Ok(Line::Empty)
                    | Ok(Line::Command(
                        Command::Yes
                            | Command::No
                            | Command::Resign
                            | Command::Quit
                            | Command::New
                            | Command::Takeback
                            | Command::Abort
                    ))
            )
        })
    }

    #[test]
    fn only_the_yes_words_confirm() {
        for lang in ["de", "en"] {
            let yes = &language(lang).expect("lang").commands.yes;
            let all_yes: Vec<&String> = crate::notation::language::languages()
                .flat_map(|l| l.commands.yes.iter())
                .collect();
            assert!(!yes.is_empty());
            for (kind, lead, command) in questions(lang) {
                for y in &all_yes {
                    for spelled in [y.to_string(), y.to_uppercase(), format!(" {y}. ")] {
                        let mut m = asked(lang, &lead, command);
                        let e = line(&mut m, &spelled, 20);
                        assert!(confirmed(kind, &m, &e), "{lang} {kind}: {spelled:?}");
                        assert!(!m.asks_confirmation());
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every question: only yes confirms; the same command, typed again any number of
        /// times, or Enter alone, asks again; anything else lets it go and confirms nothing,
        /// and a yes after it answers nothing.
        #[test]
        fn only_yes_confirms_every_question(
            lang in prop_oneof![Just("de"), Just("en")],
            which in 0usize..4,
            again in proptest::collection::vec(prop_oneof![Just(true), Just(false)], 0..4),
            other in other_line(),
        ) {
            let (kind, lead, command) = questions(lang).swap_remove(which);
            let question = {
                let m = asked(lang, &lead, command);
                m.question().expect("a question")
            };
            let mut m = asked(lang, &lead, command);
            // The command again or Enter alone: the same question again, nothing else.
            for command_again in again {
                let text = if command_again { command } else { "" };
                let e = line(&mut m, text, 15);
                prop_assert!(!confirmed(kind, &m, &e), "{} {:?}", kind, text);
                prop_assert_eq!(said(&e), vec![question.clone()]);
                prop_assert!(m.asks_confirmation());
            }
            let e = line(&mut m, &other, 20);
            prop_assert!(!confirmed(kind, &m, &e), "{} {:?}", kind, other);
            prop_assert!(!m.asks_confirmation(), "{} lapses on {:?}", kind, other);
            let yes = if lang == "de" { "ja" } else { "yes" };
            let e = line(&mut m, yes, 30);
            prop_assert!(!confirmed(kind, &m, &e), "{} confirmed after {:?}", kind, other);
        }
    }
}

/// The low-clock sound: once per side, at the instant its time falls under the threshold,
/// and not in a game without it.
#[test]
fn the_low_clock_cue_comes_once_for_each_side_when_its_time_falls_under() {
    let cues = |e: &[Effect]| -> Vec<Cue> {
        e.iter()
            .filter_map(|x| match x {
                Effect::Common(Common::Cue(c)) => Some(c.clone()),
                _ => None,
            })
            .flatten()
            .collect()
    };
    let mut s = setup(Side::Keyboard, Side::Keyboard);
    s.control = Some("60".parse().expect("control"));
    let (mut m, _) = start(s.clone());
    m.set_low_clock(Some(Duration::from_secs(30)), t(0));
    m.handle(Event::Line("e4".into()), t(0));
    // Black's clock runs from 0: it falls under 30 seconds just after 30 seconds.
    let due = m.next_deadline(t(0)).expect("a deadline");
    assert!(due > t(30_000) && due < t(30_010), "{due:?}");
    assert!(cues(&m.handle(Event::Tick, t(29_000))).is_empty());
    assert_eq!(cues(&m.handle(Event::Tick, due)), [Cue::LowClock]);
    assert!(cues(&m.handle(Event::Tick, t(31_000))).is_empty());
    // White's own: White's clock runs after Black's move.
    m.handle(Event::Line("e5".into()), t(31_000));
    assert!(cues(&m.handle(Event::Tick, t(40_000))).is_empty());
    assert_eq!(cues(&m.handle(Event::Tick, t(61_500))), [Cue::LowClock]);
    assert!(cues(&m.handle(Event::Tick, t(62_000))).is_empty());
    // Without a threshold, nothing.
    let (mut m, _) = start(s);
    m.handle(Event::Line("e4".into()), t(0));
    assert!(cues(&m.handle(Event::Tick, t(45_000))).is_empty());
}

#[test]
fn the_flag_falls_at_its_instant() {
    let mut s = setup(Side::Keyboard, Side::Keyboard);
    s.control = Some("60".parse().expect("control"));
    let (mut m, _) = start(s);
    assert_eq!(m.next_deadline(t(0)), Some(t(60_000)));
    assert!(said(&m.handle(Event::Tick, t(59_999))).is_empty());
    let e = m.handle(Event::Tick, t(60_000));
    assert_eq!(
        said(&e),
        [
            "Weiß: Zeit abgelaufen",
            "Partie beendet: Zeitüberschreitung. Schwarz gewinnt"
        ]
    );
    assert!(
        e.iter()
            .any(|x| matches!(x, Effect::Record(Recorded::Ended(_))))
    );
    // A move typed after the flag changes nothing.
    assert_eq!(
        said(&line(&mut m, "e4", 60_100)),
        ["Die Partie ist beendet"]
    );
}

#[test]
fn clock_press_times_are_recorded_with_the_move() {
    let mut s = setup(Side::Keyboard, Side::Keyboard);
    s.control = Some("300+2".parse().expect("control"));
    let (mut m, _) = start(s);
    let e = line(&mut m, "e4", 5_000);
    let clock = e.iter().find_map(|x| match x {
        Effect::Record(Recorded::Move { clock, .. }) => *clock,
        _ => None,
    });
    assert_eq!(
        clock,
        Some(shakmaty::ByColor {
            white: Duration::from_secs(297),
            black: Duration::from_secs(300)
        })
    );
}

#[test]
fn the_local_board_moves_and_is_guided_for_the_opponents_move() {
    let mut s = setup(Side::Board, Side::Engine);
    s.local_board = true;
    let (mut m, _) = start(s);
    let e4 = uci(&m, "e2e4");
    let e = m.handle(Event::LocalBoard(Recognition::Moved(e4)), t(10));
    assert!(
        !e.iter().any(|x| matches!(x, Effect::BoardExpect { .. })),
        "the board already shows it"
    );
    assert!(e.contains(&Effect::EngineThink));
    let c5 = uci(&m, "c7c5");
    let e = m.handle(Event::EngineMove(c5), t(20));
    assert!(
        e.iter().any(|x| matches!(x, Effect::BoardExpect { .. })),
        "{e:?}"
    );
    // The player has not yet made Black's move on the peg board.
    let diff = SquareDiff {
        square: Square::C7,
        expected: None,
        found: crate::board::SquareState::Occupied(None),
    };
    let e = m.handle(
        Event::LocalBoard(Recognition::Mismatch(vec![diff])),
        t(2000),
    );
    let text = said(&e).join(" ");
    assert!(
        text.contains("Bitte auf dem Brett ausführen: Cäsar fünf"),
        "{text}"
    );
    assert_eq!(
        said(&m.handle(Event::LocalBoard(Recognition::Matches), t(3000))),
        ["Zug auf dem Brett ausgeführt"]
    );
}

#[test]
fn a_failed_engine_is_restarted_once_then_hands_its_side_to_the_keyboard() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Engine));
    line(&mut m, "e4", 10);
    let failed = |reason: &str| Event::EngineFailed {
        reason: reason.into(),
    };
    // The first failure: started again, and asked again when it has come back.
    let e = m.handle(failed("exited"), t(20));
    assert_eq!(said(&e), ["exited"]);
    assert!(e.contains(&Effect::EngineRestart));
    let e = m.handle(Event::EngineRestarted, t(25));
    assert_eq!(said(&e), ["Der Computer ist neu gestartet"]);
    assert!(e.contains(&Effect::EngineThink));
    // An illegal answer is asked for again once; the second counts as a failure.
    let e = m.handle(
        Event::EngineRejected {
            reason: "illegal".into(),
        },
        t(30),
    );
    assert!(e.contains(&Effect::EngineThink) && said(&e).is_empty());
    let e = m.handle(
        Event::EngineRejected {
            reason: "illegal".into(),
        },
        t(40),
    );
    assert_eq!(
        said(&e),
        [
            "illegal",
            "Der Computer fällt aus. Bitte die Züge für Schwarz eintippen"
        ]
    );
    assert!(e.contains(&Effect::EngineGone));
    assert_eq!(said(&line(&mut m, "e5", 50)), ["Schwarz: Eva fünf"]);
}

#[test]
fn the_opponents_e_board_is_told_to_wait_for_the_local_players_move() {
    // The blind player types White's moves; the sighted opponent plays Black on an e-board
    // and carries out White's moves there too.
    let (mut m, _) = start(setup(Side::Keyboard, Side::Board));
    let e = line(&mut m, "Eva vier", 10);
    let expect = e.iter().find_map(|x| match x {
        Effect::BoardExpect {
            board,
            position,
            previous,
        } => Some((*board, position.clone(), previous.clone())),
        _ => None,
    });
    let (board, position, previous) = expect.expect("the e-board is told");
    assert_eq!(board, BoardOf::Opponent);
    assert_eq!(position.turn(), Color::Black);
    assert_eq!(previous.map(|p| p.turn()), Some(Color::White));
    // The opponent's own move from his board is the game's next move; no expectation follows.
    let e5 = uci(&m, "e7e5");
    let e = m.handle(Event::OpponentBoard(Recognition::Moved(e5)), t(20));
    assert!(said(&e).iter().any(|s| s.contains("Eva fünf")), "{e:?}");
    assert!(
        !e.iter().any(|x| matches!(x, Effect::BoardExpect { .. })),
        "{e:?}"
    );
}

/// The arbiter's move counter in the singular and the plural.
#[test]
fn the_arbiters_move_count_agrees_with_its_number() {
    let mut s = setup(Side::Keyboard, Side::Keyboard);
    s.control = Some("300".parse().expect("control"));
    let (mut m, _) = start(s);
    assert_eq!(
        said(&m.set_move_count(Color::White, 1, t(10))),
        ["Weiß: 1 Zug gezählt"]
    );
    assert_eq!(
        said(&m.set_move_count(Color::Black, 20, t(20))),
        ["Schwarz: 20 Züge gezählt"]
    );
}

#[test]
fn a_new_game_is_asked_for_first_while_one_runs() {
    let (mut m, _) = start(setup(Side::Keyboard, Side::Keyboard));
    // Before the first move nothing is lost: at once.
    assert!(line(&mut m, "neu", 10).contains(&Effect::NewGame));
    line(&mut m, "e4", 20);
    let e = line(&mut m, "neu", 30);
    assert!(!e.contains(&Effect::NewGame));
    assert_eq!(
        said(&e),
        ["Eine neue Partie beginnen? Die laufende bleibt gespeichert. Ja oder nein"]
    );
    assert_eq!(said(&line(&mut m, "nein", 40)), ["Die Partie geht weiter"]);
    line(&mut m, "neu", 50);
    assert!(line(&mut m, "ja", 60).contains(&Effect::NewGame));
}

#[test]
fn the_clock_waits_for_the_opening_words() {
    let mut s = setup(Side::Keyboard, Side::Keyboard);
    s.control = Some("300".parse().expect("control"));
    let (mut m, _) = start(s);
    m.hold_clock(t(0));
    m.handle(Event::Tick, t(4_000));
    let clock = m.clock().expect("clock");
    assert_eq!(clock.running(), None);
    assert_eq!(
        clock.remaining(Color::White, t(4_000)),
        Duration::from_secs(300)
    );
    // The opening words have been said: White's time runs from now.
    m.handle(Event::Ready, t(5_000));
    let clock = m.clock().expect("clock");
    assert_eq!(clock.running(), Some(Color::White));
    assert_eq!(
        clock.remaining(Color::White, t(6_000)),
        Duration::from_secs(299)
    );
    // Or the player's first line starts it.
    let mut s = setup(Side::Keyboard, Side::Keyboard);
    s.control = Some("300".parse().expect("control"));
    let (mut m, _) = start(s);
    m.hold_clock(t(0));
    line(&mut m, "brett", 2_000);
    let clock = m.clock().expect("clock");
    assert_eq!(
        clock.remaining(Color::White, t(3_000)),
        Duration::from_secs(299)
    );
}
