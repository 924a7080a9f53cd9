//! The diff's verdicts, proven by behaviour: for every pair of revisions (not
//! only adjacent ones), values of each type read with the other revision's
//! generated types (wire), and uses of OLD's items compiled against NEW's module
//! (api, `api_verdicts_match_what_compiles`). A verdict the behaviour contradicts
//! is a disagreement, listed with the change, the value or code, and the error.
//! Misses are looked for apart from the diff's list: every value one revision
//! reads that the other rejects must be explained by a breaking change of a type
//! it holds (`wire_check`), and every face of an OLD type (its whole literal,
//! field reads, exhaustive match) that fails against NEW by a change with an api
//! verdict (`every_api_break_a_completeness_pass_finds_is_a_change_the_diff_reports`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use mcp_spec_codegen::Spec;
use mcp_spec_codegen::diff::{Change, ChangeId, Diff, Wire, diff};
use mcp_spec_codegen::model::{ItemKind, Origin, Resolved, Revision, Type};
use mcp_spec_tests as support;
use mcp_spec_types::rt::TypeEntry;
use serde_json::Value;

pub(crate) fn real_spec() -> Spec {
    mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render())).0
}

/// Every two revisions with modules of their own, older first: chosen by the
/// generated crate's modules (a revision whose module is another's re-exported,
/// as `draft` is 2026-07-28's today, has that one's pairs), never by the diff
/// under test. Exactly as many as the pinned inputs make: a revision dropped in
/// later adds as many pairs as there are revisions before it.
pub(crate) fn pairs(spec: &Spec) -> Vec<(&Revision, &Revision)> {
    let mut r: Vec<&Revision> = Vec::new();
    for rev in &spec.revisions {
        let module = support::types_of(&rev.name).as_ptr();
        match r.iter().find(|earlier| support::types_of(&earlier.name).as_ptr() == module) {
            Some(same) => eprintln!("{} is {}'s module: its pairs are {}'s", rev.name, same.name, same.name),
            None => r.push(rev),
        }
    }
    let pairs: Vec<_> = (0..r.len()).flat_map(|i| (i + 1..r.len()).map(|j| (r[i], r[j])).collect::<Vec<_>>()).collect();
    assert_eq!(
        pairs.len(),
        PINNED_PAIRS,
        "revisions with modules of their own: {:?}",
        r.iter().map(|r| &r.name).collect::<Vec<_>>()
    );
    pairs
}

/// The pairs of the pinned inputs: five revisions with modules of their own.
const PINNED_PAIRS: usize = 10;

/// What each pair of the pinned inputs was measured to try (2026-12-05): types
/// read both ways, the values read, and the api uses compiled. The pinned
/// inputs fix these counts, so a run must try exactly as many: an oracle that
/// tries less has lost its samples or its uses, and passing then would prove
/// nothing; one that tries more has inputs it was not measured on. A revision
/// dropped in later adds its rows; a change to what is tried updates them.
const MEASURED: &[(&str, &str, usize, usize, usize)] = &[
    ("2024-11-05", "2025-03-26", 111, 880, 20),
    ("2024-11-05", "2025-06-18", 109, 876, 48),
    ("2024-11-05", "2025-11-25", 105, 968, 166),
    ("2024-11-05", "2026-07-28", 92, 1001, 182),
    ("2025-03-26", "2025-06-18", 112, 914, 44),
    ("2025-03-26", "2025-11-25", 108, 1006, 165),
    ("2025-03-26", "2026-07-28", 95, 1039, 182),
    ("2025-06-18", "2025-11-25", 125, 1209, 136),
    ("2025-06-18", "2026-07-28", 113, 1269, 159),
    ("2025-11-25", "2026-07-28", 142, 1570, 156),
];

/// Why a pair tried other than it was measured to try, if it did: `counts`
/// are (what, tried, index into the measured row).
fn not_as_measured(old: &Revision, new: &Revision, counts: &[(&str, usize, usize)]) -> Vec<String> {
    let Some(row) = MEASURED.iter().find(|r| r.0 == old.name && r.1 == new.name) else {
        return vec![format!(
            "{} -> {}: not a measured pair (a revision dropped in adds its rows to MEASURED)",
            old.name, new.name
        )];
    };
    let measured = [row.2, row.3, row.4];
    counts
        .iter()
        .filter(|(_, tried, i)| *tried != measured[*i])
        .map(|(what, tried, i)| {
            format!("{} -> {}: {tried} {what} tried, where {} were measured", old.name, new.name, measured[*i])
        })
        .collect()
}

/// Each type the diff calls renamed, by its NEW name, with its OLD one.
pub(crate) fn renamed_to_old(d: &Diff) -> BTreeMap<&str, &str> {
    d.changes
        .iter()
        .filter(|c| c.id == ChangeId::TypeRenamed)
        .filter_map(|c| Some((c.path.as_str(), c.old.as_deref()?)))
        .collect()
}

/// The types a diff calls renamed, both ways: a NEW name or path as OLD has
/// it (`CallToolResult.content` under its root's OLD name), and back.
pub(crate) struct Renames<'d> {
    to_old: BTreeMap<&'d str, &'d str>,
}

impl<'d> Renames<'d> {
    pub(crate) fn of(d: &'d Diff) -> Self {
        Renames { to_old: renamed_to_old(d) }
    }
    pub(crate) fn old_name(&self, new: &str) -> String {
        self.to_old.get(new).copied().unwrap_or(new).to_string()
    }
    pub(crate) fn new_name(&self, old: &str) -> String {
        self.to_old.iter().find(|(_, o)| **o == old).map_or(old, |(n, _)| *n).to_string()
    }
    pub(crate) fn old_path(&self, new_path: &str) -> String {
        let root = root_of(new_path);
        format!("{}{}", self.old_name(root), &new_path[root.len()..])
    }
    pub(crate) fn new_path(&self, old_path: &str) -> String {
        let root = root_of(old_path);
        format!("{}{}", self.new_name(root), &old_path[root.len()..])
    }
}

/// Whether a change breaks the readers or writers of `side`.
pub(crate) fn breaking(c: &Change, side: Wire) -> bool {
    c.wire == side || c.wire == Wire::Both
}

/// The member a change is about, as errors name it: the last segment of its
/// path after the type (`_meta` of `CallToolRequestParams._meta`, `AudioContent`
/// of `ContentBlock|AudioContent`); `None` for a change of the type itself.
pub(crate) fn member_of(path: &str) -> Option<&str> {
    let rest = &path[root_of(path).len()..];
    let last = rest.rsplit(['.', '|', '@']).next().filter(|s| !s.is_empty())?;
    Some(last.trim_matches('"'))
}

/// The string values that select each union member, by the member's name, over
/// every union of `rev` (built once per pair, asked once per rejection).
pub(crate) fn member_tags(rev: &Revision) -> HashMap<String, Vec<String>> {
    let mut tags: HashMap<String, Vec<String>> = HashMap::new();
    let unions = rev.items.values().filter_map(|i| match &i.kind {
        ItemKind::Union(u) => Some(u),
        _ => None,
    });
    for v in unions.flat_map(|u| &u.variants) {
        let values = v.tags.iter().filter_map(|t| match &t.value {
            mcp_spec_codegen::model::LiteralValue::Str(s) => Some(s.clone()),
            _ => None,
        });
        tags.entry(v.name.clone()).or_default().extend(values);
    }
    tags
}

