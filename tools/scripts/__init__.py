"""Commands a developer or CI runs, never the build: ``python -m tools.scripts.<name>`` or the shell scripts.

The build benchmark (bench_build) and the slow-phone load (phone_load) behind ``make bench``, the lock's hashes
(lock), the writers' report (lesson_report), the Zensical canary (zensical_canary), the virtualenv and the
system packages (install_venv.sh, setup_system.sh), and what scripts and tests share to run the site
(site_command, local_http). Nothing under tools/build or tools/guards imports from here.
"""
