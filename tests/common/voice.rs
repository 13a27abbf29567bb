//! Test recordings of spoken moves, made at test time: espeak-ng says a phrase, sox brings it
//! to 16 kHz, pads it, mixes in a noise floor (exact digital silence is nothing a microphone
//! gives, and ruins recognition) and, for some, a louder noise. The tests say the phrases of
//! [`phrases`], written here per language from the FIDE text and the language files'
//! sources, never made by hector's own announcer (a wrong word shared by the announcer and
//! the recogniser would pass); the benchmark says hector's announcements of random positions
//! ([`legal_phrases`]), since it measures and asserts nothing. Shared by both.
#![allow(
    dead_code,
    reason = "each test binary uses its own part of the helpers"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use hector::core::notation::Language;
use hector::core::notation::{Form, announce};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// A small seeded generator: the same recordings every run.
pub struct Seeded(u64);

impl Seeded {
    pub fn new(seed: u64) -> Seeded {
        Seeded(
            seed.wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407),
        )
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// A spoken move: the position, the move (UCI) and the words said.
#[derive(Clone, Debug)]
pub struct Spoken {
    pub fen: String,
    pub uci: String,
    pub text: String,
}

/// The positions of [`phrases`].
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// 1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5: White may castle, take on f7 and e5.
const ITALIAN: &str = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
/// 1. e4 e5 2. Nf3: Black to move.
const BLACK_TO_MOVE: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
/// A pawn on e7 to promote.
const PROMOTION: &str = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";
/// 1. d4 d5 2. c4: Black may take on c4.
const GAMBIT: &str = "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2";

/// The phrases the tests say in `code`'s words, each with its position and the move it names
/// (UCI), written by hand: German from the FIDE Laws, Appendix D (Anna … Hector, eins … acht,
/// König … Bauer, Kurze Rochade, schlägt), English from the spoken-notation table, Spanish,
/// French and Dutch from the federations' translations the language files cite (the pieces,
/// the numbers, the castling words; no capture word, which those sources leave to the
/// player, so the pieces' captures are said with the square alone).
pub fn phrases(code: &str) -> Vec<Spoken> {
    let table: &[(&str, &str, &str)] = match code {
        "de" => &[
            (START, "e2e4", "Eva vier"),
            (START, "g1f3", "Springer Felix drei"),
            (START, "b1c3", "Springer Cäsar drei"),
            (START, "c2c4", "Cäsar vier"),
            (ITALIAN, "e1g1", "Kurze Rochade"),
            (ITALIAN, "c4f7", "Läufer schlägt Felix sieben"),
            (ITALIAN, "f3e5", "Springer schlägt Eva fünf"),
            (ITALIAN, "d2d3", "David drei"),
            (BLACK_TO_MOVE, "b8c6", "Springer Cäsar sechs"),
            (BLACK_TO_MOVE, "d8f6", "Dame Felix sechs"),
            (BLACK_TO_MOVE, "d7d6", "David sechs"),
            (PROMOTION, "e7e8q", "Eva acht Dame"),
            (PROMOTION, "e1d2", "König David zwei"),
            (GAMBIT, "d5c4", "David schlägt Cäsar vier"),
            (GAMBIT, "e7e6", "Eva sechs"),
            (GAMBIT, "g8f6", "Springer Felix sechs"),
        ],
        "es" => &[
            (START, "e2e4", "Eva cuatro"),
            (START, "g1f3", "Caballo Felix tres"),
            (START, "b1c3", "Caballo Cesar tres"),
            (ITALIAN, "e1g1", "enroque corto"),
            (ITALIAN, "c4f7", "Alfil Felix siete"),
            (ITALIAN, "d2d3", "David tres"),
            (BLACK_TO_MOVE, "b8c6", "Caballo Cesar seis"),
            (BLACK_TO_MOVE, "d8f6", "Dama Felix seis"),
            (BLACK_TO_MOVE, "d7d6", "David seis"),
            (PROMOTION, "e7e8q", "Eva ocho Dama"),
            (PROMOTION, "e1d2", "Rey David dos"),
            (GAMBIT, "e7e6", "Eva seis"),
        ],
        "fr" => &[
            (START, "e2e4", "Eva quatre"),
            (START, "g1f3", "Cavalier Felix trois"),
            (START, "b1c3", "Cavalier César trois"),
            (ITALIAN, "e1g1", "petit roque"),
            (ITALIAN, "c4f7", "Fou Felix sept"),
            (ITALIAN, "d2d3", "David trois"),
            (BLACK_TO_MOVE, "b8c6", "Cavalier César six"),
            (BLACK_TO_MOVE, "d8f6", "Dame Felix six"),
            (BLACK_TO_MOVE, "d7d6", "David six"),
            (PROMOTION, "e7e8q", "Eva huit Dame"),
            (PROMOTION, "e1d2", "Roi David deux"),
            (GAMBIT, "e7e6", "Eva six"),
        ],
        "nl" => &[
            (START, "e2e4", "Eva vier"),
            (START, "g1f3", "Paard Felix drie"),
            (START, "b1c3", "Paard Cesar drie"),
            (ITALIAN, "e1g1", "korte rochade"),
            (ITALIAN, "c4f7", "Loper Felix zeven"),
            (ITALIAN, "d2d3", "David drie"),
            (BLACK_TO_MOVE, "b8c6", "Paard Cesar zes"),
            (BLACK_TO_MOVE, "d8f6", "Dame Felix zes"),
            (BLACK_TO_MOVE, "d7d6", "David zes"),
            (PROMOTION, "e7e8q", "Eva acht Dame"),
            (PROMOTION, "e1d2", "Koning David twee"),
            (GAMBIT, "e7e6", "Eva zes"),
        ],
        _ => &[
            (START, "e2e4", "Eva four"),
            (START, "g1f3", "Knight Felix three"),
            (START, "b1c3", "Knight Cesar three"),
            (START, "c2c4", "Cesar four"),
            (ITALIAN, "e1g1", "short castling"),
            (ITALIAN, "c4f7", "Bishop takes Felix seven"),
            (ITALIAN, "f3e5", "Knight takes Eva five"),
            (ITALIAN, "d2d3", "David three"),
            (BLACK_TO_MOVE, "b8c6", "Knight Cesar six"),
            (BLACK_TO_MOVE, "d8f6", "Queen Felix six"),
            (BLACK_TO_MOVE, "d7d6", "David six"),
            (PROMOTION, "e7e8q", "Eva eight Queen"),
            (PROMOTION, "e1d2", "King David two"),
            (GAMBIT, "d5c4", "David takes Cesar four"),
            (GAMBIT, "e7e6", "Eva six"),
            (GAMBIT, "g8f6", "Knight Felix six"),
        ],
    };
    table
        .iter()
        .map(|(fen, uci, text)| Spoken {
            fen: (*fen).to_string(),
            uci: (*uci).to_string(),
            text: (*text).to_string(),
        })
        .collect()
}

/// `n` random positions (4 to 60 plies of random play from the start, seeded), each with one
/// of its legal moves (a capture, castling or promotion when there is one, a third of the
/// time).
pub fn random_moves(seed: u64, n: usize) -> Vec<(Chess, shakmaty::Move)> {
    let mut rng = Seeded::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Chess::default();
        let plies = 4 + rng.below(57);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos.play_unchecked(m);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            continue;
        }
        let special: Vec<_> = moves
            .iter()
            .filter(|m| m.is_capture() || m.is_castle() || m.is_promotion())
            .copied()
            .collect();
        let m = if !special.is_empty() && rng.below(3) == 0 {
            special[rng.below(special.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        out.push((pos, m));
    }
    out
}

/// A move of `pos` and the words `text` said for it.
fn spoken(pos: &Chess, m: shakmaty::Move, text: String) -> Spoken {
    Spoken {
        fen: shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string(),
        uci: UciMove::from_move(m, CastlingMode::Standard).to_string(),
        text,
    }
}

/// For the benchmark's tuning set: the moves of [`random_moves`] in hector's short words of
/// `lang`. No test takes its phrases from here.
pub fn legal_phrases(lang: &Language, seed: u64, n: usize) -> Vec<Spoken> {
    random_moves(seed, n)
        .into_iter()
        .map(|(pos, m)| {
            let text = announce(&pos, m, lang, Form::Short);
            spoken(&pos, m, text)
        })
        .collect()
}

/// The moves of [`random_moves`] in the words `say` gives them: the hold-out's phrases, said
/// in the words of tests/common/words.rs (the sources' words, not hector's tables).
pub fn said_phrases(
    seed: u64,
    n: usize,
    say: impl Fn(&Chess, shakmaty::Move) -> String,
) -> Vec<Spoken> {
    random_moves(seed, n)
        .into_iter()
        .map(|(pos, m)| {
            let text = say(&pos, m);
            spoken(&pos, m, text)
        })
        .collect()
}

/// espeak-ng's voices used for a language: several speakers per language.
pub fn voices(code: &str) -> &'static [&'static str] {
    match code {
        "de" => &["de", "de+f2", "de+m3", "de+klatt4"],
        "es" => &["es", "es+f2", "es-419+m3", "es+klatt4"],
        "fr" => &["fr", "fr+f2", "fr-be+m3", "fr+klatt4"],
        "nl" => &["nl", "nl+f2", "nl+m3", "nl+klatt4"],
        _ => &["en-us", "en-us+f3", "en-gb+m3", "en-us+klatt4"],
    }
}

/// espeak-ng's voices of the hold-out: other speakers (regions, variants) than [`voices`],
/// which the recogniser's dictionaries and thresholds were tuned on. What hector is measured
/// on (benches/voice.rs `--set holdout`, tests/voice_holdout.rs).
pub fn holdout_voices(code: &str) -> &'static [&'static str] {
    match code {
        "de" => &["de+m1", "de+f4", "de+klatt2", "de+m7", "de+f1", "de+m5"],
        "es" => &[
            "es-419",
            "es+f4",
            "es+m7",
            "es-419+klatt2",
            "es+m1",
            "es-419+f1",
        ],
        "fr" => &[
            "fr-ch",
            "fr-be+f4",
            "fr+m7",
            "fr-ch+klatt2",
            "fr+m1",
            "fr-be+f1",
        ],
        "nl" => &["nl+m1", "nl+f4", "nl+klatt2", "nl+m7", "nl+f1", "nl+m5"],
        _ => &[
            "en-gb-x-rp",
            "en-029+f4",
            "en-gb-scotland+m7",
            "en-us-nyc+klatt2",
            "en-gb-x-gbcwmd+m1",
            "en-us+f1",
        ],
    }
}

