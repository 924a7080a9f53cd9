//! The rename rule (see the module docs of [`diff`](super)): a type present only
//! in OLD and one present only in NEW are one renamed type when their members
//! mostly match and their names are alike.

use std::collections::{BTreeMap, BTreeSet};

use super::facts::{self, FactKind, FactSet};
use super::{Cx, kind_word};
use crate::model::{Item, ItemKind, Revision};

impl Cx<'_> {
    pub(super) fn find_renames(&self) -> Vec<(String, String)> {
        let declared = |set: &FactSet| -> BTreeMap<String, String> {
            set.kinds
                .iter()
                .filter(|(_, k)| matches!(k, FactKind::Type { declared: true }))
                .map(|(key, _)| (key.trim_end_matches("@type").to_string(), set.facts[key].clone()))
                .collect()
        };
        let (olds, news) = (declared(self.old_set), declared(self.new_set));
        let mut candidates = Vec::new();
        for (o, osum) in olds.iter().filter(|(n, _)| !news.contains_key(*n)) {
            let Some(oshape) = self.old.item(o).and_then(|i| members(self.old, i)) else { continue };
            for (n, nsum) in news.iter().filter(|(n, _)| !olds.contains_key(*n)) {
                if kind_word(osum) != kind_word(nsum) {
                    continue;
                }
                let Some(nshape) = self.new.item(n).and_then(|i| members(self.new, i)) else { continue };
                // In halves: 2 for a member both have alike, 1 for one whose type differs.
                let mut halves = 0;
                let mut other_message = false;
                for (name, (summary, fixed)) in &oshape {
                    match nshape.get(name) {
                        Some((other, _)) if other == summary => halves += 2,
                        // A fixed member (`method`, `type`) that differs names another message.
                        Some((_, true)) if *fixed => other_message = true,
                        Some(_) => halves += 1,
                        None => {}
                    }
                }
                if other_message {
                    continue;
                }
                let all = oshape.keys().chain(nshape.keys()).collect::<BTreeSet<_>>().len();
                let (common_words, total_words) = name_overlap(o, n);
                if halves > 0 && halves >= all && common_words * 2 * 2 >= total_words {
                    candidates.push(((common_words, total_words), (halves, all), o.clone(), n.clone()));
                }
            }
        }
        // Best first: the closer names, then the closer shapes (fractions compared
        // by cross-multiplying), then by name.
        let frac = |(a, b): (usize, usize), (c, d): (usize, usize)| (c * b).cmp(&(a * d));
        candidates
            .sort_by(|x, y| frac(x.0, y.0).then_with(|| frac(x.1, y.1)).then_with(|| (&x.2, &x.3).cmp(&(&y.2, &y.3))));
        let (mut taken_old, mut taken_new) = (BTreeSet::new(), BTreeSet::new());
        let mut out = Vec::new();
        for (_, _, o, n) in candidates {
            if taken_old.contains(&o) || taken_new.contains(&n) {
                continue;
            }
            taken_old.insert(o.clone());
            taken_new.insert(n.clone());
            out.push((o, n));
        }
        out
    }
}

/// The members a rename is judged on: fields (own and inherited) with their
/// summaries and whether the model's role fixes them, enum values, union
/// members; `None` for kinds without members.
fn members(rev: &Revision, item: &Item) -> Option<BTreeMap<String, (String, bool)>> {
    let out: BTreeMap<String, (String, bool)> = match &item.kind {
        ItemKind::Struct(s) => s
            .fields
            .iter()
            .map(|f| (f.wire.clone(), (facts::field_summary(rev, f), f.role.fixed().is_some())))
            .collect(),
        ItemKind::Enum(e) => e.values.iter().map(|v| (v.value.clone(), (String::new(), false))).collect(),
        ItemKind::Union(u) => {
            u.variants.iter().map(|v| (v.name.clone(), (facts::type_text(rev, &v.ty), false))).collect()
        }
        ItemKind::Alias(_) | ItemKind::Const(_) => return None,
    };
    Some(out)
}

/// The words two names share, in order (the longest common subsequence of their
/// CamelCase words), and the words of both together.
fn name_overlap(a: &str, b: &str) -> (usize, usize) {
    let (a, b) = (crate::names::words(a), crate::names::words(b));
    let mut table = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in 0..a.len() {
        for j in 0..b.len() {
            table[i + 1][j + 1] = if a[i] == b[j] { table[i][j] + 1 } else { table[i][j + 1].max(table[i + 1][j]) };
        }
    }
    (table[a.len()][b.len()], a.len() + b.len())
}
