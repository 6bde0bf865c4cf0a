"""Measurement front end for ordo: runs the benchmark programs, reads their
JSON lines (schema "ordo-bench/1") and puts figures side by side."""

__version__ = "0.1.0"
