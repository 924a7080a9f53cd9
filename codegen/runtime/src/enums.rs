//! String enums: the `string_enum!` macro each generated enum calls.
//!
//! `string_enum! { Name closed { Variant = "value", ... } }`, or `open`, whose
//! enum has the variant `Other(String)` for any value it does not list.

use std::fmt;

/// The error of `FromStr` for a closed enum: the value is none of its values.
///
/// ```
/// use mcp_spec_types::v2026_07_28 as m;
///
/// let error: mcp_spec_types::UnknownValue = "maybe".parse::<m::ElicitResultAction>().unwrap_err();
/// assert_eq!(error.value, "maybe");
/// assert_eq!(error.to_string(), r#"unknown ElicitResultAction value "maybe", expected one of "accept", "decline", "cancel""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownValue {
    /// The enum's name.
    pub type_name: &'static str,
    /// The value read.
    pub value: String,
    /// Every value it has.
    pub expected: &'static [&'static str],
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} value {:?}, expected one of ", self.type_name, self.value)?;
        for (i, v) in self.expected.iter().enumerate() {
            write!(f, "{}{v:?}", if i == 0 { "" } else { ", " })?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownValue {}

#[doc(hidden)]
#[macro_export]
macro_rules! __mcp_string_enum {
    ($name:ident closed { $( $variant:ident = $value:literal ),* $(,)? }) => {
        impl $name {
            /// The value as it appears on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $value, )*
                }
            }
            /// Every value of this enum, as on the wire.
            pub const VALUES: &'static [&'static str] = &[ $( $value ),* ];
        }
        impl ::std::str::FromStr for $name {
            type Err = $crate::__private::UnknownValue;
            fn from_str(value: &str) -> ::std::result::Result<Self, Self::Err> {
                match value {
                    $( $value => ::std::result::Result::Ok($name::$variant), )*
                    other => ::std::result::Result::Err($crate::__private::UnknownValue {
                        type_name: stringify!($name),
                        value: ::std::borrow::ToOwned::to_owned(other),
                        expected: $name::VALUES,
                    }),
                }
            }
        }
        $crate::__mcp_string_enum!(@common $name, |value| match value {
            $( $value => $name::$variant, )*
            other => return ::std::result::Result::Err(::serde::de::Error::unknown_variant(other, $name::VALUES)),
        });
    };
    ($name:ident open { $( $variant:ident = $value:literal ),* $(,)? }) => {
        impl $name {
            /// The value as it appears on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $value, )*
                    $name::Other(s) => s,
                }
            }
            /// Every value this enum lists (it reads any other as `Other`).
            pub const VALUES: &'static [&'static str] = &[ $( $value ),* ];
        }
        impl ::std::str::FromStr for $name {
            type Err = ::std::convert::Infallible;
            fn from_str(value: &str) -> ::std::result::Result<Self, Self::Err> {
                ::std::result::Result::Ok(match value {
                    $( $value => $name::$variant, )*
                    other => $name::Other(::std::borrow::ToOwned::to_owned(other)),
                })
            }
        }
        $crate::__mcp_string_enum!(@common $name, |value| match value {
            $( $value => $name::$variant, )*
            other => $name::Other(::std::borrow::ToOwned::to_owned(other)),
        });
    };
    (@common $name:ident, |$v:ident| $read:expr) => {
        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                struct EnumVisitor;
                impl ::serde::de::Visitor<'_> for EnumVisitor {
                    type Value = $name;
                    #[inline]
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(concat!("a ", stringify!($name), " value"))
                    }
                    fn visit_str<E: ::serde::de::Error>(self, $v: &str) -> ::std::result::Result<$name, E> {
                        ::std::result::Result::Ok($read)
                    }
                }
                deserializer.deserialize_str(EnumVisitor)
            }
        }
        impl $crate::__private::Shape for $name {
            const KINDS: u8 = $crate::__private::STRING;
        }
    };
}
