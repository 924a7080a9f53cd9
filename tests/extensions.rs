//! Extensions: the Tasks extension's schema.ts, lowered on the core revision its
//! vendored copy equals, generated as `ext::tasks::draft`, and its messages (the
//! ones its specification text shows) read as the members they are.

use mcp_spec_codegen::model::ItemKind;
use mcp_spec_tests as support;

fn load() -> (mcp_spec_codegen::Spec, Vec<mcp_spec_codegen::extension::Extension>) {
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let (exts, _) = mcp_spec_codegen::extension::load_extensions(&support::ext_dir(), &spec)
        .unwrap_or_else(|d| panic!("{}", d.render()));
    (spec, exts)
}

#[test]
fn the_tasks_extension_lowers_on_the_core_revision_it_vendors() {
    let (_, exts) = load();
    let tasks = exts.iter().find(|e| e.name == "tasks").expect("the tasks extension");
    let draft = tasks.revisions.iter().find(|r| r.rev.name == "draft").expect("its draft");
    for item in draft.rev.items.values() {
        eprintln!(
            "{} {:?} {}",
            item.name,
            std::mem::discriminant(&item.kind),
            match &item.kind {
                ItemKind::Union(u) =>
                    format!("{:?} {:?}", u.variants.iter().map(|v| &v.name).collect::<Vec<_>>(), u.rule),
                ItemKind::Struct(s) => format!("{:?}", s.fields.iter().map(|f| (&f.wire, &f.role)).collect::<Vec<_>>()),
                _ => String::new(),
            }
        );
    }
    assert_eq!(draft.core_name, "draft");
    assert_eq!(draft.id.as_deref(), Some("io.modelcontextprotocol/tasks"));
}
