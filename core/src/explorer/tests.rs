use shakmaty::{Chess, Position};

use super::memory::{Ask, CACHED, Memory, RATE_WAIT};
use super::*;
use crate::notation::language::{language, languages};
use crate::testkit::words::t;

const START: &str = r#"{"white":1200,"draws":900,"black":900,
  "moves":[
    {"uci":"e2e4","san":"e4","averageRating":2400,"white":500,"draws":300,"black":400,"game":null},
    {"uci":"d2d4","san":"d4","averageRating":2410,"white":450,"draws":350,"black":200,"game":null},
    {"uci":"g1f3","san":"Nf3","averageRating":2420,"white":150,"draws":150,"black":100,"game":null},
    {"uci":"c2c4","san":"c4","averageRating":2420,"white":100,"draws":100,"black":200,"game":null}],
  "topGames":[],"opening":null}"#;

const LICHESS: &str = r#"{"white":10,"draws":0,"black":0,
  "moves":[{"uci":"e1h1","san":"O-O","averageRating":1700,"white":10,"draws":0,"black":0}],
  "recentGames":[],"topGames":[],"opening":{"eco":"C50","name":"Italian Game"}}"#;

fn tables() -> Tables {
    let pos = Chess::default();
    Tables {
        masters: decode(START, &pos).expect("masters"),
        lichess: decode(r#"{"white":0,"draws":0,"black":0,"moves":[]}"#, &pos).expect("empty"),
    }
}

#[test]
fn an_answer_is_decoded_as_the_specification_shows_it() {
    let t = tables();
    assert_eq!(t.masters.counts.total(), 3000);
    assert_eq!(t.masters.moves.len(), 4);
    assert_eq!(t.masters.moves[1].counts.draws, 350);
    assert!(t.lichess.moves.is_empty());
}

#[test]
fn castling_as_the_explorer_writes_it_and_illegal_moves_are_left_out() {
    let fen = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let pos: Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .expect("fen")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("position");
    let table = decode(LICHESS, &pos).expect("decoded");
    assert_eq!(table.moves.len(), 1);
    assert!(table.moves[0].m.is_castle());
    // The same move in the start position is no move there.
    assert!(
        decode(LICHESS, &Chess::default())
            .expect("decoded")
            .moves
            .is_empty()
    );
}

#[test]
fn a_body_that_is_no_explorer_answer_is_refused() {
    let pos = Chess::default();
    for body in [
        "",
        "<html>",
        "{\"white\":-1,\"draws\":0,\"black\":0}",
        "{\"moves\":[]}",
        "[]",
    ] {
        assert!(decode(body, &pos).is_err(), "{body}");
    }
}

#[test]
fn per_cent_is_rounded_and_never_divides_by_nothing() {
    assert_eq!(percent(1, 3), 33);
    assert_eq!(percent(2, 3), 67);
    assert_eq!(percent(1, 2), 50);
    assert_eq!(percent(0, 0), 0);
    assert_eq!(percent(5, 0), 0);
    assert_eq!(percent(u64::MAX, u64::MAX), 100);
    assert_eq!(percent(7, 5), 100);
}

#[test]
fn the_words_say_the_three_most_played_moves_with_share_and_results() {
    let de = language("de").expect("de");
    let said = found_words(&Chess::default(), &tables(), de, Form::Short);
    assert_eq!(
        said,
        [
            "Meister, 3000 Partien: Eva vier 40 Prozent, Weiß 42, remis 25, Schwarz 33; \
             David vier 33 Prozent, Weiß 45, remis 35, Schwarz 20; \
             Springer Felix drei 13 Prozent, Weiß 38, remis 38, Schwarz 25",
            "Lichess: keine Partien aus dieser Stellung",
        ]
    );
    let fide = de.with_words(crate::notation::language::WordSet::Fide);
    let said = found_words(&Chess::default(), &tables(), fide, Form::Short);
    assert!(said[0].contains("Springer Felix drei"), "{said:?}");
}

#[test]
fn every_language_says_the_answer_in_its_own_words() {
    let pos = Chess::default();
    for lang in languages() {
        let said = found_words(&pos, &tables(), lang, Form::Short);
        assert_eq!(said.len(), 2, "{}", lang.code);
        let e4 = announce(&pos, tables().masters.moves[0].m, lang, Form::Short);
        assert!(
            said[0].starts_with(&lang.explorer.masters),
            "{}: {said:?}",
            lang.code
        );
        assert!(said[0].contains("3000"), "{}: {said:?}", lang.code);
        assert!(
            said[0].contains(&format!("{e4} 40")),
            "{}: {said:?}",
            lang.code
        );
        // The fourth move is not said.
        let c4 = announce(&pos, tables().masters.moves[3].m, lang, Form::Short);
        assert!(!said[0].contains(&c4), "{}: {said:?}", lang.code);
        assert!(
            said[1].starts_with(&lang.explorer.lichess),
            "{}: {said:?}",
            lang.code
        );
        for text in &said {
            assert!(!text.contains('{'), "{}: {text}", lang.code);
        }
        let failed = failed_words(Failure::NoToken, openings::named(&pos), lang, true);
        assert_eq!(failed.len(), 1, "{}", lang.code);
        assert!(
            failed[0].contains("hector online login"),
            "{}: {failed:?}",
            lang.code
        );
        let told = failed_words(Failure::RateLimited, None, lang, false);
        assert_eq!(
            told,
            std::slice::from_ref(&lang.openings.none),
            "{}",
            lang.code
        );
    }
}

#[test]
fn without_an_answer_the_shipped_opening_is_said_and_why() {
    let de = language("de").expect("de");
    let mut pos = Chess::default();
    for uci in ["e2e4", "c7c5"] {
        let m = UciMove::from_ascii(uci.as_bytes())
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        pos.play_unchecked(m);
    }
    let said = failed_words(Failure::Unreachable, openings::named(&pos), de, true);
    assert_eq!(said.len(), 2);
    assert!(
        said[0].starts_with("Sizilianische Verteidigung"),
        "{said:?}"
    );
    assert_eq!(said[1], "Der Explorer ist nicht erreichbar");
}

#[test]
fn the_query_names_the_position_and_asks_for_few_moves() {
    let fen = fen(&Chess::default());
    let q = Database::Masters.query(&fen);
    assert!(
        q.starts_with("/masters?fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-"),
        "{q}"
    );
    assert!(q.contains("moves=3") && q.contains("topGames=0"), "{q}");
    let q = Database::Lichess.query(&fen);
    assert!(q.starts_with("/lichess?variant=standard&fen="), "{q}");
    assert!(!q.contains(' '), "{q}");
}

#[test]
fn answers_are_kept_per_position_and_bounded() {
    let mut m = Memory::default();
    assert_eq!(m.ask("a", t(0)), Ask::Fetch);
    assert_eq!(m.ask("a", t(100)), Ask::Waiting);
    assert!(m.answered("a", &Reply::Found(tables()), t(200)));
    assert_eq!(m.ask("a", t(300)), Ask::Known(tables()));
    for i in 0..CACHED + 10 {
        let key = format!("p{i}");
        m.answered(&key, &Reply::Found(tables()), t(400));
    }
    assert_eq!(m.kept(), CACHED);
    // The oldest is forgotten first.
    assert_eq!(m.ask("a", t(500)), Ask::Fetch);
    assert_eq!(
        m.ask(&format!("p{}", CACHED + 9), t(500)),
        Ask::Known(tables())
    );
    // A failure is not kept.
    m.answered("b", &Reply::Failed(Failure::Unreachable), t(600));
    assert_eq!(m.ask("b", t(700)), Ask::Fetch);
}

#[test]
fn after_a_429_nothing_is_asked_for_a_minute_and_the_wait_is_said_once() {
    let mut m = Memory::default();
    assert_eq!(m.ask("a", t(0)), Ask::Fetch);
    assert!(m.answered("a", &Reply::Failed(Failure::RateLimited), t(1_000)));
    assert_eq!(m.ask("b", t(2_000)), Ask::Quiet { tell: false });
    assert_eq!(m.ask("a", t(30_000)), Ask::Quiet { tell: false });
    let minute = u64::try_from(RATE_WAIT.as_millis()).expect("ms");
    assert_eq!(
        m.ask("a", t(1_000 + minute - 1)),
        Ask::Quiet { tell: false }
    );
    assert_eq!(m.ask("a", t(1_000 + minute)), Ask::Fetch);
    // A second 429 later is said again.
    assert!(m.answered("a", &Reply::Failed(Failure::RateLimited), t(2 * minute)));
    assert_eq!(m.ask("c", t(2 * minute + 1)), Ask::Quiet { tell: false });
}

#[test]
fn a_429_asked_about_before_its_reply_tells_the_wait_once() {
    let mut m = Memory::default();
    // Two positions asked; the first reply is a 429 (said), the second one too (not again).
    assert_eq!(m.ask("a", t(0)), Ask::Fetch);
    assert_eq!(m.ask("b", t(10)), Ask::Fetch);
    assert!(m.answered("a", &Reply::Failed(Failure::RateLimited), t(20)));
    assert!(!m.answered("b", &Reply::Failed(Failure::RateLimited), t(30)));
}

/// Without a token the one sentence that says how to get one, alone: not "asking", no
/// request; a token stored later (a login during the session) is asked with; an answer
/// kept from before is said without one.
#[test]
fn without_a_token_nothing_is_asked_and_one_sentence_says_how_to_get_one() {
    let de = language("de").expect("de");
    let pos = Chess::default();
    let mut m = Memory::default();
    let a = asked(&mut m, &pos, openings::named(&pos), de, Form::Short, t(0));
    assert_eq!(a.said, std::slice::from_ref(&de.explorer.no_token));
    assert!(!a.fetch);
    m.token_stored(true);
    let a = asked(&mut m, &pos, None, de, Form::Short, t(10));
    assert_eq!(a.said, std::slice::from_ref(&de.explorer.asking));
    assert!(a.fetch);
    // The token gone before the request: its reply says so, and the next ask asks nothing.
    let key = fen(&pos);
    assert!(m.answered(&key, &Reply::Failed(Failure::NoToken), t(20)));
    assert!(!m.has_token());
    let a = asked(&mut m, &pos, None, de, Form::Short, t(30));
    assert_eq!((a.said.len(), a.fetch), (1, false));
    // A kept answer needs no request.
    m.answered(&key, &Reply::Found(tables()), t(40));
    let a = asked(&mut m, &pos, None, de, Form::Short, t(50));
    assert!(a.said[0].starts_with("Meister"), "{:?}", a.said);
    assert!(!a.fetch);
}
