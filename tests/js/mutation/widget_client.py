"""StrykerJS's command for one mutant of a widget (stryker.widgets.config.mjs): asks the test session that
tests/js/mutation/widget_server.py keeps open to run the widget's browser tests with this mutant active, and exits 1
when a test fails (the mutant is killed), 0 when all pass. Run from Stryker's sandbox, with the mutant's id in
__STRYKER_ACTIVE_MUTANT__ (none on Stryker's first run). Standard library only: it starts in a few milliseconds."""

import json
import os
import signal
import socket
import sys
from pathlib import Path


def stop_stryker(why: str) -> None:
    """Without an answer there is no verdict, and Stryker would count this command's failure as a killed mutant: stop
    every Stryker process above this one before it writes a report, and say why."""
    pid = os.getppid()
    while pid > 1:
        try:
            if b"stryker" in Path(f"/proc/{pid}/cmdline").read_bytes():
                os.kill(pid, signal.SIGKILL)
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    sys.exit(f"{why}: Stryker stopped without a report (tests/js/mutation/widget_server.py runs the tests)")


path = os.environ.get("POSENC_MUTANT_SOCKET")
if not path:
    sys.exit("POSENC_MUTANT_SOCKET is not set: run `make mutation-widgets WIDGETS=…`, which starts the test session "
             "(tests/js/mutation/widget_server.py) that this command talks to")
try:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        request = {"mutant": os.environ.get("__STRYKER_ACTIVE_MUTANT__", ""), "sandbox": os.getcwd()}
        conn.sendall((json.dumps(request) + "\n").encode())
        answer = json.loads(conn.makefile(encoding="utf-8").readline())
except (OSError, ValueError) as err:
    stop_stryker(f"no answer from the test session at {path} ({err})")
if answer["killed_by"]:
    print(f"{answer['killed_by']}: {answer['why']}")
    sys.exit(1)
