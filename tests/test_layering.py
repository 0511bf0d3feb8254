"""The layers import one way: libraries know no Dash, lab/ knows no Dash, bench/ knows no Dash,
serving/ (the jobs' managers and the HTTP side) knows no page piece, and components/ reaches the
computations only through their public faces: libraries < lab < serving < components < app.

The libraries import nothing of the project above them (no lab, serving, settings, page piece,
script, bench or test), and among themselves one way: measures < datasets, algorithms (measures
imports neither of the others; datasets and algorithms, side by side, do not import each other).

Across the project no import circle runs (TYPE_CHECKING-only imports aside). Inside ``lab/``, the rooms
import one way too (store <- compute <- view <- tours), without circles:
every ``.py`` file of ``lab/`` is parsed (no import runs), and each of its imports of a ``lab``
module is read, absolute or relative, at the top or inside a function. ``lab/__init__.py`` is the
front door above the rooms (it re-exports their public names) and belongs to none of them; so does
``lab/__main__.py``, the command line.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
UI = {"dash", "plotly", "components", "serving", "app", "worker", "flask"}
ROOMS = ("store", "compute", "view", "tours")


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


# The one import of the page's side from below it: the command line's ``run --report`` writes the run's
# HTML report, drawn with plotly by components/report.py (which imports no Dash, tested below). The front
# door, lab/__main__.py, belongs to no room; it imports the writer only when a report is asked for and
# hands it to lab.compute.commands.main, which never imports plotly itself.
UI_EXCEPTIONS = {"lab/__main__.py": {"components.report"}}


@pytest.mark.parametrize("path", files("datasets", "algorithms", "measures", "lab"),
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_libraries_and_lab_import_no_ui(path):
    allowed = UI_EXCEPTIONS.get(path.relative_to(ROOT).as_posix(), set())
    roots = {module.split(".")[0] for module, _ in imports(path) if module not in allowed}
    assert not roots & UI, f"{path.relative_to(ROOT)} imports {roots & UI}"


LIBRARIES = ("measures", "datasets", "algorithms")
# Every top-level module of the project that is not a library (all of them sit above the libraries);
# gunicorn.conf.py, a config file gunicorn reads by path, is no importable module.
ABOVE_LIBRARIES = {"lab", "serving", "settings", "components", "app", "worker", "notebook", "bench", "tests",
                   "conftest"}
# The libraries each one may not import: measures is the base the other two build on, and datasets and
# algorithms are side by side (an embedding takes points, from wherever they come).
BELOW = {"measures": {"datasets", "algorithms"}, "datasets": {"algorithms"}, "algorithms": {"datasets"}}


def test_every_top_level_module_is_a_library_or_above_them():
    """A new top-level module or package is sorted into the layers (so the test below checks it too)."""
    found = {path.name.removesuffix(".py") for path in ROOT.iterdir()
             if (path.suffix == ".py" and path.stem.isidentifier()) or (path / "__init__.py").is_file()}
    assert found == set(LIBRARIES) | ABOVE_LIBRARIES, found ^ (set(LIBRARIES) | ABOVE_LIBRARIES)


@pytest.mark.parametrize("path", files(*LIBRARIES), ids=lambda path: str(path.relative_to(ROOT)))
def test_libraries_import_nothing_above_them(path):
    """No import runs back up from datasets/, algorithms/, measures/ (type-checking ones included)."""
    roots = {module.split(".")[0] for module, _ in imports(path)}
    assert not roots & ABOVE_LIBRARIES, f"{path.relative_to(ROOT)} imports {roots & ABOVE_LIBRARIES}"


@pytest.mark.parametrize("path", files(*LIBRARIES), ids=lambda path: str(path.relative_to(ROOT)))
def test_libraries_import_one_another_one_way(path):
    library = path.relative_to(ROOT).parts[0]
    roots = {module.split(".")[0] for module, _ in imports(path)}
    assert not roots & BELOW[library], f"{path.relative_to(ROOT)} imports {roots & BELOW[library]}"


def test_the_one_exception_is_the_report_writer_and_it_imports_no_dash():
    """lab/__main__.py's one import from above (the report) is still there to be excepted, and importing
    components.report (with components/__init__.py, the figures and lab/) loads no module of Dash or Flask."""
    import subprocess
    import sys

    assert {module for module, _ in imports(ROOT / "lab" / "__main__.py")
            if module.split(".")[0] in UI} == {"components.report"}
    script = ("import sys, components.report; "
              "print(sorted({name.split('.')[0] for name in sys.modules} & {'dash', 'flask', 'app', 'serving'}))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize("path", files("bench"), ids=lambda path: str(path.relative_to(ROOT)))
def test_bench_imports_no_dash(path):
    """Benchmarks time the libraries and lab/; the load test drives a server in another process, by the
    ids of components/ids.py (plain strings) and the HTTP protocol."""
    allowed = {"components.ids", "components"}
    for module, names in imports(path):
        if module.split(".")[0] in UI:
            assert module in allowed and set(names) <= {"ids"}, f"{path.relative_to(ROOT)} imports {module}"


def test_settings_import_only_the_standard_library():
    """Every layer reads ``settings.py`` (the store its cache directory, the server its caps): it imports none."""
    import sys

    roots = {module.split(".")[0] for module, _ in imports(ROOT / "settings.py")}
    assert roots <= sys.stdlib_module_names, roots - sys.stdlib_module_names


@pytest.mark.parametrize("path", files("serving"), ids=lambda path: str(path.relative_to(ROOT)))
def test_serving_imports_no_page_piece(path):
    """serving/ sits below components/: of the page it reads only the ids (a job's session, by its store's id)."""
    for module, names in imports(path):
        top = module.split(".")[0]
        assert top not in {"app", "worker"}, f"{path.relative_to(ROOT)} imports {module}"
        if top == "components":
            assert module == "components.ids" or (module == "components" and set(names) <= {"ids"}), \
                f"{path.relative_to(ROOT)} imports {module}"


@pytest.mark.parametrize("path", files("components"), ids=lambda path: str(path.relative_to(ROOT)))
def test_components_reach_computations_only_through_public_faces(path):
    """No ``from measures.procrustes import ...``: a page uses what a package (or lab/) exports."""
    for module, names in imports(path):
        top = module.split(".")[0]
        if top in {"datasets", "algorithms", "measures"}:
            assert module == top, f"{path.relative_to(ROOT)} imports the internals {module}"
        assert not any(name.startswith("_") for name in names), f"{path.relative_to(ROOT)} imports private {names}"


@pytest.mark.parametrize("path", files("components"), ids=lambda path: str(path.relative_to(ROOT)))
def test_page_pieces_import_nothing_above_them(path):
    """app.py wires the pieces, and worker.py and notebook.py start the app: no piece imports them back."""
    for module, _ in imports(path):
        assert module.split(".")[0] not in {"app", "worker", "notebook"}, f"{path.relative_to(ROOT)} imports {module}"


@pytest.mark.parametrize("path", files("components"), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_component_module_grows_past_four_hundred_lines(path):
    assert len(path.read_text().splitlines()) <= 400


def _module_name(path):
    """The dotted module name of ``path`` (a package's ``__init__.py`` is the package)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_imports(path, known):
    """``(line, imported module)`` of every import in ``path`` of a module ``known(name)`` finds, relative
    ones resolved to absolute names; imports that run only for type checkers (``if TYPE_CHECKING:``) left out.

    ``from package import name`` yields ``package.name`` when that is a known module, else ``package``.
    """
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(), str(path))
    typing_only = {id(node) for block in ast.walk(tree)
                   if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
                   for child in block.body for node in ast.walk(child)}
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.append((node.lineno, submodule if known(submodule) else source))
    return [(line, name) for line, name in found if known(name)]


