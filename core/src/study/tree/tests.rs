use super::*;
use crate::pgn::Reader;
use proptest::prelude::*;
use shakmaty::uci::UciMove;

fn read(text: &str) -> (Tree, Option<Problem>) {
    let raw = Reader::new(text.as_bytes())
        .find(|g| !g.is_blank())
        .expect("a game");
    Tree::read(&raw).expect("a tree")
}

/// The tree as nested values: each node's move, NAGs, comments and its children in order.
#[derive(Debug, PartialEq, Eq)]
struct Shape {
    mv: Option<String>,
    nags: Vec<u8>,
    comment: String,
    before: String,
    children: Vec<Shape>,
}

fn shape(tree: &Tree, n: usize) -> Shape {
    let node = tree.node(n);
    Shape {
        mv: node.mv.map(|m| UciMove::from_standard(m).to_string()),
        nags: node.nags.clone(),
        comment: node.comment.clone(),
        before: node.before.clone(),
        children: node.children.iter().map(|&c| shape(tree, c)).collect(),
    }
}

fn uci(tree: &Tree, n: usize) -> String {
    tree.node(n)
        .mv
        .map(|m| UciMove::from_standard(m).to_string())
        .unwrap_or_default()
}

pub(crate) const HOLD: &str = "[Event \"Hold\"]\n[White \"Anna\"]\n[Black \"Bert\"]\n[Result \"*\"]\n\n\
{Start} 1. e4 {[%clk 1:30:00] [%eval 0.30] King's pawn} 1... e5 $1 2. Nf3 \
(2. Bc4 $5 {Bishop} 2... Nf6 (2... Bc5 3. Qh5 (3. Nf3 d6) 3... Qe7) 3. d3) \
2... Nc6 $2 *\n";

#[test]
fn variations_three_deep_with_their_comments_and_nags() {
    let (tree, problem) = read(HOLD);
    assert_eq!(problem, None);
    assert_eq!(tree.node(ROOT).comment, "Start");
    let main = tree.line(ROOT);
    let moves: Vec<String> = main.iter().map(|&n| uci(&tree, n)).collect();
    assert_eq!(moves, ["e2e4", "e7e5", "g1f3", "b8c6"]);
    let e4 = main[0];
    assert_eq!(
        tree.node(e4).comment,
        "[%clk 1:30:00] [%eval 0.30] King's pawn"
    );
    assert_eq!(tree.node(main[1]).nags, [1]);
    assert_eq!(tree.node(main[3]).nags, [2]);
    // After 1... e5: 2. Nf3 and 2. Bc4.
    let branch = &tree.node(main[1]).children;
    assert_eq!(branch.len(), 2);
    let bc4 = branch[1];
    assert_eq!(uci(&tree, bc4), "f1c4");
    assert_eq!(tree.node(bc4).nags, [5]);
    assert_eq!(tree.node(bc4).comment, "Bishop");
    assert!(!tree.is_main(bc4));
    // 2... Nf6 with 2... Bc5 beside it, and 3. Nf3 beside 3. Qh5: three deep.
    let second = &tree.node(bc4).children;
    assert_eq!(second.len(), 2);
    let bc5 = second[1];
    let qh5 = tree.node(bc5).children[0];
    assert_eq!(uci(&tree, qh5), "d1h5");
    let deep = tree.node(bc5).children[1];
    assert_eq!(uci(&tree, deep), "g1f3");
    assert_eq!(tree.variation_start(deep), Some(deep));
    let d6 = tree.node(deep).children[0];
    assert_eq!(tree.variation_start(d6), Some(deep));
    assert_eq!(tree.path(d6).len(), 6);
    assert_eq!(tree.variation_start(main[3]), None);
    let line: Vec<String> = tree.line(bc4).iter().map(|&n| uci(&tree, n)).collect();
    assert_eq!(line, ["e2e4", "e7e5", "f1c4", "g8f6", "d2d3"]);
}

