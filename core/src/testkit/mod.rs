//! Deterministic sample data for tests and benchmarks (not used by the modes themselves).

pub mod games;
pub mod record;
#[cfg(test)]
pub mod words;

#[cfg(test)]
pub use words::{de, en, t};
