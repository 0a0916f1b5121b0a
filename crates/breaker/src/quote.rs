//! User text quoted in messages, without Rust's Unicode tables.
//!
//! Messages quote what the user typed (`"5x" is not a duration`, `unknown preset "foo"`). Rust's
//! `{:?}` does that, but it decides which characters to escape with the Unicode tables behind
//! `char::escape_debug` (the printable and grapheme-extend tables): several KB of data and code
//! in the page's wasm, pulled in by any `{:?}` of a `str`, `String` or `char` the wasm can reach.
//! [`Quoted`] writes what `{:?}` writes for every ASCII character, for ordinary non-ASCII text
//! (accented letters, `µ`, Greek, Cyrillic, CJK, most emoji) and for the invisible characters
//! most likely to be pasted by accident (no-break and other spaces, soft hyphen, zero-width
//! characters, the left-to-right and right-to-left marks and embeddings, the byte order mark,
//! variation selectors, combining accents), using a short list of ranges instead of the tables.
//! The difference from `{:?}`: the other characters that `{:?}` escapes are written as they are
//! rather than as `\u{...}`. Among them: combining marks of other scripts (Hebrew and Arabic
//! vowel marks, Devanagari vowel signs), the combining keycap of keycap emoji (`1️⃣`), the Arabic
//! letter mark U+061C, the Mongolian vowel separator U+180E, and unassigned code points in the
//! planes below the private-use ones. Only message text is affected.

use std::fmt::{self, Write};

/// `s` in double quotes, escaped as Rust's `{:?}` escapes a string for every ASCII character and
/// for the characters in [`ESCAPED`]; other characters are written as they are (see the
/// [module](self) for why). `format!("{}", Quoted("a\"b"))` is `"a\"b"` with the quotes. Text
/// longer than [`LONG`] bytes is quoted in part, with its length.
// No `Debug`: a derived one would write the text with `{:?}`, which this type exists to avoid.
#[allow(missing_debug_implementations)]
#[derive(Clone, Copy)]
pub struct Quoted<'a>(pub &'a str);

/// Text longer than this many bytes (UTF-8) is quoted in part: its first [`KEEP`] bytes (cut at a
/// character's start), then `…"` and its length, `"1111111111…" (100000 bytes)`. A 100,000-digit
/// value, or a whole trace read as one line, was echoed whole.
pub const LONG: usize = 80;
/// The bytes kept of text longer than [`LONG`].
pub const KEEP: usize = 60;

/// `s` whole up to [`LONG`] bytes, else its first [`KEEP`] bytes, cut at a character's start.
fn kept(s: &str) -> &str {
    if s.len() <= LONG {
        return s;
    }
    let mut cut = KEEP;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.get(..cut).unwrap_or_default()
}

/// `s` as written (no quotes, no escapes: a number, a field's text), cut as [`Quoted`] cuts it:
/// whole up to [`LONG`] bytes, else its first [`KEEP`] and its length, `1111111111… (100000
/// bytes)`.
#[allow(missing_debug_implementations)]
#[derive(Clone, Copy)]
pub struct Clipped<'a>(pub &'a str);

impl fmt::Display for Clipped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = kept(self.0);
        f.write_str(text)?;
        if text.len() < self.0.len() {
            write!(f, "… ({} bytes)", self.0.len())?;
        }
        Ok(())
    }
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        let text = kept(self.0);
        // Runs of characters that need no escape are written in one piece.
        let mut start = 0;
        for (i, c) in text.char_indices() {
            let esc = match c {
                '"' => "\\\"",
                '\\' => "\\\\",
                '\n' => "\\n",
                '\r' => "\\r",
                '\t' => "\\t",
                '\0' => "\\0",
                '\u{1}'..='\u{1f}' => "",
                c if escaped(c) => "",
                _ => continue,
            };
            f.write_str(text.get(start..i).unwrap_or_default())?;
            if esc.is_empty() {
                write!(f, "\\u{{{:x}}}", u32::from(c))?;
            } else {
                f.write_str(esc)?;
            }
            start = i + c.len_utf8();
        }
        f.write_str(text.get(start..).unwrap_or_default())?;
        if text.len() < self.0.len() {
            write!(f, "…\" ({} bytes)", self.0.len())
        } else {
            f.write_char('"')
        }
    }
}

