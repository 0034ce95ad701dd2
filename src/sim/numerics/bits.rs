//! Floats as their IEEE bits, for any serde type: `#[serde(with = "bits")]` on a field writes
//! every `f32` inside it as the integer `f32::to_bits` gives (and `f64` as `f64::to_bits`), and
//! reads them back with `from_bits`. Any text format then round-trips the value exactly, NaN
//! payloads and infinities included, and the type itself keeps its plain serde derive, the one
//! preset files read as numbers.
//!
//! The adapter wraps the serializer and the deserializer: every nested value (fields, elements,
//! map entries, variants) goes through the wrapper, so a type needs no mirror with integer
//! fields. Types that buffer their input (`#[serde(flatten)]`, untagged enums) would bypass it;
//! none of the types saved this way does.

use serde::de::{self, DeserializeSeed, Deserializer, Visitor};
use serde::ser::{self, Serialize, Serializer};
use std::fmt;

/// Writes `value` with every float as its bits (`#[serde(with = "bits")]`).
pub fn serialize<T: Serialize, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    value.serialize(Bits(serializer))
}

/// Reads a value written by `serialize`.
pub fn deserialize<'de, T: de::Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    T::deserialize(Bits(deserializer))
}

/// The wrapper: around a serializer, a deserializer, a value being written, a seed, a visitor
/// or an access, it puts the same wrapper around everything nested.
struct Bits<T>(T);

impl<T: Serialize + ?Sized> Serialize for Bits<&T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(Bits(serializer))
    }
}

/// Forwards serializer methods that carry no nested value.
macro_rules! forward_serialize {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $method(self, $($arg: $ty),*) -> Result<S::Ok, S::Error> {
            self.0.$method($($arg),*)
        })*
    };
}

impl<S: Serializer> Serializer for Bits<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Bits<S::SerializeSeq>;
    type SerializeTuple = Bits<S::SerializeTuple>;
    type SerializeTupleStruct = Bits<S::SerializeTupleStruct>;
    type SerializeTupleVariant = Bits<S::SerializeTupleVariant>;
    type SerializeMap = Bits<S::SerializeMap>;
    type SerializeStruct = Bits<S::SerializeStruct>;
    type SerializeStructVariant = Bits<S::SerializeStructVariant>;

    fn serialize_f32(self, value: f32) -> Result<S::Ok, S::Error> {
        self.0.serialize_u32(value.to_bits())
    }

    fn serialize_f64(self, value: f64) -> Result<S::Ok, S::Error> {
        self.0.serialize_u64(value.to_bits())
    }

    forward_serialize! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&Bits(value))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, &Bits(value))
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, &Bits(value))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.0.serialize_seq(len).map(Bits)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len).map(Bits)
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, len).map(Bits)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.0
            .serialize_tuple_variant(name, index, variant, len)
            .map(Bits)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(Bits)
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_struct(name, len).map(Bits)
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0
            .serialize_struct_variant(name, index, variant, len)
            .map(Bits)
    }
}

/// The compound serializers: each element, field or entry is wrapped in turn.
macro_rules! compound {
    ($trait:ident, $method:ident $(, $key:ident: $key_ty:ty)?) => {
        impl<C: ser::$trait> ser::$trait for Bits<C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn $method<T: Serialize + ?Sized>(
                &mut self,
                $($key: $key_ty,)?
                value: &T,
            ) -> Result<(), C::Error> {
                self.0.$method($($key,)? &Bits(value))
            }

            fn end(self) -> Result<C::Ok, C::Error> {
                self.0.end()
            }
        }
    };
}

