//! The pieces' usual values and their counts in words, for the queries and the dangers.

use shakmaty::Role;

use crate::notation::language::{Language, TABLE_ROLES};

/// The usual values of the pieces (9, 5, 3, 3, 1); the king counts nothing in material.
pub(super) fn value(role: Role) -> u32 {
    match role {
        Role::Queen => 9,
        Role::Rook => 5,
        Role::Bishop | Role::Knight => 3,
        Role::Pawn => 1,
        Role::King => 0,
    }
}

/// "2 Bauern, Springer": the pieces of each kind, in the tables' order, from their counts.
pub(super) fn counted_pieces(count: impl Fn(Role) -> usize, lang: &Language) -> Vec<String> {
    TABLE_ROLES
        .into_iter()
        .filter_map(|role| match count(role) {
            0 => None,
            1 => Some(lang.piece(role).to_string()),
            n => Some(format!("{n} {}", lang.pieces_plural(role))),
        })
        .collect()
}