/// Non-ASCII characters that Rust's `{:?}` writes as `\u{...}` and that [`Quoted`] escapes too:
/// the C1 controls and no-break space, the soft hyphen, the combining diacritical marks, the
/// general-punctuation spaces, zero-width characters and direction marks, the ideographic space,
/// the private-use area, variation selectors, the byte order mark, the specials before the replacement character, the
/// noncharacters U+FFFE/U+FFFF, and everything from the tags block on (tags, supplementary
/// variation selectors, private use). Sorted, inclusive.
pub const ESCAPED: &[(char, char)] = &[
    ('\u{7f}', '\u{a0}'),
    ('\u{ad}', '\u{ad}'),
    ('\u{300}', '\u{36f}'),
    ('\u{2000}', '\u{200f}'),
    ('\u{2028}', '\u{202f}'),
    ('\u{205f}', '\u{206f}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{e000}', '\u{f8ff}'),
    ('\u{fe00}', '\u{fe0f}'),
    ('\u{feff}', '\u{feff}'),
    ('\u{fff0}', '\u{fffb}'),
    ('\u{fffe}', '\u{ffff}'),
    ('\u{e0000}', '\u{10ffff}'),
];

fn escaped(c: char) -> bool {
    ESCAPED.iter().any(|&(lo, hi)| lo <= c && c <= hi)
}

#[cfg(test)]
mod tests {
    use super::{Clipped, Quoted};

    fn same_as_debug(s: &str) {
        assert_eq!(Quoted(s).to_string(), format!("{s:?}"), "for {s:?}");
    }

    #[test]
    fn every_ascii_character_as_debug() {
        for b in 0u8..=0x7f {
            let c = char::from(b);
            same_as_debug(&c.to_string());
            same_as_debug(&format!("a{c}b{c}{c}"));
        }
        same_as_debug("");
        same_as_debug("5x");
        same_as_debug("it's \"quoted\" \\ and\ttabbed\r\n");
    }

    #[test]
    fn common_non_ascii_as_debug() {
        for s in [
            "µs",
            "déjà vu",
            "naïve Ünïcödé ß",
            "1 000 ms",
            "½ h",
            "日本語",
            "Ελληνικά",
            "кириллица",
            "🙂 emoji 🚀",
            "\u{a9}\u{ff}\u{fffd}",
        ] {
            same_as_debug(s);
        }
    }

    #[test]
    fn escaped_ranges_as_debug() {
        for &(lo, hi) in super::ESCAPED {
            for c in lo..=hi {
                same_as_debug(&format!("{c}x{c}"));
            }
        }
        same_as_debug("\u{2764}\u{fe0f} \u{1f468}\u{200d}\u{1f469} 1\u{a0}000 e\u{301}");
    }

    #[test]
    fn long_text_is_quoted_in_part_with_its_length() {
        // Up to 80 bytes whole; longer, its first 60 and how many there are.
        let at = "7".repeat(80);
        assert_eq!(Quoted(&at).to_string(), format!("{at:?}"));
        let digits = "1".repeat(100_000);
        assert_eq!(
            Quoted(&digits).to_string(),
            format!("\"{}…\" (100000 bytes)", "1".repeat(60))
        );
        // Cut at a character's start, escaped as ever in the part kept: µ (2 bytes), \r, then
        // 28 é (56 bytes) make 59; the 29th é would end at 61.
        let mixed = format!("µ\r{}", "é".repeat(100));
        assert_eq!(
            Quoted(&mixed).to_string(),
            format!("\"µ\\r{}…\" (203 bytes)", "é".repeat(28))
        );
        // As written, cut the same way.
        assert_eq!(Clipped(&at).to_string(), at);
        assert_eq!(
            Clipped(&digits).to_string(),
            format!("{}… (100000 bytes)", "1".repeat(60))
        );
        assert_eq!(
            Clipped(&mixed).to_string(),
            format!("µ\r{}… (203 bytes)", "é".repeat(28))
        );
    }

    #[test]
    fn rare_characters_written_as_they_are() {
        // Rust's `{:?}` escapes a Devanagari vowel sign and an unassigned code point.
        assert_eq!(Quoted("\u{915}\u{941}").to_string(), "\"\u{915}\u{941}\"");
        assert_eq!(format!("{:?}", "\u{915}\u{941}"), "\"\u{915}\\u{941}\"");
        assert_eq!(Quoted("\u{378}").to_string(), "\"\u{378}\"");
    }
}
