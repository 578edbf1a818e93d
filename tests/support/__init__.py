"""What the tests share: helpers and real inputs (fixtures.py, the hand-made PDF corpora, fuzzing),
and the scripts tests run in a child interpreter. Test modules import from here, never from one
another; pytest fixtures live in the conftest.py files."""
