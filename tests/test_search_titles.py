"""Search result titles end with their words: nbconvert's heading anchor (¶) is dropped from the index
(tools/build/search.py clean_index)."""

import json

import pytest

from tools.build import search


def test_clean_index_drops_the_anchor_mark_of_a_title(tmp_path):
    index = tmp_path / "search_index.json"
    docs = [{"location": "a/", "title": "2.\u200b 交换\u200b两个\u200b字\u200b：swap\u200b¶", "text": "x ¶ y"},
            {"location": "b/", "title": "段落¶标记在中间", "text": ""}]
    index.write_text(json.dumps({"config": {}, "docs": docs}), encoding="utf-8")
    search.clean_index(index)
    titles = [d["title"] for d in json.loads(index.read_text(encoding="utf-8"))["docs"]]
    assert titles == ["2.\u200b 交换\u200b两个\u200b字\u200b：swap", "段落¶标记在中间"]


@pytest.mark.build
def test_no_search_title_ends_with_an_anchor_mark(site_dir):
    docs = json.loads((site_dir / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    assert any(d["location"].startswith("notebooks/") for d in docs)
    assert [d["title"] for d in docs if d.get("title", "").rstrip().endswith("¶")] == []
