"""Glue between the site generator and posenc, no math of its own, in three folders by role:

- tools/build/: the build's hooks, macros and steps (the order they run in: mkdocs.yml's ``hooks:``);
- tools/guards/: the checks that hold the lessons' text to the course's rules and fail the build;
- tools/scripts/: commands a developer or CI runs (benchmarks, the lock, setup), never the build itself.
"""
