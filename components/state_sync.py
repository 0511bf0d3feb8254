"""The page's controls and the view state, kept in step by one callback.

Every control is listed once in :data:`CONTROLS`, with how it shows a :class:`lab.ViewState` value
and how its value reads back. :func:`sync` is the one callback between them: a link (the URL), a
whole state handed over in :data:`ids.APPLY_STATE` (a preset, a saved file, a cancelled run's
predecessor), or a change of data set sets *every* control from the new state, and so does choosing
a step in the tours' index (the step's state, the presentation mode kept); a change of algorithm sets
the controls whose value it changes and the algorithm's panel (a switch answered with every control
rebuilt the data set's panel before the views were asked for); any other control change is read into
the state. The validated state goes to :data:`ids.VIEW_STATE`
(which starts the run) and to the address bar. A state that does not validate is refused with its
message and nothing runs.
"""

import dataclasses
import typing

from dash import ALL, Input, Output, State, ctx, no_update

import algorithms
import datasets
from lab import StateError, UploadRef, ViewState, from_query, to_query
from lab.compute import catalogue
from lab.tours.presets import applied
from lab.view.state import PARTS, check_tour_step

from . import ids
from .controls import parameter_controls, read_parameter_values

__all__ = ["CONTROLS", "Control", "controls_from_state", "register", "state_from_controls", "sync"]


@dataclasses.dataclass(frozen=True)
class Control:
    """One control: where its value sits in the state and how it converts.

    Attributes
    ----------
    component : str
        Its id in :mod:`components.ids`.
    read : callable
        ``read(state) -> value`` the control shows.
    write : callable
        ``write(value) -> (part, {field: value})``: the state's part and fields the value sets
        (``part`` None for the tab).
    """

    component: str
    read: typing.Callable
    write: typing.Callable


def _field(part, field, show=lambda value: value, parse=lambda value: value):
    """A control showing one field of one part of the state."""
    if part is None:
        return lambda state: show(getattr(state, field)), lambda value: (None, {field: parse(value)})
    return (lambda state: show(getattr(getattr(state, part), field)),
            lambda value: (part, {field: parse(value)}))


def _control(component, part, field, show=lambda value: value, parse=lambda value: value):
    return Control(component, *_field(part, field, show, parse))


