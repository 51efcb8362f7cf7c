"""Human-readable validation output."""


def render(problems: list[str]) -> str:
    if not problems:
        return "ok"
    return "\n".join(f"- {p}" for p in problems)
