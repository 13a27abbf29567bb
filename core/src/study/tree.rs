//! A game's move tree as a PGN file holds it: the main line, its variations to any depth, the
//! comments and NAGs of each move, read from the core's PGN reader ([`crate::pgn`]) and written
//! back. Every move is checked in its position; a line with a move that is not legal keeps the
//! moves before it and leaves the rest of that line out (one problem kept, with its line).
//! Bounded: at most [`MAX_NODES`] moves, each comment cut to [`MAX_COMMENT`] characters.

use std::fmt::Write as _;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

use crate::check::game_start;
use crate::game::Game;
use crate::legality::{Illegal, resolve_record_san};
use crate::pgn::{Item, RawGame};
use crate::variant::Variant;

/// The most moves a game's tree keeps (main line and variations together).
pub(crate) const MAX_NODES: usize = 100_000;
/// The longest comment kept, in characters.
pub(crate) const MAX_COMMENT: usize = 2_000;
/// The most NAGs kept on one move.
const MAX_NAGS: usize = 8;

/// The start position's node.
pub(crate) const ROOT: usize = 0;

/// One move of the tree (the root: the start position, with no move).
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) parent: Option<usize>,
    pub(crate) mv: Option<Move>,
    /// The position after the move.
    pub(crate) pos: Chess,
    pub(crate) nags: Vec<u8>,
    /// The comment after the move (the root's: before the first move).
    pub(crate) comment: String,
    /// A comment before a variation's first move.
    pub(crate) before: String,
    /// The moves from here: the first is the line's own continuation, the others variations.
    pub(crate) children: Vec<usize>,
    /// Played by the player in the study, not read from the file.
    pub(crate) own: bool,
}

/// Why a line of the game was cut short.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    pub(crate) line: usize,
    pub(crate) san: String,
    pub(crate) illegal: Option<Illegal>,
    /// The position the move was tried in (for its words).
    pub(crate) before: Option<shakmaty::fen::Fen>,
}

/// Why a game has no tree at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    TooLarge,
    /// Its start position cannot be set up: the reader's words, with the line.
    BadStart {
        line: usize,
        message: String,
    },
}

/// A game's moves as a tree.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    nodes: Vec<Node>,
    pub(crate) variant: Variant,
}

/// A comment as it is kept: one line, no control characters, no closing brace (so that it can
/// be written back as a `{…}` comment), cut to [`MAX_COMMENT`] characters.
pub(crate) fn clean_comment(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    let mut count = 0usize;
    for word in text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
    {
        let n = word.chars().count();
        if count + n + 1 > MAX_COMMENT {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().map(|c| if c == '}' { ')' } else { c }));
        count += n + 1;
    }
    out
}

fn join(into: &mut String, text: &str) {
    if text.is_empty() {
        return;
    }
    if !into.is_empty() {
        into.push(' ');
    }
    into.push_str(text);
    if into.chars().count() > MAX_COMMENT {
        *into = into.chars().take(MAX_COMMENT).collect();
    }
}

impl Tree {
    /// A tree of no moves from `start`.
    pub(crate) fn new(start: Chess, variant: Variant) -> Tree {
        Tree {
            nodes: vec![Node {
                parent: None,
                mv: None,
                pos: start,
                nags: Vec::new(),
                comment: String::new(),
                before: String::new(),
                children: Vec::new(),
                own: false,
            }],
            variant,
        }
    }

