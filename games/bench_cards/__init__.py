"""A plain card game used only to measure the server (served with TABULA_BENCHMARK=1): the whole engine is in
engine.py."""

from .engine import BenchCards

__all__ = ["BenchCards"]
