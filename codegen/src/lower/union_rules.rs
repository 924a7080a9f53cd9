//! The lowering pass that decides every union's rule, once, for a revision
//! being lowered: a discriminator where every member fixes one field to
//! distinct values, the fallback member of discriminated unions whose common
//! base leaves the field open, and a selector field for unions decided by
//! shape. Everything after reads the decided rule (`rule` matches values
//! against it, `emit` writes it).

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{
    Item, ItemKind, Literal, LiteralValue, Revision, Selector, Struct, Type, Union, UnionRule, Variant, ancestors,
    canonical, struct_of,
};

/// Decides every union of a revision being lowered: first a discriminator where
/// every member fixes one field to distinct values, then the fallback member of
/// discriminated unions whose common base leaves the field open, then a selector
/// field for unions decided by shape. An extension's unions are decided where
/// its core's types are seen too (their members may be the core's: the unions
/// [`widen_core_unions`] added hold the core's results and the extension's).
pub fn decide_unions(items: &mut BTreeMap<String, Item>, core: Option<&Revision>) {
    let own: BTreeSet<String> = items.keys().cloned().collect();
    let mut view = core.map(|c| c.items.clone()).unwrap_or_default();
    view.extend(std::mem::take(items));
    message_aliases_as_unions(&mut view, &own);
    classify_unions(&mut view, &own);
    add_fallbacks(&mut view, &own);
    add_selectors(&mut view, &own);
    mark_told_by_kind(&mut view, &own);
    *items = view.into_iter().filter(|(name, _)| own.contains(name)).collect();
}

/// What an extension adds to its core's unions read by `resultType`: each of
/// its structs that fixes `resultType` to a value the core's enum does not list
/// (`CreateTaskResult`, `"task"`) joins, by name, a copy of each such union,
/// named the core's with the extension's name after `With`
/// (`CallToolResultResponseResultWithTasks`); each core struct that holds such
/// a union is copied alike, holding the copy. The copies join `items`
/// undecided (the core's own members, then the extension's), and
/// [`decide_unions`] decides them as it does any union: the joining members by
/// the value each fixes. The core's names are left to the core, so a glob
/// import of both modules is not ambiguous. Returns each core name with its
/// copy's.
pub fn widen_core_unions(items: &mut BTreeMap<String, Item>, core: &Revision, ext: &str) -> BTreeMap<String, String> {
    let suffix: String = std::iter::once("With".to_string())
        .chain(ext.split(['-', '_']).map(|part| {
            let mut chars = part.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        }))
        .collect();
    let widen = |name: &str| format!("{name}{suffix}");
    let results: Vec<(String, String)> = items
        .values()
        .filter_map(|i| {
            let ItemKind::Struct(s) = &i.kind else { return None };
            Some((i.name.clone(), fixed_string(s, "resultType")?))
        })
        .collect();
    let mut widened: Vec<(String, Item)> = Vec::new();
    for item in core.items.values() {
        let ItemKind::Union(u) = &item.kind else { continue };
        let UnionRule::Selected(sel) = &u.rule else { continue };
        if sel.field != "resultType" || items.contains_key(&item.name) {
            continue;
        }
        // The values the core's enum lists (`complete`, `input_required`) are
        // the core's to read; a value it does not list is the extension's.
        let listed: Vec<&str> = match core.item(&sel.values_of).map(|i| &i.kind) {
            Some(ItemKind::Enum(e)) => e.values.iter().map(|v| v.value.as_str()).collect(),
            _ => Vec::new(),
        };
        let joining: Vec<&(String, String)> = results.iter().filter(|(_, v)| !listed.contains(&v.as_str())).collect();
        if joining.is_empty() {
            continue;
        }
        // The schema's members, without the catch-all the core's rule added.
        let mut variants: Vec<Variant> = u
            .variants
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != sel.other)
            .map(|(_, v)| Variant { tags: Vec::new(), ..v.clone() })
            .collect();
        variants.extend(joining.iter().map(|(name, _)| Variant {
            name: name.clone(),
            ty: Type::Named(name.clone()),
            tags: Vec::new(),
            boxed: false,
        }));
        let mut docs = item.docs.clone();
        docs.text = vec![format!(
            "`{}` of core revision {}, with what this extension answers in its place: {}.",
            item.name,
            core.name,
            joining.iter().map(|(n, v)| format!("`{n}` (`resultType: \"{v}\"`)")).collect::<Vec<_>>().join(", ")
        )];
        let union = Union { variants, rule: UnionRule::default() };
        widened.push((
            item.name.clone(),
            Item { name: widen(&item.name), kind: ItemKind::Union(union), docs, ..item.clone() },
        ));
    }
    let unions: Vec<String> = widened.iter().map(|(core_name, _)| core_name.clone()).collect();
    for item in core.items.values() {
        let ItemKind::Struct(s) = &item.kind else { continue };
        let holds = s.fields.iter().any(|f| matches!(&f.ty, Type::Named(n) if unions.contains(n)));
        if !holds || items.contains_key(&widen(&item.name)) {
            continue;
        }
        let mut s = s.clone();
        let mut held = Vec::new();
        for f in &mut s.fields {
            if let Type::Named(n) = &mut f.ty
                && unions.contains(n)
            {
                held.push(format!("[`{}`]", widen(n)));
                *n = widen(n);
            }
        }
        let mut docs = item.docs.clone();
        docs.text = vec![format!(
            "`{}` of core revision {}, holding this extension's {}.",
            item.name,
            core.name,
            held.join(", ")
        )];
        widened.push((
            item.name.clone(),
            Item { name: widen(&item.name), kind: ItemKind::Struct(s), docs, ..item.clone() },
        ));
    }
    let mut names = BTreeMap::new();
    for (core_name, item) in widened {
        names.insert(core_name, item.name.clone());
        items.insert(item.name.clone(), item);
    }
    names
}

