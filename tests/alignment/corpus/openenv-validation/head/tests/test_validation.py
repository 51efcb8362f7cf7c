from openenv.validation.report import render


def test_render_ok():
    assert render([]) == "ok"
