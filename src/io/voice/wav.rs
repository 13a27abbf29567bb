//! WAV recordings read into the recogniser's audio: 16 kHz mono, 16 bits. PCM of 8 to 32
//! bits and 32- or 64-bit floating point are read (also in WAVE_FORMAT_EXTENSIBLE), channels
//! averaged, and any rate from 8 to 192 kHz brought to 16 kHz (espeak-ng writes 22,050 Hz).

use crate::core::voice::RATE;

/// Why bytes are no recording hector reads, in the order of the table's `wav_reasons`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WavProblem {
    NotRiff,
    NoFormat,
    Encoding(u16),
    Bits(u16),
    NoChannels,
    NoData,
    Rate(u32),
}

impl WavProblem {
    /// The index of its words in `voice.wav_reasons`.
    pub(crate) fn index(self) -> usize {
        match self {
            WavProblem::NotRiff => 0,
            WavProblem::NoFormat => 1,
            WavProblem::Encoding(_) => 2,
            WavProblem::Bits(_) => 3,
            WavProblem::NoChannels => 4,
            WavProblem::NoData => 5,
            WavProblem::Rate(_) => 6,
        }
    }
}

const PCM: u16 = 1;
const FLOAT: u16 = 3;
const EXTENSIBLE: u16 = 0xFFFE;

#[derive(Clone, Copy, Debug)]
struct Format {
    encoding: u16,
    channels: u16,
    rate: u32,
    bits: u16,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes([*b.get(at)?, *b.get(at + 1)?]))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes([
        *b.get(at)?,
        *b.get(at + 1)?,
        *b.get(at + 2)?,
        *b.get(at + 3)?,
    ]))
}

fn format(chunk: &[u8]) -> Result<Format, WavProblem> {
    let (Some(mut encoding), Some(channels), Some(rate), Some(bits)) = (
        u16_at(chunk, 0),
        u16_at(chunk, 2),
        u32_at(chunk, 4),
        u16_at(chunk, 14),
    ) else {
        return Err(WavProblem::NoFormat);
    };
    if encoding == EXTENSIBLE {
        // The sub-format's GUID begins with the encoding.
        encoding = u16_at(chunk, 24).ok_or(WavProblem::NoFormat)?;
    }
    let format = Format {
        encoding,
        channels,
        rate,
        bits,
    };
    match (encoding, bits) {
        (PCM, 8 | 16 | 24 | 32) | (FLOAT, 32 | 64) => {}
        (PCM | FLOAT, b) => return Err(WavProblem::Bits(b)),
        (e, _) => return Err(WavProblem::Encoding(e)),
    }
    if channels == 0 || rate == 0 {
        return Err(WavProblem::NoChannels);
    }
    if !(8_000..=192_000).contains(&rate) {
        return Err(WavProblem::Rate(rate));
    }
    Ok(format)
}

/// The sound of a WAV file, as 16 kHz mono samples.
pub(crate) fn decode(bytes: &[u8]) -> Result<Vec<i16>, WavProblem> {
    if bytes.get(..4) != Some(b"RIFF") || bytes.get(8..12) != Some(b"WAVE") {
        return Err(WavProblem::NotRiff);
    }
    let mut at = 12;
    let mut fmt: Option<Format> = None;
    while let (Some(id), Some(size)) = (bytes.get(at..at + 4), u32_at(bytes, at + 4)) {
        let start = at + 8;
        let size = usize::try_from(size).unwrap_or(usize::MAX);
        // A stream's writer may not know the data's size (0 or all ones): the rest is data.
        let end = start.saturating_add(size).min(bytes.len());
        let body = bytes.get(start..end).unwrap_or_default();
        match id {
            b"fmt " => fmt = Some(format(body)?),
            b"data" => {
                let f = fmt.ok_or(WavProblem::NoFormat)?;
                let body = if size == 0 {
                    bytes.get(start..).unwrap_or_default()
                } else {
                    body
                };
                let mono = samples(body, f);
                if mono.is_empty() {
                    return Err(WavProblem::NoData);
                }
                return Ok(to_i16(&resample(&mono, f.rate, RATE as u32)));
            }
            _ => {}
        }
        // Chunks are padded to an even length.
        at = end + (end - start) % 2;
    }
    Err(if fmt.is_some() {
        WavProblem::NoData
    } else {
        WavProblem::NoFormat
    })
}

