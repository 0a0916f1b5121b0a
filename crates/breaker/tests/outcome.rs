//! What counts (design §2): every outcome's class, the HTTP status table at each range's edges,
//! and the names read and written.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use breaker::{Class, Outcome};

#[test]
fn every_outcome_has_its_class_and_name() {
    use Outcome::*;
    let table = [
        (Success, Class::Success, "success"),
        (Timeout, Class::Failure, "timeout"),
        (Refused, Class::Failure, "refused"),
        (ServerError, Class::Failure, "server_error"),
        (Overload, Class::Failure, "overload"),
        (ServiceRateLimited, Class::Failure, "service_rate_limited"),
        (AuthRejected, Class::Failure, "auth_rejected"),
        (InputRejected, Class::Neutral, "input_rejected"),
        (UserRateLimited, Class::Neutral, "user_rate_limited"),
    ];
    assert_eq!(Outcome::ALL.to_vec(), table.map(|(o, _, _)| o).to_vec());
    for (o, class, name) in table {
        assert_eq!(o.class(), class, "{name}");
        assert_eq!(o.as_str(), name);
        assert_eq!(o.to_string(), name);
        assert_eq!(name.parse::<Outcome>(), Ok(o));
        assert_eq!(name.to_uppercase().parse::<Outcome>(), Ok(o), "case-blind");
        assert_eq!(format!("  {name}\n").parse::<Outcome>(), Ok(o), "trimmed");
    }
}

/// 1xx-3xx succeed; 401/403 are our credentials, 408 a timeout, 429 the service's limit, 503
/// overload, other 4xx the call's own input; everything else (5xx) a server error.
#[test]
fn http_statuses_at_the_edges_of_each_range() {
    use Outcome::*;
    let table = [
        (100, Success),
        (200, Success),
        (304, Success),
        (399, Success),
        (400, InputRejected),
        (401, AuthRejected),
        (402, InputRejected),
        (403, AuthRejected),
        (404, InputRejected),
        (407, InputRejected),
        (408, Timeout),
        (409, InputRejected),
        (428, InputRejected),
        (429, ServiceRateLimited),
        (430, InputRejected),
        (499, InputRejected),
        (500, ServerError),
        (502, ServerError),
        (503, Overload),
        (504, ServerError),
        (599, ServerError),
    ];
    for (status, o) in table {
        assert_eq!(Outcome::from_http_status(status), o, "{status}");
        assert_eq!(status.to_string().parse::<Outcome>(), Ok(o), "{status}");
    }
}

#[test]
fn shorthands_and_refusals() {
    assert_eq!("ok".parse::<Outcome>(), Ok(Outcome::Success));
    assert_eq!("OK".parse::<Outcome>(), Ok(Outcome::Success));
    assert_eq!("fail".parse::<Outcome>(), Ok(Outcome::ServerError));
    assert_eq!("Failure".parse::<Outcome>(), Ok(Outcome::ServerError));
    // Past u16 too: such a number was told the outcome names, success among them.
    for status in [
        "99",
        "600",
        "0",
        "65535",
        "65536",
        "+99999",
        "18446744073709551616",
    ] {
        assert_eq!(
            status.parse::<Outcome>().map_err(|e| e.to_string()),
            Err(format!(
                "HTTP status {status} is out of range: allowed 100 <= x <= 599"
            ))
        );
    }
    for name in ["+", "-5", "5.0"] {
        assert!(
            name.parse::<Outcome>()
                .unwrap_err()
                .to_string()
                .starts_with("unknown outcome"),
            "{name}"
        );
    }
    assert_eq!(
        "teapot".parse::<Outcome>().map_err(|e| e.to_string()),
        Err(
            "unknown outcome \"teapot\": allowed success, timeout, refused, server_error, \
             overload, service_rate_limited, auth_rejected, input_rejected, user_rate_limited, \
             ok, fail, or an HTTP status"
                .to_string()
        )
    );
}
