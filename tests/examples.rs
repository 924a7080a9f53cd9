//! Every example message of the spec reads into the type its folder names and
//! writes back equal as JSON: nothing dropped, nothing invented.

use mcp_spec_tests as support;

use serde_json::Value;

#[test]
fn every_example_round_trips() {
    let dir = support::spec_dir();
    let mut checked = 0;
    let mut failures = Vec::new();
    for revision in ["2026-07-28", "draft"] {
        let examples = dir.join("schema").join(revision).join("examples");
        let mut folders: Vec<_> = std::fs::read_dir(&examples)
            .unwrap_or_else(|e| panic!("{} must exist: {e}", examples.display()))
            .flatten()
            .map(|e| e.path())
            .collect();
        folders.sort();
        let types = support::types_of(revision);
        for folder in folders {
            let type_name = folder.file_name().unwrap().to_string_lossy().into_owned();
            let Some(entry) = types.iter().find(|t| t.name == type_name) else {
                failures.push(format!("{revision}: no generated type `{type_name}`"));
                continue;
            };
            let mut files: Vec<_> = std::fs::read_dir(&folder).unwrap().flatten().map(|e| e.path()).collect();
            files.sort();
            for file in files {
                let text = std::fs::read_to_string(&file).unwrap();
                let expected: Value = serde_json::from_str(&text).unwrap();
                match (entry.roundtrip)(&text) {
                    Ok(back) if back == expected => checked += 1,
                    Ok(back) => failures.push(format!(
                        "{}: written back differently\n  read:    {expected}\n  written: {back}",
                        file.display()
                    )),
                    Err(e) => failures.push(format!("{}: {e}", file.display())),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of the examples failed:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(checked, 258, "expected 129 examples in each of the two revisions");
}