/// The frames of `data` averaged over their channels, each in -1..1.
fn samples(data: &[u8], f: Format) -> Vec<f32> {
    let width = usize::from(f.bits / 8);
    let channels = usize::from(f.channels);
    let frame = width * channels;
    if frame == 0 {
        return Vec::new();
    }
    data.chunks_exact(frame)
        .map(|frame| {
            let sum: f64 = frame
                .chunks_exact(width)
                .map(|s| match (f.encoding, width) {
                    (PCM, 1) => (f64::from(s[0]) - 128.0) / 128.0,
                    (PCM, 2) => f64::from(i16::from_le_bytes([s[0], s[1]])) / 32_768.0,
                    (PCM, 3) => {
                        f64::from(i32::from_le_bytes([0, s[0], s[1], s[2]]) >> 8) / 8_388_608.0
                    }
                    (PCM, _) => {
                        f64::from(i32::from_le_bytes([s[0], s[1], s[2], s[3]])) / 2_147_483_648.0
                    }
                    (_, 4) => f64::from(f32::from_le_bytes([s[0], s[1], s[2], s[3]])),
                    _ => f64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]),
                })
                .sum();
            (sum / channels as f64) as f32
        })
        .collect()
}

/// Zero crossings of the low-pass filter on each side: its sharpness.
const ZEROS: f64 = 16.0;

/// `input` at `from` Hz brought to `to` Hz by band-limited interpolation (a Hann-windowed
/// sinc, cut off below the lower rate's Nyquist frequency).
pub(crate) fn resample(input: &[f32], from: u32, to: u32) -> Vec<f32> {
    if from == to || input.is_empty() {
        return input.to_vec();
    }
    let step = f64::from(from) / f64::from(to);
    // The cut-off in cycles per input sample, a little below the lower Nyquist frequency.
    let cutoff = 0.5 * (f64::from(to) / f64::from(from)).min(1.0) * 0.95;
    let half = ZEROS / (2.0 * cutoff);
    let out_len = ((input.len() as f64) / step).floor() as usize;
    let last = input.len() as isize - 1;
    (0..out_len)
        .map(|n| {
            let t = n as f64 * step;
            let lo = (t - half).ceil().max(0.0) as isize;
            let hi = ((t + half).floor() as isize).min(last);
            let mut acc = 0.0f64;
            for k in lo..=hi {
                let x = t - k as f64;
                let arg = 2.0 * cutoff * x;
                let sinc = if arg.abs() < 1e-12 {
                    1.0
                } else {
                    (std::f64::consts::PI * arg).sin() / (std::f64::consts::PI * arg)
                };
                let window = 0.5 * (1.0 + (std::f64::consts::PI * x / half).cos());
                acc += f64::from(input[k as usize]) * 2.0 * cutoff * sinc * window;
            }
            acc as f32
        })
        .collect()
}

