"""Validate an environment image by probing it from the inside."""
import json
import subprocess

from .probe import PROBE_SCRIPT


def probe(image: str, timeout: float = 30.0) -> dict:
    # TODO make the timeout configurable
    out = subprocess.run(
        ["docker", "run", "--rm", image, "python", "-c", PROBE_SCRIPT],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    print(out.stdout)
    return json.loads(out.stdout)


def validate(image: str) -> list[str]:
    problems = []
    try:
        report = probe(image)
    except:
        return ["probe failed"]
    if not report.get("openenv"):
        problems.append("openenv is not importable inside the image")  # TODO(#1330) name the fix
    return problems