/// The string a struct's member `field` is fixed to (`resultType: "task"`).
fn fixed_string(s: &Struct, field: &str) -> Option<String> {
    match &s.field(field)?.role.fixed()?.value {
        LiteralValue::Str(v) => Some(v.clone()),
        _ => None,
    }
}

/// A union decided by shape, without a selector, whose every member is a JSON
/// scalar of a kind no other member has (`string | integer`): the rule's first
/// step alone decides, so it is read straight from serde's first look at the
/// value, with nothing captured (the runtime's `union! { .. by kind }`).
fn mark_told_by_kind(items: &mut BTreeMap<String, Item>, own: &BTreeSet<String>) {
    for name in own {
        let Some(ItemKind::Union(u)) = items.get(name.as_str()).map(|i| &i.kind) else { continue };
        if !matches!(u.rule, UnionRule::Shape) {
            continue;
        }
        let mut seen = Vec::new();
        let by_kind = u.variants.iter().all(|v| {
            let kind = match canonical(items, &v.ty) {
                Type::String => "string",
                Type::Integer | Type::Number => "number",
                Type::Boolean => "boolean",
                _ => return false,
            };
            !seen.contains(&kind) && {
                seen.push(kind);
                true
            }
        });
        if by_kind && let Some(Item { kind: ItemKind::Union(u), .. }) = items.get_mut(name.as_str()) {
            u.rule = UnionRule::Kind;
        }
    }
}

/// A message union of one member is written in TypeScript as an alias (2026-07-28:
/// `type ClientNotification = CancelledNotification`). It is lowered as the union
/// it stands for, so that, like every other message union, it reads a method it
/// does not know as `Other` instead of failing (and stays a union from one
/// revision to the next). A message is a struct that fixes its `method`.
fn message_aliases_as_unions(items: &mut BTreeMap<String, Item>, own: &BTreeSet<String>) {
    for name in own {
        let Some(ItemKind::Alias(Type::Named(target))) = items.get(name.as_str()).map(|i| &i.kind) else { continue };
        let is_message = items
            .get(target)
            .is_some_and(|i| matches!(&i.kind, ItemKind::Struct(s) if s.fixed().any(|(f, _)| f.wire == "method")));
        if !is_message {
            continue;
        }
        let member = Variant { name: target.clone(), ty: Type::Named(target.clone()), tags: Vec::new(), boxed: false };
        if let Some(item) = items.get_mut(name.as_str()) {
            item.kind = ItemKind::Union(Union { variants: vec![member], rule: UnionRule::default() });
        }
    }
}