compound!(SerializeSeq, serialize_element);
compound!(SerializeTuple, serialize_element);
compound!(SerializeTupleStruct, serialize_field);
compound!(SerializeTupleVariant, serialize_field);
compound!(SerializeStruct, serialize_field, key: &'static str);
compound!(SerializeStructVariant, serialize_field, key: &'static str);

impl<C: ser::SerializeMap> ser::SerializeMap for Bits<C> {
    type Ok = C::Ok;
    type Error = C::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), C::Error> {
        self.0.serialize_key(&Bits(key))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
        self.0.serialize_value(&Bits(value))
    }

    fn end(self) -> Result<C::Ok, C::Error> {
        self.0.end()
    }
}

/// Forwards deserializer methods, wrapping the visitor.
macro_rules! forward_deserialize {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method($($arg,)* Bits(visitor))
        })*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Bits<D> {
    type Error = D::Error;

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let bits = <u32 as de::Deserialize>::deserialize(self.0)?;
        visitor.visit_f32(f32::from_bits(bits))
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let bits = <u64 as de::Deserialize>::deserialize(self.0)?;
        visitor.visit_f64(f64::from_bits(bits))
    }

    forward_deserialize! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Bits<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Bits(deserializer))
    }
}

/// Forwards visitor methods that carry no nested value.
macro_rules! forward_visit {
    ($($method:ident($ty:ty);)*) => {
        $(fn $method<E: de::Error>(self, value: $ty) -> Result<V::Value, E> {
            self.0.$method(value)
        })*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Bits<V> {
    type Value = V::Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(formatter)
    }

    forward_visit! {
        visit_bool(bool);
        visit_i8(i8);
        visit_i16(i16);
        visit_i32(i32);
        visit_i64(i64);
        visit_u8(u8);
        visit_u16(u16);
        visit_u32(u32);
        visit_u64(u64);
        visit_f32(f32);
        visit_f64(f64);
        visit_char(char);
        visit_str(&str);
        visit_borrowed_str(&'de str);
        visit_string(String);
        visit_bytes(&[u8]);
        visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Bits(deserializer))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Bits(deserializer))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Bits(seq))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Bits(map))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Bits(data))
    }
}

impl<'de, A: de::SeqAccess<'de>> de::SeqAccess<'de> for Bits<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Bits(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Bits<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Bits(seed))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(Bits(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: de::EnumAccess<'de>> de::EnumAccess<'de> for Bits<A> {
    type Error = A::Error;
    type Variant = Bits<A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        self.0
            .variant_seed(Bits(seed))
            .map(|(value, variant)| (value, Bits(variant)))
    }
}

impl<'de, A: de::VariantAccess<'de>> de::VariantAccess<'de> for Bits<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Bits(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Bits(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Bits(visitor))
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum Shape {
        Circle { radius: f32 },
        Dot(f64),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Sample {
        name: String,
        x: f32,
        maybe: Option<f32>,
        list: Vec<[f32; 2]>,
        shapes: Vec<Shape>,
        count: u32,
    }

    #[derive(Debug, Serialize, Deserialize)]
    struct Saved {
        #[serde(with = "super")]
        sample: Sample,
    }

    #[test]
    fn floats_are_written_as_their_bits_and_read_back_exactly() {
        let sample = Sample {
            name: "a".into(),
            x: f32::from_bits(0x7fc0_1234),
            maybe: Some(-0.0),
            list: vec![[0.1, f32::INFINITY]],
            shapes: vec![Shape::Circle { radius: 0.3 }, Shape::Dot(1.0 / 3.0)],
            count: 7,
        };
        let text = serde_json::to_string(&Saved { sample }).unwrap();
        assert!(text.contains(&0x7fc0_1234u32.to_string()), "{text}");
        assert!(text.contains(&0.1f32.to_bits().to_string()), "{text}");
        assert!(
            text.contains(&(1.0f64 / 3.0).to_bits().to_string()),
            "{text}"
        );
        let back: Saved = serde_json::from_str(&text).unwrap();
        assert_eq!(back.sample.x.to_bits(), 0x7fc0_1234);
        assert_eq!(back.sample.maybe.unwrap().to_bits(), (-0.0f32).to_bits());
        assert_eq!(back.sample.list, vec![[0.1, f32::INFINITY]]);
        assert_eq!(
            back.sample.shapes,
            vec![Shape::Circle { radius: 0.3 }, Shape::Dot(1.0 / 3.0)]
        );
        assert_eq!((back.sample.name.as_str(), back.sample.count), ("a", 7));
    }
}
