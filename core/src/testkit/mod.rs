//! Deterministic sample data for tests and benchmarks (not used by the modes themselves).

pub mod games;
pub mod record;
#[cfg(test)]
pub mod words;

#[cfg(test)]
pub use words::{de, en, t};

/// How many cases a model test generates: `default`, or `HECTOR_MODEL_CASES` when it is set.
/// The Windows tests run the same model tests under wine with fewer cases (the input space is
/// covered by the Linux run; under wine they show that the core behaves the same there).
#[cfg(test)]
pub fn model_cases(default: u32) -> u32 {
    std::env::var("HECTOR_MODEL_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
