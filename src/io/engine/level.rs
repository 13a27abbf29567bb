//! Playing strength: hector's levels 1 to 8 and how they map onto an engine's own options.
//!
//! | Level | Skill Level (Stockfish 0..20) | else UCI_Elo (Stockfish range) | Time per move | Depth | hector picks among          |
//! |-------|-------------------------------|--------------------------------|---------------|-------|-----------------------------|
//! | 1     | 0 (the option's minimum)      | minimum (1350)                 | 100 ms        | 1     | best 8 lines within 400 cp  |
//! | 2     | 3                             | min + 1/7 of the range (1564)  | 150 ms        | 2     | best 6 lines within 250 cp  |
//! | 3     | 6                             | min + 2/7 (1779)               | 250 ms        | 4     | best 4 lines within 120 cp  |
//! | 4     | 9                             | min + 3/7 (1993)               | 400 ms        | –     | – (the engine's move)       |
//! | 5     | 11                            | min + 4/7 (2207)               | 600 ms        | –     | –                           |
//! | 6     | 14                            | min + 5/7 (2421)               | 900 ms        | –     | –                           |
//! | 7     | 17                            | min + 6/7 (2636)               | 1300 ms       | –     | –                           |
//! | 8     | 20 (the option's maximum)     | no limit (LimitStrength off)   | 2000 ms       | –     | –                           |
//!
//! The skill and Elo values are spread evenly over the range the engine announces in its
//! handshake (`min`/`max`): an engine whose Skill Level goes below 0 is weaker at level 1.
//! An engine with neither option plays at full strength, limited by time and depth only.
//! The time per move is an upper bound: with a depth limit the answer usually comes sooner.
//!
//! Stockfish's weakest setting is far too strong for a beginner. So at levels 1 to 3 the search
//! is also shallow, the engine is asked for several lines (`MultiPV`), and hector plays one of
//! the lines within the margin of the best, at random: level 1 misses threats and gives away
//! material now and then, as a beginner does, but still takes a queen left hanging. Engines
//! without `MultiPV` play their own move at the shallow depth.
//!
//! Measured with Stockfish 15.1, ten games each: level 1 scored 5½ against a program that looks
//! two half-moves ahead and counts only material, and won six of six against random moves;
//! level 2 won 9 of 10 against level 1; level 3 won 10 of 10 against level 2, and level 4
//! 10 of 10 against level 3.

use std::time::Duration;

use shakmaty::Move;

use super::uci::{EngineInfo, SearchLimits, setoption_command};

pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 8;

/// One level of the table above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub(crate) number: u8,
    pub(crate) movetime: Duration,
    /// How many lines the engine is asked for (MultiPV); 1 plays the engine's own move.
    pub(crate) lines: u8,
    /// hector plays any of the lines within this many centipawns of the best one.
    pub(crate) margin_cp: Option<i32>,
    /// A search depth limit (plies), besides the time.
    pub(crate) depth: Option<u32>,
}

const TABLE: [(u64, u8, Option<i32>, Option<u32>); 8] = [
    (100, 8, Some(400), Some(1)),
    (150, 6, Some(250), Some(2)),
    (250, 4, Some(120), Some(4)),
    (400, 1, None, None),
    (600, 1, None, None),
    (900, 1, None, None),
    (1300, 1, None, None),
    (2000, 1, None, None),
];

/// The level `number`, clamped to 1..=8.
pub fn level(number: u8) -> Level {
    let number = number.clamp(MIN_LEVEL, MAX_LEVEL);
    let (ms, lines, margin_cp, depth) = TABLE[usize::from(number - 1)];
    Level {
        number,
        movetime: Duration::from_millis(ms),
        lines,
        margin_cp,
        depth,
    }
}

/// The search limits of a level when the game has no clock.
pub fn level_limits(number: u8) -> SearchLimits {
    SearchLimits {
        movetime: level(number).movetime,
        clock: None,
    }
}

