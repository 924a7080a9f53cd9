//! Schema paths: how the registry and the diff name an item, a member or a
//! value (`ClientCapabilities.sampling`, `Tool.inputSchema{}`), and how a path
//! written against one revision is followed through another.

use super::*;

impl Revision {
    /// The schema path of an item: its name when declared; for an inline type,
    /// the path of the member it is the type of (`ClientCapabilities.sampling`),
    /// with `[]` for array elements, `{}` for map values and `|N` for the Nth
    /// member of a union. The registry and the diff name things by these paths.
    pub fn path_of(&self, item: &Item) -> String {
        let mut path = String::new();
        self.push_path(item, &mut path, 0);
        path
    }

    fn push_path(&self, item: &Item, out: &mut String, depth: usize) {
        match &item.origin {
            Origin::Inline { parent, field, role } if depth < ALIAS_DEPTH => {
                match self.item(parent) {
                    Some(p) => self.push_path(p, out, depth + 1),
                    None => out.push_str(parent),
                }
                if !field.is_empty() {
                    out.push('.');
                    out.push_str(&member_segment(field));
                }
                out.push_str(&role.path_step());
            }
            _ => out.push_str(&item.name),
        }
    }
}

/// A member's wire name as a path segment: as written when it is an identifier,
/// JSON-quoted otherwise (`"io.modelcontextprotocol/logLevel"`), so a path splits
/// unambiguously on `.`.
pub fn member_segment(wire: &str) -> String {
    let mut chars = wire.chars();
    let ident_like = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if ident_like { wire.to_string() } else { serde_json::to_string(wire).unwrap_or_default() }
}

/// An enum value as a path segment: always JSON-quoted (`"thisServer"`).
pub fn value_segment(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// One step of a [`Revision::path_of`] path after its first name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathStep {
    /// `.name` or `."quoted"`: a member, or a value of an enum.
    Member(String),
    /// `[]`: the elements of an array.
    Items,
    /// `{}`: the values of a map.
    Values,
    /// `|N`: the Nth member of a union (1-based).
    Variant(usize),
}

/// Splits a path into its first name and its steps; `None` when malformed.
pub fn parse_path(path: &str) -> Option<(String, Vec<PathStep>)> {
    let end = path.find(['.', '[', '{', '|']).unwrap_or(path.len());
    let (head, mut rest) = path.split_at(end);
    if head.is_empty() {
        return None;
    }
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("[]") {
            steps.push(PathStep::Items);
            rest = r;
        } else if let Some(r) = rest.strip_prefix("{}") {
            steps.push(PathStep::Values);
            rest = r;
        } else if let Some(r) = rest.strip_prefix('|') {
            let n: String = r.chars().take_while(char::is_ascii_digit).collect();
            steps.push(PathStep::Variant(n.parse().ok()?));
            rest = &r[n.len()..];
        } else if let Some(r) = rest.strip_prefix('.') {
            if r.starts_with('"') {
                // A JSON string: find its closing quote, honouring escapes.
                let mut de = serde_json::Deserializer::from_str(r).into_iter::<String>();
                let s = de.next()?.ok()?;
                let used = de.byte_offset();
                steps.push(PathStep::Member(s));
                rest = &r[used..];
            } else {
                let end = r.find(['.', '[', '{', '|']).unwrap_or(r.len());
                if end == 0 {
                    return None;
                }
                steps.push(PathStep::Member(r[..end].to_string()));
                rest = &r[end..];
            }
        } else {
            return None;
        }
    }
    Some((head.to_string(), steps))
}

/// What a path leads to in one revision.
#[derive(Clone, Debug)]
pub struct Resolved<'a> {
    /// The path under which this revision declares the thing (a field under the
    /// type that declares it, not one that inherits it).
    pub canonical: String,
    pub target: Target<'a>,
}

#[derive(Clone, Debug)]
pub enum Target<'a> {
    Item(&'a Item),
    Field(&'a Item, &'a Field),
    Value(&'a Item, &'a EnumValue),
    /// A type reached through `[]`, `{}` or `|N` that is not an item of its own.
    Type(Type),
}

