//! Studying a PGN file (`hector study`), pure: a game's tree of moves ([`tree`]) walked forwards
//! and backwards, into its variations and out again, its comments, NAGs, clocks and
//! evaluations said in words when a move is reached and on request, every question of play
//! answered for the position reached (the question layer), typed moves that follow the file
//! or start the player's own variation, and that tree written as a new PGN. The file itself is
//! the adapter's: it streams the file to list and find games ([`Effect::Find`]), to open one
//! ([`Effect::Open`]) and writes the new file ([`Effect::Save`]); the answers come back as
//! events.

pub(crate) mod tree;
pub use crate::notation::words::study as words;

use std::time::Duration;

use shakmaty::san::SanPlus;
use shakmaty::{Color, Position};

use crate::analysis::{Eval, eval_words};
use crate::explorer;
use crate::machine::{Common, Machine, SpeechControl, Urgency, answer, lines, say};
use crate::matchplay::command::{Command, Line, read_line};
use crate::matchplay::help::{HelpAgain, Listed, all_commands, mode_help};
use crate::matchplay::question::{Asked, answer as answer_question};
use crate::notation::clock_words::{duration_words, player_time};
use crate::notation::language::{Language, capitalized, fill};
use crate::notation::printable::{MAX_NAME, printable_cut};
use crate::notation::speak::{Form, announce, announce_san};
use crate::notation::wording::Wording;
use crate::pgn::RawGame;
use crate::time::Timestamp;
use tree::{Problem, ROOT, ReadError, Tree};

/// Parts the fields of a packed [`Summary`].
const SEPARATOR: char = '\u{1f}';

/// How many games a list names at once.
pub const LISTED: usize = 10;

/// A game as a list names it and a search finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// 1 for the file's first game.
    pub number: usize,
    pub white: String,
    pub(crate) black: String,
    pub(crate) event: String,
    pub(crate) result: String,
    /// The tags a search looks at besides: empty when the file has none.
    pub(crate) date: String,
    pub(crate) eco: String,
    pub(crate) opening: String,
}

/// The tag's value as it may be kept and said: cut, `?` and empty as none.
fn tag(raw: &RawGame<'_>, name: &str) -> Option<String> {
    raw.tag(name)
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != "?" && *v != "-")
        .map(|v| printable_cut(v, MAX_NAME))
}

impl Summary {
    /// The list's words of game `number` of the file.
    pub fn of(raw: &RawGame<'_>, number: usize) -> Summary {
        Summary {
            number,
            white: tag(raw, "White").unwrap_or_else(|| "?".to_string()),
            black: tag(raw, "Black").unwrap_or_else(|| "?".to_string()),
            event: tag(raw, "Event").unwrap_or_else(|| "?".to_string()),
            result: tag(raw, "Result")
                .or_else(|| raw.termination.map(str::to_string))
                .unwrap_or_else(|| "*".to_string()),
            date: tag(raw, "Date").unwrap_or_default(),
            eco: tag(raw, "ECO").unwrap_or_default(),
            opening: tag(raw, "Opening").unwrap_or_default(),
        }
    }

    /// Its words packed in one text for an index that keeps millions: each field cut to `cut`
    /// characters, the fields parted by a control character no field holds.
    pub fn pack(&self, cut: usize) -> String {
        let fields = [
            &self.white,
            &self.black,
            &self.event,
            &self.result,
            &self.date,
            &self.eco,
            &self.opening,
        ];
        let mut packed = String::new();
        for (i, f) in fields.into_iter().enumerate() {
            if i > 0 {
                packed.push(SEPARATOR);
            }
            packed.extend(f.chars().filter(|&c| c != SEPARATOR).take(cut));
        }
        packed
    }

    /// Game `number` from [`Summary::pack`]'s text.
    pub fn unpack(number: usize, packed: &str) -> Summary {
        let mut f = packed.split(SEPARATOR).map(str::to_string);
        let mut next = || f.next().unwrap_or_default();
        Summary {
            number,
            white: next(),
            black: next(),
            event: next(),
            result: next(),
            date: next(),
            eco: next(),
            opening: next(),
        }
    }
}

/// Which games a list asks for: those from a number on whose players, event, opening (its name
/// or ECO code), date or result hold a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    pub(crate) text: Option<String>,
    /// The first game number looked at.
    pub from: usize,
}

impl Search {
    /// `partien`, `partien 21`, `partien carlsen`, `partien carlsen 57`.
    pub fn parse(rest: &str) -> Search {
        let mut words: Vec<&str> = rest.split_whitespace().collect();
        let from = match words.last().and_then(|w| w.parse::<usize>().ok()) {
            Some(n) => {
                words.pop();
                n.max(1)
            }
            None => 1,
        };
        let text = words.join(" ");
        Search {
            text: (!text.is_empty()).then_some(text),
            from,
        }
    }

