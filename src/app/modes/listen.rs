//! `hector listen`: what a recording names, as `hector parse` does for typed text. The same
//! recogniser and decision as in a game: a move heard with confidence is printed as `hector
//! parse` prints it (`g1f3<TAB>Springer Felix drei`), an unsure one as the question hector
//! would ask (`g1f3?<TAB>Springer Felix drei?`), a command by its typed word.

use std::path::PathBuf;
use std::process::ExitCode;

use shakmaty::uci::UciMove;

use crate::app::services::output::Out;
use crate::app::services::voice::{cut_words, recogniser, recording_words, unavailable_words};
use crate::core::notation::{Language, fill};
use crate::core::variant::{Variant, position_from_fen};
use crate::core::voice::VoiceCommand;
use crate::core::voice::decide::{
    Answer, Decision, Evidence, Settings, judge_answer, judge_move, said,
};
use crate::core::voice::grammar::Heard;
use crate::io::voice::recogniser::{Recogniser, Timed};
use crate::io::voice::source::Recording;

pub(crate) struct ListenOptions {
    pub(crate) file: PathBuf,
    pub(crate) fen: Option<String>,
    pub(crate) chess960: bool,
    pub(crate) model: Option<PathBuf>,
    pub(crate) always_ask: bool,
    /// The recording answers a question: yes, no, or something else.
    pub(crate) answer: bool,
    /// What each grammar heard and the tests' results, after the answer.
    pub(crate) details: bool,
}

/// Exit statuses: the move or command heard (0), nothing (1), a problem (2), asked back (3).
const ASKED: u8 = 3;

pub(crate) fn run(options: &ListenOptions, lang: &'static Language) -> ExitCode {
    let variant = if options.chess960 {
        Variant::Chess960
    } else {
        Variant::Standard
    };
    let pos = match options.fen.as_deref() {
        Some(f) => match position_from_fen(f, variant) {
            Ok(p) => p,
            Err(e) => {
                errln!("hector listen: {e}");
                return ExitCode::from(2);
            }
        },
        None => shakmaty::Chess::default(),
    };
    let recording = match Recording::open(&options.file) {
        Ok(r) => r,
        Err(e) => {
            errln!(
                "hector listen: {}",
                recording_words(lang, &options.file, &e)
            );
            return ExitCode::from(2);
        }
    };
    let mut rec = match recogniser(lang, options.model.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            errln!("hector listen: {}", unavailable_words(lang, &e));
            return ExitCode::from(2);
        }
    };
    let mut source = recording;
    let utterance = match rec.phrase(&mut source, &|| false) {
        Ok(u) => u,
        Err(_) => {
            errln!("hector listen: {}", lang.voice.failed);
            return ExitCode::from(2);
        }
    };
    let mut out = Out::new();
    let Some(utterance) = utterance else {
        out.line(&lang.voice.nothing);
        return out.finish(
            "hector listen",
            &lang.messages.output_failed,
            ExitCode::from(1),
        );
    };
    if utterance.cut {
        out.line(&cut_words(lang));
    }
    let heard = if options.answer {
        hear_answer(options, &mut rec, &utterance.samples, &mut out, lang)
    } else {
        hear_move(
            options,
            &mut rec,
            &pos,
            variant,
            &utterance.samples,
            &mut out,
            lang,
        )
    };
    let Some(code) = heard else {
        errln!("hector listen: {}", lang.voice.failed);
        return ExitCode::from(2);
    };
    out.finish(
        "hector listen",
        &lang.messages.output_failed,
        ExitCode::from(code),
    )
}

/// The recording as the answer to a question: yes, no, unsure or nothing, printed, and its
/// exit status; `None` when the recogniser failed.
fn hear_answer(
    options: &ListenOptions,
    rec: &mut Recogniser,
    samples: &[i16],
    out: &mut Out,
    lang: &Language,
) -> Option<u8> {
    let Timed { decodes, took, .. } = rec.hear_answer(samples).ok()?;
    let (answer, evidence) = judge_answer(rec.tokens(), &decodes);
    let (line, code) = match answer {
        Answer::Yes => (rec.tokens().yes.clone(), 0),
        Answer::Second => (rec.tokens().second.clone(), 0),
        Answer::No => (rec.tokens().no.clone(), 0),
        Answer::Unsure => (lang.voice.unsure.clone(), ASKED),
        Answer::Other | Answer::Nothing => (lang.voice.nothing.clone(), 1),
    };
    out.line(&line);
    if options.details {
        let heard = decodes.answer.as_ref().map(|d| d.words.clone());
        let second = second_words(&decodes.without, lang);
        out.line(&details(lang, heard, None, second, &evidence, took));
    }
    Some(code)
}

