//! Serde throughput, measured side by side in one run: `cargo bench -p mcp-spec-bench`.
//! `BENCH_ROUNDS=N` sets the rounds (default 31). Prints medians, MB/s, and
//! each one's time over ours and how close it comes to the parse-only ceiling (`IgnoredAny`). The figures go
//! into BENCHMARKS.md; nothing here asserts a speed.

use std::hint::black_box;

use mcp_spec_bench::{Contender, examples, many_tools, print_table, race};
use mcp_spec_types::v2026_07_28 as ours;
use serde::de::IgnoredAny;
use serde_json::Value;

fn main() {
    let rounds: usize = std::env::var("BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(31);
    let text = many_tools(10_000);

    // Each contender must really read the data, and ours must keep every member.
    let parsed: ours::ListToolsResult = serde_json::from_str(&text).expect("ours reads it");
    let back = serde_json::to_value(&parsed).unwrap();
    assert_eq!(back, serde_json::from_str::<Value>(&text).unwrap(), "ours writes back every member");
    assert_eq!(parsed.tools.len(), 10_000);
    let theirs_a: rust_mcp_schema::mcp_2026_07_28::ListToolsResult =
        serde_json::from_str(&text).expect("rust-mcp-schema reads it");
    let theirs_b: rmcp::model::ListToolsResult = serde_json::from_str(&text).expect("rmcp reads it");
    assert_eq!((theirs_a.tools.len(), theirs_b.tools.len()), (10_000, 10_000));

    let names =
        ["IgnoredAny (parse only)", "serde_json::Value", "mcp-spec-types", "rust-mcp-schema 2.0.0", "rmcp 3.11.0"];
    let t = &text;
    let mut contenders = vec![
        Contender {
            name: names[0],
            run: Box::new(move || {
                black_box(serde_json::from_str::<IgnoredAny>(t).unwrap());
            }),
        },
        Contender { name: names[1], run: Box::new(move || drop(black_box(serde_json::from_str::<Value>(t).unwrap()))) },
        Contender {
            name: names[2],
            run: Box::new(move || drop(black_box(serde_json::from_str::<ours::ListToolsResult>(t).unwrap()))),
        },
        Contender {
            name: names[3],
            run: Box::new(move || {
                drop(black_box(serde_json::from_str::<rust_mcp_schema::mcp_2026_07_28::ListToolsResult>(t).unwrap()))
            }),
        },
        Contender {
            name: names[4],
            run: Box::new(move || drop(black_box(serde_json::from_str::<rmcp::model::ListToolsResult>(t).unwrap()))),
        },
    ];
    let times = race(&mut contenders, rounds);
    drop(contenders);
    print_table("Deserialize a ListToolsResult of 10,000 tools", text.len(), &times, names[2], Some(names[0]));

    // Serialization of what each read.
    let value: Value = serde_json::from_str(&text).unwrap();
    let ser_names = ["serde_json::Value", "mcp-spec-types", "rust-mcp-schema 2.0.0", "rmcp 3.11.0"];
    let mut writers = vec![
        Contender { name: ser_names[0], run: Box::new(|| drop(black_box(serde_json::to_string(&value).unwrap()))) },
        Contender { name: ser_names[1], run: Box::new(|| drop(black_box(serde_json::to_string(&parsed).unwrap()))) },
        Contender { name: ser_names[2], run: Box::new(|| drop(black_box(serde_json::to_string(&theirs_a).unwrap()))) },
        Contender { name: ser_names[3], run: Box::new(|| drop(black_box(serde_json::to_string(&theirs_b).unwrap()))) },
    ];
    let wtimes = race(&mut writers, rounds);
    drop(writers);
    print_table("Serialize the same result", text.len(), &wtimes, ser_names[1], None);

    // A mixed stream: every example message of 2026-07-28 and draft, each read as its own type.
    let mut stream: Vec<(&mcp_spec_types::rt::TypeEntry, String)> = Vec::new();
    // An example its own revision's schema rejects (upstream has some: `tests/examples.rs`
    // checks that upstream's schema.json rejects each too) is left out, and said.
    let mut left_out = Vec::new();
    for (rev, table) in [("2026-07-28", ours::SCHEMA_TYPES), ("draft", mcp_spec_types::draft::SCHEMA_TYPES)] {
        for (name, json) in examples(rev) {
            let entry = table.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("no type {name}"));
            match (entry.read)(&json) {
                Ok(()) => stream.push((entry, json)),
                Err(e) => left_out.push(format!("{rev} {name}: {e}")),
            }
        }
    }
    println!("\n{} example messages read; left out, as their schema rejects them: {left_out:?}", stream.len());
    // Only upstream's known broken example (a result without the `ttlMs` its revision
    // requires) may be left out: anything else is a reader that broke.
    assert!(
        left_out.iter().all(|e| e.contains("ReadResourceResultResponse") && e.contains("missing field `ttlMs`")),
        "examples that no longer read: {left_out:?}"
    );
    let bytes: usize = stream.iter().map(|(_, j)| j.len()).sum();
    let s = &stream;
    let mixed_names = ["IgnoredAny (parse only)", "serde_json::Value", "mcp-spec-types"];
    let mut mixed = vec![
        Contender {
            name: mixed_names[0],
            run: Box::new(move || {
                s.iter().for_each(|(_, j)| {
                    black_box(serde_json::from_str::<IgnoredAny>(j).unwrap());
                })
            }),
        },
        Contender {
            name: mixed_names[1],
            run: Box::new(move || {
                s.iter().for_each(|(_, j)| drop(black_box(serde_json::from_str::<Value>(j).unwrap())))
            }),
        },
        Contender {
            name: mixed_names[2],
            run: Box::new(move || s.iter().for_each(|(entry, j)| (entry.read)(j).unwrap())),
        },
    ];
    let mtimes = race(&mut mixed, rounds * 10);
    drop(mixed);
    print_table(
        &format!("Deserialize every example message ({} messages), each as its type", stream.len()),
        bytes,
        &mtimes,
        mixed_names[2],
        Some(mixed_names[0]),
    );
}
