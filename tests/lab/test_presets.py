"""Every paper preset is a valid, complete view state that survives a link."""

import pytest

from lab import ViewState, from_query, to_query
from lab.presets import PRESETS, preset


@pytest.mark.parametrize("entry", PRESETS, ids=[p.name for p in PRESETS])
def test_preset_is_a_valid_state_that_survives_a_link(entry):
    assert isinstance(entry.state, ViewState) and entry.state.validated() == entry.state
    assert from_query(to_query(entry.state)) == entry.state
    assert entry.label.split(":")[0].split()[0] in {"GR", "NQ", "PN", "ML"} and len(entry.caption) > 40


def test_presets_cover_each_paper_and_have_unique_names():
    assert len({p.name for p in PRESETS}) == len(PRESETS)
    assert {p.label.split()[0] for p in PRESETS} == {"GR", "NQ", "PN", "ML"}
    with pytest.raises(KeyError, match="no preset 'nope'"):
        preset("nope")
