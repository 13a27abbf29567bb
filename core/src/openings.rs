//! Opening names, from the table lichess publishes (lichess-org/chess-openings, CC0; see
//! assets/openings/README.md). Each line of the table names the position its moves reach;
//! the opening of a game is the last named position along its moves, so a position reached
//! by transposition is named too. Names are published in English; a language table may
//! translate the family (the part before the colon).

use std::collections::HashMap;
use std::sync::OnceLock;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position, san::SanPlus};

use crate::game::Game;
use crate::notation::language::{Language, fill};

/// The table's files, one per ECO volume.
const TABLES: [&str; 5] = [
    include_str!("../../assets/openings/a.tsv"),
    include_str!("../../assets/openings/b.tsv"),
    include_str!("../../assets/openings/c.tsv"),
    include_str!("../../assets/openings/d.tsv"),
    include_str!("../../assets/openings/e.tsv"),
];

/// A named opening position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The ECO code, e.g. `B20`.
    pub(crate) eco: String,
    /// As published: `Family: Variation, Subvariation`.
    pub(crate) name: String,
}

impl Opening {
    /// The family, the part before the colon: "Sicilian Defense".
    pub(crate) fn family(&self) -> &str {
        self.name.split_once(':').map_or(&self.name, |(f, _)| f)
    }

    /// The name in a language's words: the family translated where the table has it, the
    /// variation as published.
    pub(crate) fn name_in(&self, lang: &Language) -> String {
        let family = self.family();
        let Some(translated) = lang.openings.families.get(family) else {
            return self.name.clone();
        };
        match self.name.split_once(':') {
            Some((_, variation)) => format!("{translated}:{variation}"),
            None => translated.clone(),
        }
    }
}

/// The named positions, by their Zobrist hash (turn, castling and a capturable en passant
/// pawn included, the move counters not).
struct Table {
    by_position: HashMap<u64, Opening>,
    /// Lines that could not be read (none in the shipped table; a test holds it so).
    skipped: Vec<String>,
}

fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The position a line of moves ("1. e4 c5 2. Nf3") reaches from the start, or `None` when
/// a move is not legal there.
fn replay(pgn: &str) -> Option<Chess> {
    let mut pos = Chess::default();
    for token in pgn.split_whitespace() {
        // Move numbers: "1." or "12...".
        if token.ends_with('.') {
            continue;
        }
        let san: SanPlus = token.parse().ok()?;
        let m = san.san.to_move(&pos).ok()?;
        pos.play_unchecked(m);
    }
    Some(pos)
}

fn read(texts: &[&str]) -> Table {
    let mut table = Table {
        by_position: HashMap::with_capacity(4096),
        skipped: Vec::new(),
    };
    for text in texts {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let mut cols = line.split('\t');
            let (Some(eco), Some(name), Some(pgn)) = (cols.next(), cols.next(), cols.next()) else {
                table.skipped.push(line.to_string());
                continue;
            };
            if eco == "eco" {
                continue;
            }
            match replay(pgn) {
                // The first line naming a position keeps it: the table gives each name's
                // shortest line first.
                Some(pos) => {
                    table
                        .by_position
                        .entry(key(&pos))
                        .or_insert_with(|| Opening {
                            eco: eco.to_string(),
                            name: name.to_string(),
                        });
                }
                None => table.skipped.push(line.to_string()),
            }
        }
    }
    table
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| read(&TABLES))
}

/// The opening named by this very position, if the table names it.
pub fn named(pos: &Chess) -> Option<&'static Opening> {
    table().by_position.get(&key(pos))
}

/// The opening of a game: the last named position along its moves (the start included).
pub fn of_game(game: &Game) -> Option<&'static Opening> {
    (0..=game.ply())
        .rev()
        .filter_map(|ply| game.position_at(ply))
        .find_map(named)
}

/// The answer to "eröffnung": the name and its ECO code, or that none is named.
pub(crate) fn answer(opening: Option<&Opening>, lang: &Language) -> String {
    match opening {
        Some(o) => fill(
            &lang.openings.answer,
            &[("name", &o.name_in(lang)), ("eco", &o.eco)],
        ),
        None => lang.openings.none.clone(),
    }
}

