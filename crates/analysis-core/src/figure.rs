//! A number with what it is: exact, bound, approximation or simulated.

use serde::{Deserialize, Serialize};

/// What a [`Figure`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Computed exactly (up to a documented truncation tolerance, far below the printed digits).
    Exact,
    /// A proven inequality, its direction given where the figure is documented: Ville/Lorden's
    /// on average at least `N` calls between false alarms; a window's trip chance too small for
    /// a double, at most 2.2e-308 ([`crate::window::trip_probability`]).
    Bound,
    /// A formula that neglects something (Wald's approximations ignore the overshoot).
    Approximation,
    /// Monte Carlo: carries a 95% confidence interval and the number of runs or calls behind it.
    Simulated,
}

/// A labeled number. JSON: `{"value": x, "kind": "exact"}`, plus `"ci95": [lo, hi]` and `"n"`
/// when simulated. A non-finite value (an infinite run length) serializes as `null`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// The number.
    pub value: f64,
    /// What it is.
    pub kind: Kind,
    /// The 95% confidence interval (simulated figures only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ci95: Option<(f64, f64)>,
    /// Runs or calls behind a simulated figure.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub n: Option<u64>,
}

impl Figure {
    /// An exact figure.
    pub fn exact(value: f64) -> Self {
        Self::plain(value, Kind::Exact)
    }

    /// A bound.
    pub fn bound(value: f64) -> Self {
        Self::plain(value, Kind::Bound)
    }

    /// An approximation.
    pub fn approximation(value: f64) -> Self {
        Self::plain(value, Kind::Approximation)
    }

    /// A simulated figure with its 95% confidence interval and sample size.
    pub fn simulated(value: f64, ci95: (f64, f64), n: u64) -> Self {
        Figure {
            value,
            kind: Kind::Simulated,
            ci95: Some(ci95),
            n: Some(n),
        }
    }

    fn plain(value: f64, kind: Kind) -> Self {
        Figure {
            value,
            kind,
            ci95: None,
            n: None,
        }
    }

    /// The same figure multiplied by `k` (value and interval), e.g. calls to seconds.
    pub fn scaled(&self, k: f64) -> Self {
        Figure {
            value: self.value * k,
            kind: self.kind,
            ci95: self.ci95.map(|(lo, hi)| (lo * k, hi * k)),
            n: self.n,
        }
    }

    /// Whether `x` lies inside the confidence interval (false when there is none).
    pub fn ci_contains(&self, x: f64) -> bool {
        matches!(self.ci95, Some((lo, hi)) if lo <= x && x <= hi)
    }
}

#[cfg(test)]
mod tests {
    use super::Figure;

    /// The interval is closed; a figure without one (any kind but simulated) contains nothing,
    /// not even its own value; NaN is in no interval.
    #[test]
    fn ci_contains_is_the_closed_interval_and_only_a_simulated_figure_has_one() {
        let f = Figure::simulated(1.5, (1.0, 2.0), 40);
        for (x, inside) in [
            (1.0, true),
            (1.5, true),
            (2.0, true),
            (0.999_999_999, false),
            (2.000_000_001, false),
            (f64::NAN, false),
        ] {
            assert_eq!(f.ci_contains(x), inside, "{x}");
        }
        for g in [
            Figure::exact(1.5),
            Figure::bound(1.5),
            Figure::approximation(1.5),
        ] {
            assert!(!g.ci_contains(1.5), "{g:?}");
        }
    }
}
