//! Golden fixtures, compiled: each `tests/fixtures/<name>.rs` (generated from
//! `<name>.ts`, checked by `tests/fixtures.rs`) is a module here (build.rs lists
//! them), exercised. A binary of its own: the fixtures' code names `crate::rt`.

use std::path::Path;

/// What the generated modules call `crate::rt`, `crate::Request` and so on.
mod rt {
    pub use mcp_spec_types::rt::*;
}
pub use mcp_spec_types::{Extra, HasResponse, IndexMap, InputRequest, MethodInfo, MethodKind, Notification, Request};

// One module per fixture, found by listing `tests/fixtures` (see build.rs).
include!(concat!(env!("OUT_DIR"), "/fixture_modules.rs"));

fn fixtures_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

fn read<T: serde::de::DeserializeOwned>(json: serde_json::Value) -> T {
    serde_json::from_value(json).unwrap()
}

fn write<T: serde::Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).unwrap()
}

#[test]
fn enums_fixture_fixed_members_and_open_unions() {
    use enums::*;
    let json = serde_json::json!({
        "type": "message", "version": "1.2", "answer": 42,
        "role": "assistant", "reason": "vendor-stop", "mode": "slow", "x": [1]
    });
    let m: Message = read(json.clone());
    assert_eq!(m.role, Role::Assistant);
    assert_eq!(m.reason, Some(Reason::Other("vendor-stop".into())));
    assert_eq!(m.mode, Some(MessageMode::Slow));
    assert_eq!((Message::TYPE, Message::VERSION, Message::ANSWER), ("message", VERSION, ANSWER));
    assert_eq!(write(&m), json);
    let wrong = serde_json::json!({"type": "message", "version": "1.3", "answer": 42, "role": "user"});
    let err = serde_json::from_value::<Message>(wrong).unwrap_err().to_string();
    assert!(err.contains("`version`") && err.contains("\"1.2\""), "{err}");
    assert!(serde_json::from_value::<Role>(serde_json::json!("system")).is_err());
}

#[test]
fn inheritance_fixture_bases_omit_and_intersections() {
    use inheritance::*;
    let both: Both = read(serde_json::json!({"kind": "k", "id": 7, "createdAt": "now"}));
    assert_eq!((both.id, both.created_at.as_str()), (BaseId::Integer(7), "now"));
    let without: WithoutId = read(serde_json::json!({"label": "l", "id": "kept as unknown"}));
    assert_eq!(without.extra["id"], "kept as unknown");
    let json = serde_json::json!({"id": "a", "error": {"code": CUSTOM_ERROR, "message": "m"}});
    let response: ErrorResponse = read(json.clone());
    assert_eq!(ErrorResponseError::CODE, CUSTOM_ERROR);
    assert_eq!(write(&response), json);
    let renumbered = serde_json::json!({"id": "a", "error": {"code": -1, "message": "m"}});
    assert!(serde_json::from_value::<ErrorResponse>(renumbered).is_err());
    assert_eq!(Narrowed::KIND, "narrowed");
    let text = std::fs::read_to_string(fixtures_dir().join("inheritance.rs")).unwrap();
    let redocumented = &text[text.find("pub struct Redocumented").unwrap()..];
    let kind_docs = &redocumented[..redocumented.find("pub kind:").unwrap()];
    assert!(kind_docs.contains("A kind of its own") && !kind_docs.contains("What this is"), "{kind_docs}");
    let _: StampedBase = read(serde_json::json!({"kind": "k", "id": "i", "createdAt": "t"}));
}

#[test]
fn inline_fixture_named_from_parent_and_field() {
    use inline::*;
    let json = serde_json::json!({
        "roots": {}, "sampling": {"context": {"depth": 2}},
        "options": [{"value": "v", "title": "t"}], "servers": {"a": {"url": "u"}}
    });
    let c: Capabilities = read(json.clone());
    assert_eq!(c.sampling.as_ref().and_then(|s| s.context.as_ref()).map(|c| c.depth), Some(2));
    assert_eq!(c.options[0].title, "t");
    assert_eq!(c.servers.as_ref().map(|s| s["a"].url.as_str()), Some("u"));
    assert_eq!(write(&c), json);
    let _empty: CapabilitiesRoots = read(serde_json::json!({}));
    let p: Point = read(serde_json::json!({"x": 1, "y": 2}));
    assert_eq!((p.x, p.y), (1, 2));
}

