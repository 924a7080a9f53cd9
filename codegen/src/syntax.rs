//! The declarations of one schema.ts as the parser sees them: our own small
//! TypeScript type syntax, with JSDoc text and spans, and no swc types.
//! `parse` builds it; `lower` resolves it into the model.

use crate::diag::Span;

/// One exported declaration.
#[derive(Clone, Debug)]
pub struct Decl {
    pub name: String,
    pub span: Span,
    /// The raw JSDoc block (`/** ... */` body) that precedes the declaration, if any;
    /// a plain `/* ... */` block directly before it is used when there is no JSDoc.
    pub doc: Option<RawDoc>,
    pub kind: DeclKind,
}

/// `import type { A, B as C } from "./spec.types.js"`: the names an extension
/// schema takes from the core schema it extends.
#[derive(Clone, Debug)]
pub struct Import {
    /// The module it names: `./spec.types.js`.
    pub source: String,
    pub span: Span,
    pub names: Vec<ImportedName>,
}

#[derive(Clone, Debug)]
pub struct ImportedName {
    /// The name in the module imported from (`Error`).
    pub imported: String,
    /// The name in this file (`JSONRPCErrorObject` for `Error as JSONRPCErrorObject`).
    pub local: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct RawDoc {
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum DeclKind {
    Interface { extends: Vec<TypeExpr>, members: Vec<Member> },
    Alias(TypeExpr),
    Const(ConstValue),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ConstValue {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

/// A TypeScript number literal as an integer, when it is one exactly: a whole
/// number no larger in size than JavaScript's `Number.MAX_SAFE_INTEGER` (2^53 - 1).
/// Beyond it a literal may already have been rounded, so it stays a float.
pub fn whole_number(n: f64) -> Option<i64> {
    const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;
    (n.fract() == 0.0 && n.abs() <= MAX_SAFE_INTEGER).then_some(n as i64)
}

/// A member of an interface body or an object type literal.
#[derive(Clone, Debug)]
pub enum Member {
    Property {
        name: String,
        optional: bool,
        ty: TypeExpr,
        doc: Option<RawDoc>,
        span: Span,
    },
    /// `[key: string]: T`
    Index {
        ty: TypeExpr,
        span: Span,
    },
}

#[derive(Clone, Debug)]
pub struct TypeExpr {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TypeKind {
    String,
    Number,
    Boolean,
    Null,
    Unknown,
    Any,
    /// The `object` keyword.
    Object,
    /// `never`: read where it means "absent" (`b?: never`) or "no members"
    /// (`Record<string, never>`); an error anywhere else.
    Never,
    StrLit(String),
    NumLit(f64),
    BoolLit(bool),
    /// A reference with type arguments (`Omit<A, "k">`, `Record<string, T>`, `Array<T>`).
    Ref {
        name: String,
        args: Vec<TypeExpr>,
    },
    /// `typeof NAME`
    TypeOf(String),
    Array(Box<TypeExpr>),
    Union(Vec<TypeExpr>),
    Intersection(Vec<TypeExpr>),
    Literal(Vec<Member>),
    /// `keyof T`: the names of an object type's members.
    KeyOf(Box<TypeExpr>),
    /// `T["key"]` or `T[number]`: the type of a member, or of an array's elements.
    Indexed {
        object: Box<TypeExpr>,
        index: Box<TypeExpr>,
    },
    /// A template literal type with placeholders (`` `${string}/${string}` ``), as
    /// written; one without placeholders is a [`TypeKind::StrLit`].
    Template(String),
    /// A construct the generator does not model; `what` names it for the diagnostic.
    Unsupported {
        what: &'static str,
    },
}

impl Decl {
    /// What the declaration means, as one canonical text: its kind and type,
    /// without docs, spans, comments or layout. Two declarations with the same
    /// shape lower to the same item (up to docs), which is what an extension
    /// needs of the core names it imports.
    pub fn shape(&self) -> String {
        let mut out = String::new();
        match &self.kind {
            DeclKind::Interface { extends, members } => {
                out.push_str("interface ");
                out.push_str(&self.name);
                for (i, base) in extends.iter().enumerate() {
                    out.push_str(if i == 0 { " extends " } else { ", " });
                    base.write_shape(&mut out);
                }
                write_members(members, &mut out);
            }
            DeclKind::Alias(ty) => {
                out.push_str("type ");
                out.push_str(&self.name);
                out.push_str(" = ");
                ty.write_shape(&mut out);
            }
            DeclKind::Const(value) => {
                out.push_str("const ");
                out.push_str(&self.name);
                out.push_str(&format!(" = {value:?}"));
            }
        }
        out
    }

    /// `other`, a second declaration of this interface, merged into it as
    /// TypeScript merges interface declarations: its bases and members added,
    /// a member both declare kept once. A member declared again with another
    /// type (TypeScript's "subsequent property declarations must have the same
    /// type") is the conflict returned: (where, where first, what); nothing is
    /// merged then. Not two interfaces: `None`, and nothing merged.
    pub fn merge(&mut self, other: &Decl) -> Option<Result<(), MergeConflict>> {
        let (DeclKind::Interface { extends, members }, DeclKind::Interface { extends: more, members: added }) =
            (&mut self.kind, &other.kind)
        else {
            return None;
        };
        let key = |m: &Member| match m {
            Member::Property { name, .. } => Some(name.clone()),
            Member::Index { .. } => None,
        };
        let shape = |m: &Member| {
            let mut out = String::new();
            write_members(std::slice::from_ref(m), &mut out);
            out
        };
        let span = |m: &Member| match m {
            Member::Property { span, .. } | Member::Index { span, .. } => *span,
        };
        let mut new_members = Vec::new();
        for m in added {
            match members.iter().find(|p| key(p) == key(m)) {
                Some(p) if shape(p) == shape(m) => {}
                Some(p) => {
                    let what = key(m).map_or("the index signature".to_string(), |n| format!("`{}.{n}`", self.name));
                    return Some(Err(MergeConflict { at: span(m), first: span(p), what }));
                }
                None => new_members.push(m.clone()),
            }
        }
        let shapes: Vec<String> = extends.iter().map(TypeExpr::shape).collect();
        extends.extend(more.iter().filter(|b| !shapes.contains(&b.shape())).cloned());
        members.extend(new_members);
        if self.doc.is_none() {
            self.doc.clone_from(&other.doc);
        }
        Some(Ok(()))
    }

    /// The names this declaration refers to (type references, `typeof`), in
    /// the order they first appear; built-in names (`Omit`, `Record`) included.
    pub fn references(&self) -> Vec<String> {
        let mut out = Vec::new();
        match &self.kind {
            DeclKind::Interface { extends, members } => {
                extends.iter().for_each(|t| t.collect_references(&mut out));
                members_references(members, &mut out);
            }
            DeclKind::Alias(ty) => ty.collect_references(&mut out),
            DeclKind::Const(_) => {}
        }
        out
    }
}

fn write_members(members: &[Member], out: &mut String) {
    out.push_str(" {");
    for m in members {
        match m {
            Member::Property { name, optional, ty, .. } => {
                out.push_str(&format!(" {name:?}{}: ", if *optional { "?" } else { "" }));
                ty.write_shape(out);
            }
            Member::Index { ty, .. } => {
                out.push_str(" [key]: ");
                ty.write_shape(out);
            }
        }
        out.push(';');
    }
    out.push_str(" }");
}

fn members_references(members: &[Member], out: &mut Vec<String>) {
    for m in members {
        match m {
            Member::Property { ty, .. } | Member::Index { ty, .. } => ty.collect_references(out),
        }
    }
}

/// A member two declarations of one interface declare with different types.
#[derive(Clone, Debug)]
pub struct MergeConflict {
    pub at: Span,
    pub first: Span,
    /// `` `Foo.bar` ``, or the index signature.
    pub what: String,
}

impl TypeExpr {
    /// The type as one canonical text, without spans or layout.
    pub fn shape(&self) -> String {
        let mut out = String::new();
        self.write_shape(&mut out);
        out
    }

    fn write_shape(&self, out: &mut String) {
        let list = |items: &[TypeExpr], sep: &str, out: &mut String| {
            out.push('(');
            for (i, t) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(sep);
                }
                t.write_shape(out);
            }
            out.push(')');
        };
        match &self.kind {
            TypeKind::String => out.push_str("string"),
            TypeKind::Number => out.push_str("number"),
            TypeKind::Boolean => out.push_str("boolean"),
            TypeKind::Null => out.push_str("null"),
            TypeKind::Unknown => out.push_str("unknown"),
            TypeKind::Any => out.push_str("any"),
            TypeKind::Object => out.push_str("object"),
            TypeKind::Never => out.push_str("never"),
            TypeKind::StrLit(s) => out.push_str(&format!("{s:?}")),
            TypeKind::NumLit(n) => out.push_str(&format!("{n:?}")),
            TypeKind::BoolLit(b) => out.push_str(&b.to_string()),
            TypeKind::Ref { name, args } => {
                out.push_str(name);
                if !args.is_empty() {
                    out.push('<');
                    list(args, ", ", out);
                    out.push('>');
                }
            }
            TypeKind::TypeOf(name) => {
                out.push_str("typeof ");
                out.push_str(name);
            }
            TypeKind::Array(t) => {
                out.push('(');
                t.write_shape(out);
                out.push_str(")[]");
            }
            TypeKind::Union(items) => list(items, " | ", out),
            TypeKind::Intersection(items) => list(items, " & ", out),
            TypeKind::Literal(members) => write_members(members, out),
            TypeKind::KeyOf(t) => {
                out.push_str("keyof ");
                t.write_shape(out);
            }
            TypeKind::Indexed { object, index } => {
                object.write_shape(out);
                out.push('[');
                index.write_shape(out);
                out.push(']');
            }
            TypeKind::Template(t) => out.push_str(&format!("`{t}`")),
            TypeKind::Unsupported { what } => out.push_str(&format!("<unsupported {what}>")),
        }
    }

    fn collect_references(&self, out: &mut Vec<String>) {
        let mut add = |name: &str| {
            if !out.iter().any(|n| n == name) {
                out.push(name.to_string());
            }
        };
        match &self.kind {
            TypeKind::Ref { name, args } => {
                add(name);
                args.iter().for_each(|t| t.collect_references(out));
            }
            TypeKind::TypeOf(name) => add(name),
            TypeKind::Array(t) | TypeKind::KeyOf(t) => t.collect_references(out),
            TypeKind::Union(items) | TypeKind::Intersection(items) => {
                items.iter().for_each(|t| t.collect_references(out))
            }
            TypeKind::Literal(members) => members_references(members, out),
            TypeKind::Indexed { object, index } => {
                object.collect_references(out);
                index.collect_references(out);
            }
            _ => {}
        }
    }
}
