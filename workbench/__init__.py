"""pdfworkbench: a terminal workbench for adversarial PDF test cases."""

__version__ = "0.1.0"
