//! Opening names and the player's wording in a game: what is said after a move and on asking.

use shakmaty::Color;

use super::super::*;
use crate::notation::language::language;
use crate::notation::wording::{Order, Wording};

fn setup(openings: bool, wording: Wording) -> Setup {
    Setup {
        white: Side::Keyboard,
        black: Side::Keyboard,
        local: Color::White,
        local_board: false,
        control: None,
        announce: crate::clock::AnnounceSettings::tournament(),
        form: Form::Short,
        rules: Rules::STANDARD,
        engine_level: 1,
        opponent_port: None,
        clock_answer: ClockAnswer::Remaining,
        openings,
        wording,
    }
}

fn start(s: Setup, lang: &str) -> Match {
    let lang = language(lang).expect("language");
    Match::new(s, Game::default(), lang, Timestamp::ZERO).0
}

/// What is said in answer to the typed line `text`.
fn typed(m: &mut Match, text: &str) -> Vec<String> {
    super::said(&m.handle(Event::Line(text.to_string()), Timestamp::ZERO))
}

#[test]
fn the_opening_is_named_on_asking() {
    let mut m = start(setup(false, Wording::default()), "de");
    assert_eq!(
        typed(&mut m, "eröffnung"),
        ["Noch keine benannte Eröffnung"]
    );
    typed(&mut m, "e4");
    typed(&mut m, "c5");
    assert_eq!(
        typed(&mut m, "eröffnung"),
        ["Sizilianische Verteidigung, ECO B20"]
    );
    // Without --openings nothing is said after the moves.
    assert_eq!(typed(&mut m, "Sf3"), ["Springer Felix drei"]);
    let mut m = start(setup(false, Wording::default()), "en");
    typed(&mut m, "e4");
    typed(&mut m, "e5");
    typed(&mut m, "Nf3");
    typed(&mut m, "Nc6");
    typed(&mut m, "Bb5");
    assert_eq!(typed(&mut m, "opening"), ["Ruy Lopez, ECO C60"]);
}

#[test]
fn each_new_opening_is_said_once_after_the_move() {
    let mut m = start(setup(true, Wording::default()), "de");
    assert_eq!(
        typed(&mut m, "e4"),
        ["Eva vier", "Eröffnung: Königsbauernspiel"]
    );
    assert_eq!(
        typed(&mut m, "c5"),
        [
            "Schwarz: Cäsar fünf",
            "Eröffnung: Sizilianische Verteidigung"
        ]
    );
    // Named again with the same name (B27 after B20): not said twice.
    assert_eq!(typed(&mut m, "Sf3"), ["Springer Felix drei"]);
    // A position the table does not name: nothing more.
    assert_eq!(typed(&mut m, "h5"), ["Schwarz: Hector fünf"]);
}

#[test]
fn check_words_off_keeps_mate() {
    let quiet = Wording {
        check_words: false,
        ..Wording::default()
    };
    let mut m = start(setup(false, quiet), "de");
    for mv in ["e4", "f5", "Dh5"] {
        typed(&mut m, mv);
    }
    // The check was not said; the turn answer still tells it.
    assert_eq!(
        typed(&mut m, "letzter"),
        ["Zuletzt: Zug 2, Weiß: Dame Hector fünf, Schach"]
    );
    let mut m = start(setup(false, quiet), "de");
    for mv in ["f3", "e5", "g4"] {
        typed(&mut m, mv);
    }
    assert_eq!(
        typed(&mut m, "Dh4"),
        [
            "Schwarz: Dame Hector vier, Schachmatt",
            "Partie beendet: Schachmatt. Schwarz gewinnt"
        ]
    );
    let mut m = start(setup(false, quiet), "de");
    for mv in ["e4", "f5"] {
        typed(&mut m, mv);
    }
    assert_eq!(typed(&mut m, "Dh5"), ["Dame Hector fünf"]);
    let mut m = start(setup(false, Wording::default()), "de");
    for mv in ["e4", "f5"] {
        typed(&mut m, mv);
    }
    assert_eq!(typed(&mut m, "Dh5"), ["Dame Hector fünf, Schach"]);
}

#[test]
fn board_readings_in_the_players_order_and_colour_words() {
    let piece_first = Wording {
        order: Order::PieceFirst,
        ..Wording::default()
    };
    let mut m = start(setup(false, piece_first), "de");
    assert_eq!(typed(&mut m, "feld e2"), ["Weißer Bauer Eva zwei"]);
    let rank = typed(&mut m, "reihe 1");
    assert!(
        rank[0].starts_with("Reihe eins: weißer Turm Anna eins, weißer Springer Bella eins"),
        "{rank:?}"
    );
    let quiet = Wording {
        order: Order::SquareFirst,
        colour_words: false,
        ..Wording::default()
    };
    let mut m = start(setup(false, quiet), "de");
    for mv in ["e4", "d5"] {
        typed(&mut m, mv);
    }
    assert_eq!(
        typed(&mut m, "angriff"),
        ["Weiß greift an: David fünf Bauer; Schwarz greift an: Eva vier Bauer"]
    );
    // The board does not tell the colour by itself: it is said.
    let rank = typed(&mut m, "reihe 4");
    assert_eq!(rank, ["Reihe vier: Eva vier weißer Bauer"]);
}

#[test]
fn a_continued_game_does_not_say_its_opening_again() {
    let mut game = Game::default();
    for san in ["e4", "c5"] {
        game.play_san(san).expect("legal");
    }
    let lang = language("de").expect("de");
    let (mut m, _) = Match::new(setup(true, Wording::default()), game, lang, Timestamp::ZERO);
    // B27 has the name the game had when it stopped (B20): nothing new to say.
    assert_eq!(typed(&mut m, "Sf3"), ["Springer Felix drei"]);
    assert_eq!(
        typed(&mut m, "d6"),
        [
            "Schwarz: David sechs",
            "Eröffnung: Sizilianische Verteidigung: Modern Variations"
        ]
    );
}

/// The last move and a position looked back at are said "coup 2, Noirs", not "2. Noirs":
/// a number with a full stop after it is where speech breaks the sentence.
#[test]
fn the_last_move_is_said_with_its_number_as_a_word_in_french() {
    let mut m = start(setup(false, Wording::default()), "fr");
    for mv in ["e4", "e5", "Cf3", "Cc6"] {
        typed(&mut m, mv);
    }
    assert_eq!(
        typed(&mut m, "dernier"),
        ["Dernier : coup 2, Noirs : Cavalier César six"]
    );
    let back = typed(&mut m, "précédent").join(" ");
    assert_eq!(
        back,
        "Retour en arrière, après le coup 2, Blancs : Cavalier Felix trois"
    );
}
