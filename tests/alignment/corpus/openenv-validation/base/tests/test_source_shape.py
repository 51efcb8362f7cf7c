"""The repository's own source-shape checks: library code must not print or shell out."""
import pathlib

FORBIDDEN = ["print(", "breakpoint()", "shell=True"]


def test_library_has_no_forbidden_calls():
    for path in pathlib.Path("src").rglob("*.py"):
        text = path.read_text()
        for needle in FORBIDDEN:
            assert needle not in text, f"{path} contains {needle}"