/// What is said after a move that reaches a newly named opening.
pub(crate) fn reached(opening: &Opening, lang: &Language) -> String {
    fill(&lang.openings.reached, &[("name", &opening.name_in(lang))])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::language::language;
    use crate::variant::Variant;

    fn game(sans: &[&str]) -> Game {
        let mut g = Game::new(Variant::Standard);
        for san in sans {
            g.play_san(san).expect("legal");
        }
        g
    }

    #[test]
    fn the_whole_table_is_read() {
        let t = table();
        assert!(t.skipped.is_empty(), "{:?}", t.skipped);
        // About 3800 lines, some of them transpositions to one position.
        assert!(t.by_position.len() > 3000, "{}", t.by_position.len());
    }

    #[test]
    fn unreadable_lines_are_skipped() {
        let t = read(&[
            "eco\tname\tpgn\nA00\tBroken\t1. e5\nB00\tno moves column\nB20\tSicilian Defense\t1. e4 c5\n",
        ]);
        assert_eq!(t.skipped.len(), 2);
        assert_eq!(t.by_position.len(), 1);
    }

    #[test]
    fn the_deepest_named_position_names_the_game() {
        let o = of_game(&game(&[
            "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6",
        ]))
        .expect("named");
        assert_eq!(o.name, "Sicilian Defense: Najdorf Variation");
        assert_eq!(o.eco, "B90");
        // A move the table does not name keeps the last name.
        let o = of_game(&game(&["e4", "c5", "h4", "h5"])).expect("named");
        assert!(o.name.starts_with("Sicilian Defense"), "{}", o.name);
        assert_eq!(of_game(&Game::new(Variant::Standard)), None);
    }

    #[test]
    fn transpositions_are_named() {
        // The Queen's Gambit Declined reached from the English Opening.
        let o = of_game(&game(&["c4", "e6", "Nc3", "d5", "d4"])).expect("named");
        assert!(o.name.starts_with("Queen's Gambit Declined"), "{}", o.name);
        // The same position by the usual order has the same name.
        let usual = of_game(&game(&["d4", "d5", "c4", "e6", "Nc3"])).expect("named");
        assert_eq!(o, usual);
    }

    #[test]
    fn german_families_variations_as_published() {
        let de = language("de").expect("de");
        let en = language("en").expect("en");
        let najdorf = Opening {
            eco: "B90".into(),
            name: "Sicilian Defense: Najdorf Variation".into(),
        };
        assert_eq!(
            najdorf.name_in(de),
            "Sizilianische Verteidigung: Najdorf Variation"
        );
        assert_eq!(najdorf.name_in(en), "Sicilian Defense: Najdorf Variation");
        let ruy = Opening {
            eco: "C60".into(),
            name: "Ruy Lopez".into(),
        };
        assert_eq!(ruy.name_in(de), "Spanische Partie");
        let rare = Opening {
            eco: "A00".into(),
            name: "Amar Opening: Paris Gambit".into(),
        };
        assert_eq!(rare.name_in(de), "Amar Opening: Paris Gambit");
        assert_eq!(
            answer(Some(&najdorf), de),
            "Sizilianische Verteidigung: Najdorf Variation, ECO B90"
        );
        assert_eq!(answer(None, en), "No named opening yet");
        assert_eq!(reached(&ruy, en), "Opening: Ruy Lopez");
    }

    #[test]
    fn spanish_french_and_dutch_families_variations_as_published() {
        let najdorf = Opening {
            eco: "B90".into(),
            name: "Sicilian Defense: Najdorf Variation".into(),
        };
        let ruy = Opening {
            eco: "C60".into(),
            name: "Ruy Lopez".into(),
        };
        for (code, sicilian, spanish) in [
            ("es", "Defensa siciliana", "Apertura española"),
            ("fr", "Défense sicilienne", "Partie espagnole"),
            ("nl", "Siciliaanse verdediging", "Spaanse opening"),
        ] {
            let lang = language(code).expect(code);
            assert_eq!(
                najdorf.name_in(lang),
                format!("{sicilian}: Najdorf Variation"),
                "{code}"
            );
            assert_eq!(ruy.name_in(lang), spanish, "{code}");
        }
    }

    /// Every language but the table's own names the same families as German, each one a
    /// family of the table.
    #[test]
    fn every_language_names_the_same_families_of_the_table() {
        let families: std::collections::HashSet<&str> =
            table().by_position.values().map(Opening::family).collect();
        let de = language("de").expect("de");
        for family in de.openings.families.keys() {
            assert!(families.contains(family.as_str()), "{family}");
        }
        for lang in crate::notation::language::languages().filter(|l| l.code != "en") {
            let mut theirs: Vec<&String> = lang.openings.families.keys().collect();
            let mut german: Vec<&String> = de.openings.families.keys().collect();
            theirs.sort();
            german.sort();
            assert_eq!(theirs, german, "{}", lang.code);
        }
    }
}
