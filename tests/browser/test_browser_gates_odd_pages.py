"""Browser gates, the odd-numbered pages (doc_pages()[1::2]): test_browser_gates.py's page check, in a file
of its own so that `make test`'s two workers share the gates (pytest-xdist --dist loadfile sends a whole file
to one worker); test_browser_gates.py checks the even-numbered ones."""

from __future__ import annotations

import pytest

from test_browser_gates import axe, check_page, subpath_site  # noqa: F401  (axe and subpath_site are fixtures)
from test_gates import doc_pages

pytestmark = [pytest.mark.browser, pytest.mark.build, pytest.mark.long]


@pytest.mark.parametrize("page_path", doc_pages()[1::2])
def test_page_loads_clean_and_accessible(browser, subpath_site, axe, page_path):  # noqa: F811
    check_page(browser, subpath_site, axe, page_path)