/// How a phrase is said and heard.
#[derive(Clone, Copy, Debug)]
pub struct Rendition<'a> {
    pub voice: &'a str,
    pub speed: u32,
    pub pitch: u32,
    /// Pink noise this many dB below the speech, or only the noise floor.
    pub noise_db: Option<u32>,
}

impl Rendition<'static> {
    /// The `i`-th rendition of a language: voices in turn, speeds and pitches varied, every
    /// second one with noise 10 to 20 dB below the speech.
    pub fn nth(code: &str, i: usize, rng: &mut Seeded) -> Rendition<'static> {
        let v = voices(code);
        Rendition {
            voice: v[i % v.len()],
            speed: [130, 160, 190, 220][rng.below(4)],
            pitch: [30, 45, 60, 75][rng.below(4)],
            noise_db: (i % 2 == 1).then(|| [10, 15, 20][rng.below(3)]),
        }
    }

    /// The `i`-th rendition of the hold-out: its voices in turn, with speeds and pitches the
    /// tuning set ([`Rendition::nth`]) does not use, every second one in noise 12 to 18 dB
    /// below the speech.
    pub fn holdout(code: &str, i: usize, rng: &mut Seeded) -> Rendition<'static> {
        let v = holdout_voices(code);
        Rendition {
            voice: v[i % v.len()],
            speed: [140, 150, 175, 200, 210][rng.below(5)],
            pitch: [20, 25, 40, 55, 70, 80][rng.below(6)],
            noise_db: (i % 2 == 1).then(|| [12, 18][rng.below(2)]),
        }
    }
}