pub(crate) fn tags_of<'a>(tags: &'a HashMap<String, Vec<String>>, member: &str) -> &'a [String] {
    tags.get(member).map(Vec::as_slice).unwrap_or_default()
}

/// Whether a reading error names `member`: as a segment of a path it reports
/// (`params._meta`, `content[0].type`), or as the field its message is about
/// (``missing field `id` ``), never as part of a word or of the message's prose
/// (`id` in "invalid", `type` in "invalid type: ..."). An error reads
/// `path: Union: Member: path: message`: every part before the message is a
/// path or a type's name, and has no space; the message is the rest.
pub(crate) fn names_member(error: &str, member: &str) -> bool {
    let (places, message) = error_parts(error);
    places.iter().any(|p| path_has_segment(p, member)) || message.contains(&format!("field `{member}`"))
}

/// Whether a reading error went through the union `name` (a part of its own).
pub(crate) fn names_union(error: &str, name: &str) -> bool {
    error_parts(error).0.contains(&name)
}

/// An error's paths and type names, and its message.
fn error_parts(error: &str) -> (Vec<&str>, &str) {
    let mut places = Vec::new();
    let mut rest = error;
    while let Some((part, after)) = rest.split_once(": ") {
        if part.is_empty() || part.contains(' ') {
            break;
        }
        places.push(part);
        rest = after;
    }
    (places, rest)
}

/// `member` as a whole segment of a JSON path: after its start or a `.`,
/// before its end, a `.` or an index.
fn path_has_segment(path: &str, member: &str) -> bool {
    path.match_indices(member).any(|(at, _)| {
        let before = path[..at].chars().next_back();
        let after = path[at + member.len()..].chars().next();
        matches!(before, None | Some('.')) && matches!(after, None | Some('.' | '['))
    })
}

/// Whether an error quotes one of `values` (`` `audio` `` or `"audio"`).
pub(crate) fn names_a_value(error: &str, values: &[String]) -> bool {
    values.iter().any(|v| error.contains(&format!("`{v}`")) || error.contains(&format!("\"{v}\"")))
}

/// The named type a change is about: its path's first segment.
pub(crate) fn root_of(path: &str) -> &str {
    path.split(['.', '|', '@']).next().unwrap_or(path)
}

/// What one pair's wire check found.
#[derive(Default)]
struct WireTally {
    /// Types read both ways.
    types: usize,
    /// Changes whose breaking verdict was tried against values.
    breaking_checked: usize,
    /// Breaking claims shown by a rejection whose error names the change's member.
    each_shown: usize,
    /// Breaking claims no rejection naming their member shows.
    not_each: Vec<String>,
    /// Rejections tried against the changes that could explain them, and those none did.
    rejections: usize,
    unexplained: Vec<String>,
    /// Values read, of both sides' types (each one its own revision reads).
    values: usize,
    /// Types of the same name that are not one type: an inline type in one
    /// revision, and in the other a type at another place.
    name_only: Vec<String>,
    disagreements: Vec<String>,
}

