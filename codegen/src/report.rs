//! What the reports of every stage share: the formats they print in.

/// How a report is printed: for a terminal, as markdown, or as JSON for tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
    Json,
}