#[test]
fn a_bad_move_cuts_only_its_own_line() {
    let (tree, problem) = read("1. e4 e5 (1... Ke3 2. d4) 2. Nf3 Nc6 *");
    let problem = problem.expect("the bad move");
    assert_eq!(problem.san, "Ke3");
    let moves: Vec<String> = tree.line(ROOT).iter().map(|&n| uci(&tree, n)).collect();
    assert_eq!(moves, ["e2e4", "e7e5", "g1f3", "b8c6"]);
    assert_eq!(tree.len(), 5);
    // A variation before any move has no move to replace.
    let (tree, _) = read("( 1. d4 ) 1. e4 *");
    assert_eq!(tree.line(ROOT).len(), 1);
}

#[test]
fn the_written_movetext_numbers_black_after_a_variation_or_comment() {
    let (tree, _) = read(HOLD);
    let written = tree.movetext("*");
    let text = written.replace('\n', " ");
    assert!(
        text.starts_with("{Start} 1. e4 {[%clk 1:30:00] [%eval 0.30] King's pawn} 1... e5 $1 2. Nf3 (2. Bc4 $5 {Bishop} 2... Nf6"),
        "{text}"
    );
    assert!(
        text.contains("(3. Nf3 d6) 3... Qe7) 3. d3) 2... Nc6 $2 *"),
        "{text}"
    );
    assert!(
        written
            .lines()
            .all(|l| l.chars().count() <= 79 && !l.starts_with('%'))
    );
}

#[test]
fn own_moves_are_added_once_and_written() {
    let (mut tree, _) = read("1. e4 e5 *");
    let e5 = tree.line(ROOT)[1];
    let m = crate::notation::parse::parse_move("Sf3", &tree.node(e5).pos).expect("Nf3");
    let a = tree.add(e5, m, true);
    assert_eq!(tree.add(e5, m, true), a);
    assert_eq!(tree.own_moves(), 1);
    assert!(tree.movetext("*").contains("1. e4 e5 2. Nf3 *"));
}

/// A tree grown at random: from a node chosen by `pick`, the legal move chosen by `choose`,
/// with NAGs and comments.
fn grown(steps: &[(usize, usize, u8, String)], root_comment: &str) -> Tree {
    let mut tree = Tree::new(Chess::default(), Variant::Standard);
    tree.nodes[ROOT].comment = clean_comment(root_comment.as_bytes());
    for (pick, choose, nag, comment) in steps {
        let at = pick % tree.len();
        let legal = tree.node(at).pos.legal_moves();
        if legal.is_empty() {
            continue;
        }
        let m = legal[choose % legal.len()];
        let n = tree.add(at, m, false);
        if *nag > 0 && !tree.nodes[n].nags.contains(nag) {
            tree.nodes[n].nags.push(*nag);
        }
        let text = clean_comment(comment.as_bytes());
        if tree.is_main(n) {
            tree.nodes[n].comment = text;
        } else {
            tree.nodes[n].before = text;
        }
    }
    tree
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::model_cases(128)))]

    #[test]
    fn a_written_tree_reads_back_the_same(
        steps in proptest::collection::vec(
            (0usize..1000, 0usize..1000, 0u8..140, "[a-z {}()%;\\[\\]#0-9.:]{0,12}"),
            0..60,
        ),
        root in "[a-z {}]{0,10}",
    ) {
        let tree = grown(&steps, &root);
        let text = format!("[Event \"x\"]\n\n{}", tree.movetext("*"));
        let (back, problem) = read(&text);
        prop_assert_eq!(problem, None);
        prop_assert_eq!(shape(&back, ROOT), shape(&tree, ROOT), "{}", text);
    }

    #[test]
    fn any_bytes_read_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        for raw in Reader::new(&bytes) {
            if let Ok((tree, _)) = Tree::read(&raw) {
                let text = tree.movetext("*");
                for n in 0..tree.len() {
                    let _ = (tree.line(n), tree.variation_start(n), tree.game(n));
                }
                prop_assert!(text.ends_with("*\n"));
            }
        }
    }

    #[test]
    fn pgn_like_text_reads_without_panic(
        text in "[\\[\\]{}()$;%\"a-hEventKQRBNOx0-9=+#!?./ \n-]{0,400}"
    ) {
        for raw in Reader::new(text.as_bytes()) {
            if let Ok((tree, _)) = Tree::read(&raw) {
                let again = format!("[Event \"x\"]\n\n{}", tree.movetext("*"));
                let (back, _) = read(&again);
                prop_assert_eq!(shape(&back, ROOT), shape(&tree, ROOT));
            }
        }
    }
}
