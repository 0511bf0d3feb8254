"""Controls come from registry metadata and are read back for the current owner only."""

import algorithms
import datasets
from components import ids
from components.controls import parameter_controls, read_parameter_values
from measures import Parameter


def test_every_declared_parameter_gets_a_control_with_its_default_and_range():
    entry = datasets.spec("strip")
    controls = parameter_controls(entry.parameters, lambda name: ids.dataset_param("strip", name))
    assert [c.children[1].id["index"] for c in controls] == [p.name for p in entry.parameters]
    for control, parameter in zip(controls, entry.parameters):
        label, box = control.children
        assert box.value == parameter.default
        # The range is stated, not enforced by the browser (which would drop a bad value silently).
        assert getattr(box, "min", None) is None and getattr(box, "max", None) is None
        assert label.title.endswith(f"Range: [{parameter.low}, {parameter.high}].")


def test_choice_parameters_become_dropdowns_with_their_choices():
    entry = algorithms.spec("ltsa")
    (control,) = parameter_controls(entry.parameters, lambda name: ids.algorithm_param("ltsa", name))
    dropdown = control.children[1]
    assert [o["value"] for o in dropdown.options] == list(entry.parameters[0].choices)


def test_reading_ignores_other_owners_and_converts_checklists():
    parameters = (Parameter("length", "L", "float", 6.0), Parameter("closed", "closed", "bool", False))
    control_ids = [ids.dataset_param("strip", "length"), ids.dataset_param("cylinder", "radius"),
                   ids.dataset_param("strip", "closed")]
    assert read_parameter_values("strip", parameters, control_ids, [9.0, 2.0, [True]]) == {
        "length": 9.0, "closed": True}
    assert read_parameter_values("cylinder", parameters, control_ids, [9.0, 2.0, []]) == {}