/// Finds, for each union whose members are all structs, a field that every member
/// fixes to distinct literal values: that union is decided by the field's value.
fn classify_unions(items: &mut BTreeMap<String, Item>, own: &BTreeSet<String>) {
    for name in own {
        let Some(ItemKind::Union(u)) = items.get(name.as_str()).map(|i| &i.kind) else { continue };
        let mut structs = Vec::new();
        for v in &u.variants {
            match &v.ty {
                Type::Named(n) => match struct_of(items, n) {
                    Some(s) => structs.push(s),
                    None => break,
                },
                _ => break,
            }
        }
        if structs.len() != u.variants.len() || structs.is_empty() {
            continue;
        }
        let candidates: Vec<String> = structs[0].fixed().map(|(f, _)| f.wire.clone()).collect();
        let mut chosen = None;
        'cand: for wire in candidates {
            let mut tags: Vec<Vec<Literal>> = Vec::new();
            for s in &structs {
                let Some((_, lit)) = s.fixed().find(|(f, _)| f.wire == wire) else { continue 'cand };
                if tags.iter().flatten().any(|t| t.value == lit.value) {
                    continue 'cand;
                }
                tags.push(vec![lit.clone()]);
            }
            chosen = Some((wire, tags));
            break;
        }
        if let Some((wire, tags)) = chosen
            && let Some(Item { kind: ItemKind::Union(u), .. }) = items.get_mut(name.as_str())
        {
            u.rule = UnionRule::Tagged { field: wire, fallback: None };
            for (v, t) in u.variants.iter_mut().zip(tags) {
                v.tags = t;
            }
        }
    }
}

/// The name of the member a union keeps an input no member takes in: `Other`,
/// or `Unknown` when a member of the schema's is called `Other` already.
fn fallback_name(u: &Union) -> &'static str {
    if u.variants.iter().any(|v| v.name == "Other") { "Unknown" } else { "Other" }
}

/// A discriminated union whose members all extend (directly or not) one base that leaves the
/// discriminator open (`JSONRPCRequest`'s `method: string`) reads any other
/// value as that base: the variant `Other`, so unknown and extension methods
/// pass through.
fn add_fallbacks(items: &mut BTreeMap<String, Item>, own: &BTreeSet<String>) {
    for name in own {
        let Some(ItemKind::Union(u)) = items.get(name.as_str()).map(|i| &i.kind) else { continue };
        let Some(field) = u.tag_field().map(str::to_string) else { continue };
        let mut common: Option<Vec<String>> = None;
        for v in &u.variants {
            let Type::Named(n) = &v.ty else { continue };
            let bases = ancestors(items, n);
            common = Some(match common {
                None => bases,
                Some(c) => c.into_iter().filter(|b| bases.contains(b)).collect(),
            });
        }
        // Open: any string (`method: string`), or an open enum; a closed enum
        // (`status: TaskStatus`) reads no other value, so a fallback would read none.
        let open = |t: &Type| match canonical(items, t) {
            Type::Literal(_) => false,
            Type::Named(n) => !matches!(items.get(n).map(|i| &i.kind), Some(ItemKind::Enum(e)) if !e.open),
            _ => true,
        };
        let open_base = common
            .unwrap_or_default()
            .into_iter()
            .find(|b| struct_of(items, b).and_then(|s| s.field(&field)).is_some_and(|f| open(&f.ty)));
        let Some(base) = open_base else { continue };
        if let Some(Item { kind: ItemKind::Union(u), .. }) = items.get_mut(name.as_str()) {
            let vname = fallback_name(u);
            u.variants.push(Variant { name: vname.into(), ty: Type::Named(base), tags: Vec::new(), boxed: false });
            let at = u.variants.len() - 1;
            if let UnionRule::Tagged { fallback, .. } = &mut u.rule {
                *fallback = Some(at);
            }
        }
    }
}

