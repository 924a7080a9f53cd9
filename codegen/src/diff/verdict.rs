//! Each change's verdicts: what a kind of fact that changed means on the wire
//! (judged with [`Compat`] where the types decide) and to code compiled against
//! OLD's module (the api verdict, from the Rust view of both models).

use super::*;

impl Cx<'_> {
    pub(super) fn simple(
        &self,
        path: &str,
        id: ChangeId,
        o: Option<&String>,
        n: Option<&String>,
        edits: Vec<Edit>,
    ) -> Change {
        Change {
            id,
            path: path.to_string(),
            old: o.cloned(),
            new: n.cloned(),
            wire: Wire::None,
            api: None,
            detail: None,
            edits,
        }
    }

    pub(super) fn item_in<'r>(rev: &'r Revision, path: &str) -> Option<&'r Item> {
        match rev.resolve_path(path)?.target {
            Target::Item(i) => Some(i),
            Target::Field(_, f) => match inner_named(&f.ty) {
                Some(n) => rev.item(n),
                None => None,
            },
            _ => None,
        }
    }

    pub(super) fn field_in<'r>(rev: &'r Revision, path: &str) -> Option<&'r Field> {
        match rev.resolve_path(path)?.target {
            Target::Field(_, f) => Some(f),
            _ => None,
        }
    }

    pub(super) fn type_change(&self, root: &str, o: Option<&String>, n: Option<&String>, edits: Vec<Edit>) -> Change {
        let is_const = |s: Option<&String>| s.is_some_and(|s| s.starts_with("const "));
        let id = match (o, n) {
            (None, _) if is_const(n) => ChangeId::ConstAdded,
            (None, _) => ChangeId::TypeAdded,
            (_, None) if is_const(o) => ChangeId::ConstRemoved,
            (_, None) => ChangeId::TypeRemoved,
            (Some(a), Some(b)) => match (kind_word(a), kind_word(b)) {
                ("const", "const") => ChangeId::ConstValueChanged,
                ("enum", "enum") if b.starts_with("open") => ChangeId::EnumOpened,
                ("enum", "enum") => ChangeId::EnumClosed,
                ("union", "union") => ChangeId::UnionRuleChanged,
                ("object", "object") => ChangeId::TypeBasesChanged,
                ("alias", "alias") => ChangeId::AliasChanged,
                _ => ChangeId::TypeKindChanged,
            },
        };
        let mut c = self.simple(root, id, o, n, edits);
        match id {
            ChangeId::TypeRemoved => c.api = Some("the type is gone".into()),
            ChangeId::ConstRemoved => c.api = Some("the const is gone".into()),
            ChangeId::ConstValueChanged => {
                c.wire = Wire::Both;
                let lit_kind = |s: &str| s.split_whitespace().nth(1).map(|v| v.starts_with('"'));
                if o.map(|s| lit_kind(s)) != n.map(|s| lit_kind(s)) {
                    c.api = Some("the const's type changed".into());
                }
            }
            ChangeId::EnumOpened => {
                c.wire = Wire::OldReaders;
                c.api = Some("the catch-all variant `Other` is new".into());
            }
            ChangeId::EnumClosed => {
                c.wire = Wire::OldWriters;
                c.api = Some("the catch-all variant `Other` is gone".into());
            }
            ChangeId::AliasChanged | ChangeId::TypeKindChanged => {
                c.api = Some("the type changed".into());
                if let (Some(oi), Some(ni)) =
                    (Self::item_in(self.old, &self.old_path(root)), Self::item_in(self.new, root))
                {
                    let (ot, nt) = (Type::Named(oi.name.clone()), Type::Named(ni.name.clone()));
                    c.wire = Wire::from_breaks(
                        !Compat::new(self.old, self.new).accepts(&ot, &nt),
                        !Compat::new(self.new, self.old).accepts(&nt, &ot),
                    );
                } else {
                    c.wire = Wire::Both;
                }
            }
            _ => {}
        }
        c
    }

    pub(super) fn field_change(&self, path: &str, o: Option<&String>, n: Option<&String>, edits: Vec<Edit>) -> Change {
        let of = Self::field_in(self.old, &self.old_path(path));
        let nf = Self::field_in(self.new, path);
        // Every member a struct has, inherited or its own, is a field fact: a fact
        // that comes or goes is a member that does. A member that moves to or from a
        // base keeps its fact, and the move is its `@from` fact's change (`classify`).
        let id = match (o, n) {
            (None, _) if nf.is_some_and(|f| f.is_required()) => ChangeId::FieldAddedRequired,
            (None, _) => ChangeId::FieldAddedOptional,
            (_, None) => ChangeId::FieldRemoved,
            (Some(a), Some(b)) if type_part(a) == type_part(b) => {
                if b.starts_with("required") {
                    ChangeId::FieldMadeRequired
                } else {
                    ChangeId::FieldMadeOptional
                }
            }
            _ if of.is_some_and(is_fixed) && nf.is_some_and(is_fixed) => ChangeId::FixedValueChanged,
            _ => ChangeId::FieldTypeChanged,
        };
        let mut c = self.simple(path, id, o, n, edits);
        c.wire = Wire::from_breaks(
            !Compat::new(self.old, self.new).field_accepts(of, nf),
            !Compat::new(self.new, self.old).field_accepts(nf, of),
        );
        let rust = |f: Option<&Field>| f.is_some_and(|f| !is_fixed(f));
        // Which members `new` takes is the builders' own rule (`rust::new_takes`).
        let takes = |f: Option<&Field>| f.is_some_and(new_takes);
        let and_new = match (takes(of), takes(nf)) {
            (false, true) => ", and `new` takes it",
            (true, false) => ", and `new` no longer takes it",
            _ => "",
        };
        c.api = match id {
            ChangeId::FieldAddedRequired | ChangeId::FieldAddedOptional if takes(nf) => {
                Some("`new` takes the new member, and struct literals must name it".into())
            }
            ChangeId::FieldAddedRequired if rust(nf) && nf.is_some_and(|f| f.role.default().is_some()) => {
                Some("struct literals must name the new field (`new` sets its default)".into())
            }
            ChangeId::FieldAddedRequired | ChangeId::FieldAddedOptional if rust(nf) => {
                Some("struct literals must name the new field".into())
            }
            // A fixed member is a const of its struct (`CreateMessageRequest::JSONRPC`).
            ChangeId::FieldRemoved if of.is_some_and(is_fixed) => {
                of.map(|f| format!("the const `{}` is gone", const_name(&f.wire)))
            }
            ChangeId::FieldRemoved if rust(of) => Some(format!("the field is gone{and_new}")),
            ChangeId::FieldMadeRequired if rust(nf) => Some(format!("`Option<T>` became `T`{and_new}")),
            ChangeId::FieldMadeOptional if rust(nf) => Some(format!("`T` became `Option<T>`{and_new}")),
            ChangeId::FieldTypeChanged if rust(of) || rust(nf) => {
                let same = of
                    .zip(nf)
                    .is_some_and(|(a, b)| RustTypes::api(self.old).field(a) == RustTypes::api(self.new).field(b));
                if !same {
                    Some("the field's type changed".to_string())
                } else {
                    // The same Rust type by name, but not the same struct: an inline
                    // object that became a declared type of its name
                    // (`CallToolRequest.params`, `CallToolRequestParams`) with other
                    // members, whose own changes are not listed (the declared type is new).
                    of.zip(nf).and_then(|(a, b)| self.reshaped_struct(&a.ty, &b.ty))
                }
            }
            _ => None,
        };
        let owner = path.rsplit_once('.').map(|(o, _)| o).unwrap_or(path);
        let through = |f: Option<&Field>, rev: &Revision| {
            f.filter(|f| {
                rev.resolve_path(owner).is_some_and(|r| matches!(r.target, Target::Item(i) if i.name != f.declared_in))
            })
            .map(|f| format!("through {}", f.declared_in))
        };
        // Where the member comes from: the new revision's base, else (a member that
        // is gone) the old one's.
        c.detail = through(nf, self.new).or_else(|| through(of, self.old));
        c
    }

    /// The type a member's type names, when it is one Rust type by name in both
    /// revisions but not of one shape: a struct with other fields, a union with
    /// other members, an enum with other values, or another kind of type.
    fn reshaped_struct(&self, old: &Type, new: &Type) -> Option<String> {
        let (o, n) = (inner_named(old)?, inner_named(new)?);
        if o != n {
            return None;
        }
        let shape = |rev: &Revision, name: &str| -> Option<(&'static str, BTreeSet<String>)> {
            let item = rev.item(name)?;
            Some(match &rev.canonical(&Type::Named(name.to_string())) {
                Type::Named(c) => match &rev.item(c)?.kind {
                    ItemKind::Struct(s) => ("a struct", s.stored().map(crate::rust::member_name).collect()),
                    ItemKind::Union(u) => ("an enum of types", u.variants.iter().map(|v| v.name.clone()).collect()),
                    ItemKind::Enum(e) => ("an enum of values", e.values.iter().map(|v| v.rust.clone()).collect()),
                    _ => return None,
                },
                _ => {
                    let _ = item;
                    return None;
                }
            })
        };
        let ((ok, was), (nk, is)) = (shape(self.old, o)?, shape(self.new, n)?);
        if ok != nk {
            return Some(format!("the type `{n}` it holds was {ok} and is {nk}"));
        }
        if was == is {
            return None;
        }
        let gained: Vec<&String> = is.difference(&was).collect();
        let lost: Vec<&String> = was.difference(&is).collect();
        let list = |v: &[&String]| v.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ");
        let said = match (gained.is_empty(), lost.is_empty()) {
            (false, true) => format!("gained {}", list(&gained)),
            (true, false) => format!("lost {}", list(&lost)),
            _ => format!("gained {} and lost {}", list(&gained), list(&lost)),
        };
        let what = if ok == "a struct" { "struct literals change" } else { "exhaustive matches change" };
        Some(format!("`{n}`, the type it holds, {said}: {what}"))
    }

    pub(super) fn value_change(&self, path: &str, added: bool, edits: Vec<Edit>) -> Change {
        let root = path.rsplit_once(".\"").map(|(r, _)| r).unwrap_or(path);
        let open =
            |set: &FactSet, root: &str| set.facts.get(&format!("{root}@type")).is_some_and(|s| s.starts_with("open"));
        let (id, wire, api) = if added {
            let wire = if open(self.old_set, &self.old_path(root)) { Wire::None } else { Wire::OldReaders };
            (ChangeId::ValueAdded, wire, "exhaustive matches must handle the new variant")
        } else {
            let wire = if open(self.new_set, root) { Wire::None } else { Wire::OldWriters };
            (ChangeId::ValueRemoved, wire, "the variant is gone")
        };
        Change { wire, api: Some(api.into()), ..self.simple(path, id, None, None, edits) }
    }

    pub(super) fn variant_change(
        &self,
        path: &str,
        o: Option<&String>,
        n: Option<&String>,
        edits: Vec<Edit>,
    ) -> Change {
        let (root, name) = path.rsplit_once('|').unwrap_or((path, ""));
        let old_union = Self::item_in(self.old, &self.old_path(root));
        let new_union = Self::item_in(self.new, root);
        let variant = |u: Option<&Item>| match u.map(|i| &i.kind) {
            Some(ItemKind::Union(u)) => u.variants.iter().find(|v| v.name == name).cloned(),
            _ => None,
        };
        let (ov, nv) = (variant(old_union), variant(new_union));
        let (om, nm) = (ov.as_ref().map(|v| v.ty.clone()), nv.as_ref().map(|v| v.ty.clone()));
        let union_accepts = |reader: &Revision, writer: &Revision, u: Option<&Item>, t: &Option<Type>| match (u, t) {
            (Some(u), Some(t)) => Compat::new(reader, writer).accepts(&Type::Named(u.name.clone()), t),
            _ => false,
        };
        let (id, wire, api) = match (o, n) {
            (None, _) => (
                ChangeId::VariantAdded,
                Wire::from_breaks(!union_accepts(self.old, self.new, old_union, &nm), false),
                "exhaustive matches must handle the new member",
            ),
            (_, None) => (
                ChangeId::VariantRemoved,
                Wire::from_breaks(false, !union_accepts(self.new, self.old, new_union, &om)),
                "the member is gone",
            ),
            _ => {
                let (a, b) = (om.clone().unwrap_or(Type::Json), nm.clone().unwrap_or(Type::Json));
                // The summary also says what tags the member (`Dot when "dot"`): a new
                // tag changes what is read, not the Rust type the variant holds.
                let rust = |rev: &Revision, v: &Option<crate::model::Variant>, t: &Type| {
                    RustTypes::api(rev).boxed(t, v.as_ref().is_some_and(|v| v.boxed))
                };
                let same = rust(self.old, &ov, &a) == rust(self.new, &nv, &b);
                (
                    ChangeId::VariantChanged,
                    Wire::from_breaks(
                        !Compat::new(self.old, self.new).accepts(&a, &b),
                        !Compat::new(self.new, self.old).accepts(&b, &a),
                    ),
                    if same { "" } else { "the member's type changed" },
                )
            }
        };
        let api = (!api.is_empty()).then(|| api.to_string());
        Change { wire, api, ..self.simple(path, id, o, n, edits) }
    }
}

/// `required string` → `string`.
pub(super) fn type_part(summary: &str) -> &str {
    summary.split_once(' ').map(|(_, t)| t).unwrap_or(summary)
}

pub(super) fn first_line(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    if line.chars().count() > 80 {
        format!("{}…", line.chars().take(79).collect::<String>())
    } else {
        line.to_string()
    }
}

pub(super) fn is_fixed(f: &Field) -> bool {
    f.role.fixed().is_some()
}

pub(super) fn inner_named(t: &Type) -> Option<&str> {
    match t {
        Type::Named(n) => Some(n),
        Type::Nullable(t) | Type::Array(t) | Type::Map(t) => inner_named(t),
        _ => None,
    }
}