    /// Reads a game the PGN reader split off; the first problem of its lines, if any.
    pub(crate) fn read(raw: &RawGame<'_>) -> Result<(Tree, Option<Problem>), ReadError> {
        if raw.is_too_large() {
            return Err(ReadError::TooLarge);
        }
        let (start, variant) = game_start(raw).map_err(|e| ReadError::BadStart {
            line: e.line,
            message: e.message,
        })?;
        let mut tree = Tree::new(start, variant);
        let mut problem: Option<Problem> = None;
        let mut cur = ROOT;
        // A line with a bad move: its items are skipped until it closes.
        let mut dead = false;
        // A variation opened and no move of it read yet: a comment goes before its move.
        let mut fresh = false;
        let mut pending = String::new();
        let mut stack: Vec<(usize, bool)> = Vec::new();
        for located in raw.movetext.iter() {
            match located.item {
                Item::San(token) => {
                    if dead {
                        continue;
                    }
                    let pos = &tree.nodes[cur].pos;
                    let cut = |illegal: Option<Illegal>| Problem {
                        line: located.line,
                        san: crate::pgn::shown(token),
                        illegal,
                        before: Some(shakmaty::fen::Fen::from_position(
                            pos,
                            shakmaty::EnPassantMode::Legal,
                        )),
                    };
                    let found = if tree.nodes.len() >= MAX_NODES {
                        Err(cut(None))
                    } else {
                        resolve_record_san(pos, token).map_err(|e| cut(Some(e)))
                    };
                    match found {
                        Ok(m) => {
                            let was_fresh = std::mem::take(&mut fresh);
                            cur = tree.add(cur, m, false);
                            let before = std::mem::take(&mut pending);
                            if was_fresh && !tree.is_main(cur) {
                                join(&mut tree.nodes[cur].before, &before);
                            } else {
                                join(&mut tree.nodes[cur].comment, &before);
                            }
                        }
                        Err(p) => {
                            problem.get_or_insert(p);
                            dead = true;
                        }
                    }
                }
                Item::Nag(n) if !dead && cur != ROOT && !fresh => {
                    let nags = &mut tree.nodes[cur].nags;
                    if nags.len() < MAX_NAGS && !nags.contains(&n) {
                        nags.push(n);
                    }
                }
                Item::Nag(_) => {}
                Item::Comment(text) if !dead => {
                    let text = clean_comment(text);
                    if fresh {
                        join(&mut pending, &text);
                    } else {
                        join(&mut tree.nodes[cur].comment, &text);
                    }
                }
                Item::Comment(_) => {}
                Item::StartVariation => {
                    stack.push((cur, dead));
                    if dead {
                        continue;
                    }
                    // A variation replaces the move just read: it starts where that one did.
                    match tree.nodes[cur].parent {
                        Some(p) => {
                            cur = p;
                            fresh = true;
                            pending.clear();
                        }
                        None => dead = true,
                    }
                }
                Item::EndVariation => {
                    if let Some((c, d)) = stack.pop() {
                        cur = c;
                        dead = d;
                        fresh = false;
                        pending.clear();
                    }
                }
            }
        }
        Ok((tree, problem))
    }

    /// The child of `at` playing `m`, made if there is none (a player's own when `own`).
    pub(crate) fn add(&mut self, at: usize, m: Move, own: bool) -> usize {
        if let Some(c) = self.child(at, m) {
            return c;
        }
        let mut pos = self.nodes[at].pos.clone();
        pos.play_unchecked(m);
        let index = self.nodes.len();
        self.nodes.push(Node {
            parent: Some(at),
            mv: Some(m),
            pos,
            nags: Vec::new(),
            comment: String::new(),
            before: String::new(),
            children: Vec::new(),
            own,
        });
        self.nodes[at].children.push(index);
        index
    }