    /// Whether game `number`, packed by [`Summary::pack`], fits (as [`Search::fits`], without
    /// unpacking it: a search looks at millions).
    pub fn fits_packed(&self, number: usize, packed: &str) -> bool {
        number >= self.from
            && self.text.as_ref().is_none_or(|t| {
                let t = t.to_lowercase();
                if packed.is_ascii() && t.is_ascii() {
                    packed
                        .as_bytes()
                        .windows(t.len().max(1))
                        .any(|w| w.eq_ignore_ascii_case(t.as_bytes()))
                } else {
                    packed.to_lowercase().contains(&t)
                }
            })
    }

    pub fn fits(&self, game: &Summary) -> bool {
        game.number >= self.from
            && self.text.as_ref().is_none_or(|t| {
                let t = t.to_lowercase();
                [
                    &game.white,
                    &game.black,
                    &game.event,
                    &game.opening,
                    &game.eco,
                    &game.date,
                    &game.result,
                ]
                .iter()
                .any(|v| v.to_lowercase().contains(&t))
            })
    }
}

/// A game read from the file, ready to walk.
#[derive(Clone, Debug)]
pub struct Loaded {
    #[expect(
        dead_code,
        reason = "the game's number in the file; nothing reads it yet"
    )]
    pub(crate) number: usize,
    /// Its tags as the file has them (written back to the new file).
    pub(crate) tags: Vec<(String, String)>,
    pub summary: Summary,
    pub(crate) tree: Tree,
    pub(crate) problem: Option<Problem>,
}

impl Loaded {
    /// Reads game `number` the PGN reader split off.
    pub fn read(raw: &RawGame<'_>, number: usize) -> Result<Loaded, ReadError> {
        let (tree, problem) = Tree::read(raw)?;
        Ok(Loaded {
            number,
            tags: raw
                .tags
                .iter()
                .map(|t| (t.name.to_string(), t.value.to_string()))
                .collect(),
            summary: Summary::of(raw, number),
            tree,
            problem,
        })
    }

    /// The game as a PGN text: its tags and its whole tree, the player's moves included.
    pub(crate) fn pgn(&self) -> String {
        let result = match self.summary.result.as_str() {
            r @ ("1-0" | "0-1" | "1/2-1/2") => r,
            _ => "*",
        };
        let mut tags = self.tags.clone();
        if !tags.iter().any(|(n, _)| n == "Result") {
            tags.push(("Result".to_string(), result.to_string()));
        }
        format!("{}\n{}", tree::tag_lines(&tags), self.tree.movetext(result))
    }
}

/// The words of why a game cannot be read.
pub fn read_error_words(e: &ReadError, number: usize, lang: &Language) -> String {
    let reason = match e {
        ReadError::TooLarge => crate::record::import::import_error_words(
            &crate::record::ImportError::TooLarge {
                game: number,
                line: 0,
            },
            lang,
        ),
        ReadError::BadStart { line, message } => format!("{line}: {message}"),
    };
    fill(
        &lang.study.unreadable,
        &[("number", &number.to_string()), ("reason", &reason)],
    )
}

/// What happens to the study.
#[derive(Clone, Debug)]
pub enum Event {
    /// The game asked for ([`Effect::Open`]): read, not readable (the words), or not there.
    Opened {
        number: usize,
        game: Result<Box<Loaded>, Option<String>>,
    },
    /// The games a search found, and the number of the next one that fits, if any.
    Found {
        search: Search,
        games: Vec<Summary>,
        more: Option<usize>,
    },
    /// The new file was written (its name), or why not (in words).
    Saved(Result<String, String>),
    /// The explorer's reply about the position `fen` ([`Effect::Explore`]).
    Explored {
        fen: String,
        reply: crate::explorer::Reply,
    },
    /// Open game `number` (the one the command line names, at the start).
    Open(usize),
    /// How far the file has been read ([`Effect::Progress`]).
    Progress(FileProgress),
    /// The player stops what the file is doing for the study (Escape).
    Cancel,
    /// The file cannot be read (any more): the system's words; `answers` when this answers
    /// a request.
    Failed {
        reason: String,
        answers: bool,
    },
    /// The index reached its bounds after `games` games: the later ones are read from the
    /// file each time. Said once.
    IndexFull {
        games: usize,
    },
    Line(String),
    Command(Command),
    Tick,
}