/// For a claim about a union's member (`SamplingMessage.content|X`, `ServerResult|X`):
/// whether the reader's union at that path rejects a value the writer sends as
/// that member. The values: of the member's type (of its items, for an array
/// member), each one its writer's type reads, and the values at the union's
/// path inside `root_values` (the writer's values of the path's root type)
/// that the writer's union reads as the member. A writer sends its member
/// whatever its own union would read the value back as (a by-shape union may
/// read it as an earlier member); what counts is that the reader refuses it.
fn member_value_rejected(
    writer: &Revision,
    reader: &Revision,
    writer_path: &str,
    reader_path: &str,
    root_values: &[Value],
    examples: &BTreeMap<String, Vec<Value>>,
) -> bool {
    let Some((writer_union_path, member)) = writer_path.rsplit_once('|') else { return false };
    let reader_union_path = reader_path.rsplit_once('|').map_or(reader_path, |(p, _)| p);
    let (Some(w_union), Some(r_union)) = (item_at(writer, writer_union_path), item_at(reader, reader_union_path))
    else {
        return false;
    };
    let (Some(w_entry), Some(r_entry)) = (
        support::types_of(&writer.name).iter().find(|e| e.name == w_union.name),
        support::types_of(&reader.name).iter().find(|e| e.name == r_union.name),
    ) else {
        return false;
    };
    let ItemKind::Union(u) = &w_union.kind else { return false };
    let Some(variant) = u.variants.iter().find(|v| v.name == member) else { return false };
    let own = |name: &str| {
        let entry = support::types_of(&writer.name).iter().find(|e| e.name == name);
        support::values_of(writer, name, examples)
            .into_iter()
            .filter(move |v| entry.is_some_and(|e| reads(e, v).is_ok()))
    };
    let mut values: Vec<Value> = match writer.canonical(&variant.ty) {
        Type::Named(n) => own(n).collect(),
        Type::Array(t) => match writer.canonical(t) {
            Type::Named(n) => own(n).map(|v| Value::Array(vec![v])).collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    // The values at the union's place inside the root's: `content`, `content[]`, `content{}`.
    let mut inside: Vec<Value> = root_values.to_vec();
    for segment in writer_union_path.split('.').skip(1) {
        let (name, rest) = segment.find(['[', '{']).map_or((segment, ""), |i| segment.split_at(i));
        inside = inside.iter().filter_map(|v| v.get(name).cloned()).collect();
        for step in rest.as_bytes().chunks(2) {
            inside = inside
                .into_iter()
                .flat_map(|v| match (step, v) {
                    (b"[]", Value::Array(items)) => items,
                    (b"{}", Value::Object(members)) => members.into_iter().map(|(_, v)| v).collect(),
                    _ => Vec::new(),
                })
                .collect();
        }
    }
    let is_member = |v: &Value| w_entry.choose.is_some_and(|choose| choose(v.clone()).is_ok_and(|m| m == member));
    values.extend(inside.into_iter().filter(is_member));
    if values.iter().any(|v| reads(r_entry, v).is_err()) {
        return true;
    }
    // Then values near them that the member's type still reads (what its open
    // members let through: a `_meta` key the reader types).
    let Type::Named(member_type) = writer.canonical(&variant.ty) else { return false };
    let Some(member_entry) = support::types_of(&writer.name).iter().find(|e| e.name == *member_type) else {
        return false;
    };
    let names = support::declared_names(reader, &r_union.name);
    values
        .iter()
        .flat_map(|v| support::probes(v, &names))
        .any(|p| reads(member_entry, &p).is_ok() && reads(r_entry, &p).is_err())
}

pub(crate) fn reads(entry: &TypeEntry, v: &Value) -> Result<(), String> {
    (entry.read)(&v.to_string())
}

/// A value `writer` reads and `reader` rejects, among `values` and their probes.
fn shown_break(writer: &TypeEntry, reader: &TypeEntry, values: &[Value], names: &BTreeSet<String>) -> Option<Value> {
    values
        .iter()
        .flat_map(|v| support::probes(v, names))
        .find(|p| reads(writer, p).is_ok() && reads(reader, p).is_err())
}

fn wire_check(old: &Revision, new: &Revision, d: &Diff) -> WireTally {
    let mut tally = WireTally::default();
    let (old_types, new_types) = (support::types_of(&old.name), support::types_of(&new.name));
    let entry = |types: &'static [TypeEntry], name: &str| types.iter().find(|e| e.name == name);
    let renamed = Renames::of(d);
    let old_name = |new_name: &str| renamed.old_name(new_name);
    let old_path_of = |path: &str| renamed.old_path(path);
    let (old_examples, new_examples) = (support::examples_by_type(old), support::examples_by_type(new));
    let (old_tags, new_tags) = (member_tags(old), member_tags(new));
    // For each change about a union's member (`SamplingMessage.content|X`), the
    // reader's union there, by side: its name is what a reader's error names
    // when it refuses a value at that union without naming a member ("…:
    // SamplingMessageContent: invalid type: an array").
    let reader_union = |c: &Change, side: Wire| -> Option<String> {
        let (path, _) = c.path.rsplit_once('|')?;
        match side {
            Wire::OldReaders => item_at(old, &old_path_of(path)),
            _ => item_at(new, path),
        }
        .map(|i| i.name.clone())
    };
    // The types of each side the changes are about, under NEW's names.
    for item in new.items.values() {
        let (Some(new_entry), Some(old_entry)) =
            (entry(new_types, &item.name), entry(old_types, &old_name(&item.name)))
        else {
            continue;
        };
        // An inline type's name comes from its place: one revision's inline
        // `Request.params` (`RequestParams`) and another's declared
        // `RequestParams`, which sits elsewhere, only share a name. A pair is one
        // type when either sits where the other does.
        if let Some(old_item) = old.item(&old_name(&item.name)) {
            let inline = |i: &mcp_spec_codegen::model::Item| matches!(i.origin, Origin::Inline { .. });
            let at_place =
                |rev: &Revision, place: &str, name: &str| item_at(rev, place).is_some_and(|i| i.name == name);
            let old_place = old.path_of(old_item);
            let same = match (inline(old_item), inline(item)) {
                (false, false) => true,
                (true, _) => at_place(new, &renamed.new_path(&old_place), &item.name),
                (false, true) => at_place(old, &old_path_of(&new.path_of(item)), &old_item.name),
            };
            if !same {
                tally.name_only.push(format!("{} -> {} {}", old.name, new.name, item.name));
                continue;
            }
        }
        tally.types += 1;
        // The changes that touch any type this one holds, on either side.
        let mut held = support::closure(new, &item.name);
        held.extend(support::closure(old, &old_name(&item.name)));
        let touching: Vec<&Change> = d
            .changes
            .iter()
            .filter(|c| held.contains(root_of(&c.path)) || held.contains(&old_name(root_of(&c.path))))
            .collect();
        let claims_old_readers = touching.iter().any(|c| breaking(c, Wire::OldReaders));
        let claims_old_writers = touching.iter().any(|c| breaking(c, Wire::OldWriters));
        // NEW's values, each one its own revision reads, read by OLD; and back.
        let new_values: Vec<Value> = support::values_of(new, &item.name, &new_examples)
            .into_iter()
            .filter(|v| reads(new_entry, v).is_ok())
            .collect();
        let old_values: Vec<Value> = support::values_of(old, &old_name(&item.name), &old_examples)
            .into_iter()
            .filter(|v| reads(old_entry, v).is_ok())
            .collect();
        tally.values += new_values.len() + old_values.len();
        // A type with nothing to try is a sampler that failed, not a pass.
        for (values, rev, name) in [(&new_values, new, item.name.clone()), (&old_values, old, old_name(&item.name))] {
            if values.is_empty() {
                tally.disagreements.push(format!(
                    "{} -> {} {name}: no value of it that {} reads, so nothing was tried",
                    old.name, new.name, rev.name
                ));
            }
        }
        let old_rejects: Vec<(Value, String)> =
            new_values.iter().filter_map(|v| reads(old_entry, v).err().map(|e| (v.clone(), e))).collect();
        let new_rejects: Vec<(Value, String)> =
            old_values.iter().filter_map(|v| reads(new_entry, v).err().map(|e| (v.clone(), e))).collect();
        let pair = format!("{} -> {}", old.name, new.name);
        // Each rejection explained on its own: some breaking change on that side,
        // of a type this one holds, whose member (or the value selecting it) the
        // error names, or which is about a type as a whole. A rejection only a
        // change called compatible could explain is one it got wrong.
        for (side, rejects, writer_tags) in
            [(Wire::OldReaders, &old_rejects, &new_tags), (Wire::OldWriters, &new_rejects, &old_tags)]
        {
            for (v, e) in rejects.iter() {
                // A change of the member this very type is the type of (an inline
                // `CancelledNotification.params`, whose name a declared type took
                // later) is about the value as a whole, as a type's own change is.
                let of_this = |c: &Change| {
                    item_at(new, &c.path).is_some_and(|i| i.name == item.name)
                        || item_at(old, &old_path_of(&c.path)).is_some_and(|i| i.name == old_name(&item.name))
                };
                let explained = touching.iter().filter(|c| breaking(c, side)).any(|c| match member_of(&c.path) {
                    _ if of_this(c) => true,
                    None => true,
                    Some(m) => {
                        names_member(e, m)
                            || names_a_value(e, tags_of(writer_tags, m))
                            || reader_union(c, side).is_some_and(|u| names_union(e, &u))
                    }
                });
                tally.rejections += 1;
                if !explained {
                    tally.unexplained.push(format!("{pair} {} ({side:?}): {v} rejected: {e}", item.name));
                }
            }
        }
        if let (false, Some((v, e))) = (claims_old_readers, old_rejects.first()) {
            tally.disagreements.push(format!(
                "{pair} {}: no change it holds breaks old readers, yet {} rejects {v}: {e}",
                item.name, old.name
            ));
        }
        if let (false, Some((v, e))) = (claims_old_writers, new_rejects.first()) {
            tally.disagreements.push(format!(
                "{pair} {}: no change it holds breaks old writers, yet {} rejects {v}: {e}",
                item.name, new.name
            ));
        }
        // Each change of this very type that breaks a side: some value shows it,
        // a sample or a probe near one.
        let mut shown_old_readers = None;
        let mut shown_old_writers = None;
        for c in d.changes.iter().filter(|c| root_of(&c.path) == item.name && c.wire != Wire::None) {
            tally.breaking_checked += 1;
            // Each claim on its own: a rejection whose error names the change's member.
            let member = member_of(&c.path);
            let names_it = |e: &str| member.is_none_or(|m| names_member(e, m));
            // A union's member added or removed: the value is that member to its writer.
            let variant = c.path.contains('|');
            let old_path = old_path_of(&c.path);
            for (
                side,
                rejects,
                writer,
                reader,
                values,
                writer_tags,
                (writer_rev, writer_path),
                (reader_rev, reader_path),
            ) in [
                (
                    Wire::OldReaders,
                    &old_rejects,
                    new_entry,
                    old_entry,
                    &new_values,
                    &new_tags,
                    (new, c.path.as_str()),
                    (old, old_path.as_str()),
                ),
                (
                    Wire::OldWriters,
                    &new_rejects,
                    old_entry,
                    new_entry,
                    &old_values,
                    &old_tags,
                    (old, old_path.as_str()),
                    (new, c.path.as_str()),
                ),
            ] {
                if !breaking(c, side) {
                    continue;
                }
                let is_member =
                    |v: &Value| writer.choose.is_some_and(|choose| choose(v.clone()).is_ok_and(|m| Some(m) == member));
                // A member of a union inside the type (`content[]|AudioContent`): the
                // reader's error names the value that selects it (`audio`).
                let tags = member.map(|m| tags_of(writer_tags, m)).unwrap_or_default();
                let names_tag = |e: &str| names_a_value(e, tags);
                let shows = |v: &Value, e: &str| if variant { is_member(v) || names_tag(e) } else { names_it(e) };
                let by_sample = rejects.iter().any(|(v, e)| shows(v, e));
                // A union's member: a value of it that the writer sends, where the
                // union sits, which the reader's union there rejects.
                let by_member = || {
                    let examples = if writer_rev.name == new.name { &new_examples } else { &old_examples };
                    variant && member_value_rejected(writer_rev, reader_rev, writer_path, reader_path, values, examples)
                };
                let by_probe = || {
                    let reader_name = reader_path.split(['.', '|']).next().unwrap_or(reader_path);
                    let names = support::declared_names(reader_rev, reader_name);
                    values
                        .iter()
                        .flat_map(|v| support::probes(v, &names))
                        .any(|p| reads(writer, &p).is_ok() && reads(reader, &p).err().is_some_and(|e| shows(&p, &e)))
                };
                // A member now required, of the type itself: the writer never sends
                // it, and the reader refuses its own values without it, naming it;
                // so the break holds whatever else the writer's values break first
                // (`jsonrpc` behind `params._meta`).
                let by_requirement = || {
                    let field = c.path.strip_prefix(&format!("{}.", item.name)).filter(|f| !f.contains(['.', '|']));
                    let (true, Some(field)) =
                        (matches!(c.id, ChangeId::FieldAddedRequired | ChangeId::FieldMadeRequired), field)
                    else {
                        return false;
                    };
                    let reader_values = if reader_rev.name == new.name { &new_values } else { &old_values };
                    !values.iter().any(|v| v.get(field).is_some())
                        && reader_values.iter().filter_map(|v| v.as_object()).any(|v| {
                            let mut without = v.clone();
                            without.remove(field).is_some()
                                && reads(reader, &Value::Object(without)).err().is_some_and(|e| names_member(&e, field))
                        })
                };
                if by_sample || by_member() || by_requirement() || by_probe() {
                    tally.each_shown += 1;
                } else {
                    tally.not_each.push(format!("{} -> {} `{}` {} ({side:?})", old.name, new.name, c.id, c.path));
                }
            }
            if breaking(c, Wire::OldReaders) && old_rejects.is_empty() && !new_values.is_empty() {
                let shown = shown_old_readers.get_or_insert_with(|| {
                    shown_break(new_entry, old_entry, &new_values, &support::declared_names(old, &old_name(&item.name)))
                        .is_some()
                });
                if *shown {
                    continue;
                }
                tally.disagreements.push(format!(
                    "{pair} `{}` {}: called breaking for old readers, but {} reads all {} values of {} made by {}",
                    c.id,
                    c.path,
                    old.name,
                    new_values.len(),
                    item.name,
                    new.name
                ));
            }
            if breaking(c, Wire::OldWriters) && new_rejects.is_empty() && !old_values.is_empty() {
                let shown = shown_old_writers.get_or_insert_with(|| {
                    shown_break(old_entry, new_entry, &old_values, &support::declared_names(new, &item.name)).is_some()
                });
                if *shown {
                    continue;
                }
                tally.disagreements.push(format!(
                    "{pair} `{}` {}: called breaking for old writers, but {} reads all {} values of {} made by {}",
                    c.id,
                    c.path,
                    new.name,
                    old_values.len(),
                    old_name(&item.name),
                    old.name
                ));
            }
        }
    }
    tally
}

/// A rejection explains a claim about a member only when the error names that
/// member: planted mis-explanations (a member `id` inside "invalid", `type`
/// inside "invalid type: ...", a union's name inside a longer one's) do not
/// count, where a substring did; real namings do, read from the runtime's own
/// errors.
#[test]
fn a_rejection_explains_only_a_member_its_error_names() {
    use mcp_spec_types::v2026_07_28 as m;
    let error = |text: &str| mcp_spec_types::from_str::<m::ClientRequest>(text).unwrap_err().to_string();
    // Wrong type of `params.name`: the path names `name` and `params`, nothing else.
    let wrong_type = error(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":1,"_meta":{}}}"#);
    assert!(wrong_type.contains("invalid type"), "{wrong_type}");
    assert!(names_member(&wrong_type, "name") && names_member(&wrong_type, "params"), "{wrong_type}");
    for planted in ["type", "id", "valid", "nam", "ame", "line"] {
        assert!(wrong_type.contains(planted), "{planted} is in the text: {wrong_type}");
        assert!(!names_member(&wrong_type, planted), "{planted} is not named by: {wrong_type}");
    }
    // A missing member is named by the message.
    let missing = error(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#);
    assert!(names_member(&missing, "_meta") && !names_member(&missing, "meta"), "{missing}");
    // A member whose name holds dots, as a path segment.
    let dotted = "params._meta.io.modelcontextprotocol/protocolVersion: invalid type: integer `1`, expected a string";
    assert!(names_member(dotted, "io.modelcontextprotocol/protocolVersion") && !names_member(dotted, "protocol"));
    assert!(names_member("content[0].type: unknown variant `x`", "content"));
    // A union is named as a part of its own, not inside a longer name.
    assert!(names_union(&missing, "ClientRequest") && names_union(&missing, "CallToolRequest"), "{missing}");
    assert!(!names_union(&missing, "Request") && !names_union(&missing, "ToolRequest"), "{missing}");
}

#[test]
fn wire_verdicts_match_what_the_other_revisions_types_read() {
    let spec = real_spec();
    let mut report = String::new();
    let mut disagreements = Vec::new();
    let (mut each_shown, mut not_each) = (0, Vec::new());
    let (mut rejections, mut unexplained) = (0, Vec::new());
    let mut name_only = Vec::new();
    for (old, new) in pairs(&spec) {
        let d = diff(old, new);
        let tally = wire_check(old, new, &d);
        name_only.extend(tally.name_only.iter().cloned());
        each_shown += tally.each_shown;
        not_each.extend(tally.not_each.iter().cloned());
        rejections += tally.rejections;
        unexplained.extend(tally.unexplained.iter().cloned());
        report.push_str(&format!(
            "{} -> {}: {} changes, {} types read both ways with {} values, {} breaking changes tried, {} claims shown each on its own, {} not, {} disagreements\n",
            old.name,
            new.name,
            d.changes.len(),
            tally.types,
            tally.values,
            tally.breaking_checked,
            tally.each_shown,
            tally.not_each.len(),
            tally.disagreements.len()
        ));
        disagreements.extend(tally.disagreements);
        disagreements.extend(not_as_measured(old, new, &[("types", tally.types, 0), ("values", tally.values, 1)]));
    }
    eprintln!("{report}");
    eprintln!("{} types that share only a name, not tried:\n{}", name_only.len(), name_only.join("\n"));
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
    // Each breaking claim on its own: a rejection that names its member; for a
    // union's member added or removed, a value the writer sends as that member
    // which the reader's union there refuses (or an error naming the value that
    // selects it); for a member now required, the writer never sending it and
    // the reader refusing its own values without it. 662 claims on 2026-12-05
    // (a claim on both sides counts twice), every one shown.
    eprintln!("{} breaking claims not shown each on its own:\n{}", not_each.len(), not_each.join("\n"));
    assert_eq!(each_shown, 662, "breaking claims shown each on its own (the pinned inputs make 662)");
    assert!(not_each.is_empty(), "{} breaking claims not shown each on its own", not_each.len());
    // Each rejection explained on its own: by a breaking change whose member
    // its error names, or whose union it names (a union that refuses a value
    // without naming a member: "SamplingMessageContent: invalid type: an
    // array"), or by a change of the member this type is the type of. 1,570
    // rejections on 2026-12-05, every one explained.
    let lines: Vec<String> = unexplained.iter().map(|u| u.chars().take(300).collect()).collect();
    eprintln!(
        "{rejections} rejections, {} explained by no breaking change naming them:\n{}",
        lines.len(),
        lines.join("\n")
    );
    assert_eq!(rejections, 1570, "rejections tried (the pinned inputs make 1,570)");
    assert!(unexplained.is_empty(), "{} rejections explained by no change naming them", unexplained.len());
    // The pinned inputs' types that share only a name (printed): the generated
    // names of old inline `Request.params`, `Notification.params` and
    // `Request.params._meta`, which 2025-11-25 declares as types of their own
    // elsewhere.
    assert_eq!(name_only.len(), 15, "types that share only a name");
}

/// One use of an OLD item, as code compiled against NEW's module (`m`), for
/// one change: it must fail to compile exactly when the change has an api
/// verdict, and then with an error that names what the change is about.
struct Use {
    change: usize,
    what: String,
    code: String,
    /// A word the compiler's error must name, when the use is made to fail for
    /// this change alone (a struct literal naming every field but the new one).
    names: Option<String>,
}

/// The Rust type of an OLD field or member, as code against NEW's module names it:
/// the schema's types through `m::`, the crate's own (`crate::Extra`) through
/// `mcp_spec_types::`.
fn old_type_text(rev: &Revision, t: &mcp_spec_codegen::rust::RustType) -> String {
    use mcp_spec_codegen::rust::RustType;
    let path = |p: &str| {
        if let Some(rest) = p.strip_prefix("crate::") {
            format!("mcp_spec_types::{rest}")
        } else if rev.item(p).is_some() {
            format!("m::{p}")
        } else {
            p.to_string()
        }
    };
    match t {
        RustType::Path(p) => path(p),
        RustType::Generic(p, args) => {
            let args: Vec<String> = args.iter().map(|a| old_type_text(rev, a)).collect();
            format!("{}<{}>", path(p), args.join(", "))
        }
    }
}

/// The item a path leads to, when it is one (a declared or inline type).
pub(crate) fn item_at<'r>(rev: &'r Revision, path: &str) -> Option<&'r mcp_spec_codegen::model::Item> {
    use mcp_spec_codegen::model::Target;
    match rev.resolve_path(path)?.target {
        Target::Item(i) => Some(i),
        Target::Field(_, f) => match rev.canonical(&f.ty) {
            Type::Named(n) => rev.item(n),
            Type::Nullable(t) => match rev.canonical(t) {
                Type::Named(n) => rev.item(n),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// Whether a member has one Rust type, as spelt, in both revisions.
fn same_rust_type(old: &Revision, new: &Revision, new_path: &str, old_path: &str) -> bool {
    use mcp_spec_codegen::model::Target;
    use mcp_spec_codegen::rust::RustTypes;
    let field = |rev: &Revision, p: &str| match rev.resolve_path(p).map(|r| r.target) {
        Some(Target::Field(_, f)) => RustTypes::api(rev).field(f).map(|t| t.to_string()),
        _ => None,
    };
    field(old, old_path).is_some_and(|a| Some(a) == field(new, new_path))
}

/// A struct literal of `name` naming `fields` (each `todo!()`) and its extra field.
fn literal(name: &str, fields: &[String], extra: &str) -> String {
    let mut all: Vec<String> = fields.iter().map(|f| format!("{f}: todo!()")).collect();
    all.push(format!("{extra}: todo!()"));
    format!("let _ = m::{name} {{ {} }};", all.join(", "))
}

/// The uses the diff's changes speak of, one per change it can be tried on:
/// a removed type named; a removed field read, a removed fixed member's const;
/// a retyped field read as its OLD type; a new field left out of a literal
/// that names every other; a union matched without a new member, a removed
/// member matched, a changed member's value taken as its OLD type; the same for
/// enum values; a const and an alias read as their OLD types.
fn api_uses(old: &Revision, new: &Revision, d: &Diff) -> Vec<Use> {
    use mcp_spec_codegen::model::Target;
    use mcp_spec_codegen::rust::{RustTypes, member_name};
    let (ot, nt) = (RustTypes::module(old), RustTypes::module(new));
    let renamed = Renames::of(d);
    let old_path = |p: &str| renamed.old_path(p);
    // Other changes at the same path, which a use of it cannot be told apart from.
    let alone =
        |i: usize| !d.changes.iter().enumerate().any(|(j, c)| j != i && c.path == d.changes[i].path && c.api.is_some());
    let mut uses = Vec::new();
    for (i, c) in d.changes.iter().enumerate() {
        let mut push = |what: &str, code: String, names: Option<String>| {
            uses.push(Use { change: i, what: format!("`{}` {}: {what}", c.id, c.path), code, names })
        };
        let p_old = old_path(&c.path);
        match c.id {
            ChangeId::TypeRemoved | ChangeId::TypeRenamed => {
                let name =
                    if c.id == ChangeId::TypeRenamed { c.old.clone().unwrap_or_default() } else { c.path.clone() };
                if old.item(&name).is_some() {
                    push("named", format!("let _: Option<m::{name}> = None;"), None);
                }
            }
            ChangeId::ConstRemoved | ChangeId::ConstValueChanged => {
                if let Some(ItemKind::Const(l)) = old.item(&c.path).map(|i| &i.kind) {
                    let ty = match &l.value {
                        mcp_spec_codegen::model::LiteralValue::Str(_) => "&str",
                        mcp_spec_codegen::model::LiteralValue::Int(_) => "i64",
                        mcp_spec_codegen::model::LiteralValue::Float(_) => "f64",
                        mcp_spec_codegen::model::LiteralValue::Bool(_) => "bool",
                    };
                    push("read as its OLD type", format!("let _: {ty} = m::{};", c.path), None);
                }
            }
            ChangeId::AliasChanged => {
                if let Some(ItemKind::Alias(t)) = old.item(&p_old).map(|i| &i.kind) {
                    let target = old_type_text(old, &ot.of(t));
                    push("its OLD target", format!("let x: m::{} = todo!(); let _: {target} = x;", c.path), None);
                }
            }
            ChangeId::TypeKindChanged => match old.item(&p_old).map(|i| (&i.name, &i.kind)) {
                Some((name, ItemKind::Struct(s))) => {
                    let fields: Vec<String> = s.stored().map(member_name).collect();
                    push("an OLD struct literal", literal(name, &fields, &s.extra), None);
                }
                Some((name, ItemKind::Union(u))) => {
                    let arms: Vec<String> =
                        u.variants.iter().map(|v| format!("m::{name}::{}(_) => {{}}", v.name)).collect();
                    push(
                        "an OLD exhaustive match",
                        format!("let u: m::{name} = todo!(); match u {{ {} }}", arms.join(", ")),
                        None,
                    );
                }
                Some((name, ItemKind::Enum(e))) => {
                    let mut arms: Vec<String> =
                        e.values.iter().map(|v| format!("m::{name}::{} => {{}}", v.rust)).collect();
                    if e.open {
                        arms.push(format!("m::{name}::Other(_) => {{}}"));
                    }
                    push(
                        "an OLD exhaustive match",
                        format!("let e: m::{name} = todo!(); match e {{ {} }}", arms.join(", ")),
                        None,
                    );
                }
                Some((name, ItemKind::Alias(t))) => {
                    let target = old_type_text(old, &ot.of(t));
                    push("its OLD target", format!("let x: m::{name} = todo!(); let _: {target} = x;"), None);
                }
                _ => {}
            },
            ChangeId::TypeBasesChanged => {
                // The struct's own members: only when no member change of its own
                // (counted separately) could make the literal fail too.
                let own = d.changes.iter().any(|o| {
                    matches!(o.id, ChangeId::FieldAddedOptional | ChangeId::FieldAddedRequired | ChangeId::FieldRemoved)
                        && root_and_rest(&o.path).0 == c.path
                        && o.api.is_some()
                });
                if let (false, Some(mcp_spec_codegen::model::Item { name, kind: ItemKind::Struct(s), .. })) =
                    (own, item_at(old, &p_old))
                {
                    let fields: Vec<String> = s.stored().map(member_name).collect();
                    push("an OLD struct literal", literal(name, &fields, &s.extra), None);
                }
            }
            ChangeId::FieldAddedOptional | ChangeId::FieldAddedRequired => {
                // A literal naming every NEW field but the new one: it fails for the new one alone.
                if let Some(r) = new.resolve_path(&c.path)
                    && let Target::Field(owner, f) = r.target
                    && let ItemKind::Struct(s) = &owner.kind
                    && item_at(old, &old_path(root_and_rest(&c.path).0)).is_some_and(|o| o.name == owner.name)
                {
                    let fields: Vec<String> = s.stored().filter(|g| g.wire != f.wire).map(member_name).collect();
                    push("a literal without it", literal(&owner.name, &fields, &s.extra), Some(member_name(f)));
                }
            }
            ChangeId::FieldRemoved => {
                if let Some(r) = old.resolve_path(&p_old)
                    && let Target::Field(owner, f) = r.target
                    && new.item(&owner.name).is_some()
                {
                    if f.role.fixed().is_some() {
                        push("its const", format!("let _ = m::{}::{};", owner.name, member_name(f)), None);
                    } else {
                        push(
                            "read",
                            format!("let x: m::{} = todo!(); let _ = x.{};", owner.name, member_name(f)),
                            None,
                        );
                    }
                }
            }
            ChangeId::FieldMadeRequired
            | ChangeId::FieldMadeOptional
            | ChangeId::FieldTypeChanged
            | ChangeId::FieldInherited
            | ChangeId::FieldRedeclared
            | ChangeId::FixedValueChanged => {
                if let Some(r) = old.resolve_path(&p_old)
                    && let Target::Field(owner, f) = r.target
                    && new.item(&owner.name).is_some()
                    && alone(i)
                {
                    match f.role.fixed() {
                        Some(l) => {
                            let ty = match &l.value {
                                mcp_spec_codegen::model::LiteralValue::Str(_) => "&str",
                                mcp_spec_codegen::model::LiteralValue::Int(_) => "i64",
                                mcp_spec_codegen::model::LiteralValue::Float(_) => "f64",
                                mcp_spec_codegen::model::LiteralValue::Bool(_) => "bool",
                            };
                            push(
                                "its const as its OLD type",
                                format!("let _: {ty} = m::{}::{};", owner.name, member_name(f)),
                                None,
                            );
                        }
                        None if c.id == ChangeId::FieldTypeChanged && same_rust_type(old, new, &c.path, &p_old) => {
                            // One Rust type by name in both: a literal of the struct it names,
                            // with OLD's fields, is what may break.
                            match item_at(old, &p_old).map(|i| (&i.name, &i.kind)) {
                                Some((name, ItemKind::Struct(s))) if new.item(name).is_some() => {
                                    let fields: Vec<String> = s.stored().map(member_name).collect();
                                    push("a literal of the struct it holds", literal(name, &fields, &s.extra), None);
                                }
                                Some((name, ItemKind::Union(u))) if new.item(name).is_some() => {
                                    let arms: Vec<String> = u
                                        .variants
                                        .iter()
                                        .map(|v| format!("m::{name}::{}(_) => {{}}", v.name))
                                        .collect();
                                    push(
                                        "an OLD exhaustive match of the union it holds",
                                        format!("let u: m::{name} = todo!(); match u {{ {} }}", arms.join(", ")),
                                        None,
                                    );
                                }
                                _ => {}
                            }
                        }
                        None => {
                            let ty = ot.field(f).map(|t| old_type_text(old, &t)).unwrap_or_default();
                            push(
                                &format!("read as {ty}"),
                                format!("let x: m::{} = todo!(); let _: {ty} = x.{};", owner.name, member_name(f)),
                                None,
                            );
                        }
                    }
                }
            }
            ChangeId::VariantAdded | ChangeId::VariantRemoved | ChangeId::VariantChanged => {
                let Some((owner, variant)) = c.path.rsplit_once('|') else { continue };
                let (Some(oi), Some(ni)) = (item_at(old, &old_path(owner)), item_at(new, owner)) else { continue };
                let (ItemKind::Union(ou), ItemKind::Union(nu)) = (&oi.kind, &ni.kind) else { continue };
                if oi.name != ni.name {
                    continue;
                }
                let name = &ni.name;
                match c.id {
                    ChangeId::VariantAdded => {
                        let arms: Vec<String> = nu
                            .variants
                            .iter()
                            .filter(|v| v.name != variant)
                            .map(|v| format!("m::{name}::{}(_) => {{}}", v.name))
                            .collect();
                        push(
                            "a match without it",
                            format!("let u: m::{name} = todo!(); match u {{ {} }}", arms.join(", ")),
                            Some(variant.to_string()),
                        );
                    }
                    ChangeId::VariantRemoved => {
                        push(
                            "matched",
                            format!("let u: m::{name} = todo!(); if let m::{name}::{variant}(_) = u {{}}"),
                            None,
                        );
                    }
                    _ => {
                        if let Some(v) = ou.variants.iter().find(|v| v.name == variant)
                            && alone(i)
                        {
                            let ty = old_type_text(old, &ot.boxed(&v.ty, v.boxed));
                            push(
                                &format!("holds {ty}"),
                                format!(
                                    "let u: m::{name} = todo!(); if let m::{name}::{variant}(x) = u {{ let _: {ty} = x; }}"
                                ),
                                None,
                            );
                        }
                    }
                }
            }
            ChangeId::ValueAdded | ChangeId::ValueRemoved => {
                let target =
                    if c.id == ChangeId::ValueAdded { new.resolve_path(&c.path) } else { old.resolve_path(&p_old) };
                let Some(Resolved { target: Target::Value(e_item, v), .. }) = target else { continue };
                let ItemKind::Enum(_) = &e_item.kind else { continue };
                let name = &e_item.name;
                if c.id == ChangeId::ValueAdded {
                    let Some(ItemKind::Enum(ne)) = new.item(name).map(|i| &i.kind) else { continue };
                    if !old.items.values().any(|o| &o.name == name) {
                        continue;
                    }
                    let mut arms: Vec<String> = ne
                        .values
                        .iter()
                        .filter(|x| x.value != v.value)
                        .map(|x| format!("m::{name}::{} => {{}}", x.rust))
                        .collect();
                    if ne.open {
                        arms.push(format!("m::{name}::Other(_) => {{}}"));
                    }
                    push(
                        "a match without it",
                        format!("let e: m::{name} = todo!(); match e {{ {} }}", arms.join(", ")),
                        Some(v.rust.clone()),
                    );
                } else if new.item(name).is_some() {
                    push("matched", format!("let e: m::{name} = todo!(); if let m::{name}::{} = e {{}}", v.rust), None);
                }
            }
            ChangeId::EnumOpened | ChangeId::EnumClosed => {
                let Some(e_item) = item_at(old, &p_old) else { continue };
                let ItemKind::Enum(e) = &e_item.kind else { continue };
                let name = &e_item.name;
                let mut arms: Vec<String> = e.values.iter().map(|v| format!("m::{name}::{} => {{}}", v.rust)).collect();
                if e.open {
                    arms.push(format!("m::{name}::Other(_) => {{}}"));
                }
                if alone(i) {
                    push(
                        "an OLD exhaustive match",
                        format!("let e: m::{name} = todo!(); match e {{ {} }}", arms.join(", ")),
                        None,
                    );
                }
            }
            _ => {}
        }
    }
    let _ = nt;
    uses
}

/// Whether `text` has `word` as a whole word (`::AudioContent(_)`, `` `meta` ``).
fn names_word(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(ident) && !text[i + word.len()..].chars().next().is_some_and(ident)
    })
}

/// A path's owner and its last member, split at the last `.`.
fn root_and_rest(path: &str) -> (&str, &str) {
    path.rsplit_once('.').unwrap_or((path, ""))
}

#[test]
fn api_verdicts_match_what_compiles() {
    let spec = real_spec();
    // One crate, one module per pair, one function per use: one build for all.
    let mut code =
        String::from("#![allow(deprecated, unused, unreachable_code, irrefutable_let_patterns, clippy::all)]\n");
    // Each use: its lines, what it is, whether its change says it breaks, the word its error must name.
    let mut index: Vec<(usize, usize, String, bool, Option<String>)> = Vec::new();
    let mut line = 2;
    let mut report = String::new();
    let mut floors = Vec::new();
    for (k, (old, new)) in pairs(&spec).into_iter().enumerate() {
        let d = diff(old, new);
        let uses = api_uses(old, new, &d);
        let changes: BTreeSet<usize> = uses.iter().map(|u| u.change).collect();
        let with_api = d.changes.iter().filter(|c| c.api.is_some()).count();
        report.push_str(&format!(
            "{} -> {}: {} changes ({with_api} with an api verdict), {} tried by {} uses\n",
            old.name,
            new.name,
            d.changes.len(),
            changes.len(),
            uses.len()
        ));
        floors.extend(not_as_measured(old, new, &[("api uses", uses.len(), 2)]));
        code.push_str(&format!("mod pair{k} {{\n    use mcp_spec_types::{} as m;\n", new.module));
        line += 2;
        for (i, u) in uses.iter().enumerate() {
            let c = &d.changes[u.change];
            code.push_str(&format!("    fn u{i}() {{\n        {}\n    }}\n", u.code));
            let what = format!("{} -> {} {} (api: {})", old.name, new.name, u.what, c.api.as_deref().unwrap_or("none"));
            index.push((line, line + 2, what, c.api.is_some(), u.names.clone()));
            line += 3;
        }
        code.push_str("}\n");
        line += 1;
    }
    let errors = compile_uses(&spec, &code);
    let mut failed: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (l, message) in errors {
        match index.iter().position(|(a, b, ..)| (*a..=*b).contains(&l)) {
            Some(pos) => failed.entry(pos).or_default().push(message),
            None => panic!(
                "an error outside every use, at line {l}: {message}\n(the code is in target/downstream/api-oracle)"
            ),
        }
    }
    let mut disagreements = floors;
    for (pos, (_, _, what, breaks, names)) in index.iter().enumerate() {
        let errors = failed.get(&pos);
        // Where the use names what must be missing, only an error naming it counts.
        let failed_for_it = errors.is_some_and(|es| names.as_ref().is_none_or(|n| es.iter().any(|e| names_word(e, n))));
        match (failed_for_it, breaks) {
            (true, true) | (false, false) => {}
            (true, false) => disagreements.push(format!(
                "{what}: fails to compile ({}), but its api verdict says nothing",
                errors.map(|e| e.join("; ")).unwrap_or_default()
            )),
            (false, true) => disagreements.push(format!(
                "{what}: compiles{}",
                errors.map(|e| format!(" for this change ({})", e.join("; "))).unwrap_or_default()
            )),
        }
    }
    eprintln!("{report}{} uses, {} fail to compile", index.len(), failed.len());
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
}

/// Builds `lib_rs` as a crate depending on every revision's module; the line
/// and message of each error.
fn compile_uses(spec: &Spec, lib_rs: &str) -> Vec<(usize, String)> {
    compile_uses_in(spec, lib_rs, "api-oracle")
}

/// [`compile_uses`] in the crate folder `name` under `target/downstream`.
fn compile_uses_in(spec: &Spec, lib_rs: &str, name: &str) -> Vec<(usize, String)> {
    let root = support::workspace_root();
    let base = root.join("target/downstream");
    let dir = base.join(name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let features: Vec<String> = spec.revisions.iter().map(|r| format!("{:?}", r.module)).collect();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = {name:?}\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\nmcp-spec-types = {{ path = {:?}, default-features = false, features = [{}] }}\n\
             serde_json = \"1\"\n\n[workspace]\n",
            root.join("generated").display().to_string(),
            features.join(", ")
        ),
    )
    .unwrap();
    std::fs::write(dir.join("src/lib.rs"), lib_rs).unwrap();
    support::lock_like_root(&dir).unwrap_or_else(|e| panic!("{e}"));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["check", "--locked", "--offline", "--quiet", "--message-format", "json"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", base.join("target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let mut errors = Vec::new();
    for l in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(v) = serde_json::from_str::<Value>(l) else { continue };
        if v["reason"] != "compiler-message" || v["message"]["level"] != "error" {
            continue;
        }
        let message = v["message"]["message"].as_str().unwrap_or("").to_string();
        let spans = v["message"]["spans"].as_array().cloned().unwrap_or_default();
        match spans.iter().find(|s| s["is_primary"] == true).and_then(|s| s["line_start"].as_u64()) {
            Some(l) => errors.push((l as usize, message)),
            None if message.starts_with("aborting") || message.contains("could not compile") => {}
            None => errors.push((0, message)),
        }
    }
    errors
}

/// OLD's whole face of one type, as code compiled against NEW's module: what a
/// user of OLD wrote, whatever the diff says about it.
struct Face {
    ty: String,
    what: &'static str,
    code: String,
}

/// The completeness pass's uses, independent of the diff's list: for every type
/// OLD and NEW both name that is not one Rust type in both, OLD's full struct
/// literal and its reads of every field as OLD's types, OLD's exhaustive match
/// of a union (each member taken as OLD's type) or an enum, OLD's target of an
/// alias; and for every const both name, its value as OLD's type.
fn faces(old: &Revision, new: &Revision) -> Vec<Face> {
    use mcp_spec_codegen::model::LiteralValue;
    use mcp_spec_codegen::rust::{RustTypes, member_name};
    let ot = RustTypes::module(old);
    let (old_types, new_types) = (support::types_of(&old.name), support::types_of(&new.name));
    let entry = |types: &'static [TypeEntry], name: &str| types.iter().find(|e| e.name == name);
    let mut out = Vec::new();
    for item in old.items.values() {
        let name = &item.name;
        let mut face = |what: &'static str, code: String| out.push(Face { ty: name.clone(), what, code });
        if let ItemKind::Const(l) = &item.kind {
            if matches!(new.item(name).map(|i| &i.kind), Some(ItemKind::Const(_))) {
                let ty = match &l.value {
                    LiteralValue::Str(_) => "&str",
                    LiteralValue::Int(_) => "i64",
                    LiteralValue::Float(_) => "f64",
                    LiteralValue::Bool(_) => "bool",
                };
                face("its const as OLD's type", format!("let _: {ty} = m::{name};"));
            }
            continue;
        }
        let (Some(o), Some(n)) = (entry(old_types, name), entry(new_types, name)) else { continue };
        if (o.type_id)() == (n.type_id)() {
            continue; // one Rust type in both: nothing of it can differ
        }
        match &item.kind {
            ItemKind::Struct(s) => {
                let fields: Vec<String> = s.stored().map(member_name).collect();
                face("OLD's struct literal", literal(name, &fields, &s.extra));
                let reads: Vec<String> = s
                    .stored()
                    .filter_map(|f| {
                        let ty = old_type_text(old, &ot.field(f)?);
                        Some(format!("let _: {ty} = x.{};", member_name(f)))
                    })
                    .collect();
                if !reads.is_empty() {
                    face("OLD's field reads", format!("let x: m::{name} = todo!(); {}", reads.join(" ")));
                }
            }
            ItemKind::Union(u) => {
                let arms: Vec<String> = u
                    .variants
                    .iter()
                    .map(|v| {
                        let ty = old_type_text(old, &ot.boxed(&v.ty, v.boxed));
                        format!("m::{name}::{}(x) => {{ let _: {ty} = x; }}", v.name)
                    })
                    .collect();
                face(
                    "OLD's exhaustive match",
                    format!("let u: m::{name} = todo!(); match u {{ {} }}", arms.join(", ")),
                );
            }
            ItemKind::Enum(e) => {
                let mut arms: Vec<String> = e.values.iter().map(|v| format!("m::{name}::{} => {{}}", v.rust)).collect();
                if e.open {
                    arms.push(format!("m::{name}::Other(_) => {{}}"));
                }
                face(
                    "OLD's exhaustive match",
                    format!("let e: m::{name} = todo!(); match e {{ {} }}", arms.join(", ")),
                );
            }
            ItemKind::Alias(t) => {
                let target = old_type_text(old, &ot.of(t));
                face("OLD's target", format!("let x: m::{name} = todo!(); let _: {target} = x;"));
            }
            ItemKind::Const(_) => {}
        }
    }
    out
}

/// What each pair's completeness pass was measured to compile (2026-12-05):
/// faces tried, and how many failed. A run must try at least nine tenths.
const FACES_MEASURED: &[(&str, &str, usize, usize)] = &[
    ("2024-11-05", "2025-03-26", 86, 12),
    ("2024-11-05", "2025-06-18", 197, 30),
    ("2024-11-05", "2025-11-25", 194, 74),
    ("2024-11-05", "2026-07-28", 171, 94),
    ("2025-03-26", "2025-06-18", 193, 25),
    ("2025-03-26", "2025-11-25", 200, 71),
    ("2025-03-26", "2026-07-28", 177, 91),
    ("2025-06-18", "2025-11-25", 220, 66),
    ("2025-06-18", "2026-07-28", 205, 90),
    ("2025-11-25", "2026-07-28", 246, 76),
];

/// Misses found: every face of OLD that fails to compile against NEW must be
/// explained by a change with an api verdict on a type it holds (its closure,
/// in either revision); a face that fails with none is a change the diff
/// missed, named here. Faces are built from the two modules alone, never from
/// the diff's list.
#[test]
fn every_api_break_a_completeness_pass_finds_is_a_change_the_diff_reports() {
    let spec = real_spec();
    let mut code =
        String::from("#![allow(deprecated, unused, unreachable_code, irrefutable_let_patterns, clippy::all)]\n");
    let mut index: Vec<(usize, usize, usize, String)> = Vec::new();
    let mut per_pair = Vec::new();
    let mut line = 2;
    for (k, (old, new)) in pairs(&spec).into_iter().enumerate() {
        let faces = faces(old, new);
        code.push_str(&format!("mod pair{k} {{\n    use mcp_spec_types::{} as m;\n", new.module));
        line += 2;
        for (i, f) in faces.iter().enumerate() {
            code.push_str(&format!("    fn f{i}() {{\n        {}\n    }}\n", f.code));
            index.push((line, line + 2, k, format!("{} {}", f.ty, f.what)));
            line += 3;
        }
        code.push_str("}\n");
        line += 1;
        per_pair.push((old, new, faces));
    }
    let errors = compile_uses_in(&spec, &code, "api-faces");
    let mut failed: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (l, message) in errors {
        match index.iter().position(|(a, b, ..)| (*a..=*b).contains(&l)) {
            Some(pos) => failed.entry(pos).or_default().push(message),
            None => panic!("an error outside every face, at line {l}: {message}"),
        }
    }
    let mut misses = Vec::new();
    let mut report = String::new();
    let mut counted = Vec::new();
    for (k, (old, new, faces)) in per_pair.iter().enumerate() {
        let d = diff(old, new);
        let renamed = renamed_to_old(&d);
        let api_roots: BTreeSet<&str> = d
            .changes
            .iter()
            .filter(|c| c.api.is_some())
            .flat_map(|c| [root_of(&c.path), renamed.get(root_of(&c.path)).copied().unwrap_or("")])
            .collect();
        let mut fails = 0;
        for (pos, (_, _, pk, what)) in index.iter().enumerate().filter(|(_, x)| x.2 == k) {
            let Some(errors) = failed.get(&pos) else { continue };
            fails += 1;
            let ty = &faces[pos - index.iter().position(|x| x.2 == *pk).unwrap()].ty;
            let mut held = support::closure(old, ty);
            held.extend(support::closure(new, ty));
            if !held.iter().any(|t| api_roots.contains(t.as_str())) {
                misses.push(format!(
                    "{} -> {}: {what} fails to compile ({}), and no change with an api verdict touches {ty}",
                    old.name,
                    new.name,
                    errors.join("; ")
                ));
            }
        }
        report.push_str(&format!("{} -> {}: {} faces, {fails} fail to compile\n", old.name, new.name, faces.len()));
        counted.push((old.name.clone(), new.name.clone(), faces.len(), fails));
    }
    eprintln!("{report}");
    assert_eq!(counted.len(), PINNED_PAIRS, "pairs");
    for (old, new, tried, fails) in &counted {
        let Some(&(_, _, m_tried, m_fails)) = FACES_MEASURED.iter().find(|m| m.0 == old && m.1 == new) else {
            misses.push(format!(
                "{old} -> {new}: not measured ({tried} faces, {fails} failing): add it to FACES_MEASURED"
            ));
            continue;
        };
        if tried * 10 < m_tried * 9 || fails * 10 < m_fails * 9 {
            misses.push(format!("{old} -> {new}: {tried} faces ({fails} failing), measured {m_tried} ({m_fails})"));
        }
    }
    assert!(misses.is_empty(), "{} misses:\n{}", misses.len(), misses.join("\n"));
}