fn to_i16(samples: &[f32]) -> Vec<i16> {
    samples
        .iter()
        .map(|s| (s * 32_768.0).round().clamp(-32_768.0, 32_767.0) as i16)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(encoding: u16, channels: u16, rate: u32, bits: u16, data: &[u8]) -> Vec<u8> {
        let mut b = b"RIFF\0\0\0\0WAVE".to_vec();
        b.extend(b"LIST\x03\0\0\0abc\0");
        b.extend(b"fmt \x10\0\0\0");
        b.extend(encoding.to_le_bytes());
        b.extend(channels.to_le_bytes());
        b.extend(rate.to_le_bytes());
        b.extend((rate * u32::from(channels) * u32::from(bits / 8)).to_le_bytes());
        b.extend((channels * bits / 8).to_le_bytes());
        b.extend(bits.to_le_bytes());
        b.extend(b"data");
        b.extend(u32::try_from(data.len()).expect("small").to_le_bytes());
        b.extend(data);
        b
    }

    #[test]
    fn sixteen_kilohertz_mono_is_read_as_it_is() {
        let data: Vec<u8> = [0i16, 1000, -1000, 32_767]
            .iter()
            .flat_map(|s| s.to_le_bytes())
            .collect();
        assert_eq!(
            decode(&wav(PCM, 1, 16_000, 16, &data)),
            Ok(vec![0, 1000, -1000, 32_767])
        );
    }

    #[test]
    fn stereo_is_averaged_and_other_widths_read() {
        let data: Vec<u8> = [1000i16, 3000]
            .iter()
            .flat_map(|s| s.to_le_bytes())
            .collect();
        assert_eq!(decode(&wav(PCM, 2, 16_000, 16, &data)), Ok(vec![2000]));
        assert_eq!(
            decode(&wav(PCM, 1, 16_000, 8, &[128, 192])),
            Ok(vec![0, 16_384])
        );
        let float: Vec<u8> = 0.5f32.to_le_bytes().to_vec();
        assert_eq!(decode(&wav(FLOAT, 1, 16_000, 32, &float)), Ok(vec![16_384]));
        let s24 = [0x00, 0x00, 0x40];
        assert_eq!(decode(&wav(PCM, 1, 16_000, 24, &s24)), Ok(vec![16_384]));
    }

    #[test]
    fn a_tone_keeps_its_pitch_and_loudness_at_the_new_rate() {
        // 440 Hz at 22,050 Hz for one second.
        let tone: Vec<f32> = (0..22_050)
            .map(|i| (2.0 * std::f32::consts::PI * 440.0 * i as f32 / 22_050.0).sin() * 0.5)
            .collect();
        let out = resample(&tone, 22_050, 16_000);
        assert_eq!(out.len(), 16_000);
        let peak = out[1000..15_000].iter().fold(0.0f32, |m, s| m.max(s.abs()));
        assert!((peak - 0.5).abs() < 0.01, "{peak}");
        // Zero crossings: 880 a second.
        let crossings = out[..16_000]
            .windows(2)
            .filter(|w| w[0] < 0.0 && w[1] >= 0.0)
            .count();
        assert!((439..=441).contains(&crossings), "{crossings}");
    }

    #[test]
    fn what_is_no_recording_is_named() {
        let data = [0u8; 4];
        assert_eq!(decode(b"RIFX\0\0\0\0WAVE"), Err(WavProblem::NotRiff));
        assert_eq!(decode(b"RIFF"), Err(WavProblem::NotRiff));
        assert_eq!(
            decode(b"RIFF\0\0\0\0WAVEdata\x04\0\0\0\0\0\0\0"),
            Err(WavProblem::NoFormat)
        );
        assert_eq!(
            decode(&wav(2, 1, 16_000, 4, &data)),
            Err(WavProblem::Encoding(2))
        );
        assert_eq!(
            decode(&wav(PCM, 1, 16_000, 12, &data)),
            Err(WavProblem::Bits(12))
        );
        assert_eq!(
            decode(&wav(PCM, 0, 16_000, 16, &data)),
            Err(WavProblem::NoChannels)
        );
        assert_eq!(
            decode(&wav(PCM, 1, 4_000, 16, &data)),
            Err(WavProblem::Rate(4_000))
        );
        assert_eq!(
            decode(&wav(PCM, 1, 16_000, 16, &[])),
            Err(WavProblem::NoData)
        );
        let mut cut = wav(PCM, 1, 16_000, 16, &data);
        cut.truncate(cut.len() - 8);
        assert_eq!(decode(&cut), Err(WavProblem::NoData));
    }

    #[test]
    fn a_stream_without_its_size_is_read_to_the_end() {
        let data: Vec<u8> = [7i16, 8, 9].iter().flat_map(|s| s.to_le_bytes()).collect();
        let mut b = wav(PCM, 1, 16_000, 16, &data);
        let at = b.len() - data.len() - 4;
        b[at..at + 4].copy_from_slice(&[0xff; 4]);
        assert_eq!(decode(&b), Ok(vec![7, 8, 9]));
        b[at..at + 4].copy_from_slice(&[0; 4]);
        assert_eq!(decode(&b), Ok(vec![7, 8, 9]));
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_are_read_or_refused_without_panicking(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
            head in proptest::prelude::any::<bool>(),
        ) {
            let mut b = if head { b"RIFF\0\0\0\0WAVEfmt ".to_vec() } else { Vec::new() };
            b.extend(bytes);
            let _ = decode(&b);
        }
    }
}