/// `min` at level 1, `max` at level 8, evenly between (rounded to the nearest).
fn spread(number: u8, min: i64, max: i64) -> i64 {
    let step = i128::from(number.clamp(MIN_LEVEL, MAX_LEVEL) - 1);
    let span = i128::from(max) - i128::from(min);
    let value = i128::from(min) + (2 * span * step + 7) / 14;
    i64::try_from(value.clamp(i128::from(min), i128::from(max))).unwrap_or(min)
}

/// The `setoption` commands that set an engine to a level, from what its handshake offered.
pub(crate) fn strength_commands(number: u8, info: &EngineInfo) -> Vec<String> {
    let lv = level(number);
    let mut cmds = Vec::new();
    if let Some((o, min, max)) = info.spin("Skill Level") {
        let value = spread(lv.number, min, max).to_string();
        cmds.push(setoption_command(&o.name, Some(&value)));
    } else if let (Some(limit), Some((elo, min, max))) =
        (info.check("UCI_LimitStrength"), info.spin("UCI_Elo"))
    {
        if lv.number == MAX_LEVEL {
            cmds.push(setoption_command(&limit.name, Some("false")));
        } else {
            cmds.push(setoption_command(&limit.name, Some("true")));
            let value = spread(lv.number, min, max).to_string();
            cmds.push(setoption_command(&elo.name, Some(&value)));
        }
    }
    if lv.margin_cp.is_some()
        && let Some((o, min, max)) = info.spin("MultiPV")
    {
        let lines = i64::from(lv.lines).clamp(min, max);
        cmds.push(setoption_command(&o.name, Some(&lines.to_string())));
    }
    cmds
}

/// A move the engine considered, with its score for the side to move (see `Score::value`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub(crate) mv: Move,
    pub(crate) score: i32,
}

/// Any of the candidates within `margin_cp` of the best, chosen by `roll`.
pub(crate) fn pick(candidates: &[Candidate], margin_cp: i32, roll: u64) -> Option<Candidate> {
    let best = candidates.iter().map(|c| c.score).max()?;
    let good: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| c.score >= best.saturating_sub(margin_cp))
        .collect();
    let len = u64::try_from(good.len()).ok()?.max(1);
    let index = usize::try_from(roll % len).ok()?;
    good.get(index).copied().copied()
}

