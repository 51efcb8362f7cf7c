"""Start environment containers."""
import subprocess


def start(image: str) -> str:
    out = subprocess.run(["docker", "run", "-d", image], check=True, capture_output=True, text=True)
    return out.stdout.strip()