/// The recording as a move or a command in `pos`, printed as `hector parse` prints it (or
/// as the question hector would ask), and its exit status; `None` when the recogniser
/// failed.
fn hear_move(
    options: &ListenOptions,
    rec: &mut Recogniser,
    pos: &shakmaty::Chess,
    variant: Variant,
    samples: &[i16],
    out: &mut Out,
    lang: &Language,
) -> Option<u8> {
    let Timed { decodes, took, .. } = rec.hear_move(pos, samples).ok()?;
    let judgement = judge_move(
        pos,
        rec.tokens(),
        &decodes,
        Settings {
            always_ask: options.always_ask,
        },
    );
    let uci = |m| UciMove::from_move(m, variant.castling_mode()).to_string();
    let (line, code) = match judgement.decision {
        Decision::Play(m) => (
            format!("{}\t{}", uci(m), said(Heard::Move(m), pos, lang)),
            0,
        ),
        Decision::Command(c) => (
            format!("{}\t{}", typed(c, lang), said(Heard::Command(c), pos, lang)),
            0,
        ),
        Decision::Ask(h) => {
            let first = match h {
                Heard::Move(m) => uci(m),
                Heard::Command(c) => typed(c, lang),
            };
            (
                format!(
                    "{first}?\t{}",
                    crate::core::voice::decide::question(h, pos, lang)
                ),
                ASKED,
            )
        }
        // The second move in a field of its own: the first field stays the first move.
        Decision::AskTwo(a, b) => (
            format!(
                "{}?\t{}?\t{}",
                uci(a),
                uci(b),
                crate::core::voice::decide::question_two(a, b, pos, lang)
            ),
            ASKED,
        ),
        // The move first, the command second, as for two moves.
        Decision::AskMoveOrCommand(m, c) => (
            format!(
                "{}?\t{}?\t{}",
                uci(m),
                typed(c, lang),
                crate::core::voice::decide::question_move_or_command(m, c, pos, lang)
            ),
            ASKED,
        ),
        Decision::Nothing => (lang.voice.nothing.clone(), 1),
    };
    out.line(&line);
    if options.details {
        let mut line = details(
            lang,
            decodes.position.as_ref().map(|d| d.words.clone()),
            Some(decodes.language.as_ref().map(|d| d.words.clone())),
            second_words(&decodes.second, lang),
            &judgement.evidence,
            took,
        );
        // The moves the evidence names besides the one heard.
        let named = |template: &str, m| {
            fill(
                template,
                &[(
                    "move",
                    &format!("{} ({})", said(Heard::Move(m), pos, lang), uci(m)),
                )],
            )
        };
        if let Decision::AskTwo(_, b) = judgement.decision {
            line = format!("{line}. {}", named(&lang.voice.details_second, b));
        }
        if let Some(near) = judgement.evidence.near {
            line = format!("{line}. {}", named(&lang.voice.details_near, near));
        }
        out.line(&line);
    }
    Some(code)
}

/// What the second decoding heard, in words.
fn second_words(second: &crate::core::voice::decide::Second, lang: &Language) -> String {
    match second {
        crate::core::voice::decide::Second::NotRun => lang.voice.not_run.clone(),
        crate::core::voice::decide::Second::Nothing => lang.voice.none.clone(),
        crate::core::voice::decide::Second::Best(d) => d.words.clone(),
    }
}

fn typed(c: VoiceCommand, lang: &Language) -> String {
    c.typed(lang).to_lowercase()
}

fn details(
    lang: &Language,
    first: Option<String>,
    language: Option<Option<String>>,
    second: String,
    evidence: &Evidence,
    took: std::time::Duration,
) -> String {
    let v = &lang.voice;
    let none = || v.none.clone();
    let margin = match evidence.margin {
        None => v.not_run.clone(),
        Some(m) if m.is_infinite() => "∞".to_string(),
        Some(m) => format!("{m:.1}"),
    };
    fill(
        &v.details,
        &[
            ("position", &first.unwrap_or_else(none)),
            (
                "language",
                &language.map_or_else(|| v.not_run.clone(), |l| l.unwrap_or_else(none)),
            ),
            ("second", &second),
            (
                "agree",
                if evidence.agree {
                    &v.agree_yes
                } else {
                    &v.agree_no
                },
            ),
            ("coverage", &format!("{:.2}", evidence.coverage)),
            ("margin", &margin),
            ("decided", &took.as_millis().to_string()),
        ],
    )
}
