"""The build: what turns docs/ and posenc into the site.

MkDocs hooks (the adapter, mkdocs_hooks; the languages, i18n; math, katex_render; tables as
cards, table_cards; downloaded notebooks, notebook_download; the page policy, csp), the macros lessons call
(macros, course_macros, reading_time, citation), and the steps that need no MkDocs (pre_build, post_build,
katex_fonts, search, code_i18n, notebooks, snippet_runner, lesson_pages, freshness, serve_pages). The order the hooks run
in is written once, in mkdocs.yml's ``hooks:`` (tests/test_hook_list.py holds every hook module to it).
A module here may be a hook only if that list names it.
"""