/// What the adapter must do, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Common(Common),
    /// Read game `number` of the file and answer with [`Event::Opened`].
    Open(usize),
    /// List the games that fit and answer with [`Event::Found`] (at most [`LISTED`]).
    Find(Search),
    /// Write the game's tree to a new file (`path`, or a name beside the original), never the
    /// original; answer with [`Event::Saved`].
    Save {
        path: Option<String>,
        pgn: String,
    },
    /// Ask the opening explorer about this position; answer with [`Event::Explored`].
    Explore(Box<shakmaty::Chess>),
    /// Say how far the file has been read: answer with [`Event::Progress`].
    Progress,
    /// Stop the searches and readings asked for: no answer comes for them.
    Cancel,
}

/// How far the adapter has read the file to know its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileProgress {
    /// Games known so far.
    pub games: usize,
    /// The share of the file read, when its size is known.
    pub percent: Option<u8>,
    /// The whole file has been read.
    pub done: bool,
}

/// A request the file has not answered yet: since when, and whether it is a search.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    since: Timestamp,
    searching: bool,
    /// Its one "searching" sentence was said.
    told: bool,
}

/// The file's answer is waited for this long before the player hears that it works.
pub const WORKING_AFTER: Duration = Duration::from_millis(400);

impl From<Common> for Effect {
    fn from(c: Common) -> Effect {
        Effect::Common(c)
    }
}

/// The game being walked, and where.
struct Walked {
    game: Loaded,
    at: usize,
}

/// Studying a file's games.
pub struct Study {
    lang: &'static Language,
    form: Form,
    wording: Wording,
    walked: Option<Walked>,
    help: HelpAgain,
    /// The explorer's answers and rate limit.
    explorer: crate::explorer::memory::Memory,
    /// Requests to the file not answered yet, and the oldest's wait.
    pending: usize,
    waiting: Option<Waiting>,
    /// The index's bound was said.
    full_told: bool,
}

/// A `[%clk h:mm:ss]` or `[%eval …]` command in a comment, and the comment's words without
/// them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Annotations {
    pub(crate) text: String,
    pub(crate) clock: Option<Duration>,
    pub(crate) eval: Option<Eval>,
}

/// The `[%eval 0.35]` or `[%eval #-3]` of a comment, bounded (a number past 100 pawns or mate
/// in more than 1000 is none).
fn eval_of(comment: &str) -> Option<Eval> {
    let rest = &comment[comment.find("[%eval")? + 6..];
    let value = rest.trim_start().split([']', ' ', ',']).next()?.trim();
    if let Some(mate) = value.strip_prefix('#') {
        let n: i32 = mate.parse().ok()?;
        return (n != 0 && n.unsigned_abs() <= 1000).then_some(Eval::Mate(n));
    }
    let pawns: f64 = value.parse().ok()?;
    (pawns.is_finite() && pawns.abs() <= 100.0)
        .then(|| Eval::Centipawns((pawns * 100.0).round() as i32))
}

impl Annotations {
    pub(crate) fn of(comment: &str) -> Annotations {
        let clock = crate::watch::clk(comment.as_bytes());
        let eval = eval_of(comment);
        // The words are what is left outside the `[% …]` commands.
        let mut text = String::new();
        let mut rest = comment;
        while let Some(i) = rest.find("[%") {
            text.push_str(&rest[..i]);
            rest = match rest[i..].find(']') {
                Some(j) => &rest[i + j + 1..],
                None => "",
            };
        }
        text.push_str(rest);
        Annotations {
            text: text.split_whitespace().collect::<Vec<_>>().join(" "),
            clock,
            eval,
        }
    }
}

/// The shipped opening of node `n`: the last named position up to it.
fn opening_at(tree: &Tree, n: usize) -> Option<&'static crate::openings::Opening> {
    std::iter::once(ROOT)
        .chain(tree.path(n))
        .rev()
        .find_map(|k| crate::openings::named(&tree.node(k).pos))
}

/// A NAG in words, if the table has words for it.
pub(crate) fn nag_words(nag: u8, lang: &Language) -> Option<&str> {
    let w = &lang.study;
    match nag {
        1..=6 => w.nags.get(usize::from(nag) - 1),
        10..=19 => w.judgements.get(usize::from(nag) - 10),
        _ => None,
    }
    .map(String::as_str)
}

fn first(words: &[String]) -> &str {
    words.first().map_or("", String::as_str)
}

/// Every command of the study, as its whole list names them.
pub(crate) fn commands() -> Vec<Listed> {
    use crate::matchplay::help::{GAME, POSITION, SPEECH};
    let mut all = vec![
        Listed::Games,
        Listed::Open,
        Listed::Next,
        Listed::Previous,
        Listed::Position,
        Listed::Start,
        Listed::End,
        Listed::Variation,
        Listed::Back,
        Listed::Comment,
        Listed::Clock,
        Listed::Save,
        Listed::Explorer,
        Listed::Help,
        Listed::Quit,
    ];
    all.extend(POSITION);
    all.extend(GAME);
    all.extend(SPEECH);
    all
}

