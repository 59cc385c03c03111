//! [`RecipeError`]: where a recipe was refused and why, the window of the
//! text its excerpt shows, and the clipping of quoted text in messages.

use std::fmt;

/// Why a recipe was refused: where, and what is wrong, for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipeError {
    offset: usize,
    column: usize,
    message: String,
}

impl RecipeError {
    pub(super) fn at(text: &str, offset: usize, message: impl Into<String>) -> RecipeError {
        let offset = offset.min(text.len());
        let column = text[..offset].chars().count() + 1;
        RecipeError {
            offset,
            column,
            message: message.into(),
        }
    }

    /// Byte offset in the text where the error was found.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The same position as a 1-based column (characters, not bytes).
    pub fn column(&self) -> usize {
        self.column
    }

    /// What is wrong, without the position.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Two lines that show where in `text` (the recipe this error is
    /// about) the error is: the text around the column, at most
    /// [`EXCERPT_CHARS`] characters with `…` where it is cut, and a caret
    /// under the column. A recipe of any length gives lines of bounded
    /// length.
    ///
    /// ```
    /// use noisefield::Recipe;
    ///
    /// let text = "fbm(perlin, octaves=40)";
    /// let error = text.parse::<Recipe>().unwrap_err();
    /// assert_eq!(error.excerpt(text), "fbm(perlin, octaves=40)\n            ^");
    /// ```
    pub fn excerpt(&self, text: &str) -> String {
        let chars: Vec<char> = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let at = (self.column - 1).min(chars.len());
        let half = EXCERPT_CHARS / 2;
        let start = at.saturating_sub(half);
        let end = (start + EXCERPT_CHARS).min(chars.len());
        let start = end.saturating_sub(EXCERPT_CHARS).min(start);
        let mut line: String = chars[start..end].iter().collect();
        let mut caret = at - start;
        if start > 0 {
            line.insert(0, '…');
            caret += 1;
        }
        if end < chars.len() {
            line.push('…');
        }
        format!("{line}\n{}^", " ".repeat(caret))
    }
}

/// The most characters of a name or value of the text quoted in a message.
const QUOTED_CHARS: usize = 32;

/// `text` for a message: whole, or its first [`QUOTED_CHARS`] characters
/// and `…` (a number or name in a recipe may be megabytes long).
pub(super) fn clip(text: &str) -> String {
    match text.char_indices().nth(QUOTED_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// The most characters of a recipe an error's excerpt shows
/// ([`RecipeError::excerpt`]).
pub const EXCERPT_CHARS: usize = 60;

impl fmt::Display for RecipeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for RecipeError {}
