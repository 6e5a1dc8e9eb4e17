"""StrykerJS's command for one mutant of a widget (stryker.widgets.config.mjs): asks the test session that
tests/js/mutation/widget_server.py keeps open to run the widget's browser tests with this mutant active, and exits 1
when a test fails (the mutant is killed), 0 when all pass. Run from Stryker's sandbox, with the mutant's id in
__STRYKER_ACTIVE_MUTANT__ (none on Stryker's first run). Standard library only: it starts in a few milliseconds."""

import json
import os
import socket
import sys

path = os.environ.get("POSENC_MUTANT_SOCKET")
if not path:
    sys.exit("POSENC_MUTANT_SOCKET is not set: run `make mutation-widgets WIDGETS=…`, which starts the test session "
             "(tests/js/mutation/widget_server.py) that this command talks to")
with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
    conn.connect(path)
    request = {"mutant": os.environ.get("__STRYKER_ACTIVE_MUTANT__", ""), "sandbox": os.getcwd()}
    conn.sendall((json.dumps(request) + "\n").encode())
    answer = json.loads(conn.makefile(encoding="utf-8").readline())
if answer["killed_by"]:
    print(f"{answer['killed_by']}: {answer['why']}")
    sys.exit(1)