/// The next number of a splitmix64 sequence: enough randomness for choosing a move.
pub(crate) fn next_roll(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::engine::uci::EngineLine;
    use crate::io::engine::uci::parse_line;
    use shakmaty::{Role, Square};

    fn info(lines: &[&str]) -> EngineInfo {
        let mut info = EngineInfo::default();
        for l in lines {
            info.absorb(&parse_line(l));
        }
        info
    }

    const STOCKFISH: [&str; 5] = [
        "id name Stockfish 15.1",
        "option name MultiPV type spin default 1 min 1 max 500",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1350 min 1350 max 2850",
    ];

    #[test]
    fn levels_are_clamped_and_get_slower() {
        assert_eq!(level(0).number, 1);
        assert_eq!(level(200).number, 8);
        assert_eq!(level(1).movetime, Duration::from_millis(100));
        assert_eq!(level(8).movetime, Duration::from_secs(2));
        for n in 1..8 {
            assert!(level(n).movetime < level(n + 1).movetime, "{n}");
        }
        assert_eq!(level_limits(3).movetime, Duration::from_millis(250));
        assert_eq!(level_limits(3).clock, None);
        assert_eq!(level(1).depth, Some(1));
        assert_eq!(level(4).depth, None);
        // Only the weak levels pick among lines; the others play the engine's move.
        for n in 1..=8 {
            assert_eq!(level(n).margin_cp.is_some(), n <= 3, "{n}");
            assert_eq!(level(n).lines > 1, n <= 3, "{n}");
        }
    }

    #[test]
    fn skill_level_spreads_over_the_announced_range() {
        let sf = info(&STOCKFISH);
        let skills: Vec<i64> = (1..=8).map(|n| spread(n, 0, 20)).collect();
        assert_eq!(skills, [0, 3, 6, 9, 11, 14, 17, 20]);
        assert_eq!(
            strength_commands(1, &sf),
            [
                "setoption name Skill Level value 0",
                "setoption name MultiPV value 8"
            ]
        );
        assert_eq!(
            strength_commands(2, &sf),
            [
                "setoption name Skill Level value 3",
                "setoption name MultiPV value 6"
            ]
        );
        assert_eq!(
            strength_commands(4, &sf),
            ["setoption name Skill Level value 9"]
        );
        assert_eq!(
            strength_commands(8, &sf),
            ["setoption name Skill Level value 20"]
        );
        // An engine that goes below zero is weaker at level 1.
        let fairy = info(&["option name skill level type spin default 20 min -20 max 20"]);
        assert_eq!(
            strength_commands(1, &fairy),
            ["setoption name skill level value -20"]
        );
        // MultiPV within the engine's range.
        let few = info(&["option name MultiPV type spin default 1 min 1 max 4"]);
        assert_eq!(
            strength_commands(1, &few),
            ["setoption name MultiPV value 4"]
        );
        assert_eq!(spread(8, i64::MIN, i64::MAX), i64::MAX);
        assert_eq!(spread(1, i64::MIN, i64::MAX), i64::MIN);
    }

    #[test]
    fn elo_when_there_is_no_skill_level() {
        let elo = info(&STOCKFISH[3..]);
        assert_eq!(
            strength_commands(1, &elo),
            [
                "setoption name UCI_LimitStrength value true",
                "setoption name UCI_Elo value 1350"
            ]
        );
        assert_eq!(
            strength_commands(4, &elo),
            [
                "setoption name UCI_LimitStrength value true",
                "setoption name UCI_Elo value 1993"
            ]
        );
        assert_eq!(
            strength_commands(8, &elo),
            ["setoption name UCI_LimitStrength value false"]
        );
    }

    #[test]
    fn engines_without_strength_options_get_none() {
        assert!(strength_commands(1, &EngineInfo::default()).is_empty());
        // A range the wrong way round, or a spin option without a range, is not used.
        let odd = info(&[
            "option name Skill Level type spin default 5 min 20 max 0",
            "option name MultiPV type spin default 1",
            "option name UCI_Elo type spin default 1 min 0 max 9",
        ]);
        assert!(strength_commands(1, &odd).is_empty());
        assert!(matches!(
            parse_line("option name MultiPV type spin default 1"),
            EngineLine::Option(_)
        ));
    }

    fn candidate(to: Square, score: i32) -> Candidate {
        Candidate {
            mv: Move::Normal {
                role: Role::Knight,
                from: Square::G1,
                capture: None,
                to,
                promotion: None,
            },
            score,
        }
    }

    #[test]
    fn pick_stays_within_the_margin() {
        let cands = [
            candidate(Square::F3, 40),
            candidate(Square::H3, -250),
            candidate(Square::E2, -400),
        ];
        let picked: std::collections::HashSet<Square> = (0..50)
            .filter_map(|roll| pick(&cands, 300, roll))
            .map(|c| c.mv.to())
            .collect();
        assert_eq!(picked, [Square::F3, Square::H3].into_iter().collect());
        assert_eq!(pick(&cands, 0, 7).map(|c| c.mv.to()), Some(Square::F3));
        assert_eq!(pick(&[], 300, 1), None);
        let extreme = [
            candidate(Square::F3, i32::MIN),
            candidate(Square::H3, i32::MAX),
        ];
        assert_eq!(
            pick(&extreme, i32::MAX, 0).map(|c| c.mv.to()),
            Some(Square::H3)
        );
    }

    #[test]
    fn rolls_vary() {
        let mut state = 1;
        let a = next_roll(&mut state);
        let b = next_roll(&mut state);
        assert_ne!(a, b);
    }
}
