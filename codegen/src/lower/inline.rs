//! Inline types: named from their parent, field and role, and what happens when
//! that name is taken.

use super::Lowerer;
use crate::diag::{Diagnostic, Span};
use crate::model::*;
use crate::syntax::TypeExpr;

impl Lowerer<'_> {
    pub(super) fn inline_struct(&mut self, ty: &TypeExpr, parent: &str, field: &str, role: InlineRole) -> Type {
        let name = self.inline_name(parent, field, role, ty.span);
        match self.expr_shape(ty, &name) {
            Some(shape) => {
                let kind = ItemKind::Struct(shape.into_struct());
                self.add_inline(&name, parent, field, role, ty.span, kind)
            }
            None => Type::Json,
        }
    }

    /// The name of the inline type at `span`: its parent's name, its field's and its
    /// role's (`ClientCapabilities` + `sampling` → `ClientCapabilitiesSampling`).
    /// When that name is taken, by a declared type or by an earlier inline type, it
    /// is `…Inline`, else `…Inline2`, `…Inline3` and on, the first that is free (in
    /// the file's order), with a warning that shows both. Its schema path does not
    /// change: paths are made from the parent and the field, not the name.
    pub(super) fn inline_name(&mut self, parent: &str, field: &str, role: InlineRole, span: Span) -> String {
        let derived = format!("{parent}{}{}", pascal_case_keep(field), role.suffix());
        let place = if field.is_empty() { parent.to_string() } else { format!("{parent}.{field}") };
        self.inline_name_as(derived, &place, span)
    }

    /// [`Lowerer::inline_name`] for a name derived otherwise (`GetTaskResult` +
    /// `WorkingTask`, a member of an intersection distributed over a union).
    /// A name a core revision declares is taken too: an extension's module sees them.
    pub(super) fn inline_name_as(&mut self, derived: String, place: &str, span: Span) -> String {
        if let Some(name) = self.inline_names.get(&(derived.clone(), span)) {
            return name.clone();
        }
        let taken = |lx: &Self, n: &str| {
            lx.decls.contains_key(n) || lx.inline_spans.contains_key(n) || lx.core.is_some_and(|c| c.item(n).is_some())
        };
        let mut name = derived.clone();
        if taken(self, &name) {
            let mut n = 1;
            loop {
                name = if n == 1 { format!("{derived}Inline") } else { format!("{derived}Inline{n}") };
                if !taken(self, &name) {
                    break;
                }
                n += 1;
            }
            let (other, what) = match self.decls.get(&derived) {
                Some(d) => (d.span, format!("`{derived}` is declared here")),
                None => (
                    self.inline_spans.get(&derived).copied().unwrap_or_default(),
                    format!("this inline type is `{derived}`"),
                ),
            };
            self.diags.push(
                Diagnostic::warning(format!(
                    "the inline type of `{place}` is named `{name}`: `{derived}`, the name its parent and field give it, is taken"
                ))
                .at(self.path, span)
                .label(format!("named `{name}`"))
                .also_at(other, what)
                .hint("declare the inline type under a name of its own to choose its Rust name"),
            );
        }
        self.inline_spans.insert(name.clone(), span);
        self.inline_names.insert((derived, span), name.clone());
        name
    }

    /// Adds an inline item under the name [`Lowerer::inline_name`] gave it.
    pub(super) fn add_inline(
        &mut self,
        name: &str,
        parent: &str,
        field: &str,
        role: InlineRole,
        span: Span,
        kind: ItemKind,
    ) -> Type {
        self.items.insert(
            name.to_string(),
            Item {
                name: name.to_string(),
                origin: Origin::Inline { parent: parent.to_string(), field: field.to_string(), role },
                docs: Docs::default(),
                span,
                kind,
            },
        );
        Type::Named(name.to_string())
    }
}

/// `sampling` → `Sampling`, `inputSchema` → `InputSchema`, `$schema` → `Schema`:
/// the field part of an inline type's name keeps the field's own humps.
fn pascal_case_keep(field: &str) -> String {
    let mut out = String::new();
    let mut up = true;
    for c in field.chars() {
        if c.is_alphanumeric() {
            if up {
                out.extend(c.to_uppercase());
                up = false;
            } else {
                out.push(c);
            }
        } else {
            up = true;
        }
    }
    out
}
