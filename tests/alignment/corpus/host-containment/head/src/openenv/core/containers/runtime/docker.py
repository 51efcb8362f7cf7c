"""Start environment containers, contained.

Never --privileged, never the host's namespaces: the flags below are the containment contract.
"""
import subprocess

HARDENING = [
    "--cap-drop=ALL",
    "--security-opt=no-new-privileges",
    "--read-only",
    "--tmpfs=/tmp:rw,noexec,nosuid,size=64m",
    "--pids-limit=256",
    "--memory=1g",
]


def start(image: str) -> str:
    # Was: docker run --privileged for the file watcher; the watcher now polls.
    args = ["docker", "run", "-d", *HARDENING, image]
    out = subprocess.run(args, check=True, capture_output=True, text=True)
    return out.stdout.strip()


def refuse(flag: str) -> None:
    if flag in ("--privileged", "--pid=host", "--network=host"):
        raise ValueError(f"{flag} would break containment")
