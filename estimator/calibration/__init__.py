"""Calibration of the estimator against published memory measurements.

published_measurements.csv holds 94 memory figures others measured and published (model
READMEs, papers, framework docs), each with its source. rows.py says how each row maps onto a workload; compare.py runs them.
"""