impl Study {
    pub fn new(form: Form, wording: Wording, lang: &'static Language) -> Study {
        Study {
            lang,
            form,
            wording,
            walked: None,
            help: HelpAgain::default(),
            explorer: Default::default(),
            pending: 0,
            waiting: None,
            full_told: false,
        }
    }

    /// Whether a lichess token is stored now (the adapter looks before each of the player's
    /// lines): without one `explorer` says how to get one and asks nothing.
    pub fn explorer_token(&mut self, stored: bool) {
        self.explorer.token_stored(stored);
    }

    /// Whether a request to the file is still unanswered (Escape cancels it).
    pub fn waits(&self) -> bool {
        self.pending > 0
    }

    /// The progress words: how far the file has been read.
    fn progress(&self, p: FileProgress, out: &mut Vec<Effect>) {
        let w = &self.lang.study;
        let games = p.games.to_string();
        let text = match (p.done, p.percent) {
            (true, _) => fill(&w.read_all, &[("games", &games)]),
            (false, Some(percent)) => fill(
                &w.read_part,
                &[("games", &games), ("percent", &percent.to_string())],
            ),
            (false, None) => fill(&w.read_games, &[("games", &games)]),
        };
        out.push(answer(text));
    }

    fn cancel(&mut self, out: &mut Vec<Effect>) {
        if self.pending == 0 {
            return self.refuse(self.lang.study.nothing_to_cancel.clone(), out);
        }
        self.pending = 0;
        self.waiting = None;
        out.push(Effect::Cancel);
        out.push(answer(self.lang.study.cancelled.clone()));
    }

    /// An answer of the file came.
    fn answered(&mut self) {
        self.pending = self.pending.saturating_sub(1);
        if self.pending == 0 {
            self.waiting = None;
        }
    }

    /// The game walked and the node reached, for the screen and braille.
    pub fn shown(&self) -> Option<(crate::game::Game, &shakmaty::Chess)> {
        let w = self.walked.as_ref()?;
        Some((w.game.tree.game(w.at), &w.game.tree.node(w.at).pos))
    }

    /// "Zug 12, Schwarz: Springer Felix drei", the move that led to `n`.
    fn move_words(&self, tree: &Tree, n: usize) -> Option<String> {
        let node = tree.node(n);
        let m = node.mv?;
        let before = &tree.node(node.parent?).pos;
        let lang = self.lang;
        let number = fill(
            &lang.moves.numbered,
            &[
                ("number", &before.fullmoves().get().to_string()),
                ("color", lang.color(before.turn())),
            ],
        );
        let san = self.wording.san(SanPlus::from_move(before.clone(), m));
        Some(format!(
            "{number}{}{}",
            lang.messages.colon,
            announce_san(san, m, lang, self.form)
        ))
    }

    /// Reaching `n`: the sounds of the move that led there (none at the start), and the end's
    /// when the line ends the game there, then everything said ([`Study::reached`]).
    fn arrive(&self, tree: &Tree, n: usize, head: Option<String>, out: &mut Vec<Effect>) {
        let node = tree.node(n);
        let ending = self.ending(tree, n);
        if let (Some(m), Some(parent)) = (node.mv, node.parent) {
            let before = tree.node(parent).pos.clone();
            let mut cues = crate::cue::for_move(&SanPlus::from_move(before, m));
            if ending.is_some() {
                cues.push(crate::cue::Cue::End);
            }
            out.push(Effect::Common(Common::Cue(cues)));
        }
        let mut said = self.reached(tree, n, head);
        said.extend(ending);
        out.push(lines(said));
    }

    /// How the game ends at `n`, when it does: a mate or stalemate reached in any line ("Partie
    /// beendet: Schachmatt. Schwarz gewinnt"), or the last move of the file's main line with
    /// the file's result ("Ende der Partie: Weiß gewinnt, 1 zu 0"; none for `*`).
    fn ending(&self, tree: &Tree, n: usize) -> Option<String> {
        let node = tree.node(n);
        if !node.children.is_empty() {
            return None;
        }
        if node.pos.is_checkmate() || node.pos.is_stalemate() {
            return Some(crate::matchplay::queries::turn(&node.pos, self.lang));
        }
        if node.own || node.mv.is_none() || tree.variation_start(n).is_some() {
            return None;
        }
        let result =
            crate::outcome::GameResult::from_pgn(&self.walked.as_ref()?.game.summary.result)?;
        Some(fill(
            &self.lang.study.game_end,
            &[("result", self.lang.result_said(result))],
        ))
    }

