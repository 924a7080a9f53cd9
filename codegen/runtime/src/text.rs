//! The byte-level look at JSON text that serde_json has already read once, or
//! that a union looks at first: whitespace, the end of a string, the end of a
//! value, how deep it nests, and key comparison. Nothing here parses: what it
//! does not recognise goes to serde_json, which says what is wrong.

/// Two keys are the same. Most keys a type's wire names are compared with
/// differ in length or in their first byte (`method`, `params`, `result`), so
/// those are looked at before calling on `memcmp`.
#[inline(always)]
pub(crate) fn same_key(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.first() == b.first() && a == b
}

#[inline]
pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = b.get(i) {
        i += 1;
    }
    i
}

/// The index of the quote that ends the string whose text starts at `i`.
/// Eight bytes at a time, in a word: the strings of a message are mostly short,
/// and a call to `memchr` costs more than it saves on them (measured).
#[inline]
pub(crate) fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        i = next_quote_or_backslash(b, i);
        while !matches!(b.get(i)?, b'"' | b'\\') {
            i += 1;
        }
        if b[i] == b'"' {
            return Some(i);
        }
        i += 2;
    }
}

/// The first quote or backslash at or after `i`, looked for eight bytes at a
/// time; where fewer than eight bytes are left, the index where the word-wise
/// look stopped (the caller looks at the rest byte by byte).
#[inline(always)]
fn next_quote_or_backslash(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const QUOTES: u64 = u64::from_ne_bytes([b'"'; 8]);
    const BACKSLASHES: u64 = u64::from_ne_bytes([b'\\'; 8]);
    // The high bit of each byte of `w` that is zero. A byte above a flagged
    // one may be flagged too, so only the lowest flag is trusted, in each test
    // and so in their union.
    let zeros = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let found = zeros(w ^ QUOTES) | zeros(w ^ BACKSLASHES);
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// The bytes that matter while skipping a container: quotes and brackets.
const STRUCTURAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'"' as usize] = true;
    t[b'{' as usize] = true;
    t[b'[' as usize] = true;
    t[b'}' as usize] = true;
    t[b']' as usize] = true;
    t
};

/// Whether JSON text nests arrays and objects deeper than `max`.
pub(crate) fn nests_deeper(b: &[u8], max: usize) -> bool {
    let (mut depth, mut i) = (0usize, 0usize);
    loop {
        while !STRUCTURAL[match b.get(i) {
            Some(&c) => c as usize,
            None => return false,
        }] {
            i += 1;
        }
        match b[i] {
            b'"' => match string_end(b, i + 1) {
                Some(end) => i = end,
                None => return false,
            },
            b'{' | b'[' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            _ => depth = depth.saturating_sub(1),
        }
        i += 1;
    }
}

/// The index just past the JSON value that starts at `i`.
pub(crate) fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => string_end(b, i + 1).map(|e| e + 1),
        b'{' | b'[' => {
            let (mut depth, mut j) = (0usize, i);
            loop {
                while !STRUCTURAL[*b.get(j)? as usize] {
                    j += 1;
                }
                match b[j] {
                    b'"' => j = string_end(b, j + 1)?,
                    b'{' | b'[' => depth += 1,
                    _ => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                }
                j += 1;
            }
        }
        _ => {
            let mut j = i;
            while let Some(c) = b.get(j) {
                if matches!(c, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                    break;
                }
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

/// The message of an error met inside a union's input, without a position that
/// would count from the start of that fragment rather than of the document.
pub(crate) fn without_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) if e.line() > 0 => s[..i].to_string(),
        _ => s,
    }
}
