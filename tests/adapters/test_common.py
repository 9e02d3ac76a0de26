"""What every dataset adapter shares."""

import pytest

from belief.adapters import hitom, tomi
from belief.adapters.common import AdapterError


@pytest.mark.parametrize("adapter, name, text, message", [
    *[(hitom, "h.jsonl", t, "no Hi-ToM questions found") for t in ('{"data": []}', "[]", "", "\n\n")],
    *[(tomi, "s.txt", t, "no ToMi stories") for t in ("", "\n  \n")],
])
def test_an_empty_file_is_an_error_not_a_score_of_zero(tmp_path, adapter, name, text, message):
    p = tmp_path / name
    p.write_text(text)
    with pytest.raises(AdapterError, match=message):
        adapter.grade(p)
