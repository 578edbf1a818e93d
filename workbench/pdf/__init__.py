"""Rendering, text layers, span visibility, evidence boxes and lint. Heavy imports stay inside functions."""
