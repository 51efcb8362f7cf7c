"""Static checks of an environment directory."""
import pathlib
import subprocess


def has_dockerfile(path: str) -> bool:
    return (pathlib.Path(path) / "Dockerfile").exists()


def dockerfile_mentions_print(path: str) -> bool:
    text = (pathlib.Path(path) / "Dockerfile").read_text()
    return "print(" in text


def docker_version() -> str:
    return subprocess.check_output(
        "docker version --format '{{.Server.Version}}'",
        shell=True,
        text=True,
    ).strip()
