"""The README's demo keeps working: train with to_static, save, reload, predict."""

from paddle_compat.demo.__main__ import main


def test_demo_trains_saves_reloads_and_predicts(capsys):
    acc = main(["--epochs", "2"])
    out = capsys.readouterr().out
    assert "test accuracy after save/load" in out
    assert acc > 0.85
