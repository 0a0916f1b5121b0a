//! A reentrant call's panic names the caller's line, not the crate's: a test binary of its own,
//! since it sets the process's panic hook.
#![cfg(all(feature = "sync", not(target_arch = "wasm32")))]

use std::panic;
use std::sync::{Arc, Mutex};

use breaker::shared::Shared;
use breaker::{Outcome, Window, WindowSettings};

/// Where `f`'s panic was raised (file and line) and its message.
fn panic_site(f: impl FnOnce()) -> (String, u32, String) {
    let seen = Arc::new(Mutex::new(None));
    let hook = panic::take_hook();
    {
        let seen = seen.clone();
        panic::set_hook(Box::new(move |info| {
            let at = info.location().unwrap();
            let message = info
                .payload()
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_default();
            *seen.lock().unwrap() = Some((at.file().to_string(), at.line(), message));
        }));
    }
    let result = panic::catch_unwind(panic::AssertUnwindSafe(f));
    panic::set_hook(hook);
    assert!(result.is_err(), "no panic");
    let site = seen.lock().unwrap().take();
    site.unwrap()
}

#[test]
fn a_reentrant_call_panics_at_the_callers_line() {
    let shared = Shared::new(Window::new(WindowSettings::default()).unwrap());
    let site = panic_site(|| {
        shared.with(|_| {
            let _ = shared.permit(); // the reentrant call
        })
    });
    // Its line, found in this file's text (whatever the formatter made of the lines above).
    let call = include_str!("shared_location.rs")
        .lines()
        .position(|l| l.ends_with("shared.permit(); // the reentrant call"))
        .unwrap() as u32
        + 1;
    let (file, line, message) = site;
    assert_eq!((file.as_str(), line), (file!(), call));
    assert!(message.starts_with("breaker::shared::Shared (permit, admit or call) called on a thread that holds its lock"), "{message}");
    for (what, reenter) in [
        (
            "with",
            (|s: &Shared<Window>| {
                s.with(|_| ());
            }) as fn(&Shared<Window>),
        ),
        ("try_with", |s| {
            let _ = s.try_with(|_| ());
        }),
        ("record, or a guard's finish or drop", |s| {
            let p = breaker::Permit::new(1, 0, 0.0, breaker::PermitKind::Normal);
            let _ = s.record(&p, Outcome::Success);
        }),
        ("poll", |s| {
            let _ = s.poll();
        }),
        ("permit_last_option", |s| {
            let _ = s.permit_last_option();
        }),
    ] {
        let (file, _, message) = panic_site(|| shared.with(|_| reenter(&shared)));
        assert_eq!(file, file!(), "{what}");
        assert!(
            message.contains(&format!("Shared ({what}) called")),
            "{message}"
        );
    }
}