#[test]
fn numbers_maps_fixture_integers_floats_and_maps() {
    use numbers_maps::*;
    let json = serde_json::json!({"count": 3, "ratio": 1, "whatever": null, "labels": {"b": "2", "a": "1"}});
    let p: Progress = read(json.clone());
    assert_eq!((p.count, p.ratio), (3, Some(1.0)));
    assert_eq!(write(&p), json, "a whole f64 is written as it was read");
    assert!(serde_json::from_value::<Progress>(serde_json::json!({"count": 1.5, "whatever": 0})).is_err());
    let scores: Scores = read(serde_json::json!({"x": 1}));
    assert_eq!(scores["x"], 1);
    let open: Open = read(serde_json::json!({"name": "n", "more": true}));
    assert_eq!(open.extra["more"], true);
}

#[test]
fn unions_fixture_tags_shapes_and_primitives() {
    use unions::*;
    let f: Figure = read(serde_json::json!({"shape": "square", "side": 2}));
    assert!(matches!(f, Figure::Square(ref s) if s.side == 2));
    let err = serde_json::from_value::<Figure>(serde_json::json!({"shape": "hexagon"})).unwrap_err().to_string();
    assert!(err.contains("\"circle\"") && err.contains("\"square\""), "{err}");
    let o: Outcome = read(serde_json::json!({"items": ["a"], "_meta": {}}));
    assert_eq!(o.member_name(), "Listing");
    let o: Outcome = read(serde_json::json!({"state": "waiting", "inputs": {"a": {"shape": "circle", "radius": 1}}}));
    assert_eq!(o.member_name(), "Paused");
    let o: Outcome = read(serde_json::json!({"unrelated": 1}));
    assert_eq!(o.member_name(), "Plain");
    let h: Holder = read(serde_json::json!({"token": 5, "ttl": null, "content": [{"shape": "circle", "radius": 1}]}));
    assert_eq!((h.token, h.ttl), (Token::Integer(5), None));
    assert!(matches!(h.content, HolderContent::FigureArray(ref v) if v.len() == 1));
    assert!(
        serde_json::from_value::<Holder>(serde_json::json!({"token": 5, "content": []})).is_err(),
        "ttl is required"
    );
}

#[test]
#[allow(deprecated)]
fn docs_fixture_deprecations_reach_the_types() {
    use docs::*;
    let d: Documented = read(serde_json::json!({"uri": "u", "link": "l", "style": "old"}));
    assert_eq!((d.link.as_deref(), d.style), (Some("l"), Some(DocumentedStyle::Old)));
    assert_eq!(INTERNAL_LIMIT, 10);
    let _: Other = read(serde_json::json!({"value": "v"}));
    let text = std::fs::read_to_string(fixtures_dir().join("docs.rs")).unwrap();
    for expected in [
        "since = \"2026-07-28\"",
        "SEP-1234",
        "[`Other`] and [its value](Other::value)",
        "https://modelcontextprotocol.io/specification/draft/basic",
        "\"uri\": \"https://example.com/resource\"",
    ] {
        assert!(text.contains(expected), "docs.rs lacks {expected}");
    }
}

