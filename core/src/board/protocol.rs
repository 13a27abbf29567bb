//! The protocols hector speaks, by name: the one place that maps a name to its [`Codec`], apart
//! from the trait itself so that a codec file depends on the trait and not on its siblings.

use super::codec::Codec;
use super::dgt::DgtCodec;
use super::peg::PegCodec;

/// The protocols hector speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// DGT electronic boards (and boards that emulate them): pieces identified.
    Dgt,
    /// hector's peg protocol for tactile boards (docs/PEG-PROTOCOL.md).
    Peg,
}

impl Protocol {
    /// Every protocol, in the order the command line lists them.
    pub const ALL: [Protocol; 2] = [Protocol::Dgt, Protocol::Peg];

    /// A new codec for this protocol, with nothing received yet.
    pub fn codec(self) -> Box<dyn Codec> {
        match self {
            Protocol::Dgt => Box::new(DgtCodec::new()),
            Protocol::Peg => Box::new(PegCodec::new()),
        }
    }

    /// The codec's name: on the command line, in journals and game files.
    pub fn name(self) -> &'static str {
        self.codec().name()
    }

    /// The protocol a name stands for, in any case ("peg", "DGT").
    pub fn from_name(name: &str) -> Option<Protocol> {
        Protocol::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
    }

    /// The names of all protocols for a sentence: `"dgt" or "peg"`.
    pub(crate) fn names() -> String {
        let quoted: Vec<String> = Protocol::ALL
            .iter()
            .map(|p| format!("{:?}", p.name()))
            .collect();
        match quoted.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_protocol_is_found_by_its_name_and_only_by_it() {
        for protocol in Protocol::ALL {
            assert_eq!(Protocol::from_name(protocol.name()), Some(protocol));
            assert_eq!(
                Protocol::from_name(&protocol.name().to_uppercase()),
                Some(protocol)
            );
            assert_eq!(protocol.codec().name(), protocol.name());
        }
        assert_eq!(Protocol::from_name("dgt"), Some(Protocol::Dgt));
        assert_eq!(Protocol::from_name("peg"), Some(Protocol::Peg));
        assert_eq!(Protocol::from_name("chesslink"), None);
        assert_eq!(Protocol::from_name(""), None);
        assert_eq!(Protocol::names(), "\"dgt\" or \"peg\"");
    }
}
