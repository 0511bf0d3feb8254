"""The page: header, the view state's stores, the control panel and one tab per study."""

import secrets
import uuid

from dash import dcc, html

from lab import ViewState

from . import ids
from .compare import compare_tab
from .explore import explore_tab
from .help import help_panel
from .normalization import normalization_tab
from .notebook_link import link_pieces
from .pairs import pairs_tab
from .panel import control_panel
from .state_sync import controls_from_state
from .sweep import sweep_tab
from .tours import header_controls, tour_box, tour_figures

__all__ = ["make_layout"]


def make_layout(start=None, *, answering=False):
    """The whole page (a function, so each page load gets fresh components and tokens).

    Every control starts at the default view state; the URL's state is applied when the page loads.
    ``start`` (a notebook's page, :mod:`notebook`): ``{"session": ..., "upload": ...,
    "search": ...}``, the upload session, its chosen upload record and the link the page opens on;
    ``answering``: the page reports to and polls the notebook's kernel (:mod:`components.notebook_link`).
    """
    start = start or {}
    shown = controls_from_state(ViewState().validated())
    return html.Div([
        dcc.Location(id=ids.URL, refresh=False, **({"search": start["search"]} if "search" in start else {})),
        dcc.Store(id=ids.PAGE_TOKEN, data=uuid.uuid4().hex),
        # The upload namespace of this browser tab: server-issued, unguessable, kept in session storage
        # (a stored value wins over this new one), so a reload keeps the tab's files.
        dcc.Store(id=ids.SESSION, storage_type="session", data=start.get("session") or secrets.token_urlsafe(24)),
        dcc.Store(id=ids.VIEW_STATE),
        dcc.Store(id=ids.APPLY_STATE),
        dcc.Store(id=ids.NEIGHBOURS),
        dcc.Download(id=ids.DOWNLOAD),
        *(link_pieces() if answering else []),
        html.Header([html.H1("Procrustes Lab"),
                     html.Span("is this embedding faithful, or merely pretty? Local Procrustes measures "
                               "(Goldberg & Ritov 2009) on every point.", className="tagline"),
                     header_controls(shown)]),
        html.Div(id=ids.STATE_MESSAGE, role="status"),
        html.Div([
            control_panel(shown, start.get("upload")),
            tour_box(),
            tour_figures(),
            html.Main(dcc.Tabs(id=ids.TABS, value=shown["controls"]["tab"], children=[
                dcc.Tab(explore_tab(), label="Explore", value="explore"),
                dcc.Tab(sweep_tab(shown), label="Sweep k", value="sweep"),
                dcc.Tab(compare_tab(shown), label="Compare", value="compare"),
                dcc.Tab(normalization_tab(shown), label="Normalization", value="normalization"),
                dcc.Tab(help_panel(), label="Help", value="help"),
                dcc.Tab(pairs_tab(shown, start.get("upload")), label="Two runs", value=ids.TAB_PAIRS),
            ]), className="main"),
        ], className="body"),
    ])
