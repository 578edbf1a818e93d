"""Trap families: one module each, plus the drawing kit and the scan degradation pipeline."""
