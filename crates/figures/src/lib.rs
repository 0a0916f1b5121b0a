//! The analysis figures the bench times, one list for both places they run: natively
//! (`cargo bench -p analysis --bench figures`) and in the browsers (this crate compiled to wasm
//! with the page's profile, on the bench page, by `cargo xtask bench`), so that the two can be
//! put side by side figure by figure, value and time.
//!
//! The list: for five settings of (p0, p1), the exact CUSUM run length at lines ln 1e2 .. ln 1e9
//! and five failure rates, the Brook-Evans chain at p0 and p1, the exact half-open test (SPRT)
//! at p0, the zero-drift rate and p1 and the half-open with its time limit (an approximation)
//! there; the window breaker's exact chains at 10, 16 and 18 calls and its back-to-back figure
//! at 100. Issue 8's bar: each in at most 100 ms, for lines up to ln 1e9.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use analysis_core::{cusum, sprt, window};
use breaker::trial::WaldLines;
use breaker::StatisticalSettings;

/// One figure: its name, what kind of number it is, and the computation.
pub struct Figure {
    /// What is computed, with its settings: `cusum exact   p0=0.05 p1=0.2 line=ln1e9 p=p*`.
    pub name: String,
    /// `exact` or `approximation`.
    pub kind: &'static str,
    run: Box<dyn Fn() -> f64>,
}

impl Figure {
    fn new(name: String, kind: &'static str, run: impl Fn() -> f64 + 'static) -> Self {
        Self {
            name,
            kind,
            run: Box::new(run),
        }
    }

    /// Computes the figure; its value (the run length, the chance, the rate).
    pub fn run(&self) -> f64 {
        (self.run)()
    }
}

/// The settings (p0, p1): the defaults, two small and close pairs, a large close pair, and a
/// broken rate of almost 1.
pub const SETTINGS: [(f64, f64); 5] = [
    (0.05, 0.20),
    (0.001, 0.002),
    (0.001, 0.01),
    (0.1, 0.2),
    (0.1, 1.0 - 1e-9),
];

/// The half-open time factor of the time-limited figures (the scenario's default).
pub const TIME_FACTOR: f64 = 3.0;

/// Every figure, in the order the bench prints them.
pub fn all() -> Vec<Figure> {
    let mut out = Vec::new();
    for (p0, p1) in SETTINGS {
        // The breaker's own derived numbers: weights, Wald's lines (a = 1%, b = 5%), the
        // zero-drift rate and the successes in a row that close half-open.
        let d = StatisticalSettings {
            fine_rate: p0,
            broken_rate: p1,
            trial_wrongly_opens: 0.01,
            trial_wrongly_closes: 0.05,
            ..Default::default()
        }
        .derived();
        let (w, pz) = (d.weights, d.zero_drift_rate);
        let lines = WaldLines {
            upper: d.upper,
            lower: d.lower,
        };
        let to_close = d.trials_to_close as f64;
        for e in 2..=9 {
            let line = 10f64.powi(e).ln();
            for (label, p) in [
                ("p0", p0),
                ("p*", pz),
                ("p1", p1),
                ("p0/10", p0 / 10.0),
                ("2p1", (2.0 * p1).min(0.999)),
            ] {
                out.push(Figure::new(
                    format!("cusum exact   p0={p0} p1={p1} line=ln1e{e} p={label}"),
                    "exact",
                    move || cusum::arl_exact(w, line, p).arl,
                ));
            }
            for (label, p) in [("p0", p0), ("p1", p1)] {
                out.push(Figure::new(
                    format!("cusum chain   p0={p0} p1={p1} line=ln1e{e} p={label}"),
                    "approximation",
                    move || cusum::arl_markov_chain(w, line, p).map_or(f64::NAN, |c| c.arl),
                ));
            }
        }
        for (label, p) in [("p0", p0), ("p*", pz), ("p1", p1)] {
            out.push(Figure::new(
                format!("sprt exact    p0={p0} p1={p1} a=1% b=5% p={label}"),
                "exact",
                move || sprt::exact(w, lines, p).close_probability,
            ));
        }
        for (label, p) in [("p0", p0), ("p*", pz), ("p1", p1)] {
            out.push(Figure::new(
                format!("sprt timed    p0={p0} p1={p1} a=1% b=5% factor=3 p={label}"),
                "approximation",
                move || {
                    sprt::half_open_time_limited(
                        w,
                        lines,
                        p,
                        TIME_FACTOR * to_close,
                        analysis_core::dp::MAX_CELLS,
                    )
                    .map_or(f64::NAN, |t| t.close_probability)
                },
            ));
        }
    }
    for n in [10u32, 16, 18] {
        let w = window::CountWindow::new(n, 0.5);
        out.push(Figure::new(
            format!("window trips/day exact n={n} t=50% baseline=5%"),
            "exact",
            move || {
                window::sliding_trips_per_day_exact(&w, 0.05, 10.0).map_or(f64::NAN, |t| t.0.value)
            },
        ));
        out.push(Figure::new(
            format!("window calls to open exact n={n} t=50% outage=40% from full at 5%"),
            "exact",
            move || {
                window::calls_to_trip_exact(&w, 0.4, window::Start::Full { baseline: 0.05 })
                    .map_or(f64::NAN, |t| t.calls)
            },
        ));
    }
    out.push(Figure::new(
        "window back-to-back n=100 t=50% baseline=5%".into(),
        "exact",
        move || {
            window::back_to_back_trips_per_day(&window::CountWindow::new(100, 0.5), 0.05, 10.0)
                .value
        },
    ));
    out
}

/// The bench page's handle: `new Figures()`, then `count()`, `name(i)`, `kind(i)` and `run(i)`
/// (the value), timed by the page.
#[cfg(target_arch = "wasm32")]
mod wasm {
    use wasm_bindgen::prelude::*;

    /// The list of [`super::all`].
    #[wasm_bindgen]
    pub struct Figures(Vec<super::Figure>);

    #[wasm_bindgen]
    impl Figures {
        /// Every figure.
        #[wasm_bindgen(constructor)]
        pub fn new() -> Figures {
            Figures(super::all())
        }
        /// How many figures.
        pub fn count(&self) -> usize {
            self.0.len()
        }
        /// Figure `i`'s name.
        pub fn name(&self, i: usize) -> String {
            self.0[i].name.clone()
        }
        /// Figure `i`'s kind.
        pub fn kind(&self, i: usize) -> String {
            self.0[i].kind.into()
        }
        /// Computes figure `i`.
        pub fn run(&self, i: usize) -> f64 {
            self.0[i].run()
        }
    }
}