fn run(program: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{program} {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    // sox's stat writes to standard error.
    Ok(String::from_utf8_lossy(&out.stderr).into_owned())
}

fn rms(file: &Path) -> Result<f64, String> {
    let stat = run("sox", &["-R", &file.display().to_string(), "-n", "stat"])?;
    stat.lines()
        .find(|l| l.starts_with("RMS     amplitude"))
        .and_then(|l| l.split(':').nth(1))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| format!("no RMS in sox's stat: {stat}"))
}

/// Records `text` as `name`.wav in `dir`; the path, or what failed.
pub fn record(dir: &Path, name: &str, text: &str, how: Rendition) -> Result<PathBuf, String> {
    let p = |suffix: &str| dir.join(format!("{name}-{suffix}.wav"));
    let s = |path: &Path| path.display().to_string();
    let (raw, dry, floor, noise, out) = (
        p("raw"),
        p("dry"),
        p("floor"),
        p("noise"),
        dir.join(format!("{name}.wav")),
    );
    run(
        "espeak-ng",
        &[
            "-v",
            how.voice,
            "-s",
            &how.speed.to_string(),
            "-p",
            &how.pitch.to_string(),
            "-w",
            &s(&raw),
            text,
        ],
    )?;
    // -R everywhere: sox dithers its output at random otherwise, and the same phrase would
    // be a slightly different recording each run.
    run(
        "sox",
        &[
            "-R",
            &s(&raw),
            "-r",
            "16000",
            "-c",
            "1",
            "-b",
            "16",
            &s(&dry),
            "vol",
            "0.6",
            "pad",
            "0.3",
            "0.3",
        ],
    )?;
    let samples = std::fs::metadata(&dry)
        .map_err(|e| e.to_string())?
        .len()
        .saturating_sub(44)
        / 2;
    let seconds = format!("{:.3}", samples as f64 / 16_000.0);
    // -R: the same noise every run.
    run(
        "sox",
        &[
            "-R",
            "-n",
            "-r",
            "16000",
            "-c",
            "1",
            "-b",
            "16",
            &s(&floor),
            "synth",
            &seconds,
            "whitenoise",
            "vol",
            "0.0005",
        ],
    )?;
    match how.noise_db {
        None => {
            run("sox", &["-R", "-m", &s(&dry), &s(&floor), &s(&out)])?;
        }
        Some(db) => {
            run(
                "sox",
                &[
                    "-R",
                    "-n",
                    "-r",
                    "16000",
                    "-c",
                    "1",
                    "-b",
                    "16",
                    &s(&noise),
                    "synth",
                    &seconds,
                    "pinknoise",
                    "vol",
                    "0.5",
                ],
            )?;
            let scale = rms(&dry)? / 10f64.powf(f64::from(db) / 20.0) / rms(&noise)?.max(1e-9);
            run(
                "sox",
                &[
                    "-R",
                    "-m",
                    &s(&dry),
                    "-v",
                    &format!("{scale:.6}"),
                    &s(&noise),
                    &s(&floor),
                    &s(&out),
                ],
            )?;
        }
    }
    for f in [raw, dry, floor, noise] {
        let _ = std::fs::remove_file(f);
    }
    Ok(out)
}
