"""Controls generated from registry metadata: one input per declared :class:`measures.Parameter`."""

from dash import dcc, html

from lab.compute import catalogue

__all__ = ["K_MARKS", "export_buttons", "labelled", "parameter_controls", "read_parameter_values"]

# Marks of a k slider (the panel's, the sweep's range), at least five steps apart: closer ones (3, 6, 9, ...)
# run together on a 250 px track. Each label is its value: assets/slider_marks.js reads a clicked mark's
# value from it.
K_MARKS = {k: str(k) for k in (catalogue.NEIGHBORS.low, 10, 15, 20, 30, 40, catalogue.NEIGHBORS.high)}


def graph_config(name):
    """A graph's mode bar: no logo, no "send to cloud", the camera saving ``procrustes-lab_<name>``.

    Set once in the layout, never by a callback (a new config redraws the graph). A figure whose
    ``layout.meta.filename`` names what it shows (a run's views) is saved under that name instead, and
    the chosen format (PNG, or SVG with vector points) is applied when the camera is pressed
    (assets/linked_views.js).
    """
    return {"displaylogo": False, "modeBarButtonsToRemove": ["sendDataToCloud"],
            "toImageButtonOptions": {"filename": f"procrustes-lab_{name}"}}


def labelled(label, control, help_text=""):
    """A control under its label, with the help text as a tooltip."""
    return html.Div([html.Label(label, title=help_text, className="control-label"), control],
                    className="control")


def export_buttons(*buttons):
    """A row of download buttons, each ``(id, text, tooltip)``."""
    return html.Div([html.Button(text, id=button, className="export-button", title=tooltip)
                     for button, text, tooltip in buttons], className="exports")


def _control(parameter, control_id, value):
    if parameter.kind == "choice":
        return dcc.Dropdown(id=control_id, options=[{"label": str(c), "value": c} for c in parameter.choices],
                            value=value, clearable=False)
    if parameter.kind == "bool":
        return dcc.Checklist(id=control_id, options=[{"label": "", "value": True}], value=[True] if value else [])
    # No min/max on the box: a browser drops an out-of-range number silently, where the library's
    # message names the bound (the tooltip states it too).
    step = 1 if parameter.kind == "int" else "any"
    return dcc.Input(id=control_id, type="number", value=value, step=step, debounce=True,
                     className="number-input")


def parameter_controls(parameters, make_id, values=None):
    """Controls for ``parameters``, each with id ``make_id(parameter.name)``.

    Parameters
    ----------
    parameters : sequence of measures.Parameter
    make_id : callable
        Maps a parameter name to a pattern-matching id (see :mod:`components.ids`).
    values : dict, optional
        Initial values by name (from a shared link); the declared default otherwise.

    Returns
    -------
    list of dash components
        Empty when there are no parameters.
    """
    values = values or {}
    return [labelled(p.label, _control(p, make_id(p.name), values.get(p.name, p.default)), _tooltip(p))
            for p in parameters]


def _tooltip(parameter):
    """The parameter's help with its range, e.g. "Length of the strip. Range: [1.0, 50.0]."."""
    if parameter.kind == "choice" or (parameter.low is None and parameter.high is None):
        return parameter.help
    low = "-inf" if parameter.low is None else parameter.low
    high = "inf" if parameter.high is None else parameter.high
    return f"{parameter.help} Range: [{low}, {high}]."


def read_parameter_values(owner, parameters, control_ids, values):
    """The values of ``owner``'s parameter controls, keyed by parameter name.

    Parameters
    ----------
    owner : str
        Current data set or algorithm; controls of another owner (still mounted while the page
        swaps them) are ignored.
    parameters : sequence of measures.Parameter
        The owner's declared parameters.
    control_ids, values : list
        Ids and values of all mounted parameter controls (a callback's ``ALL`` pattern).

    Returns
    -------
    dict
        Name to value; a checklist's list becomes a bool, an emptied number box ``None`` (the
        default). Validation is left to the library, which names the bound.
    """
    kinds = {p.name: p.kind for p in parameters}
    read = {}
    for control_id, value in zip(control_ids, values):
        name = control_id.get("index")
        if control_id.get("owner") == owner and isinstance(name, str) and name in kinds:
            read[name] = bool(value) if kinds[name] == "bool" else value
    return read
