"""Calibration of the estimator against published memory measurements.

published_measurements.csv is shared/calibration/published_measurements.csv (94 rows, each with
its source). rows.py says how each row maps onto a workload; compare.py runs them.
"""