    /// What the file says of the move that led to `n`: its NAGs, comment, clock, evaluation.
    fn notes(&self, tree: &Tree, n: usize) -> Vec<String> {
        let w = &self.lang.study;
        let node = tree.node(n);
        let mut out = Vec::new();
        let nags: Vec<&str> = node
            .nags
            .iter()
            .filter_map(|&g| nag_words(g, self.lang))
            .collect();
        if !nags.is_empty() {
            out.push(nags.join(", "));
        }
        let a = Annotations::of(&node.comment);
        if !a.text.is_empty() {
            out.push(fill(&w.comment, &[("text", &a.text)]));
        }
        if let Some(d) = a.clock {
            out.push(fill(&w.clock, &[("time", &duration_words(d, self.lang))]));
        }
        if let Some(e) = a.eval {
            out.push(fill(&w.eval, &[("eval", &eval_words(e, self.lang))]));
        }
        out
    }

    /// The moves from `n` when there are several: "Zwei Varianten: A, oder B" (the count in
    /// words, as every number of the walk's sentences but a move's).
    fn choices(&self, tree: &Tree, n: usize) -> Option<String> {
        let node = tree.node(n);
        if node.children.len() < 2 {
            return None;
        }
        let moves: Vec<String> = node
            .children
            .iter()
            .filter_map(|&c| {
                tree.node(c)
                    .mv
                    .map(|m| announce(&node.pos, m, self.lang, self.form))
            })
            .collect();
        let said = fill(
            &self.lang.study.choices,
            &[
                ("count", &self.lang.study.count(node.children.len())),
                ("moves", &moves.join(&self.lang.study.or)),
            ],
        );
        // The count may begin the sentence.
        let mut chars = said.chars();
        Some(
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect())
                .unwrap_or_default(),
        )
    }

    /// Everything said on reaching `n`: the move, what the file says of it, the choices.
    fn reached(&self, tree: &Tree, n: usize, head: Option<String>) -> Vec<String> {
        let mut out = Vec::new();
        match (head, self.move_words(tree, n)) {
            (Some(h), _) => out.push(h),
            // The move begins the sentence ("Move 12, Black: …" in English too).
            (None, Some(m)) => out.push(capitalized(&m)),
            (None, None) => out.push(self.lang.study.at_start.clone()),
        }
        out.extend(self.notes(tree, n));
        out.extend(self.choices(tree, n));
        out
    }

    /// Moves the walk to `to` (once the tree is no longer borrowed).
    fn move_to(&mut self, to: Option<usize>) {
        if let (Some(to), Some(w)) = (to, self.walked.as_mut()) {
            w.at = to;
        }
    }

    fn refuse(&self, text: String, out: &mut Vec<Effect>) {
        out.push(answer(text));
        out.push(Effect::Common(Common::Refused));
    }

    fn opened(
        &mut self,
        number: usize,
        game: Result<Box<Loaded>, Option<String>>,
        out: &mut Vec<Effect>,
    ) {
        let w = &self.lang.study;
        let game = match game {
            Ok(g) => *g,
            Err(Some(words)) => return self.refuse(words, out),
            Err(None) => {
                return self.refuse(
                    fill(&w.no_such_game, &[("number", &number.to_string())]),
                    out,
                );
            }
        };
        let s = &game.summary;
        let mut said = vec![fill(
            &w.opened,
            &[
                ("number", &number.to_string()),
                ("white", &s.white),
                ("black", &s.black),
                ("event", &s.event),
                ("moves", &game.tree.line(ROOT).len().to_string()),
            ],
        )];
        if let Some(p) = &game.problem {
            let reason = match (&p.illegal, &p.before) {
                (Some(illegal), Some(fen)) => fen
                    .clone()
                    .into_position::<shakmaty::Chess>(shakmaty::CastlingMode::Chess960)
                    .map(|pos| crate::notation::parse::illegal_message(illegal, &pos, self.lang))
                    .unwrap_or_else(|_| illegal.describe()),
                _ => p.san.clone(),
            };
            said.push(fill(
                &w.partly,
                &[
                    ("number", &number.to_string()),
                    ("line", &p.line.to_string()),
                    ("reason", &format!("{}: {reason}", p.san)),
                ],
            ));
        }
        let tree = &game.tree;
        // A player who is not told would take the pieces to stand as at the start.
        let first = &tree.node(ROOT).pos;
        if *first.board() != shakmaty::Board::default() || first.turn() != Color::White {
            said.push(w.not_from_start.clone());
            said.push(crate::matchplay::queries::turn(first, self.lang));
        }
        let a = Annotations::of(&tree.node(ROOT).comment);
        if !a.text.is_empty() {
            said.push(fill(&w.comment, &[("text", &a.text)]));
        }
        said.extend(self.choices(tree, ROOT));
        self.walked = Some(Walked { game, at: ROOT });
        out.push(lines(said));
    }

    fn found(
        &self,
        search: &Search,
        games: &[Summary],
        more: Option<usize>,
        out: &mut Vec<Effect>,
    ) {
        let w = &self.lang.study;
        if games.is_empty() {
            let query = search
                .text
                .clone()
                .unwrap_or_else(|| search.from.to_string());
            return out.push(answer(fill(&w.none_found, &[("query", &query)])));
        }
        let mut said: Vec<String> = games
            .iter()
            .map(|g| {
                fill(
                    &w.listed,
                    &[
                        ("number", &g.number.to_string()),
                        ("white", &g.white),
                        ("black", &g.black),
                        ("event", &g.event),
                        ("result", &g.result),
                    ],
                )
            })
            .collect();
        if let Some(next) = more {
            let mut command = first(&w.words_games).to_string();
            if let Some(t) = &search.text {
                command.push(' ');
                command.push_str(t);
            }
            command.push_str(&format!(" {next}"));
            said.push(fill(&w.more, &[("command", &command)]));
        }
        out.push(lines(said));
    }

    /// The study's own words, before the commands of play: `None` when the line is not one.
    fn own_word(&mut self, text: &str, out: &mut Vec<Effect>) -> bool {
        let w = &self.lang.study;
        let (word, rest) = match text.trim().split_once(char::is_whitespace) {
            Some((f, r)) => (f, r.trim()),
            None => (text.trim(), ""),
        };
        let is = |words: &[String]| {
            words
                .iter()
                .any(|x| x.to_lowercase() == word.to_lowercase())
        };
        if is(&w.words_games) {
            out.push(Effect::Find(Search::parse(rest)));
            return true;
        }
        if is(&w.words_cancel) {
            self.cancel(out);
            return true;
        }
        if is(&w.words_progress) {
            out.push(Effect::Progress);
            return true;
        }
        if is(&w.words_open) {
            match rest.parse::<usize>() {
                Ok(n) if n >= 1 => out.push(Effect::Open(n)),
                _ => self.refuse(
                    fill(
                        &w.no_such_game,
                        &[("number", &crate::notation::printable(rest))],
                    ),
                    out,
                ),
            }
            return true;
        }
        let walking = [
            &w.words_variation,
            &w.words_start,
            &w.words_end,
            &w.words_comment,
        ];
        if !walking.iter().any(|words| is(words)) {
            return false;
        }
        let Some(walked) = self.walked.as_ref() else {
            self.refuse(w.no_game.clone(), out);
            return true;
        };
        let tree = &walked.game.tree;
        let at = walked.at;
        let mut to = None;
        let mut go = |n: usize, head: Option<String>, out: &mut Vec<Effect>| {
            self.arrive(tree, n, head, out);
            to = Some(n);
        };
        if is(&w.words_variation) {
            let children = &tree.node(at).children;
            let number = if rest.is_empty() {
                2
            } else {
                rest.parse::<usize>().unwrap_or(0)
            };
            match number.checked_sub(1).and_then(|i| children.get(i)) {
                Some(&c) => {
                    let head = self.move_words(tree, c).map(|m| {
                        fill(&w.entered, &[("number", &number.to_string()), ("move", &m)])
                    });
                    go(c, head, out);
                }
                None => self.refuse(
                    fill(
                        w.no_variation_for(children.len()),
                        &[
                            ("number", &crate::notation::printable(rest)),
                            ("count", &w.count(children.len())),
                        ],
                    ),
                    out,
                ),
            }
        } else if is(&w.words_start) {
            if at == ROOT {
                self.refuse(w.already_start.clone(), out);
            } else {
                go(ROOT, None, out);
            }
        } else if is(&w.words_end) {
            let end = tree.line(at).last().copied().unwrap_or(ROOT);
            if end == at {
                self.refuse(w.already_end.clone(), out);
            } else {
                go(end, None, out);
            }
        } else {
            let notes = if at == ROOT {
                let a = Annotations::of(&tree.node(ROOT).comment);
                (!a.text.is_empty())
                    .then(|| fill(&w.comment, &[("text", &a.text)]))
                    .into_iter()
                    .collect()
            } else {
                self.notes(tree, at)
            };
            if notes.is_empty() {
                out.push(answer(w.no_comment.clone()));
            } else {
                out.push(lines(notes));
            }
        }
        self.move_to(to);
        true
    }

    fn line(&mut self, text: &str, now: Timestamp, out: &mut Vec<Effect>) {
        if self.own_word(text, out) {
            return;
        }
        match read_line(text) {
            Ok(Line::Move(typed)) => self.typed(&typed, out),
            Ok(Line::Command(c)) => self.command(c, now, out),
            Ok(Line::Empty) => {}
            Err(e) => self.refuse(
                crate::matchplay::session::command_error_message(&e, self.lang),
                out,
            ),
        }
    }

    /// A typed move: the file's, followed, or the player's own, added.
    fn typed(&mut self, typed: &str, out: &mut Vec<Effect>) {
        let lang = self.lang;
        let Some(w) = self.walked.as_mut() else {
            return self.refuse(lang.study.no_game.clone(), out);
        };
        let pos = w.game.tree.node(w.at).pos.clone();
        let m = match crate::notation::parse::parse_move_in(typed, &pos, lang) {
            Ok(m) => m,
            Err(e) => {
                let text = crate::notation::parse::message(&e, &pos, lang);
                out.push(Effect::Common(Common::Cue(vec![crate::cue::Cue::Illegal])));
                return self.refuse(text, out);
            }
        };
        let known = w
            .game
            .tree
            .child(w.at, m)
            .filter(|&c| !w.game.tree.node(c).own);
        let to = w.game.tree.add(w.at, m, true);
        let Some(w) = self.walked.as_ref() else {
            return;
        };
        let tree = &w.game.tree;
        let template = if known.is_some() {
            &lang.study.followed
        } else {
            &lang.study.own
        };
        let head = self
            .move_words(tree, to)
            .map(|m| fill(template, &[("move", &m)]));
        self.arrive(tree, to, head, out);
        self.move_to(Some(to));
    }

    fn command(&mut self, c: Command, now: Timestamp, out: &mut Vec<Effect>) {
        use Command as C;
        let lang = self.lang;
        match c {
            C::Quit => return out.push(Effect::Common(Common::Quit)),
            C::Help => {
                let text = self.help.answer(
                    || mode_help(&lang.study.help, lang),
                    || all_commands(&commands(), lang),
                );
                return out.push(answer(text));
            }
            C::Repeat => return out.push(Effect::Common(Common::Speech(SpeechControl::Repeat))),
            c if c.speech().is_some() => {
                if let Some(s) = c.speech() {
                    out.push(Effect::Common(Common::Speech(s)));
                }
                return;
            }
            _ => {}
        }
        let Some(w) = self.walked.as_ref() else {
            return self.refuse(lang.study.no_game.clone(), out);
        };
        let tree = &w.game.tree;
        let at = w.at;
        let mut to = None;
        let mut go = |n: usize, head: Option<String>, out: &mut Vec<Effect>| {
            self.arrive(tree, n, head, out);
            to = Some(n);
        };
        match c {
            C::ReviewNext => match tree.node(at).children.first() {
                Some(&next) => go(next, None, out),
                None => self.refuse(lang.study.already_end.clone(), out),
            },
            C::ReviewPrevious => match tree.node(at).parent {
                Some(p) => go(p, None, out),
                None => self.refuse(lang.study.already_start.clone(), out),
            },
            C::ReviewCurrent => go(at, None, out),
            C::Review { number: None, .. } => self.refuse(lang.review.which_move.clone(), out),
            C::Review {
                number: Some(number),
                color,
            } => {
                let color = color.unwrap_or(Color::Black);
                let found = if number == 0 {
                    Some(ROOT)
                } else {
                    tree.line(at).into_iter().find(|&n| {
                        tree.node(n).parent.is_some_and(|p| {
                            let before = &tree.node(p).pos;
                            before.fullmoves().get() == number && before.turn() == color
                        })
                    })
                };
                match found {
                    Some(n) => go(n, None, out),
                    None => self.refuse(
                        fill(
                            &lang.review.no_such,
                            &[
                                ("number", &number.to_string()),
                                ("color", lang.color(color)),
                            ],
                        ),
                        out,
                    ),
                }
            }
            C::Back => match tree.variation_start(at).and_then(|v| tree.node(v).parent) {
                Some(branch) => {
                    // After the sentence "Back in the line above." a new one begins.
                    let position = self
                        .move_words(tree, branch)
                        .map_or_else(|| lang.study.at_start.clone(), |m| capitalized(&m));
                    let head = fill(&lang.study.left, &[("position", &position)]);
                    go(branch, Some(head), out);
                }
                None => self.refuse(lang.study.in_main.clone(), out),
            },
            // Each side's time as the file last gave it, up to the position reached.
            C::Clock => {
                let mut times: shakmaty::ByColor<Option<Duration>> = Default::default();
                for n in tree.path(at).into_iter().rev() {
                    let node = tree.node(n);
                    let mover = !node.pos.turn();
                    if times.get(mover).is_none() {
                        *times.get_mut(mover) = Annotations::of(&node.comment).clock;
                    }
                }
                let said: Vec<String> = [Color::White, Color::Black]
                    .into_iter()
                    .filter_map(|c| times.get(c).map(|d| player_time(c, d, lang)))
                    .collect();
                if said.is_empty() {
                    out.push(answer(lang.study.no_clock.clone()));
                } else {
                    out.push(lines(said));
                }
            }
            C::Save(path) => out.push(Effect::Save {
                path,
                pgn: w.game.pgn(),
            }),
            C::Explore => {
                let pos = &tree.node(at).pos;
                let opening = opening_at(tree, at);
                let asked = explorer::asked(&mut self.explorer, pos, opening, lang, self.form, now);
                out.push(lines(asked.said));
                if asked.fetch {
                    out.push(Effect::Explore(Box::new(pos.clone())));
                }
            }
            c => match c.question() {
                Some(q) => {
                    let game = tree.game(at);
                    let pos = &tree.node(at).pos;
                    let asked = Asked {
                        position: pos,
                        game: Some((&game, tree.path(at).len())),
                        seen_from: Color::White,
                        player: pos.turn(),
                        lang,
                        form: self.form,
                        wording: &self.wording,
                    };
                    match answer_question(q, &asked) {
                        Some(said) => out.push(lines(said)),
                        None => self.refuse(lang.study.not_here.clone(), out),
                    }
                }
                None => self.refuse(lang.study.not_here.clone(), out),
            },
        }
        self.move_to(to);
    }
}

