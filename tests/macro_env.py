"""The site's macros outside MkDocs: tools/build/macros.py's define_env on a stand-in for mkdocs-macros' env,
so a test renders a macro for a given page exactly as the build does (same macros, same Jinja rules)."""

from __future__ import annotations

from types import SimpleNamespace

import jinja2


class MacroEnv:
    """What define_env uses of mkdocs-macros' plugin object: .macro, .page and the Jinja environment .env."""

    def __init__(self, page: str = "index.md"):
        from tools.build import macros

        self.macros: dict = {}
        self.variables: dict = {}
        self.env = jinja2.Environment(undefined=jinja2.StrictUndefined)
        self.at(page)
        macros.define_env(self)
        self.env.globals.update(self.macros)

    def macro(self, fn):
        self.macros[fn.__name__] = fn
        return fn

    def at(self, page: str) -> "MacroEnv":
        """Render as if on docs/<page> (links are made relative to it)."""
        url = "" if page == "index.md" else page.removesuffix(".md") + "/"
        self.page = SimpleNamespace(file=SimpleNamespace(src_uri=page), url=url)
        return self

    def render(self, markdown: str) -> str:
        return self.env.from_string(markdown).render()
