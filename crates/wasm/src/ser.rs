//! [`JsSer`]: a small serde serializer that builds JS values, producing what
//! `serde_wasm_bindgen::Serializer::json_compatible()` produces (plain objects for structs and
//! maps, `null` for `None` and `()`, unit variants as strings, `{variant: value}` for other
//! variants, `u64`/`i64` as numbers when they are safe integers and an error otherwise).
//!
//! Why not `serde_wasm_bindgen`: every `Serialize` impl is instantiated with the serializer, and
//! its field-by-field code was inlined into each (it was the largest part of the wasm after
//! `serde_json`). Here each step is one call to a small non-generic function.

use js_sys::{Array, Object, Reflect};
use serde::ser::{self, Serialize};
use std::fmt;
use wasm_bindgen::prelude::*;

/// A serialization error (a number JS cannot hold, or a custom error of a `Serialize` impl).
#[derive(Debug)]
pub struct SerError(String);

impl fmt::Display for SerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SerError {}

impl ser::Error for SerError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        SerError(msg.to_string())
    }
}

type Res = Result<JsValue, SerError>;

/// The serializer (see the module docs).
#[derive(Clone, Copy)]
pub struct JsSer;

const MAX_SAFE: u64 = (1 << 53) - 1;

#[inline(never)]
fn uint(v: u64) -> Res {
    if v <= MAX_SAFE {
        Ok(JsValue::from_f64(v as f64))
    } else {
        Err(unsafe_number(&v))
    }
}

#[inline(never)]
fn int(v: i64) -> Res {
    if v.unsigned_abs() <= MAX_SAFE {
        Ok(JsValue::from_f64(v as f64))
    } else {
        Err(unsafe_number(&v))
    }
}

#[inline(never)]
fn unsafe_number(v: &dyn fmt::Display) -> SerError {
    SerError(format!("{v} can't be represented as a JavaScript number"))
}

#[inline(never)]
fn set(o: &Object, key: &JsValue, value: &JsValue) {
    let _ = Reflect::set(o, key, value);
}

/// `{variant: value}`.
#[inline(never)]
fn tagged(variant: &'static str, value: JsValue) -> JsValue {
    let o = Object::new();
    set(&o, &JsValue::from_str(variant), &value);
    o.into()
}

impl ser::Serializer for JsSer {
    type Ok = JsValue;
    type Error = SerError;
    type SerializeSeq = Arr;
    type SerializeTuple = Arr;
    type SerializeTupleStruct = Arr;
    type SerializeTupleVariant = Arr;
    type SerializeMap = Obj;
    type SerializeStruct = Obj;
    type SerializeStructVariant = Obj;

    fn serialize_bool(self, v: bool) -> Res {
        Ok(JsValue::from_bool(v))
    }
    fn serialize_i8(self, v: i8) -> Res {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Res {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Res {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Res {
        int(v)
    }
    fn serialize_u8(self, v: u8) -> Res {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Res {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Res {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Res {
        uint(v)
    }
    fn serialize_f32(self, v: f32) -> Res {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Res {
        Ok(JsValue::from_f64(v))
    }
    fn serialize_char(self, v: char) -> Res {
        Ok(JsValue::from_str(v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Res {
        Ok(JsValue::from_str(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Res {
        Ok(v.iter()
            .map(|b| JsValue::from_f64((*b).into()))
            .collect::<Array>()
            .into())
    }
    fn serialize_none(self) -> Res {
        Ok(JsValue::NULL)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Res {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Res {
        Ok(JsValue::NULL)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Res {
        Ok(JsValue::NULL)
    }
    fn serialize_unit_variant(self, _name: &'static str, _i: u32, variant: &'static str) -> Res {
        Ok(JsValue::from_str(variant))
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Res {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        value: &T,
    ) -> Res {
        Ok(tagged(variant, value.serialize(self)?))
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Arr, SerError> {
        Ok(Arr::new(None))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Arr, SerError> {
        Ok(Arr::new(None))
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Arr, SerError> {
        Ok(Arr::new(None))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Arr, SerError> {
        Ok(Arr::new(Some(variant)))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Obj, SerError> {
        Ok(Obj::new(None))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Obj, SerError> {
        Ok(Obj::new(None))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Obj, SerError> {
        Ok(Obj::new(Some(variant)))
    }
}

/// A JS array being filled (wrapped as `{variant: [...]}` for a tuple variant).
pub struct Arr(Array, Option<&'static str>);

impl Arr {
    #[inline(never)]
    fn new(variant: Option<&'static str>) -> Arr {
        Arr(Array::new(), variant)
    }
    #[inline(never)]
    fn push(&mut self, v: JsValue) {
        self.0.push(&v);
    }
    #[inline(never)]
    fn done(self) -> Res {
        Ok(match self.1 {
            Some(variant) => tagged(variant, self.0.into()),
            None => self.0.into(),
        })
    }
}

impl ser::SerializeSeq for Arr {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), SerError> {
        self.push(value.serialize(JsSer)?);
        Ok(())
    }
    fn end(self) -> Res {
        self.done()
    }
}

impl ser::SerializeTuple for Arr {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), SerError> {
        self.push(value.serialize(JsSer)?);
        Ok(())
    }
    fn end(self) -> Res {
        self.done()
    }
}

impl ser::SerializeTupleStruct for Arr {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), SerError> {
        self.push(value.serialize(JsSer)?);
        Ok(())
    }
    fn end(self) -> Res {
        self.done()
    }
}

impl ser::SerializeTupleVariant for Arr {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), SerError> {
        self.push(value.serialize(JsSer)?);
        Ok(())
    }
    fn end(self) -> Res {
        self.done()
    }
}

/// A JS object being filled (wrapped as `{variant: {...}}` for a struct variant); `key` is a
/// map entry's key waiting for its value.
pub struct Obj(Object, Option<&'static str>, JsValue);

impl Obj {
    #[inline(never)]
    fn new(variant: Option<&'static str>) -> Obj {
        Obj(Object::new(), variant, JsValue::UNDEFINED)
    }
    #[inline(never)]
    fn field(&mut self, key: &'static str, v: JsValue) {
        set(&self.0, &JsValue::from_str(key), &v);
    }
    #[inline(never)]
    fn entry(&mut self, v: JsValue) {
        let key = std::mem::replace(&mut self.2, JsValue::UNDEFINED);
        set(&self.0, &key, &v);
    }
    #[inline(never)]
    fn done(self) -> Res {
        Ok(match self.1 {
            Some(variant) => tagged(variant, self.0.into()),
            None => self.0.into(),
        })
    }
}

impl ser::SerializeMap for Obj {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), SerError> {
        self.2 = key.serialize(JsSer)?;
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), SerError> {
        self.entry(value.serialize(JsSer)?);
        Ok(())
    }
    fn end(self) -> Res {
        self.done()
    }
}

impl ser::SerializeStruct for Obj {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        self.field(key, value.serialize(JsSer)?);
        Ok(())
    }
    fn end(self) -> Res {
        self.done()
    }
}

impl ser::SerializeStructVariant for Obj {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        self.field(key, value.serialize(JsSer)?);
        Ok(())
    }
    fn end(self) -> Res {
        self.done()
    }
}