def _checked(value, field):
    """The checked options of a checklist (None: none); any other value is refused, naming the field."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise StateError([f"{field} must be a list of checked options; got {type(value).__name__}."])
    return tuple(value)


def _flag(component, part, field, option):
    """A one-box checklist showing a boolean field: ``[option]`` when it is set."""
    return _control(component, part, field, lambda value: [option] if value else [],
                    lambda value: option in _checked(value, field))


def _choices(component, part, field):
    """A multi-choice control showing a tuple field as a list."""
    return _control(component, part, field, list, lambda value: _checked(value, field))


def _k_range(value):
    low, high = (list(value) + [None, None])[:2] if isinstance(value, (list, tuple)) else (value, value)
    return "sweep", {"k_min": low, "k_max": high}


CONTROLS = {
    "dataset": _control(ids.DATASET, "data", "dataset"),
    "n": _control(ids.DATASET_SIZE, "data", "n"),
    "noise": _control(ids.DATASET_NOISE, "data", "noise"),
    "random_state": _control(ids.DATASET_RANDOM_STATE, "data", "random_state"),
    "algorithm": _control(ids.ALGORITHM, "method", "algorithm"),
    "n_neighbors": _control(ids.ALGORITHM_NEIGHBORS, "method", "n_neighbors"),
    "post_refinement": _control(ids.ALGORITHM_POST_REFINEMENT, "method", "post_refinement"),
    "rescale": _control(ids.ALGORITHM_RESCALE, "method", "rescale"),
    "color": _control(ids.COLOR_BY, "display", "color"),
    "find": _control(ids.FIND, "display", "find", parse=lambda value: "" if value is None else value),
    "input_view": _control(ids.INPUT_VIEW, "display", "input_view"),
    "landmarks": _flag(ids.SHOW_LANDMARKS, "display", "landmarks", "show"),
    "figure_format": _control(ids.FIGURE_FORMAT, "display", "figure_format"),
    "presentation": _flag(ids.PRESENTATION, "display", "presentation", "on"),
    "tour": _control(ids.TOUR_INDEX, None, "tour", lambda value: value or None, lambda value: value or ""),
    "tab": _control(ids.TABS, None, "tab"),
    "sweep_algorithms": _choices(ids.SWEEP_ALGORITHMS, "sweep", "algorithms"),
    "sweep_k_range": Control(ids.SWEEP_K_RANGE, lambda state: [state.sweep.k_min, state.sweep.k_max], _k_range),
    "sweep_k_step": _control(ids.SWEEP_K_STEP, "sweep", "k_step"),
    "sweep_measure": _control(ids.SWEEP_MEASURE, "sweep", "measure"),
    "sweep_log": _flag(ids.SWEEP_LOG, "sweep", "log_scale", "log"),
    "sweep_yardsticks": _flag(ids.SWEEP_YARDSTICKS, "sweep", "yardsticks", "yardsticks"),
    "compare_algorithms": _choices(ids.COMPARE_ALGORITHMS, "compare", "algorithms"),
    "compare_align": _flag(ids.COMPARE_ALIGN, "compare", "align", "align"),
    "normalization_shape": _control(ids.NORMALIZATION_SHAPE, "normalization", "shape"),
    "normalization_aspect": _control(ids.NORMALIZATION_ASPECT, "normalization", "aspect"),
    "normalization_n": _control(ids.NORMALIZATION_SIZE, "normalization", "n"),
    "normalization_n_neighbors": _control(ids.NORMALIZATION_NEIGHBORS, "normalization", "n_neighbors"),
    "normalization_algorithms": _choices(ids.NORMALIZATION_ALGORITHMS, "normalization", "algorithms"),
    # The pairs tab (run B and its views) and the stability study.
    "pair_algorithm": _control(ids.PAIR_ALGORITHM, "pair", "algorithm"),
    "pair_n_neighbors": _control(ids.PAIR_NEIGHBORS, "pair", "n_neighbors"),
    "pair_random_state": _control(ids.PAIR_RANDOM_STATE, "pair", "random_state"),
    "pair_color": _control(ids.PAIR_COLOR, "pair", "color"),
    "pair_segments": _flag(ids.PAIR_SEGMENTS, "pair", "segments", "show"),
    "stability_mode": _control(ids.STABILITY_MODE, "stability", "mode"),
    "stability_n_runs": _control(ids.STABILITY_RUNS, "stability", "n_runs"),
    "stability_fraction": _control(ids.STABILITY_FRACTION, "stability", "fraction"),
}
_DATASET_PARAMS = {"type": "dataset-param", "owner": ALL, "index": ALL}
_ALGORITHM_PARAMS = {"type": "algorithm-param", "owner": ALL, "index": ALL}


def upload_ref(upload):
    """The :class:`lab.UploadRef` of this session's chosen upload (the upload store's record), or None."""
    if not upload:
        return None
    fields = {field.name for field in dataclasses.fields(UploadRef)}
    return UploadRef.from_dict({key: value for key, value in upload.items() if key in fields})


def state_from_controls(values, dataset_params, algorithm_params, upload=None):
    """The (unvalidated) state the controls show.

    Parameters
    ----------
    values : dict
        Control name (a key of :data:`CONTROLS`) -> its value.
    dataset_params, algorithm_params : (list, list)
        Values and ids of the mounted parameter controls (``ALL`` patterns); only the chosen data
        set's and algorithm's are read.
    upload : dict, optional
        This session's chosen upload (the upload store), the data when the data set is ``upload``.
    """
    parts = {name: {} for name in PARTS}
    whole = {"tab": catalogue.TABS[0]}  # the state's own fields: the tab, the open tour step
    for name, control in CONTROLS.items():
        part, fields = control.write(values[name])
        if part is None:
            whole.update(fields)
        else:
            parts[part].update(fields)
    dataset, algorithm = parts["data"]["dataset"], parts["method"]["algorithm"]
    declared = () if dataset == catalogue.UPLOAD or dataset not in datasets.available() \
        else datasets.spec(dataset).parameters
    parts["data"]["params"] = tuple(read_parameter_values(dataset, declared, dataset_params[1],
                                                          dataset_params[0]).items())
    declared = algorithms.spec(algorithm).parameters if algorithm in algorithms.available() else ()
    parts["method"]["params"] = tuple(read_parameter_values(algorithm, declared, algorithm_params[1],
                                                            algorithm_params[0]).items())
    if dataset == catalogue.UPLOAD:
        parts["data"]["upload"] = upload_ref(upload)
    state = ViewState()
    return state.replace(**{name: dataclasses.replace(getattr(state, name), **fields)
                            for name, fields in parts.items()}, **whole)


def _dataset_panel(data, upload):
    """The data set's own controls, its description and its colourings."""
    if data.dataset == catalogue.UPLOAD:
        described = (f"Your file {upload['filename']}: {upload['n']} points in {upload['dim']} dimensions. The file "
                     "is the sample: n and noise do not apply, the random state seeds the algorithm."
                     if upload else "Upload a file first (Upload your own data, below).")
        labels = upload["truth_labels"] if upload else ("colour",)
        return [], described, labels
    entry = datasets.spec(data.dataset)
    controls = parameter_controls(entry.parameters, lambda name: ids.dataset_param(entry.name, name), data.kwargs)
    return controls, f"{entry.description} ({entry.citation})", entry.truth_labels