impl Machine for Study {
    type Event = Event;
    type Effect = Effect;

    fn handle(&mut self, event: Event, now: Timestamp) -> Vec<Effect> {
        let mut out = Vec::new();
        if matches!(event, Event::Line(_) | Event::Command(_)) {
            self.help.input();
        }
        match event {
            Event::Opened { number, game } => {
                self.answered();
                self.opened(number, game, &mut out);
            }
            Event::Found {
                search,
                games,
                more,
            } => {
                self.answered();
                self.found(&search, &games, more, &mut out);
            }
            Event::Open(n) => out.push(Effect::Open(n)),
            Event::Progress(p) => self.progress(p, &mut out),
            Event::Cancel => self.cancel(&mut out),
            Event::Failed { reason, answers } => {
                if answers {
                    self.answered();
                }
                let words = fill(&self.lang.study.file_failed, &[("reason", &reason)]);
                out.push(say(Urgency::Urgent, words));
            }
            Event::IndexFull { games } => {
                if !std::mem::replace(&mut self.full_told, true) {
                    let words = fill(
                        &self.lang.study.index_full,
                        &[("games", &games.to_string())],
                    );
                    out.push(answer(words));
                }
            }
            Event::Saved(Ok(path)) => {
                let own = self.walked.as_ref().map_or(0, |w| w.game.tree.own_moves());
                let template = if own == 1 {
                    &self.lang.study.saved_one
                } else {
                    &self.lang.study.saved
                };
                out.push(answer(fill(
                    template,
                    &[("path", &path), ("moves", &own.to_string())],
                )));
            }
            Event::Saved(Err(reason)) => out.push(say(Urgency::Urgent, reason)),
            Event::Explored { fen, reply } => {
                // Kept in any case; said only while the position asked about is the one reached.
                let why = self.explorer.answered(&fen, &reply, now);
                if let Some(w) = self.walked.as_ref() {
                    let tree = &w.game.tree;
                    let pos = &tree.node(w.at).pos;
                    if explorer::fen(pos) == fen {
                        let opening = opening_at(tree, w.at);
                        out.push(lines(explorer::reply_words(
                            pos, &reply, opening, self.lang, self.form, why,
                        )));
                    }
                }
            }
            Event::Line(text) => self.line(&text, now, &mut out),
            Event::Command(c) => self.command(c, now, &mut out),
            Event::Tick => {
                // One short sentence while the file works, only when the answer is slow.
                if let Some(w) = self.waiting.as_mut()
                    && !w.told
                    && now >= w.since + WORKING_AFTER
                {
                    w.told = true;
                    let words = if w.searching {
                        &self.lang.study.searching
                    } else {
                        &self.lang.study.reading
                    };
                    out.push(say(Urgency::Answer, words.clone()));
                }
            }
        }
        for effect in &out {
            let searching = match effect {
                Effect::Find(_) => true,
                Effect::Open(_) => false,
                _ => continue,
            };
            self.pending += 1;
            if self.waiting.is_none() {
                self.waiting = Some(Waiting {
                    since: now,
                    searching,
                    told: false,
                });
            }
        }
        out
    }

    fn next_deadline(&self, _now: Timestamp) -> Option<Timestamp> {
        self.waiting
            .filter(|w| !w.told)
            .map(|w| w.since + WORKING_AFTER)
    }
}

#[cfg(test)]
mod tests;