    /// The child of `at` playing `m`, if the tree has one.
    pub(crate) fn child(&self, at: usize, m: Move) -> Option<usize> {
        self.nodes[at]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].mv == Some(m))
    }

    pub(crate) fn node(&self, index: usize) -> &Node {
        &self.nodes[index.min(self.nodes.len() - 1)]
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether `n` continues its parent's line (the root counts as such).
    pub(crate) fn is_main(&self, n: usize) -> bool {
        match self.nodes[n].parent {
            Some(p) => self.nodes[p].children.first() == Some(&n),
            None => true,
        }
    }

    /// The nodes from the root's first move to `n`.
    pub(crate) fn path(&self, n: usize) -> Vec<usize> {
        let mut path = Vec::new();
        let mut at = n;
        while let Some(p) = self.nodes[at].parent {
            path.push(at);
            at = p;
        }
        path.reverse();
        path
    }

    /// The line `n` stands in: the moves that led to it and its continuation, each move's
    /// first child after it.
    pub(crate) fn line(&self, n: usize) -> Vec<usize> {
        let mut line = self.path(n);
        let mut at = n;
        while let Some(&next) = self.nodes[at].children.first() {
            line.push(next);
            at = next;
        }
        line
    }

    /// The first move of the innermost variation `n` stands in (itself included).
    pub(crate) fn variation_start(&self, n: usize) -> Option<usize> {
        let mut at = n;
        loop {
            if !self.is_main(at) {
                return Some(at);
            }
            at = self.nodes[at].parent?;
        }
    }

    /// The game from the start up to `n`, as the questions take it.
    pub(crate) fn game(&self, n: usize) -> Game {
        let mut game = Game::from_position(self.nodes[ROOT].pos.clone(), self.variant);
        for i in self.path(n) {
            if let Some(m) = self.nodes[i].mv
                && game.play(m).is_err()
            {
                break;
            }
        }
        game
    }

    /// How many of the moves are the player's own.
    pub(crate) fn own_moves(&self) -> usize {
        self.nodes.iter().filter(|n| n.own).count()
    }

    /// The movetext: the root's comment, then the moves with their NAGs and comments, each
    /// variation in parentheses after the move it replaces, and the result.
    pub(crate) fn movetext(&self, result: &str) -> String {
        let mut tokens: Vec<String> = Vec::new();
        let root = &self.nodes[ROOT];
        if !root.comment.is_empty() {
            tokens.push(format!("{{{}}}", root.comment));
        }
        self.write_line(ROOT, true, &mut tokens);
        tokens.push(result.to_string());
        // Lines break between tokens; no token begins with `%`, so no line is an escape.
        // A parenthesis stands against what it encloses: "(2. Bc4 … d3)".
        let mut out = String::new();
        let mut width = 0usize;
        let mut glued = false;
        for token in tokens {
            let n = token.chars().count();
            let glue = glued || token == ")";
            if width > 0 && !glue && width + 1 + n > 79 {
                out.push('\n');
                width = 0;
            } else if width > 0 && !glue {
                out.push(' ');
                width += 1;
            }
            glued = token == "(";
            out.push_str(&token);
            width += n;
        }
        out.push('\n');
        out
    }

    fn write_line(&self, from: usize, mut number: bool, out: &mut Vec<String>) {
        let mut at = from;
        while let Some(&main) = self.nodes[at].children.first() {
            number = self.write_move(main, number, out);
            for &alt in &self.nodes[at].children[1..] {
                out.push("(".to_string());
                if !self.nodes[alt].before.is_empty() {
                    out.push(format!("{{{}}}", self.nodes[alt].before));
                }
                let next = self.write_move(alt, true, out);
                self.write_line(alt, next, out);
                out.push(")".to_string());
                number = true;
            }
            at = main;
        }
    }

    /// One move's tokens; whether the next move needs its number.
    fn write_move(&self, n: usize, number: bool, out: &mut Vec<String>) -> bool {
        let node = &self.nodes[n];
        let Some(m) = node.mv else {
            return number;
        };
        let before = &self.nodes[node.parent.unwrap_or(ROOT)].pos;
        let moves = before.fullmoves().get();
        match before.turn() {
            Color::White => out.push(format!("{moves}.")),
            Color::Black if number => out.push(format!("{moves}...")),
            Color::Black => {}
        }
        out.push(SanPlus::from_move(before.clone(), m).to_string());
        out.extend(node.nags.iter().map(|n| format!("${n}")));
        if node.comment.is_empty() {
            false
        } else {
            out.push(format!("{{{}}}", node.comment));
            true
        }
    }
}

/// Tags written back: each `[Name "value"]`, the value's quotes and backslashes escaped.
pub(crate) fn tag_lines(tags: &[(String, String)]) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        let value: String = value
            .chars()
            .filter(|c| !c.is_control())
            .flat_map(|c| match c {
                '"' | '\\' => vec!['\\', c],
                c => vec![c],
            })
            .collect();
        let _ = writeln!(out, "[{name} \"{value}\"]");
    }
    out
}

#[cfg(test)]
pub(crate) mod tests;