#[test]
fn keywords_fixture_raw_identifiers_round_trip() {
    use keywords::*;
    let json = serde_json::json!({"self": "me", "type": "self", "crate": 1, "super": true, "Box": "b", "async": ["a"]});
    let k: Keywords = read(json.clone());
    assert_eq!((k.self_.as_str(), &k.r#type), ("me", &Keyword::Self_));
    assert_eq!(k.r#async.as_deref(), Some(&["a".to_string()][..]));
    assert_eq!(write(&k), json);
    let all: Vec<Keyword> = ["self", "crate", "type", "match"].iter().map(|v| read(serde_json::json!(v))).collect();
    assert_eq!(all.iter().map(Keyword::as_str).collect::<Vec<_>>(), ["self", "crate", "type", "match"]);
}

#[test]
fn recursive_fixture_boxes_what_closes_a_cycle() {
    use recursive::*;
    let json = serde_json::json!({"value": 1, "next": {"value": 2, "children": []}, "children": [{"value": 3, "children": []}]});
    let node: Node = read(json.clone());
    let next: &Node = node.next.as_deref().expect("boxed");
    assert_eq!((next.value, node.children[0].value), (2, 3));
    assert_eq!(write(&node), json);
    let ping: Ping = read(serde_json::json!({"pong": {"label": "p", "ping": {"pong": null}}}));
    assert!(ping.pong.as_ref().and_then(|p| p.ping.as_ref()).is_some_and(|p| p.pong.is_none()));
    let sum = serde_json::json!({"kind": "sum", "left": {"kind": "literal", "value": 1}, "right": {"kind": "sum", "left": {"kind": "literal", "value": 2}, "right": {"kind": "literal", "value": 3}}});
    let e: Expr = read(sum.clone());
    let Expr::Sum(s) = &e else { panic!("{e:?}") };
    assert!(matches!(*s.right, Expr::Sum(_)));
    assert_eq!(write(&e), sum);
}

#[test]
fn constructs_fixture_collisions_bounds_and_utility_types() {
    use constructs::*;
    // A taken inline name: the inline union is `…Inline`, a second taken one `…Inline2`.
    let json = serde_json::json!({"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image", "data": "AA=="}]});
    let m: UserMessage = read(json.clone());
    let UserMessageContentInline::UserMessageContentArray(blocks) = &m.content else { panic!("{m:?}") };
    assert!(matches!(&blocks[1], UserMessageContent::ImageBlock(i) if i.data == "AA=="));
    assert_eq!(write(&m), json);
    let a: AssistantMessage = read(serde_json::json!({"role": "assistant", "content": {"type": "text", "text": "ok"}}));
    assert!(matches!(a.content, AssistantMessageContentInline2::AssistantMessageContent(ref t) if t.text == "ok"));
    let _declared: AssistantMessageContentInline = read(serde_json::json!({"note": "n"}));

    // Bounded and branded primitives are the primitive, their bounds documented.
    let lease: Lease = read(serde_json::json!({"ttl": 3600000, "owner": "o-1", "ratio": 0.25}));
    let (ttl, owner, ratio): (i64, OwnerId, Option<f64>) = (lease.ttl, lease.owner.clone(), lease.ratio);
    assert_eq!((ttl, owner.as_str(), ratio), (3_600_000, "o-1", Some(0.25)));

    // Any number of inline members, each its own type.
    for n in 1..=12 {
        let key = format!("a{n}");
        let many: Many = read(serde_json::json!({ key.clone(): "v" }));
        assert_eq!(many.member_name(), format!("ManyVariant{n}"), "{key}");
    }

    // Pick, Partial, Required, Readonly, NonNullable.
    let picked: ProfileName = read(serde_json::json!({"name": "n"}));
    assert_eq!((picked.name.as_str(), picked.email), ("n", None));
    assert!(
        serde_json::from_value::<ProfileName>(serde_json::json!({"name": "n", "kind": "profile"}))
            .is_ok_and(|p| p.extra["kind"] == "profile"),
        "`Pick` leaves `kind` out: it is an unknown member"
    );
    let patch = ProfilePatch::default().with_age(3);
    assert_eq!(write(&patch), serde_json::json!({"age": 3}));
    let full = serde_json::json!({"kind": "profile", "name": "n", "email": "e", "age": 1, "locale": "fr"});
    let f: FullProfile = read(full.clone());
    assert_eq!((f.email.as_str(), f.age, f.locale.as_str()), ("e", 1, "fr"));
    // `Required` makes optional members required and keeps a default where there is one.
    let f: FullProfile = read(serde_json::json!({"kind": "profile", "name": "n", "email": "e", "age": 1}));
    assert_eq!(f.locale, "en");
    assert!(serde_json::from_value::<FullProfile>(serde_json::json!({"kind": "profile", "name": "n"})).is_err());
    let frozen: FrozenProfile = read(serde_json::json!({"kind": "profile", "name": "n"}));
    assert_eq!(frozen.email, None);
    let person: Person = read(full.clone());
    assert_eq!(write(&person), full);
    let u: Update = read(serde_json::json!({"patch": {}, "names": ["a"], "owner": "o"}));
    assert_eq!((u.names.len(), u.owner.as_str()), (1, "o"));

    // keyof, indexed access, template literals.
    let keys: Vec<ProfileKey> = ["kind", "name", "email", "age"].iter().map(|k| read(serde_json::json!(k))).collect();
    assert_eq!(keys.iter().map(ProfileKey::as_str).collect::<Vec<_>>(), ["kind", "name", "email", "age"]);
    assert!(serde_json::from_value::<ProfileKey>(serde_json::json!("phone")).is_err());
    let (_email, role): (ProfileEmail, OneRole) = (String::new(), Role::User);
    assert_eq!(role.as_str(), "user");
    let name: ToolName = "a/b".into();
    let fixed: Fixed = "fixed".into();
    assert_eq!((name.as_str(), fixed.as_str()), ("a/b", "fixed"));

    // `declare const`, `export { A as B }`, TypeScript enums.
    let hello: Hello = read(serde_json::json!({"protocol": "2099-01-01", "level": "info", "code": 6}));
    assert_eq!((hello.level, hello.code), (Level::Info, 6));
    assert_eq!(Hello::PROTOCOL, PROTOCOL);
    assert!(
        serde_json::from_value::<Hello>(serde_json::json!({"protocol": "2098", "level": "info", "code": 0})).is_err()
    );

    // `id?: never` is not a member (a peer's `id` is kept as unknown); `Record<string, never>` a map.
    let b: ByName = read(serde_json::json!({"name": "n", "none": {}, "id": 1}));
    assert_eq!((b.name.as_str(), b.none.map(|m| m.len()), &b.extra["id"]), ("n", Some(0), &serde_json::json!(1)));

    // `string & {}` beside literals: an open enum.
    let speeds: Vec<Speed> = ["fast", "warp"].iter().map(|t| read(serde_json::json!(t))).collect();
    assert_eq!(speeds, [Speed::Fast, Speed::Other("warp".into())]);

    // Values and members that are one Rust name get numbered, wire names unchanged.
    let tones: Vec<Tone> = ["calm", "Calm", "other", "loud"].iter().map(|t| read(serde_json::json!(t))).collect();
    assert_eq!(tones, [Tone::Calm, Tone::Calm2, Tone::Other2, Tone::Other("loud".into())]);
    let p: Progress = read(serde_json::json!({"progressToken": "a", "progress_token": "b"}));
    assert_eq!((p.progress_token.as_str(), p.progress_token_2.as_deref()), ("a", Some("b")));

    let text = std::fs::read_to_string(fixtures_dir().join("constructs.rs")).unwrap();
    for expected in [
        "Minimum: `0`",
        "Maximum: `1`",
        "Brand: `\"OwnerId\"`",
        "`${string}/${string}`",
        "One of: `0, 5, 6`",
        "Always: `\"profile\"`",
    ] {
        assert!(text.contains(expected), "constructs.rs lacks {expected}");
    }
}

/// `Record<K, V>` by its keys: string literals make a struct of those members
/// (each required, a near miss naming the one missing); `string`, a template
/// literal or `string & {}` among them makes a map, whatever else is listed
/// (`"name" | string`, a key upstream's draft once had).
#[test]
fn constructs_fixture_records_keyed_by_literals_are_structs_and_by_any_string_maps() {
    use constructs::*;
    let json = serde_json::json!({
        "size": {"width": 2, "height": 3},
        "hints": [{"name": "n", "other": "o"}, {}],
        "routes": {"/a": "x", "b": "y"},
        "either": {"a": true, "z": false}
    });
    let k: Keyed = read(json.clone());
    let (width, height): (i64, i64) = (k.size.width, k.size.height);
    assert_eq!((width, height), (2, 3));
    let hints = k.hints.as_ref().expect("hints");
    assert_eq!(hints[0].get("name").map(String::as_str), Some("n"));
    assert_eq!(hints[0].get("other").map(String::as_str), Some("o"), "a key beside the literal is a key too");
    assert!(hints[1].is_empty(), "no key is required");
    // A template literal's keys are not checked against its pattern: JSON's keys are strings.
    assert_eq!(k.routes.as_ref().map(|r| r.len()), Some(2));
    assert_eq!(k.either.as_ref().and_then(|e| e.get("z")), Some(&false));
    assert_eq!(write(&k), json);
    // A near miss: a literal key is a required member, named when missing.
    let e = serde_json::from_value::<Keyed>(serde_json::json!({"size": {"width": 2}})).unwrap_err();
    assert!(e.to_string().contains("missing field `height`"), "{e}");
    let e =
        serde_json::from_value::<Keyed>(serde_json::json!({"size": {"width": 1, "height": 1}, "hints": [{"name": 1}]}))
            .unwrap_err();
    assert!(e.to_string().contains("invalid type: integer `1`, expected a string"), "{e}");
}

/// An interface declared twice is one, as TypeScript merges it: the bases and
/// members of both, a member both declare once, each required one named when missing.
#[test]
fn inheritance_fixture_an_interface_declared_twice_is_merged() {
    use inheritance::*;
    let json = serde_json::json!({"kind": "k", "id": 1, "createdAt": "now", "a": "x", "shared": 2, "b": true});
    let m: Merged = read(json.clone());
    assert_eq!((m.created_at.as_str(), m.a.as_str(), m.shared, m.b), ("now", "x", 2, Some(true)));
    assert!(m.extra.is_empty(), "every member is one the merged declarations name: {:?}", m.extra);
    assert_eq!(write(&m), json);
    let e =
        serde_json::from_value::<Merged>(serde_json::json!({"kind": "k", "id": 1, "a": "x", "shared": 2})).unwrap_err();
    assert!(e.to_string().contains("missing field `createdAt`"), "the second declaration's base: {e}");
}

#[test]
fn constructs_fixture_a_struct_read_in_groups_of_slots() {
    use constructs::*;
    let text = std::fs::read_to_string(fixtures_dir().join("constructs.rs")).unwrap();
    let call = &text[text.find("crate::rt::object! {\n    Palette {").unwrap()..];
    let call = &call[..call.find("\n}\n").unwrap()];
    assert_eq!(call.matches("        [\n").count(), 2, "Palette's 16 members come in two groups:\n{call}");

    // Each member reaches its own field, in either group, written back as it came.
    let mut json = serde_json::json!({"kind": "palette", "name": "n", "count": 7, "code": -3, "depth": 4, "shade": "s", "x": true});
    for i in 1..=10 {
        json[format!("color{i}")] = serde_json::json!(format!("c{i}"));
    }
    let p: Palette = read(json.clone());
    let colors =
        [&p.color1, &p.color2, &p.color3, &p.color4, &p.color5, &p.color6, &p.color7, &p.color8, &p.color9, &p.color10];
    for (i, c) in colors.iter().enumerate() {
        assert_eq!(c.as_deref(), Some(format!("c{}", i + 1).as_str()));
    }
    assert_eq!((p.name.as_str(), p.count, p.depth, p.shade.as_deref()), ("n", 7, 4, Some("s")));
    assert_eq!(p.extra["x"], true);
    assert_eq!(write(&p), json);

    // The second group's defaulted member, integer read leniently, and its errors.
    let least: Palette = read(serde_json::json!({"kind": "palette", "name": "n", "count": 2.0, "code": -3}));
    assert_eq!((least.count, least.depth, least.color1), (2, 3, None));
    let error = |json: serde_json::Value| serde_json::from_value::<Palette>(json).unwrap_err().to_string();
    let missing = error(serde_json::json!({"kind": "palette", "name": "n", "code": -3}));
    assert!(missing.contains("missing field `count`"), "{missing}");
    let no_code = error(serde_json::json!({"kind": "palette", "name": "n", "count": 1}));
    assert!(no_code.contains("missing field `code`"), "{no_code}");
    let wrong_code = error(serde_json::json!({"kind": "palette", "name": "n", "count": 1, "code": 3}));
    assert!(wrong_code.contains("`code`") && wrong_code.contains("-3"), "{wrong_code}");
    let repeated = serde_json::from_str::<Palette>(r#"{"kind":"palette","name":"n","count":1,"count":2,"code":-3}"#)
        .unwrap_err()
        .to_string();
    assert!(repeated.contains("duplicate field `count`"), "{repeated}");
    let first_group_missing = error(serde_json::json!({"kind": "palette", "code": -3}));
    assert!(
        first_group_missing.contains("missing field `name`"),
        "members are checked in order: {first_group_missing}"
    );
}

#[test]
fn wide_fixture_the_widest_struct_reads_each_member_into_its_field() {
    use wide::*;
    let text = std::fs::read_to_string(fixtures_dir().join("wide.rs")).unwrap();
    assert_eq!(text.matches("        [\n").count(), 18, "eighteen groups of eight");
    // Each member read into its own field: the value names the member, read back
    // through the written JSON (the struct's fields are not iterable).
    let mut json = serde_json::json!({"last": "l"});
    for i in 0..143 {
        json[format!("member{i}")] = serde_json::json!(format!("v{i}"));
    }
    let widest: Widest = read(json.clone());
    assert_eq!(
        (widest.member0.as_deref(), widest.member142.as_deref(), widest.last.as_str()),
        (Some("v0"), Some("v142"), "l")
    );
    assert_eq!((widest.member7.as_deref(), widest.member8.as_deref()), (Some("v7"), Some("v8")), "a group's edge");
    assert_eq!(write(&widest), json);
    assert!(widest.extra.is_empty());
    let missing = serde_json::from_value::<Widest>(serde_json::json!({"member5": "v"})).unwrap_err().to_string();
    assert!(missing.contains("missing field `last`"), "{missing}");
    let one: Widest = read(serde_json::json!({"member130": "x", "last": "l"}));
    assert_eq!((one.member130.as_deref(), one.member129.as_deref(), one.member131.as_deref()), (Some("x"), None, None));
}

#[test]
fn unions_fixture_a_complete_candidate_is_tried_alone() {
    use unions::*;
    let r: Ranked = read(serde_json::json!({"x": "a"}));
    assert_eq!(r.member_name(), "Loose");
    let r: Ranked = read(serde_json::json!({"x": "a", "w": "b", "v": 1}));
    assert_eq!(r.member_name(), "Strict");
    // `Loose` has all it requires, `Strict` lacks `w` and `v`: only `Loose` is
    // tried, so its error is the union's, alone.
    let e = serde_json::from_value::<Ranked>(serde_json::json!({"x": 5})).unwrap_err().to_string();
    assert!(e.starts_with("Ranked: Loose: ") && !e.contains("Strict"), "{e}");
}

#[test]
fn unions_fixture_a_union_member_requires_what_its_best_member_requires() {
    use unions::*;
    // `Nest` (an alias of the union `Inner`) requires both keys through `Broad`,
    // `Solo` only `y`: the more demanding member is tried first.
    let l: Layered = read(serde_json::json!({"x": "a", "y": "b"}));
    assert_eq!(l.member_name(), "Nest");
    let Layered::Nest(inner) = &l else { unreachable!() };
    assert_eq!(inner.member_name(), "Broad");
    // Without `x`, no object member of `Inner` has all it requires; `Solo` does.
    let l: Layered = read(serde_json::json!({"y": "b"}));
    assert_eq!(l.member_name(), "Solo");
    // `q` is `Solo`'s alone: it claims the input.
    let l: Layered = read(serde_json::json!({"x": "a", "y": "b", "q": "c"}));
    assert_eq!(l.member_name(), "Solo");
}

#[test]
fn unions_fixture_an_alias_of_a_nullable_type_is_a_member_like_any_other() {
    use unions::*;
    // `MaybeBroad` is `Broad | null`: null reads it, and so does an object with
    // both keys (it requires both, `Solo` one).
    let o: Optional = read(serde_json::Value::Null);
    assert_eq!(o, Optional::MaybeBroad(None));
    let o: Optional = read(serde_json::json!({"x": "a", "y": "b"}));
    assert!(matches!(&o, Optional::MaybeBroad(Some(b)) if b.x == "a" && b.y == "b"), "{o:?}");
    let o: Optional = read(serde_json::json!({"y": "b"}));
    assert_eq!(o.member_name(), "Solo");
    // A declared `A | B | null` is an alias of a nullable union.
    let m: MaybeFigure = read(serde_json::json!({"shape": "circle", "radius": 2}));
    assert!(matches!(m, Some(MaybeFigureInline::Circle(_))), "{m:?}");
    let m: MaybeFigure = read(serde_json::Value::Null);
    assert!(m.is_none());
    let e = serde_json::from_value::<Optional>(serde_json::json!(5)).unwrap_err().to_string();
    assert!(e.contains("Optional"), "{e}");
}

#[test]
fn unions_fixture_literals_of_one_kind_are_one_member() {
    use unions::*;
    let p: Priority = read(serde_json::json!("low"));
    assert_eq!(p, Priority::PriorityVariant3(PriorityVariant3::Low));
    let p: Priority = read(serde_json::json!("high"));
    assert_eq!(p, Priority::PriorityVariant3(PriorityVariant3::High));
    let p: Priority = read(serde_json::json!(2));
    assert_eq!(p, Priority::Integer(2));
    let p: Priority = read(serde_json::json!({"shape": "circle", "radius": 1}));
    assert_eq!(p.member_name(), "Circle");
    // A string the enum does not list is no member's: the error names the union and the values.
    let e = serde_json::from_value::<Priority>(serde_json::json!("medium")).unwrap_err().to_string();
    assert!(e.starts_with("Priority: ") && e.contains("medium") && e.contains("high"), "{e}");
}

#[test]
fn unions_fixture_selectors_only_where_the_docs_tie_listed_values() {
    use unions::*;
    let r: Replies = read(serde_json::json!({"kind": "pending", "token": "t"}));
    assert_eq!(r.member_name(), "Pending");
    let r: Replies = read(serde_json::json!({"kind": "done", "text": "ok"}));
    assert_eq!(r.member_name(), "Done");
    // `stale` is linked in the docs but not a value of `ReplyKind`: no member is
    // tied to it, and as a value the type does not list it reads `Other`.
    let r: Replies = read(serde_json::json!({"kind": "stale", "was": "x"}));
    assert_eq!(r.member_name(), "Other");
    // Every member of `Either` is tied to a value: `side` does not select, the shape does.
    let e: Either = read(serde_json::json!({"side": "left", "r": "x"}));
    assert_eq!(e.member_name(), "Right");
}

/// The model's account of reading (`rule::reads`, `rule::choose`) agrees with
/// each fixture's generated code on samples and near misses of every type (as
/// `tests/unions.rs` checks for the spec's revisions): the fixtures hold the
/// unions the spec does not (ranked members, selectors, fallbacks, numbers).
#[cfg(feature = "type-table")]
#[test]
fn the_models_account_of_reading_agrees_with_each_fixture() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, table) in TYPE_TABLES {
        let path = fixtures_dir().join(format!("{name}.ts"));
        let text = std::fs::read_to_string(&path).unwrap();
        let (rev, diags) = mcp_spec_codegen::spec::read_revision(
            name.to_string(),
            mcp_spec_codegen::spec::module_name(name),
            false,
            &path,
            &text,
        );
        assert!(!diags.has_errors(), "{name}.ts: {}", diags.render());
        let agreement = mcp_spec_tests::model_agreement(&rev, table);
        // Within 10% of the last count for each fixture.
        let floor = match *name {
            "constructs" => 2_340,
            "docs" => 116,
            "enums" => 310,
            "inheritance" => 830,
            "inline" => 256,
            "keywords" => 292,
            "numbers_maps" => 326,
            "recursive" => 1_210,
            "unions" => 2_260,
            "wide" => 1_700,
            other => panic!("{other}: a fixture with no count of inputs here: add it"),
        };
        assert!(agreement.checked >= floor, "{name}: only {} inputs", agreement.checked);
        checked += agreement.checked;
        failures.extend(agreement.failures);
    }
    eprintln!("{checked} inputs over {} fixtures", TYPE_TABLES.len());
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
}
