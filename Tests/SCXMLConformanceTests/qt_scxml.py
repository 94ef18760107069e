#!/usr/bin/python3
"""Runs SCXML charts through Qt SCXML (PySide2) for LifeSpec's differential tests.

stdin: a JSON list of {"path": CHART, "events": [NAME, ...]}.
stdout: a JSON list, one entry per chart: {"errors": [TEXT, ...], "configurations": [[STATE, ...], ...],
"logs": [[TEXT, ...], ...]} — the active atomic states (sorted) after start and after each event, and
what <log> printed during start and during each event's macrostep ("label:message").
Run with the system Python that has python3-pyside2.qtscxml; exits 3 when PySide2 is missing.
"""
import json
import sys

try:
    from PySide2.QtCore import QCoreApplication
    from PySide2.QtScxml import QScxmlStateMachine
except ImportError as error:  # the caller skips the test
    print("PySide2.QtScxml unavailable: %s" % error, file=sys.stderr)
    sys.exit(3)

logs = []


def on_log(label, message):
    # Under the null datamodel Qt logs `expr` unevaluated: 'name' with its quotes.
    if len(message) >= 2 and message[0] == message[-1] and message[0] in "'\"":
        message = message[1:-1]
    logs.append("%s:%s" % (label, message))


def settle(app):
    for _ in range(4):
        app.processEvents()


def main():
    app = QCoreApplication([])
    requests = json.load(sys.stdin)
    results = []
    for request in requests:
        machine = QScxmlStateMachine.fromFile(request["path"])
        errors = [str(error.toString()) for error in machine.parseErrors()]
        if errors:
            results.append({"errors": errors, "configurations": [], "logs": []})
            continue
        machine.log.connect(on_log)
        del logs[:]
        machine.start()
        settle(app)
        configurations = [sorted(machine.activeStateNames(True))]
        step_logs = [list(logs)]
        for event in request["events"]:
            del logs[:]
            machine.submitEvent(event)
            settle(app)
            configurations.append(sorted(machine.activeStateNames(True)))
            step_logs.append(list(logs))
        results.append({"errors": [], "configurations": configurations, "logs": step_logs})
        machine.stop()
        machine.deleteLater()
        settle(app)
    json.dump(results, sys.stdout)


main()