/// A union decided by shape whose members share a field typed by one string
/// enum, whose docs tie a value to one of the members (`ResultType`:
/// "input_required - ... contains an {@link InputRequiredResult} object"), is
/// read by that field first: a value tied to a member reads that member; a value
/// the enum does not list (it is open) reads the member `Other`, added here, typed
/// by the members' common base, so an extension's result is kept whole and never
/// taken for one of the others; no value, or another listed value (`"complete"`),
/// leaves the shape rule to choose among the members no value is tied to. This is
/// how the spec says a result is read ("allows the client to determine how to
/// parse the result object").
fn add_selectors(items: &mut BTreeMap<String, Item>, own: &BTreeSet<String>) {
    for name in own {
        let Some(ItemKind::Union(u)) = items.get(name.as_str()).map(|i| &i.kind) else { continue };
        if u.tag_field().is_some() || u.variants.len() < 2 {
            continue;
        }
        let mut structs = Vec::new();
        for v in &u.variants {
            match &v.ty {
                Type::Named(n) => match struct_of(items, n) {
                    Some(s) => structs.push((n.clone(), s)),
                    None => break,
                },
                _ => break,
            }
        }
        if structs.len() != u.variants.len() {
            continue;
        }
        let mut chosen = None;
        for f in &structs[0].1.fields {
            let Type::Named(enum_name) = &f.ty else { continue };
            let Some(enum_item) = items.get(enum_name) else { continue };
            let ItemKind::Enum(e) = &enum_item.kind else { continue };
            // Every member has the field typed by the enum, or, for an open
            // enum, fixed to a string.
            let typed_or_fixed = |s: &Struct| {
                s.field(&f.wire).is_some_and(|g| g.ty == f.ty) || (e.open && fixed_string(s, &f.wire).is_some())
            };
            if !structs.iter().all(|(_, s)| typed_or_fixed(s)) {
                continue;
            }
            let linked = value_links(&enum_item.docs.text);
            let listed = |value: &str| e.values.iter().any(|v| v.value == value);
            let tags: Vec<(String, usize)> = structs
                .iter()
                .enumerate()
                .filter_map(|(i, (n, s))| match linked.iter().find(|(_, ty)| ty == n) {
                    Some((value, _)) => listed(value).then(|| (value.clone(), i)),
                    // A member fixing the field to a value an open enum does not
                    // list (an extension's `resultType: "task"`) is selected by it.
                    None => fixed_string(s, &f.wire).filter(|v| e.open && !listed(v)).map(|v| (v, i)),
                })
                .collect();
            if !tags.is_empty() && tags.len() < structs.len() {
                let base =
                    e.open.then(|| common_base(items, structs.iter().map(|(n, _)| n.as_str()), &f.wire)).flatten();
                chosen =
                    Some((Selector { field: f.wire.clone(), values_of: enum_name.clone(), tags, other: None }, base));
                break;
            }
        }
        if let Some((mut sel, base)) = chosen
            && let Some(Item { kind: ItemKind::Union(u), .. }) = items.get_mut(name.as_str())
        {
            if let Some(base) = base {
                let vname = fallback_name(u);
                u.variants.push(Variant { name: vname.into(), ty: Type::Named(base), tags: Vec::new(), boxed: false });
                sel.other = Some(u.variants.len() - 1);
            }
            u.rule = UnionRule::Selected(sel);
        }
    }
}

/// The nearest struct that every one of `members` is or extends and that has
/// `field`: the type a value of any of them can be read as whole.
fn common_base<'a>(
    items: &BTreeMap<String, Item>,
    members: impl Iterator<Item = &'a str>,
    field: &str,
) -> Option<String> {
    let mut common: Option<Vec<String>> = None;
    for m in members {
        let own = canonical_name(items, m)?;
        let mut lineage = vec![own.clone()];
        lineage.extend(ancestors(items, &own));
        common = Some(match common {
            None => lineage,
            Some(c) => c.into_iter().filter(|b| lineage.contains(b)).collect(),
        });
    }
    common?.into_iter().find(|b| struct_of(items, b).is_some_and(|s| s.field(field).is_some()))
}

/// The name of the item `name` stands for, through aliases.
fn canonical_name(items: &BTreeMap<String, Item>, name: &str) -> Option<String> {
    match crate::model::canonical(items, &Type::Named(name.to_string())) {
        Type::Named(n) => Some(n.clone()),
        _ => None,
    }
}

/// The values an enum's docs tie to a type, one per line:
/// `input_required - ... an {@link InputRequiredResult} object ...`.
fn value_links(text: &[String]) -> Vec<(String, String)> {
    text.iter()
        .filter_map(|line| {
            let (value, rest) = line.trim().split_once(" - ")?;
            let at = rest.find("{@link ")? + "{@link ".len();
            let target: String = rest[at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            (!value.contains(' ') && !target.is_empty())
                .then(|| (value.trim_matches('`').trim_matches('"').to_string(), target))
        })
        .collect()
}
