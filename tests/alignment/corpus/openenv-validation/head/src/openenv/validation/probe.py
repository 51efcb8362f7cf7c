"""The probe that runs inside the environment container.

It is shipped as a string and executed with `python -c`, so its print() calls are its output
protocol, not leftover debugging.
"""

PROBE_SCRIPT = """
import json, os, sys

report = {"uid": os.getuid(), "cwd": os.getcwd()}
try:
    import openenv  # noqa: F401
    report["openenv"] = True
except ImportError:
    report["openenv"] = False
print(json.dumps(report))
sys.stdout.flush()
"""

# The marker line the harness waits for; print( here is data too.
READY_LINE = 'print("ready")'
