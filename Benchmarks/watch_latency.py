"""How long `lifespec watch` takes from saving a one-word change to the flagship spec's summary to
having written every changed file: the time from the save until the watch prints its pass's
summary line (it prints it after the output is committed). Prints the median seconds of RUNS saves.

    python3 Benchmarks/watch_latency.py LIFESPEC PROJECT [RUNS]

PROJECT holds Spec/ (with ios-app-lifecycle.yaml) and a generated Output/.
"""
import os
import select
import subprocess
import sys
import time

lifespec, project = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
spec = os.path.join(project, "Spec", "ios-app-lifecycle.yaml")
original = open(spec, encoding="utf-8").read()
assert "The five execution states" in original
watch = subprocess.Popen([lifespec, "watch"], cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)


def summary_line(deadline):
    """Reads the watch's output until a pass's summary line ('… created, … updated, …')."""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([watch.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        line = watch.stdout.readline()
        if not line:
            break
        if " created, " in line and " updated, " in line:
            return line
    raise SystemExit("the watch did not finish a pass in time")


try:
    summary_line(time.monotonic() + 60)  # the first pass, on start
    samples = []
    for run in range(runs):
        word = "five" if run % 2 else "5"
        changed = original.replace("The five execution states", f"The {word} execution states")
        time.sleep(0.3)
        started = time.monotonic()
        with open(spec, "w", encoding="utf-8") as out:  # as an editor saves: rewritten in place
            out.write(changed)
        line = summary_line(started + 30)
        samples.append(time.monotonic() - started)
        assert "0 updated" not in line, line
    samples.sort()
    print(f"{samples[len(samples) // 2]:.3f}")
finally:
    watch.terminate()
    watch.wait()
    with open(spec, "w", encoding="utf-8") as out:
        out.write(original)
