"""The SVG compaction (figures_src/_style.compact_svg) draws the same picture as matplotlib's own SVG.

Checked against matplotlib's uncompacted output with a path-data reader written here, independently of
the compactor: every path's absolute points, every glyph outline and every glyph placement agree within
the rounding the compactor documents (half a step of _style.COORD_DECIMALS for coordinates, 1/200 em for glyph outlines).
"""

import io
import re

import matplotlib
import numpy as np
import pytest

from figures_src import FigureSpec, _style

HALF_STEP = 0.5 * 10 ** -_style.COORD_DECIMALS + 1e-9  # the most rounding moves a coordinate
TOKEN = re.compile(r"[MmLlQqCcZz]|-?(?:\d+\.?\d*|\.\d+)")
ARITY = {"m": 2, "l": 2, "q": 4, "c": 6, "z": 0}


def absolute_points(d: str) -> list[tuple[str, tuple[float, ...]]]:
    """Path data (absolute or relative, implicit repeats allowed) as a list of (command, absolute coordinates)."""
    tokens = TOKEN.findall(d)
    assert "".join(tokens) == re.sub(r"[\s,]", "", d), f"unexpected characters in path data {d[:80]!r}"
    out, i, cmd = [], 0, None
    cx = cy = sx = sy = 0.0
    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
        elif cmd in ("m", "M"):  # numbers after a moveto continue as linetos
            cmd = "l" if cmd == "m" else "L"
        kind = cmd.lower()
        if kind == "z":
            out.append(("z", ()))
            cx, cy = sx, sy
            continue
        values = [float(t) for t in tokens[i:i + ARITY[kind]]]
        i += ARITY[kind]
        if cmd.islower() and out:  # a path's first "m" is absolute
            values = [v + (cx if k % 2 == 0 else cy) for k, v in enumerate(values)]
        out.append((kind, tuple(values)))
        cx, cy = values[-2], values[-1]
        if kind == "m":
            sx, sy = cx, cy
    return out


def _same_path(raw: str, compact: str, tol: float):
    a, b = absolute_points(raw), absolute_points(compact)
    assert [k for k, _ in a] == [k for k, _ in b], "the commands differ"
    for (_, va), (_, vb) in zip(a, b):
        np.testing.assert_allclose(vb, va, atol=tol, rtol=0)


def _raw_svg(draw) -> bytes:
    """matplotlib's own SVG for ``draw``, under the figures' rc settings, before compaction."""
    import matplotlib.pyplot as plt

    with matplotlib.rc_context(_style.rc_params(_style.THEMES["light"])):
        fig = plt.figure(figsize=(3, 2))
        draw(fig, _style.THEMES["light"])
        buf = io.BytesIO()
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
        plt.close(fig)
    return buf.getvalue()


def _draw(fig, theme):
    rng = np.random.default_rng(0)
    ax = fig.add_subplot()
    x = np.arange(300)
    y = np.cumsum(rng.normal(size=300))
    ax.plot(x, y, label="随机游走")
    ax.fill_between(x, y - 1, y + 1, alpha=0.2)
    ax.plot(x[::30], y[::30], "o", markersize=3)
    ax.set_title("位置 0 到 299（token）")
    ax.set_xlabel("$\\omega_i = 10000^{-2i/d}$")
    ax.legend()


@pytest.fixture(scope="module")
def pair():
    raw = _raw_svg(_draw)
    return raw.decode(), _style.compact_svg(raw).decode()


def _paths(svg: str) -> list[tuple[str, str]]:
    return re.findall(r'<path (?:id="([^"]*)" )?d="([^"]*)"', svg)


def test_compaction_makes_the_file_smaller(pair):
    raw, compact = pair
    assert len(compact) < 0.6 * len(raw), (len(raw), len(compact))


