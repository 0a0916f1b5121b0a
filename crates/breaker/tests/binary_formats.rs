//! Settings and observations read back from a binary format that is not self-describing
//! (postcard, as bincode): a rate or a duration field read through "any" (a number or "5%"),
//! which such a format cannot give, and an observation's NaN read as "null or a number". A
//! service author's audit found both refused ("does not support deserialize_any") though the
//! docs promised binary formats read settings as before.
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
