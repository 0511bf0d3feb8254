"""The layers import one way: libraries know no Dash, lab/ knows no Dash, bench/ knows no Dash,
and components/ reaches the computations only through their public faces."""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
UI = {"dash", "plotly", "components", "app", "worker", "flask"}


def imports(path):
    """``(module, names)`` of every absolute import in a file (``import a.b`` gives ``("a.b", ())``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            found.append((node.module, tuple(alias.name for alias in node.names)))
    return found


def files(*folders):
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", files("datasets", "algorithms", "measures", "lab"),
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_libraries_and_lab_import_no_ui(path):
    roots = {module.split(".")[0] for module, _ in imports(path)}
    assert not roots & UI, f"{path.relative_to(ROOT)} imports {roots & UI}"


@pytest.mark.parametrize("path", files("bench"), ids=lambda path: str(path.relative_to(ROOT)))
def test_bench_imports_no_dash(path):
    """Benchmarks time the libraries and lab/; the load test drives a server in another process, by the
    ids of components/ids.py (plain strings) and the HTTP protocol."""
    allowed = {"components.ids", "components"}
    for module, names in imports(path):
        if module.split(".")[0] in UI:
            assert module in allowed and set(names) <= {"ids"}, f"{path.relative_to(ROOT)} imports {module}"


@pytest.mark.parametrize("path", files("components"), ids=lambda path: str(path.relative_to(ROOT)))
def test_components_reach_computations_only_through_public_faces(path):
    """No ``from measures.procrustes import ...``: a page uses what a package (or lab/) exports."""
    for module, names in imports(path):
        top = module.split(".")[0]
        if top in {"datasets", "algorithms", "measures"}:
            assert module == top, f"{path.relative_to(ROOT)} imports the internals {module}"
        assert not any(name.startswith("_") for name in names), f"{path.relative_to(ROOT)} imports private {names}"


@pytest.mark.parametrize("path", files("components"), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_component_module_grows_past_four_hundred_lines(path):
    assert len(path.read_text().splitlines()) <= 400
