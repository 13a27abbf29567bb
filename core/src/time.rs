//! Time as the pure core sees it: instants are passed in by the adapters, never read here.

use std::ops::{Add, Sub};
use std::time::Duration;

/// A monotonic instant, measured from an origin the adapter chose (usually the program's
/// start). The core compares and subtracts timestamps; only adapters create them from
/// `std::time::Instant`, and tests create them from numbers (virtual time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(Duration);

impl Timestamp {
    pub const ZERO: Timestamp = Timestamp(Duration::ZERO);

    pub fn from_duration(since_origin: Duration) -> Timestamp {
        Timestamp(since_origin)
    }

    pub fn from_millis(ms: u64) -> Timestamp {
        Timestamp(Duration::from_millis(ms))
    }

    pub fn since_origin(self) -> Duration {
        self.0
    }

    /// Time from `earlier` to `self`, zero if `earlier` is later.
    pub fn saturating_since(self, earlier: Timestamp) -> Duration {
        self.0.saturating_sub(earlier.0)
    }
}

impl Add<Duration> for Timestamp {
    type Output = Timestamp;
    fn add(self, rhs: Duration) -> Timestamp {
        Timestamp(self.0.saturating_add(rhs))
    }
}

impl Sub<Duration> for Timestamp {
    type Output = Timestamp;
    fn sub(self, rhs: Duration) -> Timestamp {
        Timestamp(self.0.saturating_sub(rhs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_saturates() {
        let t = Timestamp::from_millis(1500);
        assert_eq!(
            (t + Duration::from_millis(500)).since_origin(),
            Duration::from_secs(2)
        );
        assert_eq!(t - Duration::from_secs(5), Timestamp::ZERO);
        assert_eq!(
            t.saturating_since(Timestamp::from_millis(2000)),
            Duration::ZERO
        );
        assert_eq!(
            Timestamp::from_millis(2000).saturating_since(t),
            Duration::from_millis(500)
        );
    }
}
