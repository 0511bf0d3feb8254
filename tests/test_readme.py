"""The README's two opening commands are the ones users and CI run."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]


def code_blocks():
    return re.findall(r"```bash\n(.*?)\n```", (ROOT / "README.md").read_text(), flags=re.S)


def test_readme_opens_with_start_and_test_commands():
    start, test = code_blocks()[:2]
    assert start.rstrip().endswith("python app.py")
    assert "pytest --headless" in test and "chromium-driver" in test
    assert "redis-server" in test  # the Celery-mode tests fail in CI without it
    assert "ruff check ." in test  # lint first (ruff.toml)
    # Nothing but prose and these two commands precedes the tour.
    assert (ROOT / "README.md").read_text().index(test) < (ROOT / "README.md").read_text().index("## ")


def test_ci_runs_the_readme_test_command():
    ci_lines = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
                if line and not line.startswith(("#", "set ", "cd "))]
    assert ci_lines == [code_blocks()[1]]