def _algorithm_panel(method, upload=None):
    if method.algorithm == catalogue.UPLOADED_OUTPUT:
        named = f" ({upload.output.describe()})" if upload is not None and upload.output is not None else ""
        return [], (f"Your uploaded output{named}, measured as it is (nothing is embedded); k sets the "
                    "neighbourhoods of every measure. Its scale is its method's own, neither isometric nor "
                    "normalized: read R_C (scale-free), or R_N after rescaling to the best global scale.")
    entry = algorithms.spec(method.algorithm)
    controls = parameter_controls(entry.parameters, lambda name: ids.algorithm_param(entry.name, name), method.kwargs)
    scale = algorithms.OUTPUT_SCALES[entry.output_scale]
    return controls, f"{entry.description} Output: {entry.output}, {scale}. ({entry.citation})"


def controls_from_state(state, upload=None):
    """Every control's value, the parameter controls, help texts and colour menu that show ``state``."""
    dataset_controls, dataset_help, truth_labels = _dataset_panel(state.data, upload)
    algorithm_controls, algorithm_help = _algorithm_panel(state.method, state.data.upload)
    return {
        "controls": {name: control.read(state) for name, control in CONTROLS.items()},
        "dataset_params": dataset_controls, "dataset_help": dataset_help,
        "algorithm_params": algorithm_controls, "algorithm_help": algorithm_help,
        "color_options": [{"label": label, "value": value} for value, label in catalogue.color_choices(truth_labels)],
        "pair_color_options": [{"label": label, "value": value}
                               for value, label in catalogue.pair_color_choices(truth_labels)],
    }


def _unchanged():
    """Outputs that leave every control as the user set it."""
    return {"controls": {name: no_update for name in CONTROLS}, **{key: no_update for key in (
        "dataset_params", "dataset_help", "algorithm_params", "algorithm_help", "color_options",
        "pair_color_options")}}


