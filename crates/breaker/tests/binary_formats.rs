//! Settings and observations read back from binary formats: one that is not self-describing
//! (postcard, as bincode), where a rate or a duration field read through "any" (a number or
//! "5%"), which such a format cannot give, and an observation's NaN read as "null or a number"
//! were refused ("does not support deserialize_any", found by a service author's audit) though
//! the docs promised binary formats read settings as before; and one that is self-describing
//! but not human-readable (MessagePack, CBOR), which still reads "30%", "5s" and a nil NaN.
#![cfg(all(feature = "serde", not(target_arch = "wasm32")))]

use breaker::{Breaker, Outcome, Statistical, StatisticalSettings, Window, WindowSettings};

fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned>(v: &T) -> T {
    let bytes = postcard::to_allocvec(v).expect("written");
    postcard::from_bytes(&bytes).expect("read back")
}

#[test]
fn settings_and_observations_read_back_from_a_binary_format() {
    let s = StatisticalSettings {
        fine_rate: 0.02,
        call_timeout: 1.5,
        ..StatisticalSettings::default()
    };
    assert_eq!(round_trip(&s), s);
    let w = WindowSettings {
        failure_rate_threshold: 0.3,
        wait_duration_in_open_state: 5.0,
        ..WindowSettings::default()
    };
    assert_eq!(round_trip(&w), w);
    // An observation of a window below its minimum holds NaN (JSON writes it null).
    let b = Window::new(w).unwrap();
    let o = b.observe(0.0);
    assert!(o.level.is_nan());
    let back = round_trip(&o);
    assert!(back.level.is_nan());
    assert_eq!(back.threshold, o.threshold);
    // A statistical observation after some calls, every field a number.
    let mut st = Statistical::new(s).unwrap();
    for i in 0..5 {
        let t = f64::from(i);
        if let breaker::Decision::Admit(p) = st.permit(t) {
            st.record(&p, Outcome::Success, t + 0.1);
        }
    }
    let o = st.observe(5.0);
    assert_eq!(format!("{:?}", round_trip(&o)), format!("{o:?}"));
    assert_eq!(round_trip(&Outcome::Refused), Outcome::Refused);
}

/// A self-describing format that says it is not human-readable, as MessagePack and CBOR do:
/// `serde_json::Value` underneath, every level handed on as one of these, a nil handed to the
/// visitor as `unit` or as `none` (serde lets a format do either).
struct Binary(serde_json::Value, Nil);

#[derive(Clone, Copy, PartialEq)]
enum Nil {
    Unit,
    None,
}

impl<'de> serde::Deserializer<'de> for Binary {
    type Error = serde_json::Error;
    fn deserialize_any<V: serde::de::Visitor<'de>>(self, v: V) -> Result<V::Value, Self::Error> {
        use serde::de::value::{MapDeserializer, SeqDeserializer};
        let nil = self.1;
        match self.0 {
            serde_json::Value::Null if nil == Nil::None => v.visit_none(),
            serde_json::Value::Object(m) => v.visit_map(MapDeserializer::new(
                m.into_iter().map(|(k, x)| (k, Binary(x, nil))),
            )),
            serde_json::Value::Array(a) => {
                v.visit_seq(SeqDeserializer::new(a.into_iter().map(|x| Binary(x, nil))))
            }
            other => serde::Deserializer::deserialize_any(other, v),
        }
    }
    fn deserialize_enum<V: serde::de::Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            // A unit variant, as its name.
            serde_json::Value::String(s) => {
                v.visit_enum(serde::de::value::StringDeserializer::<serde_json::Error>::new(s))
            }
            other => Binary(other, self.1).deserialize_any(v),
        }
    }
    fn is_human_readable(&self) -> bool {
        false
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

impl<'de> serde::de::IntoDeserializer<'de, serde_json::Error> for Binary {
    type Deserializer = Binary;
    fn into_deserializer(self) -> Binary {
        self
    }
}

/// The first fix asked every format that is not human-readable for a bare f64: MessagePack's
/// "30%" and "5s" were then refused ("invalid type: string, expected f64").
#[test]
fn a_self_describing_binary_format_still_reads_units_and_null() {
    use serde::Deserialize;
    let v =
        serde_json::json!({"failure_rate_threshold": "30%", "wait_duration_in_open_state": "5s"});
    let w = WindowSettings::deserialize(Binary(v, Nil::Unit)).expect("read");
    assert_eq!(
        (w.failure_rate_threshold, w.wait_duration_in_open_state),
        (0.3, 5.0)
    );
    let v = serde_json::json!({"fine_rate": 0.02, "call_timeout": 2});
    let s = StatisticalSettings::deserialize(Binary(v, Nil::Unit)).expect("read");
    assert_eq!((s.fine_rate, s.call_timeout), (0.02, 2.0));
    // An observation's NaN, written null by JSON, reads back as NaN.
    let o = Window::new(WindowSettings::default()).unwrap().observe(0.0);
    let json = serde_json::to_value(o).unwrap();
    assert!(json["level"].is_null());
    let back = breaker::Observation::deserialize(Binary(json, Nil::Unit)).expect("read");
    assert!(back.level.is_nan());
    assert_eq!(back.threshold, o.threshold);
    // Neither a number nor nil: refused, saying what the field takes.
    let mut bad = serde_json::to_value(o).unwrap();
    bad["level"] = serde_json::json!("high");
    let e = breaker::Observation::deserialize(Binary(bad, Nil::Unit)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid type: string \"high\", expected a number or null"
    );
    // Whole numbers, as a format holds them (MessagePack writes 3.0 as the integer 3), read as
    // the numbers they are, negative ones too.
    let mut whole = serde_json::to_value(o).unwrap();
    whole["count"] = serde_json::json!(3);
    whole["level"] = serde_json::json!(-2);
    let back = breaker::Observation::deserialize(Binary(whole, Nil::Unit)).expect("read");
    assert_eq!((back.count, back.level), (3.0, -2.0));
}

/// The settings' object-only wrapper says what the format under it says about being
/// human-readable, as a `Deserializer` that hands a format on must: a type asking it (serde's
/// `IpAddr`, say, which reads text or bytes by the answer) reads as it would from the format.
#[test]
fn the_object_only_wrapper_is_as_human_readable_as_its_format() {
    use breaker::units::serde_units::ObjectOnly;
    use serde::Deserializer;
    assert!(!ObjectOnly(Binary(serde_json::json!({}), Nil::Unit)).is_human_readable());
    assert!(ObjectOnly(&mut serde_json::Deserializer::from_str("{}")).is_human_readable());
    assert!(ObjectOnly(serde_json::json!({})).is_human_readable());
}

/// A format that hands its nil to the visitor as `none`: an observation's NaN reads back too.
#[test]
fn a_nil_read_as_none_is_nan_too() {
    use serde::Deserialize;
    let o = Window::new(WindowSettings::default()).unwrap().observe(0.0);
    let json = serde_json::to_value(o).unwrap();
    assert!(json["level"].is_null());
    let back = breaker::Observation::deserialize(Binary(json, Nil::None)).expect("read");
    assert!(back.level.is_nan(), "{}", back.level);
    assert_eq!((back.threshold, back.state), (o.threshold, o.state));
}
