//! Diagnostics: every problem the generator finds, with the file, a span and a hint,
//! collected across a phase and rendered together (codespan-reporting).

use std::fmt;
use std::path::{Path, PathBuf};

/// A byte range in one source file (offsets into that file's text).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(lo: u32, hi: u32) -> Self {
        Span { lo, hi: hi.max(lo) }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// One problem. `file` is `None` for problems that are not about a file's text
/// (a missing folder); such diagnostics name what was looked for in `message`.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub file: Option<PathBuf>,
    pub span: Option<Span>,
    pub label: String,
    /// Other places in the same file that explain this one, with their labels.
    pub secondary: Vec<(Span, String)>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            file: None,
            span: None,
            label: String::new(),
            secondary: Vec::new(),
            notes: Vec::new(),
        }
    }
    pub fn warning(message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(message) }
    }
    pub fn at(mut self, file: &Path, span: Span) -> Self {
        self.file = Some(file.to_path_buf());
        self.span = Some(span);
        self
    }
    pub fn in_file(mut self, file: &Path) -> Self {
        self.file = Some(file.to_path_buf());
        self
    }
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    /// Points at another place in the same file (the first declaration of a name).
    pub fn also_at(mut self, span: Span, label: impl Into<String>) -> Self {
        self.secondary.push((span, label.into()));
        self
    }
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.notes.push(format!("hint: {}", hint.into()));
        self
    }
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The diagnostics of one or more phases, in the order found.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }
    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter().filter(|d| d.is_error())
    }
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter().filter(|d| !d.is_error())
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Renders every diagnostic as text (no colour): `file:line:col`, the source
    /// line with the span underlined, notes and hints. Files are read from disk;
    /// a file that cannot be read is rendered without an excerpt.
    /// One line per diagnostic (`warning: file:line:col: message`), for what a
    /// user regenerating bindings cannot act on; [`Diagnostics::render`] has the
    /// excerpts and hints.
    pub fn render_brief(&self) -> String {
        let mut out = String::new();
        for d in &self.items {
            let kind = if d.is_error() { "error" } else { "warning" };
            let place = match (&d.file, d.span) {
                (Some(f), Some(span)) => match std::fs::read_to_string(f) {
                    Ok(text) => {
                        let (line, col) = line_col(&text, span.lo);
                        format!("{}:{line}:{col}: ", f.display())
                    }
                    Err(_) => format!("{}: ", f.display()),
                },
                (Some(f), None) => format!("{}: ", f.display()),
                _ => String::new(),
            };
            out.push_str(&format!("{kind}: {place}{}\n", d.message));
        }
        out
    }

    pub fn render(&self) -> String {
        render(&self.items, |p| std::fs::read_to_string(p).ok())
    }

    /// As [`Diagnostics::render`], with the sources supplied by the caller.
    pub fn render_with(&self, source_of: impl Fn(&Path) -> Option<String>) -> String {
        render(&self.items, source_of)
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics { items: vec![d] }
    }
}

fn render(items: &[Diagnostic], source_of: impl Fn(&Path) -> Option<String>) -> String {
    use codespan_reporting::diagnostic as cr;
    use codespan_reporting::files::SimpleFiles;
    use codespan_reporting::term;

    let mut files = SimpleFiles::new();
    let mut ids: Vec<(PathBuf, usize)> = Vec::new();
    let mut out = String::new();
    let config = term::Config::default();
    for d in items {
        let severity = match d.severity {
            Severity::Error => cr::Severity::Error,
            Severity::Warning => cr::Severity::Warning,
        };
        let mut diag = cr::Diagnostic::new(severity).with_message(&d.message);
        let mut notes = d.notes.clone();
        if let Some(path) = &d.file {
            let id = match ids.iter().find(|(p, _)| p == path) {
                Some((_, id)) => Some(*id),
                None => source_of(path).map(|text| {
                    let id = files.add(path.display().to_string(), text);
                    ids.push((path.clone(), id));
                    id
                }),
            };
            match (id, d.span) {
                (Some(id), Some(span)) => {
                    let source = files.get(id).map(|f| f.source().as_str()).unwrap_or("");
                    let range = |s: Span| {
                        let lo = floor_char_boundary(source, (s.lo as usize).min(source.len()));
                        let hi = floor_char_boundary(source, (s.hi as usize).clamp(lo, source.len()));
                        lo..hi
                    };
                    let mut labels = vec![cr::Label::primary(id, range(span)).with_message(&d.label)];
                    for (s, label) in &d.secondary {
                        labels.push(cr::Label::secondary(id, range(*s)).with_message(label));
                    }
                    diag = diag.with_labels(labels);
                }
                _ => notes.insert(0, format!("in {}", path.display())),
            }
        }
        diag = diag.with_notes(notes);
        // Writing into a Vec cannot fail; a failure would only lose this one rendering.
        let _ = term::emit_to_string(&mut out, &config, &files, &diag);
    }
    out
}

/// 1-based line and column (in characters) of a byte offset in `text`.
pub fn line_col(text: &str, offset: u32) -> (usize, usize) {
    let offset = (offset as usize).min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
    (line, col)
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}
