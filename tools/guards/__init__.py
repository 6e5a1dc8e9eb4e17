"""The guards: checks that hold a lesson's text to the course's rules, each finding with its file and line.

Each runs inside every build as a hook listed in mkdocs.yml's ``hooks:`` and logs an error, so
``mkdocs build --strict`` fails with or without -q (prose_lint, concept_order, terms_guard, notation,
universal_claims); most also run on their own (``python -m tools.guards.<name> [FILES…]``).
lesson_structure is checked by the tests instead. A check belongs here if a finding fails something.
"""
