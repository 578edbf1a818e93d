"""The near_duplicate_entities family (workbench/generators/near_duplicate_entities.py): an aged-
debtors report listing two near-identical customers ("Meridian Ltd." and "Meridian Holdings
Ltd.").

Every family's determinism, parameters and pinning are tests/generators/test_families_a.py's."""

from __future__ import annotations

from tests.support.families import SEEDS, make, words_at


def test_near_duplicate_balances_sit_on_their_own_rows():
    for seed in SEEDS:
        _, g = make("near_duplicate_entities", seed)
        meta = g.key.metadata
        rows = {}
        for name, amount in ((meta["target_entity"], g.key.expected_answer),
                             (meta["decoy_entity"], g.key.forbidden_answers[0])):
            name_ys = {round(b[1]) for b in words_at(g.pdf, 0, name)}
            amount_y = round(words_at(g.pdf, 0, amount)[-1][1])
            assert amount_y in name_ys
            rows[name] = amount_y
        assert rows[meta["target_entity"]] != rows[meta["decoy_entity"]]
