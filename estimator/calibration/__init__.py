"""Calibration of the estimator against published memory measurements.

published_measurements.csv holds 94 memory figures others measured and published (model
READMEs, papers, framework docs), each with its source; training_measurements.csv 67 fine-tuning
figures (torchtune, PEFT, Axolotl, BAdam, GaLore, mlx-lm, LLaMA-Factory's comparison) with theirs.
rows.py and training_rows.py say how each row maps onto a workload and what its source measured;
compare.py runs them.
"""
