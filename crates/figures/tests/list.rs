//! The bench's list: what `cargo xtask bench` relies on to put the native and the browsers'
//! figures side by side (names unique, each line's figures named with `line=ln1eE`, kinds the
//! two it knows), and every figure computed (a `NaN` would be a figure left out by a work cap).

use std::collections::HashSet;

#[test]
fn the_list_is_what_the_bench_reads() {
    let all = figures::all();
    // 5 settings x (8 lines x (5 exact + 2 chains) + 3 SPRT + 3 time-limited) + 3 x 2 window
    // chains + the back-to-back figure.
    assert_eq!(all.len(), 5 * (8 * 7 + 3 + 3) + 3 * 2 + 1);
    let names: HashSet<&str> = all.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names.len(),
        all.len(),
        "names must be unique: the bench matches by name"
    );
    for f in &all {
        assert!(matches!(f.kind, "exact" | "approximation"), "{}", f.name);
        assert!(
            !f.name.contains("  ms") && !f.name.ends_with(' '),
            "{}",
            f.name
        );
    }
    let by_line = |e: u32| {
        all.iter()
            .filter(|f| f.name.contains(&format!("line=ln1e{e} ")))
            .count()
    };
    for e in 2..=9 {
        assert_eq!(by_line(e), 5 * 7, "line ln 1e{e}");
    }
}

#[test]
fn every_figure_is_computed() {
    for f in figures::all() {
        let v = f.run();
        assert!(v.is_finite() && v >= 0.0, "{}: {v}", f.name);
    }
}
