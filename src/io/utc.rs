//! The wall clock's instant in UTC as the files write it, with no time-zone database: the
//! journal's header, its file names, and the files set aside beside it.

use std::time::{SystemTime, UNIX_EPOCH};

/// The current instant in UTC as `2026-11-21T14:03:05Z`, for a journal's header and
/// the names of files set aside.
pub(crate) fn now_utc() -> String {
    let (y, mo, d, h, mi, s) = utc_fields(SystemTime::now());
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// Year, month, day, hour, minute, second of an instant in UTC.
pub(crate) fn utc_fields(t: SystemTime) -> (i64, u32, u32, u32, u32, u32) {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rest = secs % 86_400;
    // Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, mi, s) = (rest / 3600, rest / 60 % 60, rest % 60);
    (
        year,
        month as u32,
        day as u32,
        h as u32,
        mi as u32,
        s as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates() {
        let at = |s: u64| utc_fields(UNIX_EPOCH + std::time::Duration::from_secs(s));
        assert_eq!(at(0), (1970, 1, 1, 0, 0, 0));
        // 2026-11-21 14:03:05 UTC.
        assert_eq!(at(1_795_269_785), (2026, 11, 21, 14, 3, 5));
        // 2000-02-29, a leap day.
        assert_eq!(at(951_782_400), (2000, 2, 29, 0, 0, 0));
    }
}
