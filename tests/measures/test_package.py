"""Package-wide checks of ``measures``: its doctests pass and it imports no UI library."""

import ast
import doctest
import importlib
import pathlib
import pkgutil

import pytest

import measures

MODULE_NAMES = sorted(info.name for info in pkgutil.iter_modules(measures.__path__))


@pytest.mark.parametrize("name", MODULE_NAMES)
def test_doctests_pass(name):
    # importlib, not attribute access: ``measures.procrustes`` is the re-exported function.
    module = importlib.import_module(f"measures.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_doctests_exist_where_the_api_promises_them():
    attempted = {name: doctest.testmod(importlib.import_module(f"measures.{name}")).attempted for name in MODULE_NAMES}
    assert attempted["procrustes"] > 0 and attempted["neighbors"] > 0 and attempted["chunks"] > 0


@pytest.mark.parametrize("path", sorted(pathlib.Path(measures.__file__).parent.glob("*.py")), ids=lambda p: p.name)
def test_imports_only_numerical_libraries(path):
    # STYLE: measures/ is the numerical base; it imports neither dash/plotly nor datasets/algorithms.
    forbidden = {"dash", "plotly", "datasets", "algorithms", "components", "app"}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots = {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            roots = {node.module.split(".")[0]}
        else:
            continue
        assert not roots & forbidden, f"{path.name} imports {roots & forbidden}"


def test_public_names_are_exported():
    for name in measures.__all__:
        assert hasattr(measures, name), name


@pytest.mark.parametrize("path", sorted(pathlib.Path(measures.__file__).parent.glob("*.py")), ids=lambda p: p.name)
def test_no_module_imports_a_private_name_of_another(path):
    # Issue 12: a name used across modules is public and documented, or the code moves.
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            private = [alias.name for alias in node.names if alias.name.startswith("_")]
            assert not private, f"{path.name} imports {private} from {node.module}"


def test_no_hand_written_integer_check_is_left():
    # Issue 12: integer-in-range checks go through measures.check_integer.
    for path in pathlib.Path(measures.__file__).parent.glob("*.py"):
        if path.name == "parameters.py":
            continue
        text = path.read_text()
        assert "isinstance(n_neighbors" not in text and "(int, np.integer)" not in text, path.name
