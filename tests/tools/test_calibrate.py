#!/usr/bin/python3
"""tools/calibrate.py's fit in closed form: costs that already reproduce every workload's total
stay as attributed; when the workloads need a change, the fitted costs reproduce each total and
move the attributed ones as little as needed; the bounds hold."""
import os
import sys
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tools"))
import calibrate  # noqa: E402

KINDS = calibrate.KINDS


def units(**kinds):
    u = np.zeros(len(KINDS))
    for k, n in kinds.items():
        u[KINDS.index(k)] = n
    return u


class Fit(unittest.TestCase):
    def test_consistent_attribution_is_kept(self):
        attributed = {"host_command": 1000.0, "host_page": 100.0}
        totals = [(units(host_command=10, host_page=10), 11000.0), (units(host_command=10, host_page=160), 26000.0)]
        fitted = calibrate.fit(attributed, totals)
        self.assertAlmostEqual(fitted["host_command"], 1000.0, delta=1.0)
        self.assertAlmostEqual(fitted["host_page"], 100.0, delta=0.1)

    def test_the_totals_decide_where_the_attribution_cannot_serve_both(self):
        # One command and one page cost 3,000 cycles; one command and sixteen pages 6,000: the
        # closed form is 2,800 a command and 200 a page, whatever was attributed.
        attributed = {"host_command": 1500.0, "host_page": 1500.0}
        totals = [(units(host_command=100, host_page=100), 300000.0), (units(host_command=100, host_page=1600), 600000.0)]
        fitted = calibrate.fit(attributed, totals)
        for u, m in totals:
            charged = sum(fitted[k] * u[KINDS.index(k)] for k in fitted)
            self.assertAlmostEqual(charged / m, 1.0, delta=0.002)
        self.assertAlmostEqual(fitted["host_command"], 2800.0, delta=20.0)
        self.assertAlmostEqual(fitted["host_page"], 200.0, delta=2.0)

    def test_costs_stay_within_a_tenth_and_ten_times(self):
        # A total that would need the page cost at zero: it stops at a tenth of what was attributed.
        attributed = {"host_command": 1000.0, "host_page": 1000.0}
        totals = [(units(host_command=10, host_page=10), 10000.0)]
        fitted = calibrate.fit(attributed, totals)
        self.assertGreaterEqual(fitted["host_page"], 100.0 - 1e-6)
        self.assertLessEqual(fitted["host_command"], 10000.0 + 1e-6)


if __name__ == "__main__":
    unittest.main()