def test_every_path_draws_the_same_points(pair):
    raw, compact = pair
    raw_paths, compact_paths = _paths(raw), _paths(compact)
    assert len(raw_paths) == len(compact_paths) > 10
    glyphs = 0
    for (_, d_raw), (_, d_new) in zip(raw_paths, compact_paths):
        if d_raw.count("\n") and (m := re.search(re.escape(d_raw[:40]), raw)) and 'scale(0.015625)' in raw[m.end():m.end() + len(d_raw) + 40]:
            # a glyph outline: raw at scale 1/64, compact at scale GLYPH_DIVISOR/64
            glyphs += 1
            raw_scaled = " ".join(str(float(t) / _style.GLYPH_DIVISOR) if not t.isalpha() else t for t in TOKEN.findall(d_raw))
            _same_path(raw_scaled, d_new, tol=0.5 + 1e-9)
        else:
            _same_path(d_raw, d_new, tol=HALF_STEP)
    assert glyphs > 10, "the test drew CJK and math text, so it must have compared glyph outlines"


def test_glyphs_are_placed_where_matplotlib_placed_them(pair):
    raw, compact = pair

    def placements(svg):
        uses = re.findall(r'<use (?:xlink:)?href="#([^"]+)"(?: x="([-\d.]+)"| transform="translate\(([-\d.]+) 0\)")?', svg)
        return [(ref, float(x or t or 0)) for ref, x, t in uses]

    a, b = placements(raw), placements(compact)
    assert len(a) == len(b) > 20
    ids = {}
    for (ref_a, x_a), (ref_b, x_b) in zip(a, b):
        assert ids.setdefault(ref_a, ref_b) == ref_b, f"{ref_a} is renamed inconsistently"
        assert x_b == pytest.approx(x_a, abs=HALF_STEP)
    assert len(set(ids.values())) == len(ids), "two glyphs got the same short id"
    for ref in ids.values():
        assert f'id="{ref}"' in compact, f"#{ref} is used but not defined"


def test_compaction_keeps_what_it_does_not_know():
    odd = b'<path d="M 1.123456 2 A 3 4 0 0 1 5 6"/>'
    assert _style.compact_svg(odd) == odd
    assert _style.relative_path(b"M 0 0 \nL 1 2 \nL 1") == b"M 0 0 \nL 1 2 \nL 1"


def test_relative_path_rounds_and_does_not_drift():
    # 1,000 steps of 0.004: each delta rounds to 0 alone, but the points are rounded before the deltas are taken
    d = "M 0 0 " + " ".join(f"L {0.004 * k:.6f} 0" for k in range(1, 1001))
    pts = absolute_points(_style.relative_path(d.encode()).decode())
    assert pts[-1][1][0] == pytest.approx(4.0, abs=HALF_STEP)


def test_a_rendered_figure_is_compacted():
    spec = FigureSpec("compact_test", _draw, "测试", "", (3, 2), __name__)
    svg = _style.render_svg(spec, _style.THEMES["light"]).decode()
    assert "NotoSans" not in svg and "DejaVu" not in svg, "glyph ids are shortened"
    assert "xlink:href" not in svg and 'href="#' in svg
    decimals = max(len(m) for m in re.findall(r"\.(\d+)", " ".join(d for _, d in _paths(svg))))
    assert decimals == _style.COORD_DECIMALS, "path coordinates are rounded"


def test_markers_keep_their_style(pair):
    """A marker's style, moved to its group, is what the marker inherits: the same as it carried before."""
    from xml.etree import ElementTree as ET

    def marker_styles(svg):
        root = ET.fromstring(svg)
        parents = {child: parent for parent in root.iter() for child in parent}
        out = []
        for use in root.iter("{http://www.w3.org/2000/svg}use"):
            if use.get("y") is None:  # glyphs are placed by x alone
                continue
            style = use.get("style") or parents[use].get("style")
            out.append((float(use.get("x")), float(use.get("y")), re.sub(r"\s", "", style)))
        return out

    raw, compact = pair
    a, b = marker_styles(raw), marker_styles(compact)
    assert len(a) == len(b) >= 10
    for (xa, ya, sa), (xb, yb, sb) in zip(a, b):
        assert (xb, yb) == pytest.approx((xa, ya), abs=HALF_STEP)
        assert sb == sa

