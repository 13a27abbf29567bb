//! A reader of braille-ready files (BRF) written for the tests, from the format's
//! description and not from hector's own check (core::braille::paper::check_brf): the North
//! American Braille ASCII set is the 64 characters from space to underscore; a line ends with
//! CR LF; a page ends with a form feed; the page number stands at the right end of the page's
//! last line as a number sign and the letters a to j for the digits 1 to 0 (the UKAAF and
//! BANA convention for braille page numbers).
#![allow(
    dead_code,
    reason = "each test binary uses its own part of the helpers"
)]

/// One page: its lines without their CR LF.
pub type Page = Vec<String>;

/// The pages of `bytes` for a page of `cells` x `lines`, or what is wrong.
pub fn read(bytes: &[u8], cells: usize, lines: usize) -> Result<Vec<Page>, String> {
    for (at, &b) in bytes.iter().enumerate() {
        let braille_ascii = (0x20..=0x5F).contains(&b);
        if !braille_ascii && !matches!(b, b'\r' | b'\n' | 0x0C) {
            return Err(format!("byte {b:#04x} at {at} is no Braille ASCII"));
        }
    }
    if !bytes.ends_with(&[0x0C]) {
        return Err("the last page does not end with a form feed".into());
    }
    let mut pages = Vec::new();
    // The last form feed ends the last page: nothing follows it.
    for (number, body) in bytes[..bytes.len() - 1].split(|&b| b == 0x0C).enumerate() {
        let number = number + 1;
        let text = std::str::from_utf8(body).map_err(|e| e.to_string())?;
        let Some(text) = text.strip_suffix("\r\n") else {
            return Err(format!(
                "page {number} does not end its last line with CR LF"
            ));
        };
        let page: Page = text.split("\r\n").map(str::to_string).collect();
        for (l, line) in page.iter().enumerate() {
            if line.contains(['\r', '\n']) {
                return Err(format!("page {number}, line {}: a lone CR or LF", l + 1));
            }
            if line.chars().count() > cells {
                return Err(format!(
                    "page {number}, line {}: {} cells, more than {cells}",
                    l + 1,
                    line.chars().count()
                ));
            }
        }
        if page.len() > lines {
            return Err(format!(
                "page {number}: {} lines, more than {lines}",
                page.len()
            ));
        }
        pages.push(page);
    }
    Ok(pages)
}

/// A braille page number: the number sign and a letter for each digit (a = 1 … j = 0).
pub fn page_number(n: usize) -> String {
    let digits: String = n
        .to_string()
        .chars()
        .map(|d| match d {
            '0' => 'J',
            d => char::from(b'A' + (d as u8 - b'1')),
        })
        .collect();
    format!("#{digits}")
}
