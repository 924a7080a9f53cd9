//! What the diff gives: each [`Change`] with its id and verdicts, and the
//! [`Diff`] of two revisions.

use super::facts::Edit;

/// Which side of a conversation breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wire {
    None,
    /// A peer built on OLD rejects what a peer built on NEW sends.
    OldReaders,
    /// A peer built on NEW rejects what a peer built on OLD sends.
    OldWriters,
    Both,
}

impl Wire {
    pub fn from_breaks(old_readers: bool, old_writers: bool) -> Wire {
        match (old_readers, old_writers) {
            (false, false) => Wire::None,
            (true, false) => Wire::OldReaders,
            (false, true) => Wire::OldWriters,
            (true, true) => Wire::Both,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Wire::None => "none",
            Wire::OldReaders => "old-readers",
            Wire::OldWriters => "old-writers",
            Wire::Both => "both",
        }
    }
    pub fn explain(self) -> &'static str {
        match self {
            Wire::None => "compatible",
            Wire::OldReaders => "breaks old readers (an OLD peer rejects what a NEW peer sends)",
            Wire::OldWriters => "breaks old writers (a NEW peer rejects what an OLD peer sends)",
            Wire::Both => "breaks both directions",
        }
    }
}

/// The kind of a change: one variant per row of the table in the module docs
/// (a test checks that the two agree), printed as the row's kebab-case id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChangeId {
    TypeAdded,
    TypeRemoved,
    TypeRenamed,
    TypeKindChanged,
    TypeBasesChanged,
    AliasChanged,
    UnionRuleChanged,
    EnumOpened,
    EnumClosed,
    ConstAdded,
    ConstRemoved,
    ConstValueChanged,
    FieldAddedOptional,
    FieldAddedRequired,
    FieldRemoved,
    FieldMadeRequired,
    FieldMadeOptional,
    FieldTypeChanged,
    FixedValueChanged,
    FieldInherited,
    FieldRedeclared,
    ValueAdded,
    ValueRemoved,
    VariantAdded,
    VariantRemoved,
    VariantChanged,
    MethodAdded,
    MethodRemoved,
    MethodChanged,
    MethodResultChanged,
    Deprecated,
    Undeprecated,
    DeprecationChanged,
    DocsChanged,
}

impl ChangeId {
    /// Every id, in the order of the table.
    pub const ALL: &[ChangeId] = &[
        ChangeId::TypeAdded,
        ChangeId::TypeRemoved,
        ChangeId::TypeRenamed,
        ChangeId::TypeKindChanged,
        ChangeId::TypeBasesChanged,
        ChangeId::AliasChanged,
        ChangeId::UnionRuleChanged,
        ChangeId::EnumOpened,
        ChangeId::EnumClosed,
        ChangeId::ConstAdded,
        ChangeId::ConstRemoved,
        ChangeId::ConstValueChanged,
        ChangeId::FieldAddedOptional,
        ChangeId::FieldAddedRequired,
        ChangeId::FieldRemoved,
        ChangeId::FieldMadeRequired,
        ChangeId::FieldMadeOptional,
        ChangeId::FieldTypeChanged,
        ChangeId::FixedValueChanged,
        ChangeId::FieldInherited,
        ChangeId::FieldRedeclared,
        ChangeId::ValueAdded,
        ChangeId::ValueRemoved,
        ChangeId::VariantAdded,
        ChangeId::VariantRemoved,
        ChangeId::VariantChanged,
        ChangeId::MethodAdded,
        ChangeId::MethodRemoved,
        ChangeId::MethodChanged,
        ChangeId::MethodResultChanged,
        ChangeId::Deprecated,
        ChangeId::Undeprecated,
        ChangeId::DeprecationChanged,
        ChangeId::DocsChanged,
    ];

    /// The kebab-case id: `field-added-required`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeId::TypeAdded => "type-added",
            ChangeId::TypeRemoved => "type-removed",
            ChangeId::TypeRenamed => "type-renamed",
            ChangeId::TypeKindChanged => "type-kind-changed",
            ChangeId::TypeBasesChanged => "type-bases-changed",
            ChangeId::AliasChanged => "alias-changed",
            ChangeId::UnionRuleChanged => "union-rule-changed",
            ChangeId::EnumOpened => "enum-opened",
            ChangeId::EnumClosed => "enum-closed",
            ChangeId::ConstAdded => "const-added",
            ChangeId::ConstRemoved => "const-removed",
            ChangeId::ConstValueChanged => "const-value-changed",
            ChangeId::FieldAddedOptional => "field-added-optional",
            ChangeId::FieldAddedRequired => "field-added-required",
            ChangeId::FieldRemoved => "field-removed",
            ChangeId::FieldMadeRequired => "field-made-required",
            ChangeId::FieldMadeOptional => "field-made-optional",
            ChangeId::FieldTypeChanged => "field-type-changed",
            ChangeId::FixedValueChanged => "fixed-value-changed",
            ChangeId::FieldInherited => "field-inherited",
            ChangeId::FieldRedeclared => "field-redeclared",
            ChangeId::ValueAdded => "value-added",
            ChangeId::ValueRemoved => "value-removed",
            ChangeId::VariantAdded => "variant-added",
            ChangeId::VariantRemoved => "variant-removed",
            ChangeId::VariantChanged => "variant-changed",
            ChangeId::MethodAdded => "method-added",
            ChangeId::MethodRemoved => "method-removed",
            ChangeId::MethodChanged => "method-changed",
            ChangeId::MethodResultChanged => "method-result-changed",
            ChangeId::Deprecated => "deprecated",
            ChangeId::Undeprecated => "undeprecated",
            ChangeId::DeprecationChanged => "deprecation-changed",
            ChangeId::DocsChanged => "docs-changed",
        }
    }
}

impl std::fmt::Display for ChangeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub id: ChangeId,
    /// The item's path in NEW (in OLD for what NEW no longer has).
    pub path: String,
    pub old: Option<String>,
    pub new: Option<String>,
    pub wire: Wire,
    /// Why code built against OLD's types fails to compile against NEW's.
    pub api: Option<String>,
    /// Context: the types that inherit a member, the type a member moved to.
    pub detail: Option<String>,
    /// How the change edits OLD's facts on the way to NEW's ([`facts::apply`](super::facts::apply)).
    pub edits: Vec<Edit>,
}

impl Change {
    pub fn is_breaking(&self) -> bool {
        self.wire != Wire::None || self.api.is_some()
    }
    pub fn is_docs(&self) -> bool {
        self.id == ChangeId::DocsChanged
    }
}

#[derive(Clone, Debug)]
pub struct Diff {
    pub old: String,
    pub new: String,
    /// By path, then id.
    pub changes: Vec<Change>,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}
