//! liblouis, for literary braille on paper (filled in below).
