//! The era bridge's cost per message under criterion (`cargo bench -p
//! mcp-spec-bench --bench bridge_criterion`): the recorded bridged sessions of
//! `tests/bench/data/bridge/` replayed through `mcp_era_bridge` in memory, each
//! against a plain line relay and a `serde_json::Value` relay, one criterion
//! group a session (throughput in messages in). Criterion prints its own
//! estimates for each; at the end this prints the ratios, from the mean time a
//! session took over every iteration criterion ran of each contender in this
//! run. Criterion measures the contenders one after another; `--bench bridge`
//! interleaves them round by round, which a busy machine disturbs less.
//!
//! Under `cargo test --benches` criterion runs each routine once: the replay is
//! still checked against what the bridge sent, and the ratios are printed, from
//! one iteration each.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};

#[path = "support/bridge_session.rs"]
mod bridge_session;
use bridge_session::{json_relay, line_relay, replay, sessions};

const LINE: &str = "line_relay";
const JSON: &str = "json_relay";
const BRIDGE: &str = "mcp_era_bridge";

/// Time and iterations run, per (session, contender).
type Totals = RefCell<BTreeMap<(String, &'static str), (Duration, u64)>>;

/// Runs `run` `iters` times, adds the time to `totals`, and gives it to criterion.
fn timed(totals: &Totals, session: &str, contender: &'static str, iters: u64, mut run: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        run();
    }
    let took = start.elapsed();
    let mut totals = totals.borrow_mut();
    let entry = totals.entry((session.to_string(), contender)).or_default();
    entry.0 += took;
    entry.1 += iters;
    took
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let totals: Totals = RefCell::default();
    let sessions = sessions();
    for s in &sessions {
        println!("{}", s.describe());
        let lines = s.lines();
        let mut group = c.benchmark_group(&s.name);
        group.throughput(Throughput::Elements(lines.len() as u64));
        group.bench_function(LINE, |b| {
            b.iter_custom(|n| timed(&totals, &s.name, LINE, n, || drop(black_box(line_relay(&lines)))))
        });
        group.bench_function(JSON, |b| {
            b.iter_custom(|n| timed(&totals, &s.name, JSON, n, || drop(black_box(json_relay(&lines)))))
        });
        group.bench_function(BRIDGE, |b| {
            b.iter_custom(|n| timed(&totals, &s.name, BRIDGE, n, || drop(black_box(replay(s)))))
        });
        group.finish();
    }
    c.final_summary();

    let totals = totals.into_inner();
    let mean = |session: &str, contender: &'static str| -> Option<f64> {
        let (took, iters) = totals.get(&(session.to_string(), contender))?;
        (*iters > 0).then(|| took.as_secs_f64() / *iters as f64)
    };
    println!("\nthe bridge against the relays, mean per message in (every iteration criterion ran):");
    for s in &sessions {
        let messages = s.inputs.len() as f64;
        // A filter given on the command line may have left a contender out.
        let (Some(line), Some(json), Some(bridge)) = (mean(&s.name, LINE), mean(&s.name, JSON), mean(&s.name, BRIDGE))
        else {
            println!("  {}: not every contender ran", s.name);
            continue;
        };
        println!(
            "  {}: bridge {:.2} us, {:.1}x the JSON relay ({:.2} us), {:.0}x the line relay ({:.3} us)",
            s.name,
            bridge * 1e6 / messages,
            bridge / json,
            json * 1e6 / messages,
            bridge / line,
            line * 1e6 / messages
        );
    }
}