def lab_imports(path):
    """``(line, imported lab module)`` of every import of a ``lab`` module in ``path`` (:func:`module_imports`)."""
    return module_imports(path, _lab_module_path)


def _lab_module_path(name):
    """The file of ``lab`` module ``name`` (a module or a package), or None."""
    if name != "lab" and not name.startswith("lab."):
        return None
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _room(name):
    """The room of ``lab`` module ``name`` ("store", ...), or None for ``lab`` itself."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ROOMS else None


def _lab_graph():
    """``{module: [(line, imported lab module), ...]}`` over every module of ``lab``."""
    graph = {}
    for path in sorted((ROOT / "lab").rglob("*.py")):
        graph[_module_name(path)] = lab_imports(path)
    return graph


def _where(module):
    return _lab_module_path(module).relative_to(ROOT).as_posix()


def test_every_module_of_lab_is_in_a_room():
    # lab/__init__.py and lab/__main__.py (its command line) are the front door, above every room.
    front_door = ("lab", "lab.__main__")
    strays = [_where(module) for module in _lab_graph() if module not in front_door and _room(module) is None]
    assert not strays, f"modules of lab/ outside the rooms {ROOMS}: {strays}"


def test_no_room_imports_a_higher_one():
    upward = []
    for module, imports in _lab_graph().items():
        room = _room(module)
        if room is None:  # lab/__init__.py, lab/__main__.py: above every room
            continue
        for line, name in imports:
            target = _room(name)
            if target is None or ROOMS.index(target) > ROOMS.index(room):
                upward.append(f"{_where(module)}:{line} ({room}) imports {name} ({target or 'lab itself'})")
    assert not upward, "imports that run back up (store <- compute <- view <- tours):\n" + "\n".join(upward)


def _circles(graph):
    """Every import circle a depth-first walk of ``graph`` (``{module: [(line, module), ...]}``) meets, as
    ``[(module, line, imported module), ...]`` (none when the graph has no circle)."""
    targets = {module: sorted({name for _, name in imports} - {module}) for module, imports in graph.items()}
    lines = {(module, name): line for module, imports in graph.items() for line, name in imports}
    state, circles = {}, []

    def visit(module, path):
        state[module] = "open"
        for name in targets.get(module, ()):
            if state.get(name) == "open":
                cycle = path[path.index(name):] + [name]
                circles.append([(a, lines[a, b], b) for a, b in zip(cycle, cycle[1:])])
            elif name not in state:
                visit(name, [*path, name])
        state[module] = "done"

    for module in targets:
        if module not in state:
            visit(module, [module])
    return circles


def test_the_circle_finder_reports_a_circle_and_its_lines():
    graph = {"a": [(3, "b")], "b": [(5, "c")], "c": [(7, "a"), (8, "d")], "d": []}
    assert _circles(graph) == [[("a", 3, "b"), ("b", 5, "c"), ("c", 7, "a")]]
    assert _circles({**graph, "c": [(8, "d")]}) == []


def test_no_import_circles_in_lab():
    circles = _circles(_lab_graph())
    assert not circles, "import circles among lab's modules:\n" + "\n".join(
        " -> ".join(f"{_where(a)}:{line} imports {b}" for a, line, b in circle) for circle in circles)


# The project's own modules: the libraries, lab/, the server side, the page, and the top-level scripts.
PROJECT = ("datasets", "algorithms", "measures", "lab", "serving", "components", "settings.py", "app.py",
           "worker.py", "notebook.py")


def _project_module_path(name):
    """The file of the project's module ``name`` (a module or a package), or None."""
    if name.split(".")[0] not in {entry.removesuffix(".py") for entry in PROJECT}:
        return None
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def test_no_import_circles_in_the_project():
    """Across every package and script (what runs, not what a type checker reads), no module imports one
    that imports it back, directly or through others."""
    paths = [path for entry in PROJECT
             for path in ([ROOT / entry] if entry.endswith(".py") else sorted((ROOT / entry).rglob("*.py")))]
    graph = {_module_name(path): module_imports(path, _project_module_path) for path in paths}
    assert len(graph) > 100  # every package read
    circles = _circles(graph)
    assert not circles, "import circles:\n" + "\n".join(
        " -> ".join(f"{a}:{line} imports {b}" for a, line, b in circle) for circle in circles)
