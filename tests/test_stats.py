"""mythos' interval formulas against the values statsmodels 0.15 gives (recorded when mythos
dropped that dependency): Wilson, Newcomb, the t interval and the Bradley-Terry GLM."""

from __future__ import annotations

import pytest

from mythos_cli.policies.ladder import bradley_terry
from mythos_cli.reports.stats import difference, mean_interval, wilson
from mythos_cli.stats import wilson_interval

# proportion_confint(k, n, method="wilson") at alpha 0.05 and 0.05 / 7
WILSON = [
    (0, 1, (0.0, 0.793450685623), (0.0, 0.878591996438)),
    (1, 1, (0.206549314377, 1.0), (0.121408003562, 1.0)),
    (14, 20, (0.481027181646, 0.854522755132), (0.404745014579, 0.888976440377)),
    (3, 10, (0.107791267406, 0.603221852539), (0.075395014379, 0.692541859241)),
    (0, 30, (0.0, 0.113513393174), (0.0, 0.194342982965)),
    (30, 30, (0.886486606826, 1.0), (0.805657017035, 1.0)),
    (480, 1000, (0.449170794997, 0.510982275342), (0.437796076112, 0.522491311722)),
    (1, 2, (0.094531205734, 0.905468794266), (0.057430174802, 0.942569825198)),
]
# confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff") at alpha 0.05 and 0.01
NEWCOMB = [
    ((14, 20, 3, 10), (0.025977825477, 0.646620110167), (-0.0743227507, 0.687302993361)),
    ((0, 5, 5, 5), (-1.0, -0.38554900569), (-1.0, -0.193532948347)),
    ((17, 30, 2, 13), (0.092492264499, 0.606956053324), (-0.008365135459, 0.646990733552)),
    ((300, 480, 290, 470), (-0.053526670869, 0.069442195315), (-0.072655818112, 0.08854081189)),
    ((1, 1, 0, 1), (-0.122108720682, 1.0), (-0.2289833443, 1.0)),
]


@pytest.mark.parametrize("k, n, ci, ci7", WILSON)
def test_wilson_matches_statsmodels(k, n, ci, ci7):
    assert wilson_interval(k, n) == pytest.approx(ci, abs=1e-9)
    assert wilson_interval(k, n, 0.05 / 7) == pytest.approx(ci7, abs=1e-9)
    r = wilson(k, n)
    assert (r.low, r.high) == pytest.approx(ci, abs=1e-9)
    # symmetric under complement: B vs A is exactly 1 − A vs B
    lo, hi = wilson_interval(n - k, n)
    assert (1 - hi, 1 - lo) == pytest.approx(ci, abs=1e-12)


@pytest.mark.parametrize("counts, ci, ci01", NEWCOMB)
def test_newcomb_matches_statsmodels(counts, ci, ci01):
    k1, n1, k2, n2 = counts
    d = difference(wilson(k1, n1), wilson(k2, n2))
    assert (d.low, d.high) == pytest.approx(ci, abs=1e-9)
    assert d.value == pytest.approx(k1 / n1 - k2 / n2)
    d = difference(wilson(k1, n1), wilson(k2, n2), alpha=0.01)
    assert (d.low, d.high) == pytest.approx(ci01, abs=1e-9)


def test_t_interval_matches_statsmodels():
    m = mean_interval([1, 2, 2, 3, 5, 8.5])  # DescrStatsW(x).tconfint_mean()
    assert (m.low, m.high) == pytest.approx((0.682319137381, 6.484347529286), abs=1e-9)
    assert mean_interval([4, 4, 4]).low == 4.0  # a constant sample: a zero-width interval


def test_bradley_terry_matches_the_statsmodels_glm():
    pw = {("a", "b"): (30, 40), ("b", "a"): (10, 40), ("a", "c"): (25, 40), ("c", "a"): (15, 40),
          ("b", "c"): (12, 40), ("c", "b"): (28, 40)}
    got = {r.policy: r for r in bradley_terry(["a", "b", "c"], pw)}
    # sm.GLM(y, X, family=Binomial(), var_weights=trials).fit(): params and conf_int(0.05), Elo scale
    assert (got["c"].elo, got["c"].low, got["c"].high) == pytest.approx((-73.332084, -164.749522, 18.085354), abs=1e-4)
    assert (got["b"].elo, got["b"].low, got["b"].high) == pytest.approx((-202.017144, -299.811363, -104.222925),
                                                                        abs=1e-4)
    assert got["a"].elo == 0.0 and got["a"].wins == 55 and got["a"].games == 80
    # a clean sweep keeps a finite rating (half a win and half a loss added)
    sweep = {r.policy: r for r in bradley_terry(["x", "y"], {("x", "y"): (20, 20), ("y", "x"): (0, 20)})}
    assert sweep["y"].elo == pytest.approx(-645.11354, abs=1e-3)
    assert sweep["y"].low < sweep["y"].elo < sweep["y"].high < 0


def test_a_field_interval_does_not_depend_on_the_order_of_its_matchups():
    """A group-by hands the matchups in any order: the interval must be the same for every order."""
    import itertools

    from mythos_cli.reports.stats import field_interval

    parts = [(0.5, 14, 20), (0.3, 3, 10), (0.2, 7, 9)]
    seen = {field_interval(list(p), alpha=0.01) for p in itertools.permutations(parts)}
    assert len(seen) == 1
