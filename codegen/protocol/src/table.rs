//! A module's `SCHEMA_TYPES`: every type by its schema name, with functions that
//! read JSON text into it and write it back, for tests and tools.

use serde::Serialize;
use serde::de;
use serde_json::Value;

/// A type of a revision module, by its schema name, with a function that reads
/// JSON text into the type and writes the value back as JSON.
///
/// ```
/// // Behind the types crate's `type-table` feature.
/// let types = mcp_spec_types::schema_types("2026-07-28").unwrap();
/// let result = types.iter().find(|e| e.name == "CallToolResultResponseResult").unwrap();
/// assert!((result.read)(r#"{"resultType":"complete","content":[]}"#).is_ok());
/// let choose = result.choose.unwrap();
/// assert_eq!(choose(serde_json::json!({"content": []})), Ok("CallToolResult"));
/// ```
pub struct TypeEntry {
    /// The schema name (an inline type's generated name); an extension's union
    /// that widens a core one (`CallToolResultResponseResultWithTasks`) is
    /// listed under the core's name, which its Rust name extends.
    pub name: &'static str,
    /// Reads JSON text as the type, and only that, as [`from_str`](crate::from_str)
    /// does: an error says the JSON path where it went wrong
    /// (`result: CallToolResultResponseResult: CallToolResult: content[0]: ...`).
    pub read: fn(&str) -> Result<(), String>,
    /// Reads JSON text as the type and writes the value back.
    pub roundtrip: fn(&str) -> Result<Value, String>,
    /// For unions: reads a JSON value and says which member it chose.
    pub choose: Option<ChooseMember>,
    /// For unions: reads JSON text through serde (`serde_json::from_str`, not the
    /// union's `from_text`) and says which member it chose.
    pub choose_read: Option<ChooseRead>,
    /// For unions: reads JSON text with the union's `from_text` and says which
    /// member it chose.
    pub choose_text: Option<ChooseRead>,
    /// For types with `Default`: what the default value writes.
    pub default_json: Option<fn() -> Value>,
    /// The Rust type's identity: the same in two revisions exactly when they
    /// share the type (see the revision modules' docs).
    pub type_id: fn() -> std::any::TypeId,
}

/// Reads a JSON value as a union and names the member chosen.
///
/// ```
/// let types = mcp_spec_types::schema_types("2026-07-28").unwrap();
/// let message = types.iter().find(|e| e.name == "JSONRPCMessage").unwrap();
/// let choose: mcp_spec_types::ChooseMember = message.choose.unwrap();
/// assert_eq!(choose(serde_json::json!({"jsonrpc": "2.0", "method": "ping", "id": 1})), Ok("JSONRPCRequest"));
/// ```
pub type ChooseMember = fn(Value) -> Result<&'static str, String>;

/// Reads JSON text as a union through serde and names the member chosen.
///
/// ```
/// let types = mcp_spec_types::schema_types("2026-07-28").unwrap();
/// let message = types.iter().find(|e| e.name == "JSONRPCMessage").unwrap();
/// let choose: mcp_spec_types::ChooseRead = message.choose_read.unwrap();
/// assert_eq!(choose(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#), Ok("JSONRPCNotification"));
/// ```
pub type ChooseRead = fn(&str) -> Result<&'static str, String>;

/// Reads `json` as `T`, as [`from_str`](crate::from_str) does.
pub fn read<T: de::DeserializeOwned>(json: &str) -> Result<(), String> {
    crate::read::from_str::<T>(json).map(drop).map_err(|e| e.to_string())
}

/// Reads `json` as `T` and writes it back.
pub fn roundtrip<T: de::DeserializeOwned + Serialize>(json: &str) -> Result<Value, String> {
    let value: T = serde_json::from_str(json).map_err(|e| e.to_string())?;
    serde_json::to_value(&value).map_err(|e| e.to_string())
}

/// A module's `SCHEMA_TYPES`: `type_table![ plain A, union B, default C, ... ]`;
/// `union B as "C"` lists the Rust type `B` under the schema name `C` (an
/// extension's union that widens the core's `C`).
#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_type_table {
    ( $( $kind:ident $name:ident $(as $schema:literal)? ),* $(,)? ) => {
        &[ $( $crate::__mcp_type_table!(@entry $kind $name ($crate::__mcp_type_table!(@name $name $($schema)?))) ),* ]
    };
    (@name $name:ident) => { stringify!($name) };
    (@name $name:ident $schema:literal) => { $schema };
    (@entry plain $name:ident ($label:expr)) => {
        $crate::__private::TypeEntry {
            name: $label,
            read: $crate::__private::read::<$name>,
            roundtrip: $crate::__private::roundtrip::<$name>,
            type_id: ::std::any::TypeId::of::<$name>,
            choose: ::std::option::Option::None,
            choose_read: ::std::option::Option::None,
            choose_text: ::std::option::Option::None,
            default_json: ::std::option::Option::None,
        }
    };
    (@entry default $name:ident ($label:expr)) => {
        $crate::__private::TypeEntry {
            name: $label,
            read: $crate::__private::read::<$name>,
            roundtrip: $crate::__private::roundtrip::<$name>,
            type_id: ::std::any::TypeId::of::<$name>,
            choose: ::std::option::Option::None,
            choose_read: ::std::option::Option::None,
            choose_text: ::std::option::Option::None,
            default_json: ::std::option::Option::Some(|| ::serde_json::to_value(<$name as ::std::default::Default>::default()).unwrap_or_default()),
        }
    };
    (@entry union $name:ident ($label:expr)) => {
        $crate::__private::TypeEntry {
            name: $label,
            read: $crate::__private::read::<$name>,
            roundtrip: $crate::__private::roundtrip::<$name>,
            type_id: ::std::any::TypeId::of::<$name>,
            choose: ::std::option::Option::Some(|v| $name::from_json(v).map(|u| u.member_name())),
            choose_read: ::std::option::Option::Some(|t| {
                ::serde_json::from_str::<$name>(t).map(|u| u.member_name()).map_err(|e| e.to_string())
            }),
            choose_text: ::std::option::Option::Some(|t| $name::from_text(t).map(|u| u.member_name())),
            default_json: ::std::option::Option::None,
        }
    };
}
