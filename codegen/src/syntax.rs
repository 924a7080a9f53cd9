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