impl Target<'_> {
    pub fn deprecation(&self) -> Option<&Deprecation> {
        match self {
            Target::Item(i) => i.docs.deprecated.as_ref(),
            Target::Field(_, f) => f.docs.deprecated.as_ref(),
            Target::Value(_, v) => v.deprecated.as_ref(),
            Target::Type(_) => None,
        }
    }
}

impl Revision {
    /// Follows a path through this revision's types, looking through declared
    /// names, aliases and `| null`, so a path written against another revision
    /// finds the same member after a type was named or a field moved into a base.
    pub fn resolve_path(&self, path: &str) -> Option<Resolved<'_>> {
        let (head, steps) = parse_path(path)?;
        let mut item = self.item(&head)?;
        let mut target = Target::Item(item);
        for step in steps {
            let ty = match &target {
                Target::Item(i) => Type::Named(i.name.clone()),
                Target::Field(_, f) => f.ty.clone(),
                Target::Type(t) => t.clone(),
                Target::Value(..) => return None,
            };
            let ty = self.unwrap_type(ty);
            target = match (step, ty) {
                (PathStep::Member(m), Type::Named(n)) => {
                    item = self.item(&n)?;
                    match &item.kind {
                        ItemKind::Struct(s) => Target::Field(item, s.field(&m)?),
                        ItemKind::Enum(e) => Target::Value(item, e.values.iter().find(|v| v.value == m)?),
                        _ => return None,
                    }
                }
                (PathStep::Items, Type::Array(t)) | (PathStep::Values, Type::Map(t)) => self.as_target(*t),
                (PathStep::Values, Type::Named(n)) => match &self.item(&n)?.kind {
                    ItemKind::Struct(Struct { index: Some(t), .. }) => self.as_target(t.clone()),
                    _ => return None,
                },
                (PathStep::Variant(k), Type::Named(n)) => match &self.item(&n)?.kind {
                    ItemKind::Union(u) => self.as_target(u.variants.get(k.checked_sub(1)?)?.ty.clone()),
                    _ => return None,
                },
                _ => return None,
            };
        }
        let canonical = match &target {
            Target::Item(i) => self.path_of(i),
            Target::Field(i, f) => {
                let owner = self.item(&f.declared_in).unwrap_or(i);
                format!("{}.{}", self.path_of(owner), member_segment(&f.wire))
            }
            Target::Value(i, v) => format!("{}.{}", self.path_of(i), value_segment(&v.value)),
            Target::Type(_) => path.to_string(),
        };
        Some(Resolved { canonical, target })
    }

    /// A type reached by `[]`, `{}` or `|N`: the item when it names one.
    fn as_target(&self, t: Type) -> Target<'_> {
        match &t {
            Type::Named(n) => match self.item(n) {
                Some(i) => Target::Item(i),
                None => Target::Type(t),
            },
            _ => Target::Type(t),
        }
    }

    /// Looks through `| null` and aliases to the type that has members.
    fn unwrap_type(&self, mut t: Type) -> Type {
        for _ in 0..ALIAS_DEPTH {
            t = match self.canonical(&t) {
                Type::Nullable(inner) => (**inner).clone(),
                other => return other.clone(),
            };
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_into_steps() {
        let (head, steps) = parse_path(r#"A.b."io.x/y".c[]{}|2."v""#).unwrap();
        assert_eq!(head, "A");
        assert_eq!(
            steps,
            vec![
                PathStep::Member("b".into()),
                PathStep::Member("io.x/y".into()),
                PathStep::Member("c".into()),
                PathStep::Items,
                PathStep::Values,
                PathStep::Variant(2),
                PathStep::Member("v".into()),
            ]
        );
        assert_eq!(parse_path("A..b"), None);
        assert_eq!(parse_path(".b"), None);
        assert_eq!(parse_path("A.\"open"), None);
        assert_eq!(member_segment("io.x/y"), "\"io.x/y\"");
        assert_eq!(member_segment("_meta"), "_meta");
    }
}