def sync(controls, dataset_params, dataset_param_ids, algorithm_params, algorithm_param_ids, search, apply, current,
         upload):
    """Keep the controls, the view state and the address bar in step (see the module docstring)."""
    trigger = ctx.triggered_id
    message, shown = "", None
    try:
        current_state = ViewState.from_dict(current) if current else None
    except StateError:  # not a state this callback wrote: every control is set from the new one
        current_state = None
    try:
        if trigger == ids.URL or trigger is None:
            shown = from_query(search, upload=upload_ref(upload))
        elif trigger == ids.APPLY_STATE:
            handed = apply if isinstance(apply, dict) else {}
            shown = ViewState.from_dict(handed.get("state"))
            message = handed.get("message") if isinstance(handed.get("message"), str) else ""
        else:
            read = state_from_controls(controls, (dataset_params, dataset_param_ids),
                                       (algorithm_params, algorithm_param_ids), upload)
            if trigger == ids.DATASET:
                shown = read.with_dataset(controls["dataset"], upload_ref(upload)).validated()
            elif trigger == ids.ALGORITHM:
                shown = read.with_algorithm(controls["algorithm"]).validated()
                if current_state is not None:
                    return _switched(shown, current_state, upload)
            elif trigger == ids.TOUR_INDEX and controls["tour"]:
                check_tour_step(controls["tour"])
                shown = applied(controls["tour"], read)
            else:
                state = read.validated()
                return {**_unchanged(), **_outputs(state, current_state, "", upload, set_controls=False)}
    except StateError as error:
        if trigger in (ids.URL, None, ids.APPLY_STATE):
            # A link or file that cannot be shown is refused whole: the page shows what it showed.
            fallback = current_state or ViewState().validated()
            return _outputs(fallback, None, f"Not applied: {error}", upload, set_controls=True, error=True)
        return {**_unchanged(), "state": no_update, "search": no_update, "message": str(error),
                "message_class": "message error"}
    return _outputs(shown, current_state, message, upload, set_controls=True)


def _switched(state, current, upload):
    """The outputs of another algorithm chosen over ``current``: only what changed. Every control's value, the
    data set's panel and the colour menus were sent again on each switch, and the renderer rebuilt the panel
    (its controls mounted anew and announced their values) before it asked for the views (issue 24)."""
    outputs = _outputs(state, current, "", upload, set_controls=True)
    outputs["controls"] = {name: no_update if value == CONTROLS[name].read(current) else value
                           for name, value in outputs["controls"].items()}
    if state.data == current.data:
        outputs.update({key: no_update for key in ("dataset_params", "dataset_help", "color_options",
                                                   "pair_color_options")})
    return outputs


def _outputs(state, current, message, upload, *, set_controls, error=False):
    """The callback's outputs for ``state``: controls (when set), the state store, the link, the message."""
    outputs = controls_from_state(state, upload) if set_controls else {}
    changed = current is None or state != current
    if not (changed or set_controls):  # a control re-announced its value (new parameter controls mounting)
        return {**outputs, **{key: no_update for key in ("state", "search", "message", "message_class")}}
    return {**outputs, "state": state.to_dict() if changed else no_update, "search": to_query(state),
            "message": message, "message_class": "message error" if error else ("message" if message else "")}


def register(app):
    """Wire :func:`sync`: nothing else sets the controls (the tours' index is one of them)."""
    app.callback(
        output=dict(
            controls={name: Output(control.component, "value") for name, control in CONTROLS.items()},
            dataset_params=Output(ids.DATASET_PARAMS, "children"),
            dataset_help=Output(ids.DATASET_HELP, "children"),
            algorithm_params=Output(ids.ALGORITHM_PARAMS, "children"),
            algorithm_help=Output(ids.ALGORITHM_HELP, "children"),
            color_options=Output(ids.COLOR_BY, "options"),
            pair_color_options=Output(ids.PAIR_COLOR, "options"),
            state=Output(ids.VIEW_STATE, "data"),
            search=Output(ids.URL, "search"),
            message=Output(ids.STATE_MESSAGE, "children"),
            message_class=Output(ids.STATE_MESSAGE, "className"),
        ),
        inputs=dict(
            controls={name: Input(control.component, "value") for name, control in CONTROLS.items()},
            dataset_params=Input(_DATASET_PARAMS, "value"),
            dataset_param_ids=State(_DATASET_PARAMS, "id"),
            algorithm_params=Input(_ALGORITHM_PARAMS, "value"),
            algorithm_param_ids=State(_ALGORITHM_PARAMS, "id"),
            search=Input(ids.URL, "search"),
            apply=Input(ids.APPLY_STATE, "data"),
            current=State(ids.VIEW_STATE, "data"),
            upload=State(ids.UPLOAD_STORE, "data"),
        ),
    )(sync)
